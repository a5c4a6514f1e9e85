"""`rk serve`: one resident process for one store, so that each `rk`
command costs a couple of milliseconds instead of a process's imports.

The server listens on ``cli.client.socket_path()`` and answers one request
per connection, one at a time (the commands of a table come one after
another, and the event store guards against concurrent writers anyway). Each
request runs through ``cli.main.main``, the same typer app and exit statuses
as ``rk`` in-process, with the client's directory, terminal width and colour,
and the stdout and stderr captured for the reply. The application stays
open between requests, as in ``rk play``.
"""

from __future__ import annotations

import io
import json
import os
import signal
import socket
import stat
import sys
import traceback
from contextlib import contextmanager
from typing import Any

from domain.kernel.errors import MalformedCommand

from .client import (
    IN_PROCESS,
    STORE_VARIABLE,
    canonical_store,
    command_of,
    socket_path,
    store_option,
)
from .main import main
from .session import Defaults, _store_failed

READ_TIMEOUT = 10.0  # seconds a client may take to send its request
SEND_TIMEOUT = 30.0  # ...and to take the answer, so that no client can hang the server
MAX_REQUEST = 1 << 20
# Environment read by rich (and typer's help) when rendering, set per request.
RENDER_ENV = ("COLUMNS", "FORCE_COLOR", "NO_COLOR", "TTY_COMPATIBLE")
# Imported at start-up, so the first command does not pay for them.
HANDLERS = ("cli.game", "cli.betrayal", "cli.conquest", "cli.history", "cli.portable", "cli.views", "cli.content")


class _Stop(Exception):
    """SIGINT or SIGTERM while waiting for a client."""


def serve(store: str | None = None) -> int:
    """Serve ``store`` (a store setting; default ``$RULEKEEPER_STORE``, else
    the default SQLite file) until SIGINT or SIGTERM. Returns the exit status:
    1 if another server already answers on the socket or the store cannot be
    opened."""
    setting = store if store is not None else os.environ.get(STORE_VARIABLE) or ""
    server = Server(canonical_store(setting, os.getcwd()), socket_path())
    try:
        server.open()
    except Exception as e:
        server.close()
        if not (isinstance(e, (MalformedCommand, OSError)) or _store_failed(e)):
            raise  # a bug: show the traceback
        print(f"rk serve: {e}", file=sys.stderr)
        return 1
    server.loop(f"rk serve: listening on {server.path} for store {server.describe()}")
    return 0


