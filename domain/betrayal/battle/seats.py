"""Who a Betrayal command is given for, at a table of seats (SEAT-1, ours).

Each adventurer of the party is a seat, keyed by its hero id. A command
names its adventurer (``hero``) or acts for whoever's turn it is; a Defend
answers for the adventurer the waiting strike hits. The next round, a
retreat and an enemy's physical dice belong to the whole table.
"""

from __future__ import annotations

from typing import Any

from domain.kernel.ruleset import Seat

from . import commands as c
from .state import BattleState

# Commands of the whole party, not of one adventurer.
TABLE_COMMANDS = (c.NextRound, c.Retreat, c.RollEnemyDice)
COMPANION_COMMANDS = (c.CompanionMove, c.CompanionEngage, c.EndCompanionTurn)


def seats(state: BattleState) -> tuple[Seat, ...]:
    """One seat per adventurer, in turn order."""
    return tuple(Seat(key=h.id, name=h.name) for h in state.heroes)


def actor(state: BattleState, command: Any) -> str | None:
    """The hero id ``command`` acts for, None for the table's commands."""
    if isinstance(command, TABLE_COMMANDS):
        return None
    if isinstance(command, COMPANION_COMMANDS):  # a companion's seat is its controller's (ROUND-6)
        return _controller(state, command.companion)
    if isinstance(command, c.Defend):
        pending = state.defense
        return pending.targets[pending.index] if pending is not None else None
    named = getattr(command, "hero", None)
    if named:
        return _hero_id(state, named)
    return state.turn.hero if state.turn is not None else None


def _hero_id(state: BattleState, named: str) -> str:
    """The id of the adventurer a command names (by id or by name, any case)."""
    for h in state.heroes:
        if named.lower() in (h.id.lower(), h.name.lower()):
            return h.id
    return named


def _controller(state: BattleState, named: str | None) -> str | None:
    """The adventurer who controls the companion a command names (or the
    one acting); a defeated controller's player keeps control (facts §2)."""
    if named is None:
        named = state.ally_turn.companion if state.ally_turn is not None else None
    for a in state.companions:
        if named is not None and named.strip().lower() in (a.id, a.name.lower()):
            return a.controller
    return None
