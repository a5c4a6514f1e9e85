"""Items in battle (betrayal.md §B14 to §B18): using a ready item on your
turn (``UseGear``), the one Weapon of an Engage, Armor and Pets against an
enemy's engage, Overtax and its discard, and the Breton's Opportunist
(RACE-BRETON).

Defaults (ours, listed in RULES-COVERAGE.md):

- An item whose card names no timing is used on its owner's own turn
  (ITEM-5; the Place Adventurers step is automatic, so not there).
- Potions and Miscellaneous items are expended once used (POTION-2,
  EXPEND-1); Consumables are discarded (CONSUMABLE-1) and reach every
  adventurer on your hex or next to it; Weapons, Armor and Pets stay
  (ITEM-8) and are used again and again.
- Without the choose-defense option, an Armor or Pet acts once its wearer
  put it on guard on its own turn (``UseGear``; ARMOR-2: decided before the
  damage): from then on at every enemy engage against the wearer, Armor
  first. An Armor's Overtax is readied the same way (``overtax``) for the
  next such engage. With the option, the Defend command chooses, and by
  default uses every ready Armor and Pet. (Logs played before items
  existed hold ready Armor that never acted: they still decide the same.)
- A Pet prevents its amount of physical damage left after wards and
  Armor, and takes an HP chip each time (PET-2); never true damage.
- An Overtaxed item is discarded as soon as the engage it served ends:
  the player's engage once resolved, an enemy's as its blow lands
  (OVERTAX-4). A Breton's first Overtax of a Weapon or Armor returns the
  item to the Pack instead, by itself, and lets it ready one other Pack
  item any time later in the battle (RACE-BRETON).
- An item-placed status on an enemy has no die behind it: it goes back to
  the supply when it comes off.
"""

from __future__ import annotations

from collections.abc import Callable

from domain.kernel.errors import MalformedCommand, RuleViolation
from domain.kernel.hexes import Hex, as_hex, distance, name

from domain.betrayal.packs.catalog_campaign import AbilityEffect, Gear
from domain.betrayal.vocab import Attaches, EffectKind, ItemKind

from .. import exploration
from .. import flow, hooks
from .. import events as ev
from .. import track as tracks
from ..abilities.race import reveler_dice
from ..choices import check_positions
from ..commands import BattleCommand, Defend, Engage, UseGear
from ..context import ENEMY_DIE, ENEMY_DIE_FACES, MAX_TENACITY
from ..damage import heal_hero, left_after_ward, strike
from ..decision import Decision
from ..heroes import lose_status, statuses
from ..hooks import EngageExtra, EngagePool
from ..reach import Target, find_unit, occupied
from ..state import ActiveDie, Foe, Hero, Phase, Rolled, StatusMark
from .evolve import ENCHANT_RULE, engage_mark
from .wards import attached_to, tile_key

READY_SLOTS = 4  # READY-1
KIND_RULE = {
    ItemKind.WEAPON: "WEAPON-1",
    ItemKind.ARMOR: "ARMOR-1",
    ItemKind.CLOTHING: "CLOTHING-1",
    ItemKind.POTION: "POTION-1",
    ItemKind.CONSUMABLE: "CONSUMABLE-1",
    ItemKind.ENCHANTMENT: "ENCHANT-1",
    ItemKind.PET: "PET-1",
    ItemKind.MISC: "MISC-1",
}
SELF_EFFECTS = (
    EffectKind.HEAL,
    EffectKind.BONUS_HP,
    EffectKind.TENACITY,
    EffectKind.RECOVER,
    EffectKind.CLEANSE,
    EffectKind.WARD,
    EffectKind.MOVE,
)


def card(d: Decision, item: str) -> Gear:
    """The item card of ``item`` (MalformedCommand when the pack has none)."""
    found = d.ctx.pack.gear.get(item)
    if found is None:
        raise MalformedCommand(f"no item {item!r} in this content pack")
    return found


def kind_of(d: Decision, item: str) -> ItemKind | None:
    found = d.ctx.pack.gear.get(item)
    return found.kind if found is not None else None


def ready_card(d: Decision, hero: Hero, item: str) -> Gear:
    """Refuse an item that is not in a ready slot (ITEM-6, READY-2, READY-3,
    ENCHANT-2, OVERTAX-5) or that is expended (EXPEND-1); else its card."""
    found = card(d, item)
    if item not in hero.ready:
        if any(i == item for i, _ in hero.attached):
            raise RuleViolation("ENCHANT-2", f"{found.name} is attached and no longer part of the inventory")
        if item in hero.discarded:
            raise RuleViolation("OVERTAX-5", f"{found.name} was discarded and cannot be used again")
        if item in hero.packed:
            raise RuleViolation(
                "READY-3", f"{found.name} is in {hero.name}'s Pack: Pack items cannot be used in battle"
            )
        raise RuleViolation(
            "ITEM-6",
            f"{found.name} is not in {hero.name}'s ready slots: "
            "in battle only the items of the 4 ready slots can be used",
        )
    if item in hero.expended:
        raise RuleViolation("EXPEND-1", f"{found.name} is expended: it cannot be used until it is replenished")
    return found