class Server:
    """A listening socket and the open application of one store."""

    def __init__(self, store: str, path: str) -> None:
        self.store = store  # canonical (see cli.client.canonical_store); "" is the default file
        self.path = path
        self.defaults = Defaults(store=store or None, keep_open=True)
        self.sock: socket.socket | None = None
        self._inode: int | None = None
        self._busy = False
        self._stopping = False

    def describe(self) -> str:
        from domain.kernel.store import _masked, default_store_path

        return _masked(self.store) if self.store else f"sqlite:{default_store_path()} (the default)"

    def open(self) -> None:
        """Open the store, then claim the socket (refusing a live server's)."""
        from importlib import import_module

        self._app()  # a bad store fails here, before anyone is told to connect
        for module in HANDLERS:
            import_module(module)
        os.makedirs(os.path.dirname(self.path), mode=0o700, exist_ok=True)
        self._remove_stale()
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        old = os.umask(0o177)  # the socket file is created 0600: only this user may send commands
        try:
            self.sock.bind(self.path)
        finally:
            os.umask(old)
        self._inode = os.stat(self.path).st_ino
        self.sock.listen(16)

    def loop(self, ready: str) -> None:
        """Say ``ready`` once a stop signal would be handled, then answer
        requests until SIGINT or SIGTERM, then clean up."""
        handlers = {sig: signal.signal(sig, self._on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
        print(ready, flush=True)
        try:
            while not self._stopping:
                conn, _ = self.sock.accept()
                self._busy = True
                try:
                    with conn:
                        self.handle(conn)
                except OSError:  # the client went away; nothing to tell it
                    pass
                finally:
                    self._busy = False
        except _Stop:
            pass
        finally:
            for sig, handler in handlers.items():
                signal.signal(sig, handler)
            self.close()

    def _on_signal(self, signum, frame) -> None:
        # A command under way is finished (and answered) before stopping.
        self._stopping = True
        if not self._busy:
            raise _Stop

    def close(self) -> None:
        """Close the socket, remove its file if it is still ours, close the store."""
        if self.sock is not None:
            self.sock.close()
            self.sock = None
        try:
            if self._inode is not None and os.stat(self.path).st_ino == self._inode:
                os.unlink(self.path)
        except FileNotFoundError:
            pass
        self.defaults.close()

    def handle(self, conn: socket.socket) -> None:
        """Read one request from ``conn`` and send its answer."""
        conn.settimeout(READ_TIMEOUT)
        data = b""
        while b"\n" not in data and len(data) < MAX_REQUEST:
            chunk = conn.recv(65536)
            if not chunk:
                break
            data += chunk
        try:
            request = json.loads(data.split(b"\n", 1)[0])
        except ValueError:
            request = None
        reply = self.answer(request)
        conn.settimeout(SEND_TIMEOUT)
        conn.sendall(json.dumps(reply).encode() + b"\n")

    def answer(self, request: Any) -> dict[str, Any]:
        """The reply to one request: the command's output and exit status,
        or ``{"decline": reason}`` for the client to run it itself."""
        reason = _invalid(request)
        if reason:
            return {"decline": reason}
        argv, cwd = request["argv"], request["cwd"]
        if command_of(argv) in IN_PROCESS or "-" in argv:
            return {"decline": "this command runs in the client's process"}
        if canonical_store(request["store"], cwd) != self.store:
            return {"decline": f"this server is for store {self.describe()}"}
        if not (os.path.isdir(cwd) and os.access(cwd, os.X_OK)):
            return {"decline": f"cannot work in {cwd}"}
        with _as_client(cwd, request["tty"], request["width"], request.get("columns")) as (out, err):
            code = self._run(argv)
        return {"stdout": _text(out), "stderr": _text(err), "exit": code}

    def _run(self, argv: list[str]) -> int:
        app = self._app()
        # A --store naming our store another way (a relative path) must reach
        # the open application, not open a second one on a path relative to
        # whatever directory the process is in later.
        alias = store_option(argv)
        if alias is not None:
            self.defaults.apps[alias] = app
        failed = False
        try:
            return main(argv, obj=self.defaults)
        except SystemExit as e:
            code = e.code
            if isinstance(code, str):
                print(code, file=sys.stderr)
            return code if isinstance(code, int) else (0 if code is None else 1)
        except Exception as e:  # noqa: BLE001  a bug: the client sees the traceback, as in-process; we serve on
            failed = True
            traceback.print_exc()
            if sys.__stderr__ is not None:
                print(f"rk serve: `rk {' '.join(argv)}` failed: {e!r}", file=sys.__stderr__, flush=True)
            return 1
        finally:
            for key in [k for k in self.defaults.apps if k != self.defaults.store]:
                del self.defaults.apps[key]
            if failed:  # start the next command from a freshly opened store
                self.defaults.close()

    def _app(self):
        """The open application on our store (opened again after a failure)."""
        app = self.defaults.apps.get(self.defaults.store)
        if app is None:
            from domain.kernel.games import GameApp

            try:
                app = GameApp(store=self.defaults.store)
            except ValueError as e:  # an unknown form of store setting
                raise MalformedCommand(str(e)) from None
            self.defaults.apps[self.defaults.store] = app
        return app

    def _remove_stale(self) -> None:
        """Remove a socket file no server answers on; refuse a live one."""
        try:
            mode = os.lstat(self.path).st_mode
        except FileNotFoundError:
            return
        if not stat.S_ISSOCK(mode):
            raise OSError(f"{self.path} exists and is not a socket")
        probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        probe.settimeout(1.0)
        try:
            probe.connect(self.path)
        except ConnectionRefusedError:  # left by a server that died: take its place
            os.unlink(self.path)
            return
        finally:
            probe.close()
        raise OSError(f"another rk serve is already listening on {self.path}")


def _invalid(request: Any) -> str:
    """What is wrong with a request, or "" when nothing is."""
    if not isinstance(request, dict):
        return "not a request"
    types = {"argv": list, "cwd": str, "store": str, "tty": bool, "width": int}
    for key, kind in types.items():
        if not isinstance(request.get(key), kind):
            return f"a request needs {key!r} ({kind.__name__})"
    if not all(isinstance(a, str) for a in request["argv"]):
        return "argv must be strings"
    if not isinstance(request.get("columns"), (str, type(None))):
        return "'columns' must be a string or null"
    return ""


@contextmanager
def _as_client(cwd: str, tty: bool, width: int, columns: str | None = None):
    """Run as the client would: in its directory, stdout and stderr captured,
    rich rendering to its width, in colour only for a terminal. Yields the
    (stdout, stderr) streams that capture the output (read with ``_text``).

    ``width`` is what a rich console takes in the client (typer's help and
    errors); ``cli.output`` reads ``$COLUMNS`` itself, so it gets the
    client's (``columns``), or ``width`` for a terminal."""
    from typer import rich_utils  # help's consoles read FORCE_COLOR once, at import

    here = os.getcwd()
    os.chdir(cwd)  # first: if it fails, nothing else has changed yet
    saved_env = {name: os.environ.get(name) for name in RENDER_ENV}
    saved_streams = sys.stdin, sys.stdout, sys.stderr
    saved_force, saved_width = rich_utils.FORCE_TERMINAL, rich_utils.MAX_WIDTH
    # Bytes underneath: `rk export` writes to sys.stdout.buffer.
    out, err = (io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="surrogateescape", write_through=True)
                for _ in range(2))
    for name in RENDER_ENV:
        os.environ.pop(name, None)
    if tty or columns is not None:
        os.environ["COLUMNS"] = str(width) if tty else columns
    if tty:
        os.environ["FORCE_COLOR"] = "1"
    rich_utils.FORCE_TERMINAL = True if tty else None
    rich_utils.MAX_WIDTH = width
    sys.stdin, sys.stdout, sys.stderr = io.StringIO(), out, err  # never the server's own stdin
    try:
        yield out, err
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved_streams
        os.chdir(here)
        rich_utils.FORCE_TERMINAL, rich_utils.MAX_WIDTH = saved_force, saved_width
        for name, value in saved_env.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _text(stream: io.TextIOWrapper) -> str:
    """What was written to a capturing stream (any bytes survive, as surrogates)."""
    stream.flush()
    return stream.buffer.getvalue().decode("utf-8", "surrogateescape")
