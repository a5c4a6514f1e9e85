"""The companion events in players' words, for the battle's one narrator
(``narrate`` registers these)."""

from __future__ import annotations

from collections.abc import Callable

from domain.kernel.hexes import label, name

from ..names import unit_name
from . import events as ev


def _who(state, pack, unit: str) -> str:
    return unit_name(state, pack, unit) if state is not None else unit


def _cite(rule: str, text: str) -> str:
    return f"{rule}: {text}" if rule else text


def _controller(state, pack, companion_id: str) -> str:
    if state is None:
        return ""
    a = next((a for a in state.companions if a.id == companion_id), None)
    return f", with {_who(state, pack, a.controller)}" if a is not None else ""


def joined(e: ev.CompanionJoined, state, pack) -> str:
    a = e.companion
    whose = f" under {_who(state, pack, a.controller)}'s control" if state is not None else ""
    skills = f", {', '.join(a.skills)}" if a.skills else ""
    return _cite(
        e.rule,
        f"companion {a.name} ({a.id}) joins the party{whose}: {a.hp} HP, {a.combat} enemy"
        f" dice, range {a.range}, up to {a.targets} target(s){skills}",
    )


def placed(e: ev.CompanionPlaced, state, pack) -> str:
    return _cite(e.rule, f"{_who(state, pack, e.companion)} placed on {label(e.hex)}")


def waits(e: ev.CompanionWaits, state, pack) -> str:
    return _cite(e.rule, f"no empty Entrance hex: {_who(state, pack, e.companion)} waits beside the tile")


def turns_began(e: ev.CompanionTurnsBegan, state, pack) -> str:
    return _cite(e.rule, "the companions' turns, in the order the party chooses")


def turn_started(e: ev.CompanionTurnStarted, state, pack) -> str:
    return f"{_who(state, pack, e.companion)}'s turn{_controller(state, pack, e.companion)}"


def moved(e: ev.CompanionMoved, state, pack) -> str:
    return _cite(e.rule, f"{_who(state, pack, e.companion)} moves " + " → ".join(name(h) for h in e.path))


def engaged(e: ev.CompanionEngaged, state, pack) -> str:
    targets = ", ".join(_who(state, pack, t) for t in e.targets)
    return _cite(e.rule, f"{_who(state, pack, e.companion)} engages {targets}")


def turn_ended(e: ev.CompanionTurnEnded, state, pack) -> str:
    return f"{_who(state, pack, e.companion)} ends its turn"


def withdrew(e: ev.CompanionsWithdrew, state, pack) -> str:
    who = ", ".join(_who(state, pack, c) for c in e.companions)
    return _cite(e.rule, f"with every adventurer down, {who} leave(s) the map, not defeated")


def status_gained(e: ev.CompanionStatusGained, state, pack) -> str:
    return _cite(e.rule, f"{_who(state, pack, e.companion)} gains {e.status.value}")


def status_lost(e: ev.CompanionStatusLost, state, pack) -> str:
    return _cite(e.rule, f"{_who(state, pack, e.companion)} loses {e.status.value}")


def cleaned_up(e: ev.CompanionCleanedUp, state, pack) -> str:
    return _cite(e.rule, f"{_who(state, pack, e.companion)} leaves the battle with {e.hp} HP, no status effects")


LINES: dict[type, Callable[..., str]] = {
    ev.CompanionStatusGained: status_gained,
    ev.CompanionStatusLost: status_lost,
    ev.CompanionCleanedUp: cleaned_up,
    ev.CompanionJoined: joined,
    ev.CompanionPlaced: placed,
    ev.CompanionWaits: waits,
    ev.CompanionTurnsBegan: turns_began,
    ev.CompanionTurnStarted: turn_started,
    ev.CompanionMoved: moved,
    ev.CompanionEngaged: engaged,
    ev.CompanionTurnEnded: turn_ended,
    ev.CompanionsWithdrew: withdrew,
}