def _user(d: Decision, hero_id: str | None) -> Hero:
    return d.user(hero_id, "item")


def _own_turn(d: Decision, hero: Hero, found: Gear) -> None:
    """ITEM-5: an item with no timing is used on its owner's own turn, not
    while an engage's dice wait (TURN-5)."""
    s = d.state
    if s.turn is None or s.turn.hero != hero.id:
        raise RuleViolation("ITEM-5", f"{found.name} names no timing, so it is used on {hero.name}'s own turn")
    if s.phase is not Phase.ADVENTURER_TURN:
        raise RuleViolation("ITEM-5", "resolve the engage's dice first: the item is used between actions")


# --- the command -------------------------------------------------------------------


def use(d: Decision, cmd: UseGear) -> None:
    """Decide a UseGear: refuse with the rule that forbids it, else use the
    item by its type."""
    hero = _user(d, cmd.hero)
    if hero.defeated:
        raise RuleViolation("HEALTH-5", f"{hero.name} is defeated")
    if cmd.item in hero.packed and hero.opportunist and cmd.item not in hero.stowed:
        _ready_from_pack(d, hero, cmd)
        return
    if cmd.item not in hero.ready and cmd.item in attached_to(d, hero):
        _enchantment_reroll(d, hero, cmd)
        return
    found = ready_card(d, hero, cmd.item)
    kind = found.kind
    if kind is ItemKind.WEAPON:
        if hero.wielding:
            raise RuleViolation(
                "WEAPON-2", f"only 1 Weapon is used per engage: {card(d, hero.wielding).name} serves this one"
            )
        raise RuleViolation("WEAPON-3", "a Weapon is chosen before rolling: engage with --weapon")
    if kind is ItemKind.ARMOR:
        _brace(d, hero, found, cmd)
        return
    if kind is ItemKind.PET:
        _guard(d, hero, found, cmd, "PET-1")
        return
    if kind is ItemKind.CLOTHING:
        raise RuleViolation("CLOTHING-1", f"{found.name} grants a class ability: use that ability instead")
    effect = found.effect
    if effect is None:
        raise MalformedCommand(f"{found.name} has no effect to use")
    if kind is ItemKind.ENCHANTMENT:  # used by attaching it (ENCHANT-2); its effect works from there
        _own_turn(d, hero, found)
        _attach(d, hero, found, cmd)
        return
    if effect.kind is EffectKind.REROLL:
        _reroll(d, hero, found, effect, cmd, KIND_RULE[kind])
        _spend(d, hero, found)
        return
    _own_turn(d, hero, found)
    _only(found, cmd, *(("hex",) if effect.kind is EffectKind.MOVE else ()))
    if effect.kind not in SELF_EFFECTS:
        raise MalformedCommand(f"{found.name}'s effect ({effect.kind.value}) is not one a battle can apply")
    recipients = _recipients(d, hero, kind)
    if effect.kind is EffectKind.MOVE:
        route = _move_route(d, hero, effect.amount, cmd.hex)
        d.emit(ev.GearUsed(hero=hero.id, item=found.id, overtax=False, rule=KIND_RULE[kind]))
        _free_move(d, hero, route, KIND_RULE[kind])
    else:
        d.emit(ev.GearUsed(hero=hero.id, item=found.id, overtax=False, rule=KIND_RULE[kind]))
        for target in recipients:
            apply_self(d, target, effect, KIND_RULE[kind])
    _spend(d, d.state.hero(hero.id), found)
    flow.finish_if_fallen(d, hero.id)


def _only(found: Gear, cmd: UseGear, *allowed: str) -> None:
    given = {"target": cmd.target, "overtax": cmd.overtax, "dice": cmd.dice, "faces": cmd.faces, "hex": cmd.hex}
    extra = [k for k, v in given.items() if v not in ((), None, "", False) and k not in allowed]
    if extra:
        raise MalformedCommand(f"{found.name} takes no --{extra[0]}")


