"""`rk server`: start the HTTP server on a store, print the links, serve
until Ctrl-C or SIGTERM.

The socket is bound and listening before the links are printed, so a
link is good the moment it is shown (a request waits in the backlog while
uvicorn starts). ``--port 0`` takes a free port; the links say which.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import socket
import stat
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from domain.kernel.errors import NotFound
from domain.kernel.games import GameApp
from domain.kernel.stores.store_setting import home, masked

from .passes import Keyring, load_secret
from .store_down import is_store_error, reason_of

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8700
ADDRESS_FILE = "server.json"  # in the home: where the running server listens, for `rk links`


def address_file() -> Path:
    """``$RULEKEEPER_HOME/server.json``: the address of the server running
    on this home, written once it listens, removed when it stops."""
    return Path(home()) / ADDRESS_FILE


def running_base(warn: Callable[[str], None] | None = None) -> str | None:
    """The address of the server started last on this home, if it still
    runs. The file is trusted as the socket of `rk serve` is: only if it is
    this user's and no one else may write it (a ``server.json`` planted in
    a shared home would send the host's token to another machine); ``warn``
    is told why one is passed over."""
    path = address_file()
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None  # none, or a symbolic link (O_NOFOLLOW): nothing to trust
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o022:
            if warn is not None:
                warn(f"{path} is not a file of this user's that only this user may write: "
                     "its address is not trusted")
            return None
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = json.loads(f.read(4096))
        os.kill(int(data["pid"]), 0)
        return str(data["base"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    finally:
        os.close(fd)


@dataclass(frozen=True)
class Links:
    """The links to hand out: the host's, and for one game each seat's
    (key, name, link) and the spectators'."""

    host: str
    game: str | None = None
    seats: tuple[tuple[str, str, str], ...] = ()
    spectators: str | None = None

    def lines(self) -> list[str]:
        """As `rk server` and `rk links` print them."""
        out = [f"host (every game, keep it to yourself): {self.host}"]
        if self.game is None:
            out.append("no game yet: the host's page sets one up (or `rk new` in another terminal)")
            return out
        width = max([len(name) for _, name, _ in self.seats] + [len("spectators")])
        out.append(f"{self.game}:")
        out += [f"  {name:<{width}}  {link}" for _, name, link in self.seats]
        out.append(f"  {'spectators':<{width}}  {self.spectators}")
        return out

    def of(self, who: str) -> str:
        """The one link of ``who``: a seat (by name or key, any case),
        ``spectators`` or ``host``; NotFound for anyone else."""
        wanted = who.strip().lower()
        if wanted == "host":
            return self.host
        if wanted in ("spectator", "spectators") and self.spectators:
            return self.spectators
        for key, name, link in self.seats:
            if wanted in (key.lower(), name.lower()):
                return link
        known = ", ".join([name for _, name, _ in self.seats] + ["spectators", "host"])
        raise NotFound(f"no seat {who!r} at {self.game or 'this table'}: one of {known}")


def links(app: GameApp, keyring: Keyring, base: str, game: str | None) -> Links:
    """The links of game ``game`` (by id or name; default: the current
    battle, if there is one), for a server at ``base``."""
    # The token after '#': a browser never sends it to a server (nor in a Referer).
    host = f"{base}/#token={keyring.host()}"
    battle_id = app.find_battle(game).battle_id if game else _current(app)
    if battle_id is None:
        return Links(host)
    rs = app.ruleset(battle_id)
    table = f"{base}/table/{battle_id}#token="
    seats = tuple((s.key, s.name, table + keyring.seat(battle_id, s.key))
                  for s in rs.seats(app.battle(battle_id).state))
    return Links(host, battle_id, seats, table + keyring.spectator(battle_id))


def _current(app: GameApp) -> str | None:
    from cli.current import current

    try:
        return current(app)
    except NotFound:
        return None


def _write_private(path: Path, data: bytes) -> None:
    """``data`` into ``path``, made anew (mode 0600) under a temporary name
    and renamed into place: never written through a link someone left."""
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".server-json-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def serve(store: str | None, host: str, port: int, game: str | None, workers: int | None,
          public: str | None, say: Callable[[str], None] = print) -> int:
    """Run the server until a signal; 0 once stopped cleanly."""
    import uvicorn

    from .app import create_app
    from .stopping import CleanStopServer

    try:
        keyring = Keyring(load_secret())
    except OSError as e:  # a home it may not write: one line, as every refusal
        sys.stderr.write(f"rk server: cannot keep the server's secret in {home()}: {e.strerror or e}\n")
        return 1
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP named, not left 0: asyncio turns Nagle's algorithm off only
    # on sockets that say they are TCP, and with it on every answer on a kept-alive
    # connection waits ~40 ms for the client's delayed ACK (headers, then body).
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as e:
        sys.stderr.write(f"rk server: cannot listen on {host}:{port}: {e.strerror}\n")
        return 1
    sock.listen(128)
    bound = sock.getsockname()[1]
    if host in ("0.0.0.0", "::") and not public:
        shown = socket.gethostname()  # every interface: name the machine, not 0.0.0.0 (--public-url to choose)
    else:
        shown = f"[{host}]" if family == socket.AF_INET6 else host
    base = (public or f"http://{shown}:{bound}").rstrip("/")
    app = create_app(store, keyring, workers=workers)
    try:
        with GameApp(store=store) as reader:
            lines = links(reader, keyring, base, game).lines()
    except NotFound as e:
        sys.stderr.write(f"rk server: {e}\n")
        return 1
    except (ValueError, OSError) as e:  # a setting of no known form, or a bound of the store misspelt
        sys.stderr.write(f"rk server: {reason_of(e, store)}\n")
        return 1
    except Exception as e:
        if not is_store_error(e):
            raise
        # Unreachable, or one it can only read: a server writes, so it does not start.
        where = masked(store) if store else "the default store"
        sys.stderr.write(f"rk server: cannot serve {where}: {reason_of(e, store)}\n")
        return 1
    say(f"rulekeeper server on {base}")
    for line in lines:
        say(line)
    say("Stop it with Ctrl-C.")
    sys.stdout.flush()
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on", timeout_graceful_shutdown=2)
    logging.getLogger("rulekeeper.server").setLevel(logging.INFO)
    where = address_file()
    with contextlib.suppress(OSError):
        _write_private(where, json.dumps({"base": base, "pid": os.getpid()}).encode())
    try:
        CleanStopServer(config).run(sockets=[sock])
    finally:
        with contextlib.suppress(OSError, ValueError, KeyError):
            if json.loads(where.read_text())["pid"] == os.getpid():
                where.unlink()
    return 0
