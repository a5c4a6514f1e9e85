"""`rk serve`: one resident process for one store, so that each `rk`
command costs a couple of milliseconds instead of a process's imports.

The server listens on ``cli.protocol.socket_path()`` (in a directory private
to this user) and answers one request per connection. Each connection is
read in a thread of its own, with a total deadline, so a slow or silent
client holds no one else; commands run one at a time (they share the
process's directory and streams), and a request that cannot start within
``QUEUE_WAIT`` seconds, because another command is still running, is
declined, so its client runs it in-process instead of waiting. Each
request runs through ``cli.main.main``, the same typer app and exit statuses
as ``rk`` in-process, with the client's directory, terminal width and colour,
and the stdout and stderr captured for the reply. The application stays
open between requests, as in ``rk play``.

A command has ``deadline`` seconds (``--deadline``, ``$RULEKEEPER_SERVE_DEADLINE``,
30 s; ten times that for a command over a whole log) before its client is
answered "the store did not answer within N s" with status 1: a PostgreSQL
whose processes are stopped leaves a query on an open connection waiting
for ever (its host still acknowledges every packet, so no TCP bound fires,
and it enforces none of its own timeouts). The command's thread is left to
finish when the store answers (it cannot be stopped safely: it holds the
process's streams and directory); until it has, requests are declined, so
each client runs its command in a process of its own, with a connection of
its own, bounded by the connect timeout.

Start and stop leave nothing to chance: one server runs per home (it holds
an flock on ``rk.lock`` beside the socket); the socket file appears only
once it listens, and the ready line ("listening on ...") is printed once
SIGINT and SIGTERM are caught; either signal, whenever it comes, stops the
server cleanly with status 0 (``StopSignals``).
"""

from __future__ import annotations

import fcntl
import io
import json
import os
import select
import signal
import socket
import stat
import sys
import threading
import time
import traceback
from collections.abc import Callable
from contextlib import contextmanager
from typing import Any

from domain.kernel.errors import MalformedCommand
from domain.kernel.stores.store import default_store_path
from domain.kernel.stores.store_setting import STORE_VARIABLE, canonical_store, masked

from .protocol import command_of, in_process, socket_path, store_option
from .session import Defaults, _store_failed

READ_TIMEOUT = 5.0  # seconds a client may take to send its whole request
SEND_TIMEOUT = 30.0  # ...and to take the answer, so that no client can hang the server
QUEUE_WAIT = 2.0  # seconds a request may wait for the command before it to finish
STOP_WAIT = 30.0  # seconds SIGTERM waits for a command under way
DEADLINE = 30.0  # seconds a command may run before its client is told the store did not answer
DEADLINE_VARIABLE = "RULEKEEPER_SERVE_DEADLINE"
# Commands over a whole log (a 100,000-event verify takes a while): ten times the deadline.
WHOLE_LOG = frozenset({"log", "export", "import", "verify", "audit"})
WHOLE_LOG_FACTOR = 10
MAX_CLIENTS = 64  # connections handled at once; more are closed unanswered
MAX_REQUEST = 1 << 20
MAX_WIDTH = 10_000
LOCK_NAME = "rk.lock"  # beside the socket: held by the one server of a home
# Environment read by rich (and typer's help) when rendering, set per request.
RENDER_ENV = ("COLUMNS", "FORCE_COLOR", "NO_COLOR", "TTY_COMPATIBLE")


# Imported at start-up, so the first command does not pay for them.
def _warm_handlers() -> None:
    """Import the modules a command's handler lives in before the first
    request, so no client waits for them."""
    from . import document, game, history, portable, verbs, views  # noqa: F401


def serve(store: str | None, main: Callable[..., int], deadline: float = DEADLINE) -> int:
    """Serve ``store`` (a store setting; None for ``$RULEKEEPER_STORE``, else
    the default SQLite file) until SIGINT or SIGTERM, running each request's
    command line with ``main`` (``cli.main.main``, handed over by `rk serve`:
    this module never imports ``cli.main``, which imports it), each within
    ``deadline`` seconds (see the module's docstring).

    Returns the exit status: 0 once stopped by either signal, whenever it
    comes after this is called (while the store opens too); 1 if another
    server already runs for this home or the store cannot be opened."""
    setting = store if store is not None else os.environ.get(STORE_VARIABLE) or ""
    server = Server(canonical_store(setting, os.getcwd()), socket_path(), main, deadline)
    with StopSignals() as stop:
        try:
            server.open()
        except Exception as e:
            server.close()
            if not (isinstance(e, (MalformedCommand, OSError)) or _store_failed(e)):
                raise  # a bug: show the traceback
            print(f"rk serve: {e}", file=sys.stderr)
            return 1
        server.loop(stop, f"rk serve: listening on {server.path} for store {server.describe()}")
    return 0