def _recipients(d: Decision, hero: Hero, kind: ItemKind) -> list[str]:
    """CONSUMABLE-1: a Consumable reaches every adventurer on your hex or
    next to it (our cards say so); other items only their user."""
    if kind is not ItemKind.CONSUMABLE or hero.pos is None:
        return [hero.id]
    near = [
        h.id
        for h in d.state.heroes
        if h.id != hero.id and not h.defeated and h.pos is not None and distance(h.pos, hero.pos) <= 1
    ]
    return [hero.id, *near]


def _spend(d: Decision, hero: Hero, found: Gear) -> None:
    """After use: a Potion is expended (POTION-2), a Consumable discarded
    (CONSUMABLE-1), a Miscellaneous item expended (EXPEND-1; facts:
    non-Potions refresh only by effects that say so). ITEM-8: nothing else
    is discarded."""
    if found.id not in hero.ready:
        return  # an attached Enchantment stays where it is
    if found.kind is ItemKind.POTION:
        d.emit(ev.GearExpended(hero=hero.id, item=found.id, rule="POTION-2"))
    elif found.kind is ItemKind.CONSUMABLE:
        d.emit(ev.GearDiscarded(hero=hero.id, item=found.id, rule="CONSUMABLE-1"))
    elif found.kind is ItemKind.MISC:
        d.emit(ev.GearExpended(hero=hero.id, item=found.id, rule="EXPEND-1"))


def apply_self(d: Decision, hero_id: str, effect: AbilityEffect, rule: str) -> int:
    """An effect on the adventurer ``hero_id`` itself; returns the damage it
    prevents at once (a block), 0 for the others."""
    hero = d.state.hero(hero_id)
    if hero.defeated:
        return 0
    kind, amount = effect.kind, effect.amount
    if kind is EffectKind.BLOCK:
        return amount
    if kind is EffectKind.HEAL:
        heal_hero(d, hero_id, amount)
    elif kind is EffectKind.BONUS_HP:
        heal_hero(d, hero_id, amount, bonus=True)
    elif kind is EffectKind.TENACITY:
        tenacity = min(MAX_TENACITY, hero.tenacity + amount)
        if tenacity > hero.tenacity:
            d.emit(ev.TenacityGained(hero=hero_id, amount=tenacity - hero.tenacity, tenacity=tenacity))
    elif kind is EffectKind.RECOVER:  # as the Recovery step does, from the left (RECOVER-1 to RECOVER-5)
        rec = tracks.recover(hero.track, amount)
        if rec.recovered or rec.discarded or rec.replaced_overfatigue:
            d.emit(
                ev.DiceRecovered(
                    hero=hero_id,
                    recovered=rec.recovered,
                    discarded=rec.discarded,
                    replaced_overfatigue=rec.replaced_overfatigue,
                    track=rec.track,
                )
            )
    elif kind is EffectKind.CLEANSE:
        for status in sorted(statuses(hero), key=lambda s: s.value)[:amount]:
            lose_status(d, hero_id, status, rule)
    elif kind is EffectKind.WARD:
        d.emit(ev.WardRaised(hero=hero_id, amount=amount, rule=rule))
    return 0


# --- free movement (a Miscellaneous item) ---------------------------------------------


def _move_route(d: Decision, hero: Hero, limit: int, to: Hex | None) -> list[Hex]:
    """The free route to ``to``, both ends included (MISC-1)."""
    if to is None:
        raise MalformedCommand("name the hex to move to (--hex)")
    to = as_hex(to)
    board = d.ctx.board
    if not board.contains(to) or not board.passable(to):
        raise RuleViolation("MISC-1", f"hex {name(to)} cannot be entered")
    taken = occupied(d) - {hero.pos}
    if to == hero.pos or to in taken:
        raise RuleViolation("MISC-1", f"hex {name(to)} is occupied")
    route = board.path(hero.at, to, taken)
    if route is None or len(route) - 1 > limit:
        raise RuleViolation("MISC-1", f"hex {name(to)} is not within {limit} hexes by a free route")
    return route


def _free_move(d: Decision, hero: Hero, route: list[Hex], rule: str) -> None:
    """Free movement along ``route``, not a Move action; in a delve it stops
    for what the entered hexes set off, then goes on (MOVE-5)."""
    start = 0
    for i in range(1, len(route)):
        stop = d.delve is not None and exploration.interrupts(d, route[i], route[i - 1])
        if not stop and i < len(route) - 1:
            continue
        d.emit(
            ev.HeroMovedFreely(
                hero=hero.id, path=tuple(route[start + 1 : i + 1]), left=d.state.hero(hero.id).free_move, rule=rule
            )
        )
        if not stop:
            break
        start = i
        exploration.entered(d, hero.id, route[i], route[i - 1])
        if d.state.hero(hero.id).defeated:
            break


