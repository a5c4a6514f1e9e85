"""Spending FP on an action check (facts: Fills FUMBLE-2), and rolling any
2D6 action check of a Main action: its hit check, or its activation roll.

A PC may spend FP on the first check of its Main action (``Attack`` or
``UseSkill`` with ``fp`` and ``reroll``): +1D6 per FP spent, the best 2
dice kept, that roll giving no FP; and, committed in advance since the
engine rolls at once, a reroll of that check if it fails, once, for
``fp_reroll_cost`` FP (1, OQ 18), the added dice rolled again with it and
neither roll giving FP. Absolute success (two 6s) and failure (all 1s) are
judged on the 2 dice kept (OQ 4); since the engine keeps the best 2, that
reading and judging every die rolled agree, so it is no option.

A skill may print an FP cost (``Skill.fp``) beside its TP: using it needs
that much FP on top of any committed to its check (``check_cost``), it is
paid with the TP when the skill is used (``SkillUsed.fp_cost``, a passive's
``PassiveUsed.fp_cost``), and a failed activation pays it exactly when it
pays the TP (OQ 9, ``failed_activation_pays``). ``can_pay`` is what every
list of usable skills asks. Enemies have no FP: a pack giving an Enemy a
skill with an FP cost is refused (``pack_skills.enemy_fp_costs``), as is
an FP cost on an on-critical skill, which triggers with no one choosing to
spend. An escaping PC spends FP on its Escape check as declared with its
Escape (``escape.py``, with ``Boost``, ``judge`` and ``KEPT`` from here).
With the ``ask_fp`` option a PC's player is asked, before each of its
Suppression defense rolls, what FP to spend on it (``reactions.spend``,
rolled by ``roll_spending``). Not modelled: FP on Identify, rolled at setup."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from domain.kernel.errors import RuleViolation

from . import events as ev
from .catalog import Skill
from .decision import Boost, Decision  # Boost: here too, where the FP rules that use it are
from .state import Combatant

KEPT = 2  # an action check keeps 2 dice however many are rolled


@dataclass(frozen=True)
class Check:
    """One action check as rolled: every face (from ``counter``), the 2 kept,
    its absolute result ("success", "failure" or ""), whether it succeeded,
    and the FP its 1s gave."""

    faces: tuple[int, ...]
    counter: int
    kept: tuple[int, ...]
    absolute: str
    ok: bool
    fp: int
    spent: bool = False  # FP was spent on it (extra dice or a reroll)


def can_pay(c: Combatant, skill: Skill, committed: int = 0) -> bool:
    """Whether ``c`` holds the TP and FP printed on ``skill``, with
    ``committed`` FP more for its check (facts: Fills FUMBLE-2)."""
    return skill.tp <= c.tp and skill.fp + committed <= c.fp


def cost_text(tp: int, fp: int) -> str:
    """A skill's cost as the views print it: ``2 TP``, or ``2 TP, 1 FP``."""
    return f"{tp} TP, {fp} FP" if fp else f"{tp} TP"


def committed(d: Decision, who: str) -> int:
    """The FP ``who`` has committed to the first check of this action:
    extra dice, and the reroll's cost if it asked for one."""
    boost = d.boost
    if boost is None or boost.who != who:
        return 0
    return boost.dice + (d.state.options.fp_reroll_cost if boost.reroll else 0)


def check_cost(d: Decision, c: Combatant, skill: Skill) -> None:
    """Refuse ``skill`` if ``c`` cannot pay its FP cost on top of the FP it
    committed to the check (FUMBLE-2; its TP is checked by the caller)."""
    if not skill.fp:
        return
    extra = committed(d, c.id)
    if skill.fp + extra > c.fp:
        spent = f" and {extra} committed to its check" if extra else ""
        raise RuleViolation("FUMBLE-2", f"{skill.name} costs {skill.fp} FP{spent}; {c.name} has {c.fp} FP")


def judge(faces: tuple[int, ...], extra: int) -> tuple[tuple[int, ...], str]:
    """The dice kept (the best 2 when dice were added) and the absolute
    result on them: two 6s succeed, all 1s fail (facts: Fills ATTACK-3)."""
    kept = tuple(sorted(faces, reverse=True)[:KEPT]) if extra else faces
    if kept.count(6) >= 2:
        return kept, "success"
    return kept, "failure" if kept and kept.count(1) == len(kept) else ""


def roll_check(
    d: Decision, who: str, succeeds: Callable[[tuple[int, ...], str], bool], *, rule: str, what: str
) -> Check:
    """Roll ``who``'s 2D6 check, spending the FP it committed (``d.boost``)
    on its first one; ``succeeds(kept, absolute)`` says whether it passed.
    Its 1s give FP only on the first check of the Main action."""
    boost = d.boost if d.boost is not None and d.boost.who == who else None
    d.boost = None if boost is not None else d.boost
    check = roll_spending(d, who, boost, succeeds, rule=rule, what=what)
    gained = d.fp_for(who, check.faces)  # marks the action's first check even when it gives none
    return replace(check, fp=gained if check.fp or not check.spent else 0)


def roll_spending(
    d: Decision,
    who: str,
    boost: Boost | None,
    succeeds: Callable[[tuple[int, ...], str], bool],
    *,
    rule: str,
    what: str,
) -> Check:
    """Roll ``who``'s 2D6 check with the FP of ``boost`` spent on it: its
    extra dice (the best 2 kept), and a reroll if it fails. The FP its 1s
    give: none once FP was spent on it. ``rule`` and ``what``: the check's
    rule and name, for faces typed off physical dice."""
    extra = boost.dice if boost else 0
    options = d.state.options
    if extra:
        d.emit(ev.FpSpent(who=who, amount=extra, reason="extra dice"))
    faces, counter = d.roll(KEPT + extra, who=who, rule=rule, what=what)
    kept, result = judge(faces, extra)
    ok = succeeds(kept, result)
    rerolled = False
    if not ok and boost is not None and boost.reroll and d.state.get(who).fp >= options.fp_reroll_cost:
        d.emit(ev.CheckRerolled(who=who, faces=faces, counter=counter))
        d.emit(ev.FpSpent(who=who, amount=options.fp_reroll_cost, reason="reroll"))
        faces, counter = d.roll(KEPT + extra, who=who, rule=rule, what=f"{what}, rerolled for FP")
        kept, result = judge(faces, extra)
        ok, rerolled = succeeds(kept, result), True
    spent = bool(extra) or rerolled
    return Check(
        faces=faces,
        counter=counter,
        kept=kept if extra else (),
        absolute=result,
        ok=ok,
        fp=0 if spent else faces.count(1),
        spent=spent,
    )
