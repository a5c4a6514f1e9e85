"""Where companions enter the round sequence (ROUND-6, ENEMY-1; facts
§2): the Companion Turns step opens after the last adventurer's turn, and
when every adventurer falls the companions leave the map undefeated.
Imported by ``flow``; it imports nothing of the round itself."""

from __future__ import annotations

from ..decision import Decision
from . import events as ev
from .state import Ally


def in_party(a: Ally) -> bool:
    """Still in the party: not defeated (facts: then it leaves for good)
    and not withdrawn with a fallen party."""
    return not a.defeated and not a.withdrawn


def open_step(d: Decision) -> bool:
    """ROUND-6: with a companion in the party the Companion Turns step
    starts and waits for the party's choice of who acts first; False when
    there is no companion, and the enemies act next (ENEMY-1)."""
    if not any(in_party(a) for a in d.state.companions):
        return False
    d.emit(ev.CompanionTurnsBegan())
    return True


def withdraw(d: Decision) -> None:
    """Every adventurer fell: companions leave the map without being
    defeated (facts §2, Defeat)."""
    leaving = tuple(a.id for a in d.state.companions if in_party(a))
    if leaving:
        d.emit(ev.CompanionsWithdrew(companions=leaving))
