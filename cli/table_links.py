"""`rk links`: the links of `rk server` again, without starting one."""

from __future__ import annotations

import sys

from .paths import writing
from .session import Session


def _warn(text: str) -> None:
    print(f"rk links: {text}", file=sys.stderr)


def show(s: Session, base: str | None, seat: str | None = None) -> None:
    """The host's link, and each seat's and the spectators' of the battle
    (the current one unless --battle names another), for the server
    running on this home, or at ``base``; with ``seat``, that one link
    alone (a seat's name, ``spectators`` or ``host``)."""
    from server.passes import Keyring, load_secret
    from server.port_memory import DEFAULT_PORT, remembered
    from server.run import DEFAULT_HOST, links, running_base

    base = base or running_base(warn=_warn)
    if base is None:  # none running: the address a restart keeps (server.port_memory)
        memory = remembered(warn=_warn)
        base = memory.base if memory else f"http://{DEFAULT_HOST}:{DEFAULT_PORT}"
    base = base.rstrip("/")
    from server.passes import SECRET_FILE

    from domain.kernel.stores.store_setting import home

    with writing(f"{home()}/{SECRET_FILE}", "the server's secret"):
        secret = load_secret()
    found = links(s.app, Keyring(secret), base, s.battle)
    if seat is not None:
        link = found.of(seat)
        s.out.emit({"link": link}) if s.json else s.out.print(link)
        return
    if s.json:
        s.out.emit(
            {
                "base": base,
                "host": found.host,
                "game": found.game,
                "spectators": found.spectators,
                "seats": [{"key": key, "name": name, "link": link} for key, name, link in found.seats],
            }
        )
        return
    s.out.print(*found.lines())