# --- Enchantments (ENCHANT-1, ENCHANT-2) ---------------------------------------------------


def _attach(d: Decision, hero: Hero, found: Gear, cmd: UseGear) -> None:
    """ENCHANT-1/2: the Enchantment leaves the inventory and goes on an
    adventurer (``target``, yourself by default) or on the Clash tile you
    stand on (facts: "collision tile" is the Clash tile)."""
    _only(found, cmd, "target")
    if found.attaches == Attaches.CLASH_TILE.value:
        tile = d.ctx.board.tile_of(hero.pos) if hero.pos is not None else None
        if d.delve is not None or tile in (None, "E", "#"):
            raise RuleViolation(
                "ENCHANT-1",
                f"{found.name} is laid on a Clash tile: {hero.name} must stand on one (not the Entrance tile)",
            )
        on = tile_key(tile)
    else:
        target = cmd.target or hero.id
        try:
            other = d.state.hero(target)
        except KeyError:
            raise MalformedCommand(f"no adventurer {target!r} in this battle") from None
        if other.defeated:
            raise RuleViolation("ENCHANT-1", f"{other.name} is defeated")
        on = other.id
    d.emit(ev.GearUsed(hero=hero.id, item=found.id, overtax=False, rule="ENCHANT-1"))
    d.emit(ev.GearAttached(hero=hero.id, item=found.id, on=on, rule="ENCHANT-2"))


def _enchantment_reroll(d: Decision, hero: Hero, cmd: UseGear) -> None:
    """An Enchantment attached to ``hero`` rerolls dice of its engage, once
    per engage (its card)."""
    found = card(d, cmd.item)
    effect = found.effect
    if effect is None or effect.kind is not EffectKind.REROLL:
        raise RuleViolation("ENCHANT-2", f"{found.name} is attached: its effect applies by itself")
    if hero.enchanted_engage == engage_mark(d.state) and d.state.phase is Phase.ENGAGE_RESOLVE:
        raise RuleViolation("ENCHANT-1", f"{found.name} rerolls once in each engage")
    _reroll(d, hero, found, effect, cmd, ENCHANT_RULE)


# --- rerolls (Miscellaneous items, Enchantments) -----------------------------------------


def _reroll(d: Decision, hero: Hero, found: Gear, effect: AbilityEffect, cmd: UseGear, rule: str) -> None:
    """Reroll up to the card's amount (its ``effect``'s) of the dice just
    rolled (at those roll positions), while they wait to be resolved
    (ITEM-3: the card's timing)."""
    s = d.state
    pending = s.pending
    if s.phase is not Phase.ENGAGE_RESOLVE or pending is None or pending.hero != hero.id:
        raise RuleViolation(
            "ITEM-3", f"{found.name} rerolls dice {hero.name} just rolled: use it while they wait to be resolved"
        )
    _only(found, cmd, "dice", "faces")
    limit = effect.amount
    check_positions(
        cmd.dice,
        len(pending.dice),
        limit,
        rule=rule,
        too_many=f"{found.name} rerolls up to {limit} dice",
        name_them="name the roll positions of the dice to reroll (--dice)",
        missing="there is no rolled die at position {n}",
    )
    counter, typed = s.rng, False
    if s.options.physical_dice:
        if cmd.faces is None or len(cmd.faces) != len(cmd.dice):
            raise MalformedCommand(f"physical dice: type one face (1-6) for each of the {len(cmd.dice)} dice rerolled")
        for i, f in zip(cmd.dice, cmd.faces):
            if not 0 <= f < _sides(d, pending.dice[i]):
                raise MalformedCommand(f"that die has faces 1 to {_sides(d, pending.dice[i])}, not {f + 1}")
        faces, typed = list(cmd.faces), True
    else:
        if cmd.faces is not None:
            raise MalformedCommand(
                "this battle rolls its own dice; faces can be typed only with the physical-dice option"
            )
        faces, counter = d.roll(len(cmd.dice))
    new = dict(zip(cmd.dice, faces))
    dice = tuple(Rolled(r.uid, r.die, new[i]) if i in new else r for i, r in enumerate(pending.dice))
    d.emit(ev.GearUsed(hero=hero.id, item=found.id, overtax=False, rule=rule))
    d.emit(ev.DiceRerolled(hero=hero.id, positions=tuple(cmd.dice), dice=dice, counter=counter, typed=typed, rule=rule))


def _sides(d: Decision, rolled: Rolled) -> int:
    return len(ENEMY_DIE_FACES) if rolled.die == ENEMY_DIE else len(d.ctx.die(rolled.die).faces)


