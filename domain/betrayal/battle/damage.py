"""Damage, prevention, healing and defeat (ENGAGE-8c, HEALTH-4/5/8,
COMBAT-4, facts: ENGAGE-8c/HEALTH-4)."""

from __future__ import annotations

from itertools import combinations

from domain.betrayal.vocab import Status

from . import events as ev
from . import hooks
from .companions.damage import hurt_ally
from .companions.state import Ally
from .decision import Decision
from .heroes import die_of, empty_active, exhaust, gain_fatigue, ward
from .state import ActiveDie, DieKind, Foe, Hero


def choose_blocks(active: tuple[ActiveDie, ...], damage: int) -> tuple[int, ...]:
    """Which active block dice to exhaust against ``damage`` (COMBAT-4).

    Our default for this player choice, so enemy turns run on their own:
    prevent as much as possible, then with the fewest dice, then wasting the
    least value, then the leftmost slots."""
    slots = [i for i, a in enumerate(active) if a.amount > 0]
    best: tuple[int, ...] = ()
    best_key = (0, 0, 0)
    for n in range(1, len(slots) + 1):
        for combo in combinations(slots, n):
            total = sum(active[i].amount for i in combo)
            key = (min(total, damage), -n, -(total - min(total, damage)))
            if key > best_key:
                best, best_key = combo, key
    return best


def hurt_hero(
    d: Decision,
    hero_id: str,
    amount: int,
    *,
    true_damage: bool,
    source: str,
    rule: str,
    blocks: tuple[int, ...] | None = None,
    react: bool | None = None,
    shield: int = 0,
) -> int:
    """Deal damage to an adventurer; returns what it lost (bonus HP and HP).

    Physical damage is first reduced by ward dice on the track and active
    block dice (``blocks``, the slots the player chose; by default
    ``choose_blocks``), then by a race reaction (RACE-ARGONIAN,
    RACE-IMPERIAL: ``react`` as the player chose; by default only an armed
    one), then taken from bonus HP, then HP. True damage skips all of that
    (facts: ENGAGE-8c item 4 and 5). Damage to adventurers is not pooled.
    ``shield`` is what Armor and Pets prevent (ARMOR-1, PET-1: the
    ``hooks.ENEMY_BLOW`` of an enemy's strike); item wards count with the
    ward dice (``warding``). Before all of that, class abilities prevent
    theirs (CLASS-4 Interrupts first, then class wards and blocks:
    ``hooks.PREVENT_DAMAGE``); the race reaction is ``hooks.REACT_TO_DAMAGE``.
    """
    hero = d.state.hero(hero_id)
    if hero.defeated or amount <= 0:
        return 0
    prevented = 0
    if not true_damage:
        for prevent in hooks.PREVENT_DAMAGE:  # CLASS-4 Interrupts first, then class wards
            prevented += prevent(d, hero_id, amount - prevented, source)
        hero = d.state.hero(hero_id)
        prevented += min(amount - prevented, warding(d, hero))
        prevented += min(amount - prevented, max(shield, 0))  # Armor and Pets (ARMOR-1, PET-1)
        left = amount - prevented
        if left > 0 and hero.active:
            spent = choose_blocks(hero.active, left) if blocks is None else blocks
            if spent:
                prevented += min(left, sum(hero.active[i].amount for i in spent))
                keep = tuple(a for i, a in enumerate(hero.active) if i not in spent)
                d.emit(ev.ActiveChanged(hero=hero_id, active=keep, rule="COMBAT-4"))
                for i in spent:
                    a = hero.active[i]
                    if a.kind is DieKind.SKILL:
                        exhaust(d, hero_id, a.uid, a.face, "ACTIVE-11")
                    else:  # a fatigue die spent as the ability says goes to the track
                        gain_fatigue(d, hero_id, a.kind, 1, "ACTIVE-9a")
        for reaction in hooks.REACT_TO_DAMAGE:
            prevented += reaction(d, hero_id, amount - prevented, react)
    hero = d.state.hero(hero_id)
    left = amount - prevented
    to_bonus = 0 if true_damage else min(hero.bonus_hp, left)
    to_hp = min(hero.hp, left - to_bonus)
    d.emit(
        ev.DamageDealt(
            source=source,
            target=hero_id,
            amount=amount,
            prevented=prevented,
            to_bonus=to_bonus,
            to_hp=to_hp,
            true_damage=true_damage,
            hp=hero.hp - to_hp,
            bonus_hp=hero.bonus_hp - to_bonus,
            rule=rule,
        )
    )
    if hero.hp - to_hp <= 0:
        defeat_hero(d, hero_id)
    return to_bonus + to_hp


def warding(d: Decision, hero: Hero) -> int:
    """What wards prevent of each damage instance ``hero`` suffers: its ward
    dice on the track, and what abilities add (``hooks.WARD``: item wards,
    ENCHANT-1, OVERTAX-3)."""
    return ward(d, hero) + sum(extra(d, hero) for extra in hooks.WARD)


