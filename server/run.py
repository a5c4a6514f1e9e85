"""`rk server`: start the HTTP server on a store, print the links, serve
until Ctrl-C or SIGTERM.

The socket is bound and listening before the links are printed, so a
link is good the moment it is shown (a request waits in the backlog while
uvicorn starts). Which port: ``server.port_memory`` (the one used last on
this home, so links outlive a restart). Silent and idle connections are
bounded: ``server.connections``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
import os
import socket
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from domain.kernel.errors import NotFound
from domain.kernel.games import GameApp
from domain.kernel.stores.store_setting import home, masked

from .connections import ConnectionLimits, connection_cap, guarded_protocol, raise_file_limit
from .home_files import read_trusted, write_private
from .log_throttle import RepeatThrottle
from .passes import Keyring, load_secret
from .port_memory import BACKLOG, listen, remember, remembered, wanted_port
from .store_down import is_store_error, reason_of

DEFAULT_HOST = "127.0.0.1"
# The loggers whose repeated lines are said once per interval with a count:
# asyncio's (a failing accept), uvicorn's and ours.
THROTTLED = ("asyncio", "uvicorn", "uvicorn.error", "rulekeeper.server")
ADDRESS_FILE = "server.json"  # in the home: where the running server listens, for `rk links`


def address_file() -> Path:
    """``$RULEKEEPER_HOME/server.json``: the address of the server running
    on this home, written once it listens, removed when it stops."""
    return Path(home()) / ADDRESS_FILE


def running_base(warn: Callable[[str], None] | None = None) -> str | None:
    """The address of the server started last on this home, if it still
    runs. The file is trusted only if it is this user's and no one else may
    write it (``server.home_files``); ``warn`` is told why one is passed over."""
    data = read_trusted(address_file(), warn)
    if data is None:
        return None
    try:
        os.kill(int(data["pid"]), 0)
        return str(data["base"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


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
    seats = tuple(
        (s.key, s.name, table + keyring.seat(battle_id, s.key)) for s in rs.seats(app.battle(battle_id).state)
    )
    return Links(host, battle_id, seats, table + keyring.spectator(battle_id))


def _current(app: GameApp) -> str | None:
    from domain.kernel.stores.current_battle import current

    try:
        return current(app)
    except NotFound:
        return None


def _warn(text: str) -> None:
    sys.stderr.write(f"rk server: {text}\n")


def serve(
    store: str | None,
    host: str,
    port: int | None,
    game: str | None,
    workers: int | None,
    public: str | None,
    say: Callable[[str], None] = print,
    limits: ConnectionLimits = ConnectionLimits(),
) -> int:
    """Run the server until a signal; 0 once stopped cleanly. ``port`` None
    or 0 takes the port this home remembers (``server.port_memory``)."""
    import uvicorn

    from .app import create_app
    from .stopping import CleanStopServer

    try:
        keyring = Keyring(load_secret())
    except OSError as e:  # a home it may not write: one line, as every refusal
        sys.stderr.write(f"rk server: cannot keep the server's secret in {home()}: {e.strerror or e}\n")
        return 1
    memory = remembered(warn=_warn)
    try:
        listener = listen(host, port, memory)
    except OSError as e:
        sys.stderr.write(f"rk server: cannot listen on {host}:{wanted_port(port, memory)}: {e.strerror or e}\n")
        return 1
    sock = listener.sock
    if listener.note:
        sys.stderr.write(f"rk server: {listener.note}\n")
    if host in ("0.0.0.0", "::") and not public:
        shown = socket.gethostname()  # every interface: name the machine, not 0.0.0.0 (--public-url to choose)
    else:
        shown = f"[{host}]" if ":" in host else host
    base = (public or f"http://{shown}:{listener.port}").rstrip("/")
    app = create_app(store, keyring, workers=workers)
    try:
        with GameApp(store=store) as reader:
            lines = links(reader, keyring, base, game).lines()
    except NotFound as e:
        sys.stderr.write(f"rk server: {e}\n")
        return 1
    except (ValueError, OSError) as e:  # a setting of no known form, or a bound of the store misspelt
        sock.close()
        sys.stderr.write(f"rk server: {reason_of(e, store)}\n")
        return 1
    except Exception as e:
        if not is_store_error(e):
            raise
        # Unreachable, or one it can only read: a server writes, so it does not start.
        sock.close()
        named = masked(store) if store else "the default store"
        sys.stderr.write(f"rk server: cannot serve {named}: {reason_of(e, store)}\n")
        return 1
    # Kept before the links are shown: a server stopped as soon as it has
    # shown them still leaves their port for the next start.
    remember(listener.port, base)
    where = address_file()
    with contextlib.suppress(OSError):
        write_private(where, {"base": base, "pid": os.getpid()})
    say(f"rulekeeper server on {base}")
    for line in lines:
        say(line)
    say(f"settle a dispute over a log (anyone, no token): {base}/dispute")
    say("Stop it with Ctrl-C.")
    sys.stdout.flush()
    cap = connection_cap(limits.max_connections, raise_file_limit())
    limits = dataclasses.replace(limits, max_connections=cap)
    config = uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,
        lifespan="on",
        timeout_graceful_shutdown=2,
        http=guarded_protocol(limits),
        timeout_keep_alive=limits.keep_alive,  # type: ignore[arg-type]
        backlog=BACKLOG,
    )  # also how many accepts asyncio tries per turn of the loop
    logging.getLogger("rulekeeper.server").setLevel(logging.INFO)
    throttle = RepeatThrottle()
    throttle.install(THROTTLED)  # after uvicorn.Config, which sets its loggers up
    try:
        CleanStopServer(config, every_second=throttle.flush).run(sockets=[sock])
    finally:
        throttle.flush(everything=True)
        with contextlib.suppress(OSError, ValueError, KeyError):
            if json.loads(where.read_text())["pid"] == os.getpid():
                where.unlink()
    return 0