# --- Weapons (WEAPON-1 to WEAPON-3, OVERTAX-2, ENGAGE-7e) --------------------------------------


def engage_weapon(d: Decision, hero: Hero, cmd: Engage) -> Gear | None:
    """Check the Engage's Weapon before anything is rolled (WEAPON-3): a
    ready, unexpended Weapon serving the engage's form (ENGAGE-7e), its
    Overtax only if it has one (OVERTAX-1)."""
    weapon = getattr(cmd, "weapon", "")
    if not weapon:
        if getattr(cmd, "overtax", False):
            raise MalformedCommand("--overtax needs the Weapon it overtaxes (--weapon)")
        return None
    found = ready_card(d, hero, weapon)
    if found.kind is not ItemKind.WEAPON:
        raise RuleViolation("WEAPON-1", f"{found.name} is not a Weapon")
    if found.form is not None and found.form is not cmd.form:
        raise RuleViolation("ENGAGE-7e", f"{found.name} serves the {found.form.value} form, not {cmd.form.value}")
    if cmd.overtax and found.overtax is None:
        raise RuleViolation("OVERTAX-1", f"{found.name} has no Overtax")
    return found


def weapon_dice(found: Gear | None, overtax: bool) -> int:
    """Free enemy Combat dice the Weapon adds to the roll (ENGAGE-7c)."""
    if found is None:
        return 0
    effects = [found.effect, found.overtax if overtax else None]
    return sum(e.amount for e in effects if e is not None and e.kind is EffectKind.EXTRA_DICE)


def wield(d: Decision, hero_id: str, found: Gear | None, overtax: bool) -> None:
    """The Weapon is applied to the engage just declared (WEAPON-1)."""
    if found is not None:
        d.emit(
            ev.WeaponWielded(hero=hero_id, item=found.id, overtax=overtax, rule="OVERTAX-2" if overtax else "WEAPON-1")
        )


def weapon_declaring(d: Decision, hero: Hero, cmd: Engage) -> EngageExtra:
    """An Engage about to be declared (``hooks.ENGAGE_DECLARING``): its
    Weapon checked before anything is rolled (``engage_weapon``), the free
    dice it adds, and wielding it once the Engage is declared."""
    weapon = engage_weapon(d, hero, cmd)
    if weapon is None:
        return EngageExtra()
    return EngageExtra(dice=weapon_dice(weapon, cmd.overtax), declared=lambda: wield(d, hero.id, weapon, cmd.overtax))


def weapon_strike(d: Decision, hero_id: str, target: Target | None, pool: EngagePool) -> None:
    """Resolve the wielded Weapon's effects into the engage (its basic
    effect, and its Overtax if triggered): damage joins ``pool``, a status
    goes on the target, a block onto an active die, the rest on the user."""
    hero = d.state.hero(hero_id)
    if not hero.wielding:
        return
    found = card(d, hero.wielding)
    overtax = hero.wield_overtax
    d.emit(ev.GearUsed(hero=hero_id, item=found.id, overtax=overtax, rule="OVERTAX-2" if overtax else "WEAPON-1"))
    for effect in (found.effect, found.overtax if overtax else None):
        if effect is None or effect.kind is EffectKind.EXTRA_DICE:  # extra dice were rolled with the rest
            continue
        if effect.kind is EffectKind.DAMAGE and target is not None:
            pool.physical += effect.amount
        elif effect.kind is EffectKind.TRUE_DAMAGE and target is not None:
            pool.true += effect.amount
        elif effect.kind is EffectKind.STATUS and isinstance(target, Foe):
            _item_status(d, hero_id, target.id, effect)
        elif effect.kind is EffectKind.BLOCK:
            _boost_block(d, hero_id, effect.amount)
        elif effect.kind in SELF_EFFECTS and effect.kind is not EffectKind.MOVE:
            apply_self(d, hero_id, effect, "WEAPON-1")


def weapon_alone(d: Decision, hero_id: str, target_id: str | None) -> None:
    """An engage that rolled no dice still applies its Weapon (ENGAGE-7 is
    optional): its damage is the engage's one instance."""
    if not d.state.hero(hero_id).wielding:
        return
    target: Target | None = None
    if target_id is not None:
        target = find_unit(d, target_id, allies=True)
    blow = EngagePool()
    weapon_strike(d, hero_id, target, blow)
    if target is None or not (blow.physical or blow.true):
        return
    strike(d, target, blow.physical, blow.true, source=hero_id, rule="WEAPON-1")