def _load_rulesets() -> None:
    """Every ruleset's rules and surface, so that no command pays for them."""
    from domain.kernel.ruleset import all_rulesets
    from domain.kernel.surface import surfaces

    all_rulesets()
    surfaces()


class StopSignals:
    """SIGINT and SIGTERM, caught while this context is entered. A signal
    raises nothing in the code it interrupts: its number is written to a
    socket (``signal.set_wakeup_fd``, whichever thread the signal reaches)
    that ``Server.loop`` waits on beside the listening socket, so a stop is
    seen the same way whenever it comes: during start-up, while the ready
    line is printed, or while a command runs."""

    SIGNALS = (signal.SIGINT, signal.SIGTERM)

    def __enter__(self) -> StopSignals:
        self.wake, self._rung = socket.socketpair()
        self.wake.setblocking(False)
        self._rung.setblocking(False)
        self._requested = False
        self._old_fd = signal.set_wakeup_fd(self._rung.fileno(), warn_on_full_buffer=False)
        # A Python-level handler is what makes the C handler write to the fd.
        self._old = {sig: signal.signal(sig, _note_signal) for sig in self.SIGNALS}
        return self

    def __exit__(self, *exc) -> None:
        for sig, handler in self._old.items():
            signal.signal(sig, handler)
        signal.set_wakeup_fd(self._old_fd)
        self.wake.close()
        self._rung.close()

    def requested(self) -> bool:
        """Whether a stop signal has come (it stays requested once it has)."""
        try:
            while not self._requested:
                numbers = self.wake.recv(64)
                if not numbers:
                    break
                self._requested = any(n in self.SIGNALS for n in numbers)
        except BlockingIOError:
            pass
        return self._requested


def _note_signal(signum, frame) -> None:
    """The Python side of a stop signal: nothing to do, ``StopSignals.wake``
    has it already."""


