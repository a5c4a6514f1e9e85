"""`rk links`: the links of `rk server` again, without starting one."""

from __future__ import annotations

from .session import Session


def show(s: Session, base: str | None) -> None:
    """The host's link, and each seat's and the spectators' of the battle
    (the current one unless --battle names another), for the server
    running on this home, or at ``base``."""
    from server.passes import Keyring, load_secret
    from server.run import DEFAULT_HOST, DEFAULT_PORT, links, running_base

    base = (base or running_base() or f"http://{DEFAULT_HOST}:{DEFAULT_PORT}").rstrip("/")
    lines = links(s.app, Keyring(load_secret()), base, s.battle)
    if s.json:
        s.out.emit({"base": base, "links": lines})
        return
    s.out.print(*lines)
