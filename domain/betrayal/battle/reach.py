"""Where units stand and whom an adventurer may target: the hexes units hold
(MOVE-1), a battle form's range and sight (FORM-3 to FORM-7, ENGAGE-6), and
what Stealth and Blind change (facts: STATUS-1). Shared by the Engage
action (``actions``) and the abilities that target or move as it does."""

from __future__ import annotations

from domain.kernel.errors import MalformedCommand, RuleViolation
from domain.kernel.hexes import Hex, distance

from domain.betrayal.vocab import BattleForm, Status

from .companions.state import Ally
from .decision import Decision
from .heroes import statuses
from .state import Foe, Hero

Target = Foe | Hero | Ally  # whom an engage may strike: an ally only when Blind (facts: STATUS-1)


def occupied(d: Decision) -> set[Hex]:
    """Every hex a unit stands on (MOVE-1: no unit moves through another),
    companions' included (ROUND-2: a companion is a unit)."""
    s = d.state
    return (
        {h.pos for h in s.heroes if h.pos is not None}
        | {f.pos for f in s.foes if f.pos is not None}
        | {a.pos for a in s.companions if a.pos is not None}
    )


def in_form_range(d: Decision, hero: Hero, form: BattleForm, target_pos: Hex) -> str | None:
    """Why a target at ``target_pos`` is out of the form's range, or None.
    FORM-3: Defensive has no range; FORM-4/5: adjacent only; FORM-6: not
    adjacent, up to Stamina; FORM-7: up to Magicka. Sight: same or adjacent
    tiles (facts)."""
    board = d.ctx.board
    dist = board.range_distance(hero.at, target_pos)
    if form is BattleForm.DEFENSIVE:
        return "FORM-3: the Defensive form has no range, so it cannot target"
    if dist is None:
        return "ENGAGE-6: no route reaches that unit"
    if not board.sees(hero.at, target_pos):
        return "ENGAGE-6: that unit is out of sight (not on your tile or an adjacent tile)"
    if form in (BattleForm.LIGHT, BattleForm.HEAVY):
        rule = "FORM-4" if form is BattleForm.HEAVY else "FORM-5"
        return None if dist == 1 else f"{rule}: melee reaches adjacent units only; that one is {dist} hexes away"
    if form is BattleForm.RANGED:
        if dist == 1:
            return "FORM-6: the Ranged form cannot target an adjacent unit"
        return (
            None
            if dist <= hero.stamina
            else (f"FORM-6: Ranged reaches {hero.stamina} hexes (Stamina); that unit is {dist} away")
        )
    return (
        None
        if dist <= hero.magicka
        else (f"FORM-7: Magic reaches {hero.magicka} hexes (Magicka); that unit is {dist} away")
    )


def _stealth_blocks(d: Decision, hero: Hero, foe: Foe) -> bool:
    """Stealth: targetable only by units adjacent to it when the turn began."""
    if not any(m.status is Status.STEALTH for m in foe.marks):
        return False
    start = dict(d.state.acting.start_positions)
    mine, theirs = start.get(hero.id), start.get(foe.id)
    return not (mine and theirs and distance(mine, theirs) == 1)


def check_target(d: Decision, hero: Hero, form: BattleForm, target_id: str) -> Target:
    """ENGAGE-6: exactly one target, an enemy on the map, in range and sight.
    A Blind adventurer treats every unit as opposing and may target only the
    strongest adjacent unit, which may be an adventurer or a companion
    (facts: STATUS-1)."""
    blind = Status.BLIND in statuses(hero)
    unit = find_unit(d, target_id, allies=blind and target_id != hero.id)
    if unit.defeated or unit.pos is None:
        raise RuleViolation("ENGAGE-6", f"{target_id} is no longer on the map")
    why = in_form_range(d, hero, form, unit.pos)
    if why:
        rule, _, text = why.partition(": ")
        raise RuleViolation(rule, text)
    if isinstance(unit, Foe) and _stealth_blocks(d, hero, unit):
        raise RuleViolation(
            "STATUS-1", f"{target_id} is in Stealth: only units adjacent to it when the turn began may target it"
        )
    if blind:
        units: tuple[Target, ...] = (*d.state.heroes, *d.state.foes, *d.state.companions)
        near = [u for u in units if u.id != hero.id and not u.defeated and u.pos and distance(u.pos, hero.at) == 1]
        best = max((u.hp for u in near), default=None)
        if distance(unit.pos, hero.at) != 1 or unit.hp != best:
            raise RuleViolation("STATUS-1", "you are blind: you may target only the strongest adjacent unit")
    return unit


def find_unit(d: Decision, unit_id: str, *, allies: bool) -> Target:
    """The enemy ``unit_id`` or, with ``allies``, an adventurer or companion
    of that id; MalformedCommand when there is none."""
    for foe in d.state.foes:
        if foe.id == unit_id:
            return foe
    if allies:
        others: tuple[Hero | Ally, ...] = (*d.state.heroes, *d.state.companions)
        for other in others:
            if other.id == unit_id:
                return other
    raise MalformedCommand(f"no enemy {unit_id!r} in this battle")
