"""Folding the duel's events into its state: each event only assigns what
it carries."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from . import events as ev
from .state import DuelState


def _set(pair: tuple[Any, Any], side: int, value: Any) -> tuple[Any, Any]:
    return (value, pair[1]) if side == 0 else (pair[0], value)


def evolve(state: DuelState | None, event: ev.DuelEvent) -> DuelState:
    """The state after ``event``. Pure."""
    match event:
        case ev.DuelStarted():
            return DuelState(
                battle_id=event.battle_id,
                rules_version=event.rules_version,
                pack_id=event.pack_id,
                pack_hash=event.pack_hash,
                seed=event.seed,
                width=event.width,
                pawns=(tuple(event.pawns[0]), tuple(event.pawns[1])),
            )
    assert state is not None, "a duel's first event sets it up"
    match event:
        case ev.PawnStepped():
            return replace(state, pawns=_set(state.pawns, event.side, tuple(event.to)))
        case ev.CardPledged():
            return replace(state, pledges=_set(state.pledges, event.side, event.card))
        case ev.StrikeRolled():  # the roll moves the counter on; the pledge is shown and spent
            return replace(state, rng=event.counter + 1, pledges=_set(state.pledges, event.side, ""))
        case ev.TurnPassed():
            return replace(state, turn=event.turn, round=event.round)
        case ev.DuelEnded():
            return replace(state, winner=event.winner, reason=event.reason)
    return state