def _item_status(d: Decision, hero_id: str, foe_id: str, effect: AbilityEffect) -> None:
    """A status from an item (no die behind it, uid 0): one of each at a
    time (STATUS-7), none on quest units (STATUS-3)."""
    foe = d.state.foe(foe_id)
    if foe.defeated or foe.quest or effect.status is None or any(m.status is effect.status for m in foe.marks):
        return
    d.emit(ev.StatusPlaced(foe=foe_id, mark=StatusMark(effect.status, hero_id, 0)))


def _boost_block(d: Decision, hero_id: str, amount: int) -> None:
    """Add to the active die with the most left to block (a Defensive engage's Weapon)."""
    hero = d.state.hero(hero_id)
    if not hero.active:
        return
    best = max(range(len(hero.active)), key=lambda i: (hero.active[i].amount, -i))
    active = tuple(
        ActiveDie(a.kind, a.uid, a.face, a.amount + amount) if i == best else a for i, a in enumerate(hero.active)
    )
    d.emit(ev.ActiveChanged(hero=hero_id, active=active, rule="WEAPON-1"))


def engage_over(d: Decision, hero: Hero) -> None:
    """The engage ``hero`` wielded a Weapon in has ended (EngageResolved;
    ``hero`` as the engage left it): an Overtaxed Weapon is discarded right
    after it (OVERTAX-4), or returned to the Pack (RACE-BRETON)."""
    if hero.wielding and hero.wield_overtax:
        overtaxed(d, hero.id, hero.wielding)


def overtaxed(d: Decision, hero_id: str, item: str) -> None:
    """OVERTAX-4: discard the item after the engage it served; a Breton's
    first Overtax of a Weapon or Armor returns it to the Pack instead, and
    one other Pack item may then be readied (RACE-BRETON)."""
    hero = d.state.hero(hero_id)
    if item not in hero.ready:
        return
    if hero.race == "breton" and not hero.race_used and kind_of(d, item) in (ItemKind.WEAPON, ItemKind.ARMOR):
        d.emit(ev.RaceAbilityUsed(hero=hero_id, race=hero.race, rule="RACE-BRETON"))
        d.emit(ev.GearStowed(hero=hero_id, item=item, rule="RACE-BRETON"))
        return
    d.emit(ev.GearDiscarded(hero=hero_id, item=item, rule="OVERTAX-4"))


def _ready_from_pack(d: Decision, hero: Hero, cmd: UseGear) -> None:
    """RACE-BRETON: after Opportunist, move one other Pack item to a ready slot."""
    found = card(d, cmd.item)
    _only(found, cmd)
    if len(hero.ready) >= READY_SLOTS:
        raise RuleViolation("READY-1", f"{hero.name}'s {READY_SLOTS} ready slots are full")
    d.emit(ev.GearReadied(hero=hero.id, item=cmd.item, rule="RACE-BRETON"))


# --- Armor and Pets against an enemy's engage (ARMOR-1, ARMOR-2, OVERTAX-3, PET-1 to PET-3) ----


def _brace(d: Decision, hero: Hero, found: Gear, cmd: UseGear) -> None:
    """On the own turn, put an Armor on guard (ARMOR-2: decided before the
    damage), or with ``overtax`` ready its Overtax for the next enemy engage
    against its wearer (OVERTAX-3)."""
    if not cmd.overtax:
        _guard(d, hero, found, cmd, "ARMOR-2")
        return
    _only(found, cmd, "overtax")
    _own_turn(d, hero, found)
    if found.overtax is None:
        raise RuleViolation("OVERTAX-1", f"{found.name} has no Overtax")
    if found.id in hero.braced:
        raise RuleViolation("OVERTAX-3", f"{found.name}'s Overtax is readied already")
    d.emit(ev.GearBraced(hero=hero.id, item=found.id, overtax=True, rule="OVERTAX-3"))


def _guard(d: Decision, hero: Hero, found: Gear, cmd: UseGear, rule: str) -> None:
    """Put an Armor or a Pet on guard: it acts at every enemy engage against
    its wearer from now on (ARMOR-1, PET-1)."""
    _only(found, cmd)
    _own_turn(d, hero, found)
    if found.id in hero.guarding:
        raise RuleViolation(rule, f"{found.name} is on guard already")
    d.emit(ev.GearBraced(hero=hero.id, item=found.id, overtax=False, rule=rule))


def defenders(d: Decision, hero: Hero) -> tuple[list[str], list[str]]:
    """The ready, unexpended Armor and Pets of ``hero`` (READY-2)."""
    armor = [i for i in hero.ready if kind_of(d, i) is ItemKind.ARMOR and i not in hero.expended]
    pets = [i for i in hero.ready if kind_of(d, i) is ItemKind.PET and i not in hero.expended]
    return armor, pets