class Server:
    """A listening socket and the open application of one store."""

    def __init__(self, store: str, path: str, main: Callable[..., int], deadline: float = DEADLINE) -> None:
        self.store = store  # canonical (see domain.kernel.stores.store.canonical_store); "" is the default file
        self.path = path
        self.main = main  # runs one command line: cli.main.main
        self.deadline = deadline
        self._late: threading.Thread | None = None  # a command answered at its deadline, still running
        self.defaults = Defaults(store=store or None, keep_open=True)
        self.sock: socket.socket | None = None
        self._inode: int | None = None
        self._lock: int | None = None  # the descriptor holding the home's server lock
        self._stopping = False
        self._running = threading.Lock()  # held while a command runs
        self._clients = threading.BoundedSemaphore(MAX_CLIENTS)
        self._threads: set[threading.Thread] = set()

    def describe(self) -> str:
        return masked(self.store) if self.store else f"sqlite:{default_store_path()} (the default)"

    def open(self) -> None:
        """Open the store, then claim the socket: the home's server lock
        first (refusing while another server holds it), then the socket,
        which appears at ``path`` only once it listens."""
        self._app()  # a bad store fails here, before anyone is told to connect
        _warm_handlers()
        _load_rulesets()
        folder = os.path.dirname(self.path)
        _private_dir(folder)
        self._lock = _claim(os.path.join(folder, LOCK_NAME), self.path)
        _remove_stale(self.path)
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        # Bound under a name of its own, then renamed into place: a client (or
        # a script waiting for the file) never finds a socket not yet listening.
        unready = f"{self.path}.{os.getpid()}"
        old = os.umask(0o177)  # the socket file is created 0600: only this user may send commands
        try:
            self.sock.bind(unready)
        finally:
            os.umask(old)
        try:
            self.sock.listen(16)
            self.sock.setblocking(False)  # accept() only after select(): never blocks the loop
            os.rename(unready, self.path)
        except OSError:
            os.unlink(unready)
            raise
        self._inode = os.stat(self.path).st_ino

    def loop(self, stop: StopSignals, ready: str) -> None:
        """Say ``ready`` (unless a stop came first), then answer requests
        until ``stop`` is requested, then clean up (a command under way is
        finished and answered first, for up to ``STOP_WAIT`` seconds)."""
        if not stop.requested():
            print(ready, flush=True)
        sock = self.sock
        assert sock is not None, "listen() first"
        try:
            while not stop.requested():
                readable, _, _ = select.select([sock, stop.wake], [], [])
                if sock not in readable:
                    continue  # a signal: requested() says which
                try:
                    conn, _ = sock.accept()
                except BlockingIOError:  # the client gave up between select and accept
                    continue
                if not self._clients.acquire(blocking=False):
                    conn.close()  # too many at once: the client runs the command itself
                    continue
                worker = threading.Thread(target=self._serve_one, args=(conn,), daemon=True)
                self._threads.add(worker)
                worker.start()
        finally:
            self._stopping = True  # a request still waiting for the command is declined
            if self.sock is not None:
                self.sock.close()  # no new clients while finishing
            # Wait for a command under way (later ones are declined), then
            # give the answers a moment to go out. One already answered at
            # its deadline waits for a store that may never answer: not for it.
            if not self._still_late():
                self._running.acquire(timeout=STOP_WAIT)
            deadline = time.monotonic() + 5.0
            for worker in list(self._threads):
                worker.join(timeout=max(0.0, deadline - time.monotonic()))
            self.close()

    def _serve_one(self, conn: socket.socket) -> None:
        try:
            with conn:
                self.handle(conn)
        except OSError:  # the client went away or was too slow; nothing to tell it
            pass
        finally:
            self._threads.discard(threading.current_thread())
            self._clients.release()

    def close(self) -> None:
        """Close the socket, remove its file if it is still ours, close the
        store, and let another server start."""
        if self.sock is not None:
            self.sock.close()
            self.sock = None
        try:
            if self._inode is not None and os.stat(self.path).st_ino == self._inode:
                os.unlink(self.path)
        except FileNotFoundError:
            pass
        self.defaults.close()
        if self._lock is not None:
            os.close(self._lock)  # releases the flock
            self._lock = None

    def handle(self, conn: socket.socket) -> None:
        """Read one request from ``conn`` (within ``READ_TIMEOUT`` seconds in
        all) and send its answer."""
        deadline = time.monotonic() + READ_TIMEOUT
        data = b""
        while b"\n" not in data and len(data) < MAX_REQUEST:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("request not received in time")
            conn.settimeout(left)
            chunk = conn.recv(65536)
            if not chunk:
                break
            data += chunk
        try:
            request = json.loads(data.split(b"\n", 1)[0])
        except ValueError:
            request = None
        reply = self.answer(request, conn)
        conn.settimeout(SEND_TIMEOUT)
        conn.sendall(json.dumps(reply).encode() + b"\n")

    def answer(self, request: Any, conn: socket.socket | None = None) -> dict[str, Any]:
        """The reply to one request: the command's output and exit status,
        a one-line error for a malformed request, or ``{"decline": reason}``
        for the client to run it itself. When the command starts, ``{"started":
        true}`` is sent on ``conn`` first."""
        reason = _invalid(request)
        if reason:
            return {"stdout": "", "stderr": f"rk serve: bad request: {reason}\n", "exit": 1}
        argv, cwd = request["argv"], request["cwd"]
        if in_process(argv):
            return {"decline": "this command runs in the client's process"}
        if masked(canonical_store(request["store"], cwd)) != masked(self.store):
            return {"decline": f"this server is for store {self.describe()}"}
        if not (os.path.isdir(cwd) and os.access(cwd, os.X_OK)):
            return {"decline": f"cannot work in {cwd}"}
        if self._still_late():
            return {"decline": "a command answered at its deadline still waits for the store"}
        if not self._running.acquire(timeout=QUEUE_WAIT):
            return {"decline": "the server is busy with another command"}
        if self._stopping:
            self._running.release()
            return {"decline": "the server is stopping"}
        try:
            if conn is not None:
                conn.settimeout(SEND_TIMEOUT)
                conn.sendall(b'{"started": true}\n')
        except BaseException:
            self._running.release()
            raise
        # From here the command's thread lets the command lock go, when it ends.
        command = _Command(lambda: self._client_run(request, argv), self._running.release)
        deadline = self.deadline * (WHOLE_LOG_FACTOR if command_of(argv) in WHOLE_LOG else 1)
        reply = command.result(deadline)
        if reply is None:
            self._late = command.thread
            if sys.__stderr__ is not None:
                print(
                    f"rk serve: `rk {' '.join(argv)}` answered at its deadline ({deadline:g} s): "
                    "the store did not answer",
                    file=sys.__stderr__,
                    flush=True,
                )
            return late(argv, deadline)
        return reply

    def _client_run(self, request: dict[str, Any], argv: list[str]) -> dict[str, Any]:
        with _as_client(request["cwd"], request["tty"], request["width"], request.get("columns")) as (out, err):
            code = self._run(_unmasked(argv, self.store))
        return {"stdout": _text(out), "stderr": _text(err), "exit": code}

    def _still_late(self) -> bool:
        """Whether a command answered at its deadline is still running."""
        return self._late is not None and self._late.is_alive()

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
            return self.main(argv, obj=self.defaults)
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


