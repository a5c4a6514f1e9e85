"""Who a labyrinth command is given for, at a table of seats (SEAT-1): one
seat per PC, its key the PC's id (p1, p2, ...). An Enemy's action under
``gm_enemies`` is the table's (the GM's): no seat."""

from __future__ import annotations

from typing import Any

from domain.kernel.ruleset import Seat

from .commands import EnemyAct, StartLabyrinth
from .state import LabyrinthState
from .vocab import Side


def seats(state: LabyrinthState) -> tuple[Seat, ...]:
    return tuple(Seat(key=c.id, name=c.name) for c in state.combatants if c.side is Side.PC)


def actor(state: LabyrinthState, command: Any) -> str | None:
    if isinstance(command, (EnemyAct, StartLabyrinth)):
        return None
    who = getattr(command, "actor", "")
    c = state.find(who) if state is not None else None
    return who if c is not None and c.side is Side.PC else None