def can_brace(d: Decision, hero: Hero) -> bool:
    """Whether ``hero`` has Armor or a Pet to choose about (ARMOR-2)."""
    armor, pets = defenders(d, hero)
    return bool(armor or pets)


def defense_choice(d: Decision, hero: Hero, cmd: Defend) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """A Defend's items: which ready Armor and Pets to use and which Armor
    to Overtax (ARMOR-2, OVERTAX-3); None leaves the default."""
    gear = getattr(cmd, "gear", None)
    overtax = tuple(getattr(cmd, "overtax", ()))
    if gear is None and not overtax:
        return None
    armor, pets = defenders(d, hero)
    use = tuple(armor + pets) if gear is None else tuple(gear)
    if len(set(use)) != len(use) or len(set(overtax)) != len(overtax):
        raise MalformedCommand("an item is named twice")
    for item in use:
        found = ready_card(d, hero, item)
        if found.kind not in (ItemKind.ARMOR, ItemKind.PET):
            raise RuleViolation(
                "ITEM-4", f"{found.name} is not an Armor or a Pet: only those act during an enemy's engage"
            )
    for item in overtax:
        found = ready_card(d, hero, item)
        if found.kind is not ItemKind.ARMOR:
            raise RuleViolation("OVERTAX-3", f"{found.name} is not an Armor")
        if found.overtax is None:
            raise RuleViolation("OVERTAX-1", f"{found.name} has no Overtax")
    use = use + tuple(i for i in overtax if i not in use)
    return use, overtax


def brace(
    d: Decision,
    hero_id: str,
    amount: int,
    true_damage: bool,
    choice: tuple[tuple[str, ...], tuple[str, ...]] | None = None,
) -> tuple[int, tuple[str, ...]]:
    """Armor, then Pets, against ``amount`` damage of an enemy's engage
    (ARMOR-1, PET-1): what they prevent (the ``shield`` ``hurt_hero`` takes)
    and the Armor Overtaxed (discarded once the blow lands, OVERTAX-4).
    ``choice`` is the Defend's (items used, items Overtaxed); by default
    the Armor and Pets on guard, and the Armor readied to Overtax."""
    hero = d.state.hero(hero_id)
    if hero.defeated or amount <= 0 or true_damage:
        return 0, ()
    left = left_after_ward(d, hero, amount)
    if left <= 0:
        return 0, ()
    armor, pets = defenders(d, hero)
    if choice is None:
        use, overtax = set(hero.guarding), tuple(i for i in hero.braced if i in armor)
    else:
        use, overtax = set(choice[0]), choice[1]
    shield = 0
    for item in armor:
        if item not in use:
            continue
        found = card(d, item)
        over = item in overtax and found.overtax is not None
        d.emit(ev.GearUsed(hero=hero_id, item=item, overtax=over, rule="OVERTAX-3" if over else "ARMOR-1"))
        prevent = 0
        for effect in (found.effect, found.overtax if over else None):
            if effect is not None:
                prevent += apply_self(d, hero_id, effect, "OVERTAX-3" if over else "ARMOR-1")
        prevent = min(prevent, max(0, left - shield))
        if prevent:
            d.emit(ev.DamagePrevented(hero=hero_id, amount=prevent, rule="ARMOR-1"))
            shield += prevent
    for item in pets:
        rest = left - shield
        if item not in use or rest <= 0:
            continue
        found = card(d, item)
        if found.effect is None or found.effect.kind is not EffectKind.BLOCK:
            continue
        prevent = min(rest, found.effect.amount)
        d.emit(ev.GearUsed(hero=hero_id, item=item, overtax=False, rule="PET-1"))
        d.emit(ev.DamagePrevented(hero=hero_id, amount=prevent, rule="PET-1"))
        shield += prevent
        chips = dict(d.state.hero(hero_id).chips).get(item, 0) + 1
        d.emit(ev.PetChipped(hero=hero_id, item=item, chips=chips, rule="PET-2"))
        if found.hp_limit and chips >= found.hp_limit:
            d.emit(ev.GearDiscarded(hero=hero_id, item=item, rule="PET-3"))
    return shield, tuple(i for i in overtax if i in use)


def after_blow(d: Decision, hero_id: str, spent: tuple[str, ...]) -> None:
    """The enemy's blow landed: the Armor Overtaxed against it goes (OVERTAX-4)."""
    for item in spent:
        overtaxed(d, hero_id, item)


