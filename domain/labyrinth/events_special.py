"""Events of the exceptions to the order and the attack roll's special
cases: holding for the [Speed] order and delayed actions (ORDER-3), delayed
attacks and tokens (facts section 8), on-critical triggers (CRIT-3),
Identify (ENEMY-3), FP spent on a check (facts: Fills FUMBLE-2) and effects
that could not be carried out. Re-exported by ``events.py``; import them
from there."""

from __future__ import annotations

from .event_base import ROLLED_SKIP, LabyrinthEvent, Rolled
from .state import Combatant


class Held(LabyrinthEvent, frozen=True, kw_only=True):
    """``who`` took no fastest action: it acts in [Speed] order (ORDER-3);
    ``reason`` when it no longer could."""

    TOPIC = "labyrinth.Held"
    who: str
    reason: str = ""


class ActionDelayed(LabyrinthEvent, frozen=True, kw_only=True):
    """``who`` chose a delayed action: it is taken after everyone else's
    (ORDER-3)."""

    TOPIC = "labyrinth.ActionDelayed"
    who: str
    skill: str
    target: str = ""


class DelayedAttackSet(LabyrinthEvent, frozen=True, kw_only=True):
    """A delayed attack will land in End phase step 1 of turn ``due``;
    until then its user starts no other (facts section 8)."""

    TOPIC = "labyrinth.DelayedAttackSet"
    who: str
    skill: str
    target: str
    due: int


class DelayedAttackResolved(LabyrinthEvent, frozen=True, kw_only=True):
    """End phase step 1: ``who``'s delayed attack lands (its attack rolls
    follow) or, ``landed`` False, is lost (``reason``)."""

    TOPIC = "labyrinth.DelayedAttackResolved"
    who: str
    skill: str
    landed: bool
    reason: str = ""


class TokenPlaced(LabyrinthEvent, frozen=True, kw_only=True):
    """``who`` placed (or renewed) ``token``, which acts at its placer's
    [Speed], this turn too; ``queue`` the Main order after it (facts section 8)."""

    TOPIC = "labyrinth.TokenPlaced"
    who: str
    token: Combatant
    queue: tuple[str, ...] = ()


class TokenVanished(LabyrinthEvent, frozen=True, kw_only=True):
    """A token left the battle: its placer fell, or its turns ran out."""

    TOPIC = "labyrinth.TokenVanished"
    who: str
    reason: str


class CriticalTriggered(LabyrinthEvent, frozen=True, kw_only=True):
    """``who``'s damage roll on ``target`` was a critical: its on-critical
    skill triggers at once, paying ``tp`` (CRIT-3); its effects follow."""

    TOPIC = "labyrinth.CriticalTriggered"
    who: str
    skill: str
    target: str
    tp: int


class EffectFizzled(LabyrinthEvent, frozen=True, kw_only=True):
    """An effect could not be carried out (``reason``, under ``rule``)."""

    TOPIC = "labyrinth.EffectFizzled"
    who: str
    effect: str
    reason: str
    rule: str = ""


class Identified(Rolled, frozen=True, kw_only=True):
    """Before the battle, each PC's TEC check (2 faces each, ``ids`` order)
    against every Enemy's Rarity, at no cost (ENEMY-3, ENEMY-4); ``unknown``:
    the Enemies no PC identified, whose resistances count as at least 3 and
    whose "Weakness" skills do not apply; ``fp`` gained by each PC from its
    1s (facts: Fills FUMBLE-2); ``spotted``: the rare variants some PC's
    result reached Rarity + 2 on (facts: Fills ENEMY-3), known as rare."""

    TOPIC = "labyrinth.Identified"
    # Added after logs were written: those logs hold the event without it.
    __digest_skip_default__ = frozenset({"spotted"}) | ROLLED_SKIP
    ids: tuple[str, ...]
    totals: tuple[int, ...]
    known: tuple[str, ...]
    unknown: tuple[str, ...]
    fp: tuple[int, ...] = ()
    spotted: tuple[str, ...] = ()


class FpSpent(LabyrinthEvent, frozen=True, kw_only=True):
    """``who`` spent ``amount`` FP on its check: ``reason`` "extra dice"
    (+1D6 each, the best 2 kept) or "reroll" (facts: Fills FUMBLE-2)."""

    TOPIC = "labyrinth.FpSpent"
    who: str
    amount: int
    reason: str


class CheckRerolled(Rolled, frozen=True, kw_only=True):
    """``who``'s failed check, rolled again for FP: these faces no longer
    count (the check's own event follows with the new ones)."""

    TOPIC = "labyrinth.CheckRerolled"
    who: str
