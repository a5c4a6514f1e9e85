"""Which port `rk server` listens on, so that the links it hands out outlive
a restart.

- ``--port N`` (N > 0): port N, or a refusal if it cannot be had;
- no ``--port``: the port this home's server listened on last, else 8700;
- ``--port 0``: the port remembered, else any free one.

Without an explicit port, a port that is taken (or not ours to bind) gives
way to any free one, and a line says so. The port listened on is
remembered in ``$RULEKEEPER_HOME/server-port.json`` with the address the
links were printed for, so `rk links` prints the same links while the
server is stopped, and a restart hands out none that are new.
"""

from __future__ import annotations

import contextlib
import errno
import socket
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from domain.kernel.stores.store_setting import home

from .home_files import read_trusted, write_private

DEFAULT_PORT = 8700
PORT_FILE = "server-port.json"  # in the home, beside server.json; kept when the server stops
BACKLOG = 128
# A port someone else holds, or one this user may not bind: another will do.
GIVE_WAY = (errno.EADDRINUSE, errno.EACCES)


@dataclass(frozen=True)
class Remembered:
    """The port this home's server listened on last, and its links' address."""

    port: int
    base: str


def port_file() -> Path:
    """``$RULEKEEPER_HOME/server-port.json``."""
    return Path(home()) / PORT_FILE


def remembered(warn: Callable[[str], None] | None = None) -> Remembered | None:
    """What the home remembers, if the file is there and trusted."""
    data = read_trusted(port_file(), warn)
    if data is None:
        return None
    port, base = data.get("port"), data.get("base")
    if not (isinstance(port, int) and 0 < port < 65536 and isinstance(base, str)):
        return None
    return Remembered(port, base)


def remember(port: int, base: str) -> None:
    """Keep ``port`` and ``base`` for the next start (best effort: a home
    that cannot be written costs only the memory)."""
    with contextlib.suppress(OSError):
        write_private(port_file(), {"port": port, "base": base})


@dataclass
class Listener:
    """A bound, listening socket, and the line to say when it is not on the
    port wanted."""

    sock: socket.socket
    note: str | None = None

    @property
    def port(self) -> int:
        return self.sock.getsockname()[1]


def wanted_port(asked: int | None, memory: Remembered | None) -> int:
    """The port to try first (0: any)."""
    if asked:
        return asked
    if memory is not None:
        return memory.port
    return DEFAULT_PORT if asked is None else 0


def listen(host: str, asked: int | None, memory: Remembered | None) -> Listener:
    """Listen on ``host`` at the port the rule above gives; OSError when the
    port asked for explicitly (or any at all) cannot be had."""
    wanted = wanted_port(asked, memory)
    try:
        return Listener(_bound(host, wanted))
    except OSError as e:
        if asked or wanted == 0 or e.errno not in GIVE_WAY:
            raise
        why = (e.strerror or str(e)).lower()
    sock = _bound(host, 0)
    return Listener(
        sock,
        f"port {wanted}: {why}; listening on {sock.getsockname()[1]} instead "
        f"(links handed out for port {wanted} do not reach this server)",
    )


def _bound(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP named, not left 0: asyncio turns Nagle's algorithm off only
    # on sockets that say they are TCP, and with it on every answer on a kept-alive
    # connection waits ~40 ms for the client's delayed ACK (headers, then body).
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        # A restart takes its port back while the old connections linger in TIME_WAIT.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(BACKLOG)
    except BaseException:
        sock.close()
        raise
    return sock