def guard_blow(
    d: Decision, hero_id: str, amount: int, true_damage: bool, choice: tuple[tuple[str, ...], tuple[str, ...]] | None
) -> tuple[int, Callable[[], None]]:
    """An enemy's blow about to be dealt (``hooks.ENEMY_BLOW``): what Armor
    and Pets prevent (``brace``), and the Overtaxed Armor to discard once it
    landed (``after_blow``)."""
    shield, spent = brace(d, hero_id, amount, true_damage, choice)
    return shield, lambda: after_blow(d, hero_id, spent)


# --- legal commands --------------------------------------------------------------------


def legal(d: Decision, check) -> list[BattleCommand]:
    """Item uses open now, one per sensible choice (not every combination):
    ``check(cmd)`` says whether the rules accept one."""
    s = d.state
    out: list[BattleCommand] = []
    if s.turn is None:
        return out
    hero = s.hero(s.turn.hero)
    if hero.defeated:
        return out
    candidates: list[UseGear] = []
    if s.phase is Phase.ENGAGE_RESOLVE:
        faces = (0,) if s.options.physical_dice else None
        for item in (*hero.ready, *attached_to(d, hero)):
            found = d.ctx.pack.gear.get(item)
            if found is not None and found.effect is not None and found.effect.kind is EffectKind.REROLL:
                candidates.append(UseGear(item=item, dice=(0,), faces=faces))
    elif s.phase is Phase.ADVENTURER_TURN:
        for item in hero.ready:
            candidates += _turn_uses(d, hero, item)
        if hero.opportunist:
            candidates += [UseGear(item=i) for i in hero.packed if i not in hero.stowed][:1]
    for cmd in candidates:
        if cmd not in out and check(cmd):
            out.append(cmd)
    return out


def _turn_uses(d: Decision, hero: Hero, item: str) -> list[UseGear]:
    found = d.ctx.pack.gear.get(item)
    if found is None or item in hero.expended:
        return []
    if found.kind in (ItemKind.ARMOR, ItemKind.PET):
        out = [] if item in hero.guarding else [UseGear(item=item)]
        if found.overtax is not None and item not in hero.braced:
            out.append(UseGear(item=item, overtax=True))
        return out
    if found.kind in (ItemKind.WEAPON, ItemKind.CLOTHING) or found.effect is None:
        return []
    if found.effect.kind is EffectKind.MOVE:
        taken = occupied(d) - {hero.pos}
        reach = d.ctx.board.reachable(hero.at, taken, found.effect.amount)
        hexes = sorted((h for h in reach if h != hero.pos), key=lambda h: (h[1], h[0]))
        return [UseGear(item=item, hex=hexes[0])] if hexes else []
    return [UseGear(item=item)]


def legal_engages(d: Decision, hero: Hero, engages: list[Engage], check) -> list[Engage]:
    """Each plain Engage again with a ready Weapon of its form, with and
    without Overtax (free dice the Weapon adds get typed faces too)."""
    from msgspec.structs import replace

    out = []
    weapons = [i for i in hero.ready if kind_of(d, i) is ItemKind.WEAPON and i not in hero.expended]
    for cmd in engages:
        for item in weapons:
            found = card(d, item)
            if found.form is not None and found.form is not cmd.form:
                continue
            for over in (False, True) if found.overtax is not None else (False,):
                faces = cmd.faces
                if d.state.options.physical_dice:  # a face to type per die rolled, if any
                    n = len(cmd.dice) + reveler_dice(hero, cmd.form) + weapon_dice(found, over)
                    faces = (0,) * n if n else None
                variant = replace(cmd, weapon=item, overtax=over, faces=faces)
                if check(variant):
                    out.append(variant)
    return out


def legal_defenses(d: Decision, check) -> list[Defend]:
    """Defends that use no items, or Overtax the first Armor that has one."""
    pending = d.state.defense
    if pending is None:
        return []
    hero = d.state.hero(pending.targets[pending.index])
    armor, pets = defenders(d, hero)
    if not armor and not pets:
        return []
    out = [Defend(gear=())]
    over = [i for i in armor if card(d, i).overtax is not None]
    if over:
        out.append(Defend(overtax=(over[0],)))
    return [c for c in out if check(c)]


# --- hooks: where the core battle rules call the items (hooks.py) ------------------------

hooks.ENGAGE_DECLARING.register(hooks.Layer.ITEM, weapon_declaring)
hooks.ENGAGE_STRIKE.register(hooks.Layer.ITEM, weapon_strike)
hooks.ENGAGE_UNROLLED.register(hooks.Layer.ITEM, weapon_alone)
hooks.ENGAGE_RESOLVED.register(hooks.Layer.ITEM, engage_over)
hooks.ENEMY_BLOW.register(hooks.Layer.ITEM, guard_blow)
hooks.DEFENSE_OFFERED.register(hooks.Layer.ITEM, can_brace)
