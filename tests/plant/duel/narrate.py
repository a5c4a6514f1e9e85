"""The duel's narrator: a line per event, led by the rule it applies. A
pledge's card is never said until a strike reveals it (DUEL-4)."""

from __future__ import annotations

from typing import Any

from domain.kernel.hexes import name

from . import events as ev
from .vocab import HIT, NAMES, SIDES

RULES = {
    ev.DuelStarted: "DUEL-1",
    ev.TurnPassed: "DUEL-2",
    ev.PawnStepped: "DUEL-3",
    ev.CardPledged: "DUEL-4",
    ev.StrikeRolled: "DUEL-5",
    ev.DuelEnded: "DUEL-6",
}


def cited_rule(event: Any) -> str:
    """The rule ``event`` applies ("" for none)."""
    return RULES.get(type(event), "")


def pawn(side: int) -> str:
    return f"{NAMES[side]} ({SIDES[side]})"


def text(event: Any) -> str:
    """What ``event`` says, without its rule."""
    match event:
        case ev.DuelStarted():
            a, b = event.pawns
            return (
                f"duel {event.battle_id} on a board {event.width} hexes wide and 3 rows high, seed {event.seed}: "
                f"{pawn(0)} on {name(tuple(a))}, {pawn(1)} on {name(tuple(b))}"
            )
        case ev.PawnStepped():
            return f"{NAMES[event.side]} steps to {name(tuple(event.to))}"
        case ev.CardPledged():
            return f"{NAMES[event.side]} pledges a card face down"
        case ev.StrikeRolled():
            shown = f" + {event.card} {event.bonus}" if event.card else " with no pledge"
            result = "a hit" if event.hit else f"a miss (needs {HIT})"
            return f"{NAMES[event.side]} strikes: rolls {event.face}{shown} = {event.total}, {result}"
        case ev.TurnPassed():
            return f"{NAMES[event.turn]} to act, round {event.round}"
        case ev.DuelEnded():
            who = "a draw" if event.winner < 0 else f"{NAMES[event.winner]} wins"
            return f"the duel is over, {who}: {event.reason}"
    return type(event).__name__


def describe_event(event: Any) -> str:
    """``RULE-ID: what happened``."""
    rule = cited_rule(event)
    return f"{rule}: {text(event)}" if rule else text(event)
