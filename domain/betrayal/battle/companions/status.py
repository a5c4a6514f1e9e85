"""Status effects on companions: what Hunter's Eye gives them (RACE-WOOD-ELF;
facts §2: a companion is a valid choice) and Stealth's effect on who may
target them (facts: STATUS-1)."""

from __future__ import annotations

from domain.kernel.errors import RuleViolation

from domain.betrayal.vocab import Status

from ..decision import Decision
from ..state import BattleState
from . import events as ev


def is_ally(state: BattleState, unit_id: str) -> bool:
    """Whether ``unit_id`` names a companion of the battle."""
    return any(a.id == unit_id for a in state.companions)


def check_deployed(d: Decision, companion_id: str, rule: str) -> None:
    """Refuses a companion that is not on the battlefield (waiting beside
    the Entrance, defeated or gone with a fallen party)."""
    a = d.state.companion(companion_id)
    if not a.deployed:
        raise RuleViolation(rule, f"{a.name} is not deployed on the battlefield")


def gain(d: Decision, companion_id: str, status: Status, rule: str) -> None:
    """A status effect on a deployed companion (one of each at a time)."""
    if d.state.companion(companion_id).deployed:
        d.emit(ev.CompanionStatusGained(companion=companion_id, status=status, rule=rule))


def lose(d: Decision, companion_id: str, status: Status, rule: str) -> None:
    """A status effect comes off a companion, if it has it."""
    if status in d.state.companion(companion_id).statuses:
        d.emit(ev.CompanionStatusLost(companion=companion_id, status=status, rule=rule))
