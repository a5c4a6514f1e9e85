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


def clean_up(d: Decision) -> None:
    """End of Battle Cleanup for companions still in the party: status
    effects off (STATUS-5) and HP above the chip's gone; a permanent chip
    goes near its controller's mat that way (CLEANUP-3c)."""
    for a in d.state.companions:
        if a.defeated:
            continue
        if a.statuses or a.hp > a.max_hp or a.permanent:
            d.emit(
                ev.CompanionCleanedUp(
                    companion=a.id, hp=min(a.hp, a.max_hp), rule="CLEANUP-3c" if a.permanent else "STATUS-5"
                )
            )
