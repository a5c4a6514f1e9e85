"""Who a labyrinth command is given for, at a table of seats (SEAT-1): one
seat per PC, its key the PC's id (p1, p2, ...). An Enemy's action under
``gm_enemies`` is the GM's: the host gives it, no seat does."""

from __future__ import annotations

from typing import Any

from domain.kernel.ruleset import HOST, Seat

from .commands import EnemyAct, StartLabyrinth
from .state import LabyrinthState
from .vocab import Side


def seats(state: LabyrinthState) -> tuple[Seat, ...]:
    return tuple(Seat(key=c.id, name=c.name) for c in state.combatants if c.side is Side.PC)


def actor(state: LabyrinthState, command: Any) -> str | None:
    if isinstance(command, EnemyAct):
        return HOST
    if isinstance(command, StartLabyrinth):
        return None
    who = getattr(command, "actor", "")
    c = state.find(who) if state is not None else None
    if c is not None and c.side is Side.ENEMY:
        return HOST  # an Enemy's hold, pass or passive: the GM's (gm_enemies), never a seat's
    return who if c is not None and c.side is Side.PC else None
