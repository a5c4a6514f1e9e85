"""Applying companion events to the battle state: assignment only."""

from __future__ import annotations

from collections.abc import Callable

from msgspec.structs import replace

from ..state import BattleState, Phase
from . import events as ev
from .state import AllyTurn


def ally(state: BattleState, companion_id: str, **changes) -> BattleState:
    """The state with companion ``companion_id`` changed."""
    allies = tuple(replace(a, **changes) if a.id == companion_id else a for a in state.companions)
    return replace(state, companions=allies)


def is_companion(state: BattleState, unit_id: str) -> bool:
    """Whether ``unit_id`` names a companion of this battle."""
    return any(a.id == unit_id for a in state.companions)


def _joined(s: BattleState, e: ev.CompanionJoined) -> BattleState:
    return replace(s, companions=s.companions + (e.companion,))


def _turns_began(s: BattleState, e: ev.CompanionTurnsBegan) -> BattleState:
    allies = tuple(replace(a, acted=False) for a in s.companions)
    return replace(s, companions=allies, phase=Phase.COMPANION_TURN, turn=None, ally_turn=None)


def _turn_started(s: BattleState, e: ev.CompanionTurnStarted) -> BattleState:
    return replace(s, ally_turn=AllyTurn(companion=e.companion, start_positions=e.start_positions))


def _moved(s: BattleState, e: ev.CompanionMoved) -> BattleState:
    s = ally(s, e.companion, pos=e.path[-1])
    return replace(s, ally_turn=replace(s.ally_turn, moved=True)) if s.ally_turn is not None else s


def _turn_ended(s: BattleState, e: ev.CompanionTurnEnded) -> BattleState:
    return replace(ally(s, e.companion, acted=True), ally_turn=None)


def _withdrew(s: BattleState, e: ev.CompanionsWithdrew) -> BattleState:
    allies = tuple(replace(a, pos=None, withdrawn=True) if a.id in e.companions else a for a in s.companions)
    return replace(s, companions=allies, ally_turn=None)


def _status_gained(s: BattleState, e: ev.CompanionStatusGained) -> BattleState:
    a = s.companion(e.companion)
    return ally(s, e.companion, statuses=tuple(x for x in a.statuses if x is not e.status) + (e.status,))


def _status_lost(s: BattleState, e: ev.CompanionStatusLost) -> BattleState:
    return ally(s, e.companion, statuses=tuple(x for x in s.companion(e.companion).statuses if x is not e.status))


APPLY: dict[type, Callable] = {
    ev.CompanionJoined: _joined,
    ev.CompanionPlaced: lambda s, e: ally(s, e.companion, pos=e.hex),
    ev.CompanionWaits: lambda s, e: s,
    ev.CompanionTurnsBegan: _turns_began,
    ev.CompanionTurnStarted: _turn_started,
    ev.CompanionMoved: _moved,
    ev.CompanionEngaged: lambda s, e: s,
    ev.CompanionTurnEnded: _turn_ended,
    ev.CompanionsWithdrew: _withdrew,
    ev.CompanionStatusGained: _status_gained,
    ev.CompanionStatusLost: _status_lost,
    ev.CompanionCleanedUp: lambda s, e: ally(s, e.companion, hp=e.hp, statuses=()),
}
