"""After each battle command: what its events mean for class abilities
that react to a fallen enemy (CLASS-2a, CLASS-4) and for each adventurer's
promotion requirement (ADVANCE-15, ADVANCE-16).

The command's events are read again from the state before it, so each
defeat is credited with the state it happened in: an enemy counts for the
adventurer whose damage it took last (the last DamageDealt to it), in the
form and from the hex that adventurer had then. What a battle counts, by
requirement kind (``RequirementKind``, our closed set):

- prevent-damage: damage prevented on yourself (DamageDealt.prevented:
  Defense dice, wards, race and class abilities), and what your class
  abilities prevented on other adventurers;
- enemies-defeated / true-damage-defeats: enemies felled by your damage
  (by your true damage);
- distant-defeat: an enemy felled by your damage while ``amount`` or more
  hexes away (one is enough);
- heal-others: HP your class abilities healed on other adventurers.

A promoted (Master) adventurer counts nothing more. The requirement is met
once per battle (``Hero.promotion``); the write-back records it and the
campaign's promote command flips the sheet.
"""

from __future__ import annotations

from domain.kernel.errors import RuleViolation
from domain.kernel.hexes import distance

from domain.betrayal.packs.catalog_campaign import RequirementKind as R
from domain.betrayal.vocab import BattleForm

from .. import events as ev
from ..commands import TurnClassSheet
from ..decision import Decision
from ..evolve import evolve
from ..state import BattleState, Phase


def after(d: Decision, before: BattleState | None) -> None:
    """Emit what the command's events set off: Innate and Interrupt
    reactions to defeated enemies (while the battle goes on), then each
    adventurer's promotion progress."""
    if before is None or not any(h.class_id for h in d.state.heroes):
        return
    gains, defeats = _count(d, before)
    if d.state.phase is not Phase.ENDED and defeats:
        from .classes import enemy_defeated  # the class abilities' rules, for an enemy defeated only

        for hero_id, form, by_engage in defeats:
            enemy_defeated(d, hero_id, form, by_engage)
    for hero_id, gain in gains.items():
        hero = d.state.hero(hero_id)
        sheet = d.ctx.pack.classes.get(hero.class_id)
        if gain <= 0 or sheet is None or sheet.requirement is None:
            continue
        progress = hero.class_progress + gain
        need = 1 if sheet.requirement.kind is R.DISTANT_DEFEAT else sheet.requirement.amount
        d.emit(ev.PromotionProgressed(hero=hero_id, progress=progress, met=progress >= need, rule="ADVANCE-16"))


def _count(d: Decision, before: BattleState) -> tuple[dict[str, int], list[tuple[str, BattleForm, bool]]]:
    """Per adventurer still counting, what the events add to its
    requirement; and every enemy defeat as (whose damage, in which form,
    by an engage)."""
    kinds = {}
    for hero in before.heroes:
        sheet = d.ctx.pack.classes.get(hero.class_id)
        if sheet is not None and sheet.requirement is not None and not hero.master and not hero.promotion:
            kinds[hero.id] = sheet.requirement
    heroes = {h.id for h in before.heroes}
    gains = {hero_id: 0 for hero_id in kinds}
    defeats: list[tuple[str, BattleForm, bool]] = []
    last: dict[str, tuple[ev.DamageDealt, BattleState]] = {}
    healer: str | None = None
    s = before
    for e in d.events:
        if isinstance(e, ev.DamageDealt):
            last[e.target] = (e, s)
            if e.target in kinds and kinds[e.target].kind is R.PREVENT_DAMAGE:
                gains[e.target] += e.prevented
        elif isinstance(e, ev.ClassDamagePrevented):
            if e.target != e.hero and e.hero in kinds and kinds[e.hero].kind is R.PREVENT_DAMAGE:
                gains[e.hero] += e.amount
        elif isinstance(e, ev.Healed):
            if healer in kinds and kinds[healer].kind is R.HEAL_OTHERS and e.unit != healer and e.unit in heroes:
                gains[healer] += max(0, e.hp - s.hero(e.unit).hp)
        elif isinstance(e, ev.UnitDefeated) and e.unit not in heroes and e.unit in last:
            hit, then = last[e.unit]
            if hit.source in heroes:
                striker = then.hero(hit.source)
                defeats.append((striker.id, striker.form, hit.rule == "ENGAGE-8c"))
                if striker.id in kinds:
                    gains[striker.id] += _defeat_counts(kinds[striker.id], hit, then, e.unit)
        healer = e.hero if isinstance(e, ev.ClassAbilityUsed) else healer if isinstance(e, ev.Healed) else None
        s = evolve(s, e)
    return gains, defeats


def _defeat_counts(requirement, hit: ev.DamageDealt, then: BattleState, foe_id: str) -> int:
    """What one enemy felled by the adventurer's ``hit`` counts."""
    if requirement.kind is R.ENEMIES_DEFEATED:
        return 1
    if requirement.kind is R.TRUE_DAMAGE_DEFEATS:
        return 1 if hit.true_damage else 0
    if requirement.kind is R.DISTANT_DEFEAT:
        mine, theirs = then.hero(hit.source).pos, then.foe(foe_id).pos
        return 1 if mine is not None and theirs is not None and distance(mine, theirs) >= requirement.amount else 0
    return 0


def turn_sheet(d: Decision, cmd: TurnClassSheet) -> None:
    """ADVANCE-16 (facts: promotion may be taken at any moment once earned,
    mid-battle included): the hero's sheet turns to its Master side."""
    hero = d.user(cmd.hero, "promotion")
    if not hero.class_id:
        raise RuleViolation("ADVANCE-15", f"{hero.name} has no class sheet")
    if hero.master:
        raise RuleViolation("ADVANCE-15", f"{hero.name}'s sheet is on its Master side already")
    if not hero.promotion:
        sheet = d.ctx.pack.classes.get(hero.class_id)
        words = f": {sheet.promotion}" if sheet is not None else ""
        raise RuleViolation("ADVANCE-16", f"{hero.name} has not met the promotion requirement{words}")
    d.emit(ev.ClassSheetTurned(hero=hero.id, class_id=hero.class_id))


def legal_turns(d: Decision) -> list[TurnClassSheet]:
    """The sheets that may be turned now: each hero's whose requirement is met."""
    return [
        TurnClassSheet(hero=h.id)
        for h in d.state.heroes
        if h.class_id and h.promotion and not h.master and not h.defeated
    ]