def left_after_ward(d: Decision, hero: Hero, amount: int) -> int:
    """Damage left of ``amount`` once ``warding`` prevented its part."""
    return amount - min(amount, warding(d, hero))


def strike(d: Decision, target: Foe | Hero | Ally, physical: int, true_amount: int, *, source: str, rule: str) -> int:
    """An adventurer's pooled engage damage to its target, whoever it is (a
    Blind adventurer may strike an ally, facts: STATUS-1); the HP it took.
    An enemy's Defense prevents once (``hurt_foe``); an adventurer defends
    its physical and true parts as damage taken; a companion chip has no
    Defense, so the pool lands whole, as one instance (facts: ENGAGE-8c,
    adventurer damage to companions is pooled)."""
    if isinstance(target, Hero):
        lost = hurt_hero(d, target.id, physical, true_damage=False, source=source, rule=rule)
        return lost + hurt_hero(d, target.id, true_amount, true_damage=True, source=source, rule=rule)
    if isinstance(target, Ally):
        return hurt_ally(d, target.id, physical + true_amount, true_damage=physical == 0, source=source, rule=rule)
    return hurt_foe(d, target.id, physical, true_amount, source=source, rule=rule)


def defeat_hero(d: Decision, hero_id: str) -> None:
    """HEALTH-5: the last HP lost; active dice are exhausted (ACTIVE-7)."""
    empty_active(d, hero_id, "ACTIVE-7")
    d.emit(ev.UnitDefeated(unit=hero_id))


def hurt_foe(d: Decision, foe_id: str, physical: int, true_amount: int, *, source: str, rule: str) -> int:
    """Deal one pooled damage instance to an enemy: its Defense prevents once
    (ENGAGE-8c; facts: one Engage is one instance), true damage is not
    prevented. Returns the HP it lost."""
    foe = d.state.foe(foe_id)
    if foe.defeated or physical + true_amount <= 0:
        return 0
    defense = d.ctx.enemy(foe.enemy).defense
    prevented = min(defense, max(physical, 0))
    loss = min(foe.hp, physical - prevented + true_amount)
    d.emit(
        ev.DamageDealt(
            source=source,
            target=foe_id,
            amount=physical + true_amount,
            prevented=prevented,
            to_bonus=0,
            to_hp=loss,
            true_damage=true_amount > 0 and physical == 0,
            hp=foe.hp - loss,
            bonus_hp=0,
            rule=rule,
        )
    )
    if foe.hp - loss <= 0:
        defeat_foe(d, foe_id)
    return loss


def lift_mark(d: Decision, foe_id: str, status: Status, rule: str) -> None:
    """A status comes off an enemy; its die is exhausted to its owner's
    track (STATUS-2)."""
    foe = d.state.foe(foe_id)
    for mark in foe.marks:
        if mark.status is status:
            d.emit(ev.StatusLifted(foe=foe_id, status=status, rule=rule))
            if not mark.uid:  # placed by an item: no die to exhaust, back to the supply
                return
            if mark.uid:  # a class ability's status (uid 0) has no die to return
                owner = d.state.hero(mark.owner)
                face = _status_face(d, owner, mark.uid, status)
                exhaust(d, mark.owner, mark.uid, face, "STATUS-2")
            return


def _status_face(d: Decision, hero, uid: int, status: Status) -> int:
    """The face that placed ``status`` (a die may show several statuses)."""
    for i, face in enumerate(die_of(d, hero, uid).faces):
        if face.status is status:
            return i
    return -1


def defeat_foe(d: Decision, foe_id: str) -> None:
    """An enemy is defeated; its status effects come off after it
    (STATUS-4), then it leaves the map."""
    for mark in d.state.foe(foe_id).marks:
        lift_mark(d, foe_id, mark.status, "STATUS-4")
    d.emit(ev.UnitDefeated(unit=foe_id))


def heal_hero(d: Decision, hero_id: str, amount: int, *, bonus: bool = False) -> None:
    """Heal up to the Health maximum (facts: healing is HP actually gained),
    or gain bonus HP, which may exceed it (HEALTH-8)."""
    hero = d.state.hero(hero_id)
    if hero.defeated or amount <= 0:
        return
    if bonus:
        d.emit(ev.Healed(unit=hero_id, amount=amount, hp=hero.hp, bonus_hp=hero.bonus_hp + amount))
        return
    gained = min(amount, max(0, hero.max_hp - hero.hp))
    if gained:
        d.emit(ev.Healed(unit=hero_id, amount=gained, hp=hero.hp + gained, bonus_hp=hero.bonus_hp))


def heal_foe(d: Decision, foe_id: str, amount: int) -> None:
    """An enemy heals up to its chip's HP (the regenerate skill)."""
    foe = d.state.foe(foe_id)
    gained = min(amount, max(0, foe.max_hp - foe.hp))
    if gained and not foe.defeated:
        d.emit(ev.Healed(unit=foe_id, amount=gained, hp=foe.hp + gained, bonus_hp=0))