class _Command:
    """A command run on a thread of its own, so that its client can be
    answered at a deadline whether or not it has ended; ``finish`` is
    called when it ends, either way."""

    def __init__(self, run: Callable[[], dict[str, Any]], finish: Callable[[], None]) -> None:
        self._run, self._finish = run, finish
        self._done = threading.Event()
        self._reply: dict[str, Any] | None = None
        self._error: BaseException | None = None
        self.thread = threading.Thread(target=self._main, daemon=True, name="rk-command")
        self.thread.start()

    def _main(self) -> None:
        try:
            self._reply = self._run()
        except BaseException as e:  # answered by the waiting thread, which raises it
            self._error = e
        finally:
            self._finish()  # first: the next command may start as soon as this one is answered
            self._done.set()

    def result(self, deadline: float) -> dict[str, Any] | None:
        """The reply, or None if the command has not ended within ``deadline`` seconds."""
        if not self._done.wait(deadline):
            return None
        if self._error is not None:
            raise self._error
        return self._reply


def late(argv: list[str], deadline: float) -> dict[str, Any]:
    """The reply to a command not done within ``deadline`` seconds: one
    line, as a JSON object with ``--json``, and status 1."""
    message = f"the store did not answer within {deadline:g} s"
    options = argv[: argv.index("--")] if "--" in argv else argv
    if "--json" in options:
        from .output import to_json

        message = to_json({"error": "StoreUnavailable", "message": message}, indent=0)
    return {"stdout": "", "stderr": message + "\n", "exit": 1}


def _invalid(request: Any) -> str:
    """What is wrong with a request, or "" when nothing is."""
    if not isinstance(request, dict):
        return "not a JSON object on one line"
    types = {"argv": list, "cwd": str, "store": str, "tty": bool, "width": int}
    for key, kind in types.items():
        if not isinstance(request.get(key), kind) or (kind is int and isinstance(request[key], bool)):
            return f"a request needs {key!r} ({kind.__name__})"
    if not all(isinstance(a, str) for a in request["argv"]):
        return "argv must be strings"
    columns = request.get("columns")
    if not isinstance(columns, (str, type(None))):
        return "'columns' must be a string or null"
    texts = [*request["argv"], request["cwd"], request["store"], columns or ""]
    if any("\x00" in t for t in texts):
        return "a NUL byte in an argument"
    if columns is not None and not (columns.isascii() and columns.isdigit() and 0 < int(columns) <= MAX_WIDTH):
        return f"'columns' must be a number of columns from 1 to {MAX_WIDTH}"
    if not 0 < request["width"] <= MAX_WIDTH:
        return f"'width' must be from 1 to {MAX_WIDTH}"
    if not os.path.isabs(request["cwd"]):
        return "'cwd' must be an absolute path"
    return ""


def _unmasked(argv: list[str], store: str) -> list[str]:
    """``argv`` with a masked ``--store`` of our store replaced by our own
    setting (the client never sends a password)."""
    mine = masked(store)
    if mine == store:
        return argv
    out = []
    for i, arg in enumerate(argv):
        if i and argv[i - 1] == "--store" and arg == mine:
            arg = store
        elif arg == "--store=" + mine:
            arg = "--store=" + store
        out.append(arg)
    return out


def _private_dir(path: str) -> None:
    """Make ``path`` a directory of this user's that no one else may enter,
    or refuse (OSError) one that is not ours or not private."""
    os.makedirs(os.path.dirname(path) or ".", mode=0o700, exist_ok=True)  # the home, if new
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    info = os.lstat(path)
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
        raise OSError(f"{path} is not a directory of this user's: refusing to put the socket there")
    if info.st_mode & 0o077:
        os.chmod(path, 0o700)


def _claim(lock_path: str, socket_file: str) -> int:
    """Take the server lock of a home (an flock on ``lock_path``, held by the
    returned descriptor until it is closed, or by the kernel until the
    process dies), or refuse (OSError) while another server holds it."""
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise OSError(f"another rk serve is already listening on {socket_file}") from None
    return fd


def _remove_stale(path: str) -> None:
    """Remove the socket file of a server that died (only one that holds the
    lock calls this); refuse to remove anything that is not a socket."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    if not stat.S_ISSOCK(mode):
        raise OSError(f"{path} exists and is not a socket")
    os.unlink(path)


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
    out, err = (
        io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="surrogateescape", write_through=True) for _ in range(2)
    )
    for name in RENDER_ENV:
        os.environ.pop(name, None)
    if tty or columns is not None:
        os.environ["COLUMNS"] = str(width) if tty else str(columns)
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
    return stream.buffer.getvalue().decode("utf-8", "surrogateescape")  # type: ignore[attr-defined]  # a BytesIO
