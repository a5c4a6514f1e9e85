"""Scenario tests of items in battle (betrayal.md §B14 to §B18): ready
slots and the Pack, Overtax, Expend, each item type, and the Breton's
Opportunist and the Nord's Reveler count of Weapons.

Faces are forced with physical dice: an enemy Combat die shows miss, miss,
1, 1, 1, 2 (faces 1 to 6, typed 0 to 5); a Combat skill die T, 1, 1, 1, 1, 2.
"""

from __future__ import annotations

import pytest
from adventurer_arrange import LIGHT, foe_at, skill
from scenario import Scenario

from domain.betrayal.battle.commands import Defend, EndTurn, Engage, Resolve, RollEnemyDice, UseGear, UseRaceAbility
from domain.betrayal.battle.events import (
    DamageDealt,
    DamagePrevented,
    DefenseAwaited,
    DiceRecovered,
    DiceRerolled,
    DiceRolled,
    GearAttached,
    GearBraced,
    GearDiscarded,
    GearExpended,
    GearReadied,
    GearStowed,
    GearUsed,
    Healed,
    HeroMovedFreely,
    PetChipped,
    RaceAbilityUsed,
    StatusPlaced,
    TenacityGained,
    WeaponWielded,
)
from domain.betrayal.battle.state import Options, Phase, Rolled
from domain.betrayal.vocab import BattleForm, Status

MISS, ONE, TWO = 0, 2, 5  # enemy Combat die faces
C_ONE, C_TWO = 1, 5  # Combat skill die faces (T, 1, 1, 1, 1, 2)
DAGGER, BOW, BLADE, TARGE = "notched-dagger", "ashwood-shortbow", "emberglass-blade", "spiked-targe"
BRACERS, MAIL, SHIELD = "scuffed-bracers", "silent-warden-mail", "oak-plank-shield"
DRAUGHT, OATCAKE, CIDER = "bitterroot-draught", "honeyed-oatcake", "mulled-cider-jug"
LAMP, CHARM, ROPE = "sooty-lamp", "knucklebone-charm", "tarred-rope"
GLYPH, WARDSTONE, MUDCRAB = "glyph-of-steady-aim", "wardstone-sigil", "mudcrab-hatchling"


def clash(*party: str, **kw) -> Scenario:
    return Scenario.clash(party=party, physical_dice=True, **kw)


def armed(*ready: str, race: str = "imperial", enemy: str = "cave-troll", **hero) -> Scenario:
    """Ysolda next to one enemy, with ``ready`` items in her ready slots."""
    given = foe_at(clash(f"Ysolda:{race}").without_foes("e1"), 1, enemy=enemy)
    return given.with_hero("ysolda", ready=tuple(ready), **hero)


def struck(given: Scenario, face: int = TWO):
    """End Ysolda's turn; the enemy's dice all show ``face``."""
    rolled = given.when(EndTurn()).next()
    assert rolled.state.phase is Phase.ENEMY_ROLL
    return rolled.when(RollEnemyDice(faces=(face,) * rolled.state.enemy_roll.dice))


def strike_total(given: Scenario, face: int = TWO) -> int:
    return {MISS: 0, ONE: 1, TWO: 2}[face] * given.ctx.enemy(given.state.foe("e1").enemy).combat


def hurt(given: Scenario, then) -> DamageDealt:
    return then.then_has(DamageDealt, target="ysolda")


def light_engage(**kw) -> Engage:
    return Engage(form=BattleForm.LIGHT, target="e1", dice=(1,), faces=(C_ONE,), **kw)


# --- ready slots and the Pack (ITEM-6, READY-2, READY-3) ---------------------------------------


@pytest.mark.rule("ITEM-6")
def test_only_items_in_the_ready_slots_can_be_used_in_battle():
    given = armed(DRAUGHT)
    given.then_violates(UseGear(item=OATCAKE), "ITEM-6")
    given.then_violates(light_engage(weapon=DAGGER), "ITEM-6")
    given.when(UseGear(item=DRAUGHT)).then_has(GearUsed, item=DRAUGHT)


@pytest.mark.rule("READY-3")
def test_an_item_in_the_pack_cannot_be_used():
    given = armed(packed=(DRAUGHT, DAGGER))
    given.then_violates(UseGear(item=DRAUGHT), "READY-3")
    given.then_violates(light_engage(weapon=DAGGER), "READY-3")


@pytest.mark.rule("READY-2")
def test_an_armor_gives_its_effect_only_from_a_ready_slot():
    packed = struck(armed(packed=(BRACERS,)))
    assert hurt(packed.given, packed).prevented == 0
    ready = armed(BRACERS, guarding=(BRACERS,))
    then = struck(ready)
    assert hurt(ready, then).prevented == 1


# --- Weapons (WEAPON-1 to WEAPON-3, ENGAGE-7e, ITEM-8) ------------------------------------------


@pytest.mark.rule("WEAPON-1")
def test_a_weapon_adds_its_effect_to_the_engage():
    given = armed(BLADE)
    rolled = given.when(Engage(form=BattleForm.HEAVY, target="e1", dice=(1,), faces=(C_ONE,), weapon=BLADE))
    rolled.then_has(WeaponWielded, item=BLADE, overtax=False, rule="WEAPON-1")
    then = rolled.next().when(Resolve())
    defense = given.ctx.enemy("cave-troll").defense
    then.then_has(DamageDealt, target="e1", amount=1 + 2, prevented=min(defense, 3))
    assert then.state.hero("ysolda").wielding == ""


@pytest.mark.rule("WEAPON-1")
def test_a_ranged_weapon_adds_a_free_combat_die():
    given = foe_at(clash("Ysolda:imperial").without_foes("e1"), 2, enemy="cave-troll")
    given = given.with_hero("ysolda", ready=(BOW,))
    rolled = given.when(Engage(form=BattleForm.RANGED, target="e1", dice=(1,), faces=(C_ONE, TWO), weapon=BOW))
    rolled.then_has(DiceRolled, dice=(Rolled(1, "combat", C_ONE), Rolled(0, "enemy", TWO)))


@pytest.mark.rule("ENGAGE-7e")
def test_a_weapon_serves_only_its_own_battle_form():
    armed(BLADE).then_violates(light_engage(weapon=BLADE), "ENGAGE-7e")


@pytest.mark.rule("WEAPON-2")
def test_only_one_weapon_per_engage():
    rolled = armed(DAGGER, BLADE).when(light_engage(weapon=DAGGER)).next()
    rolled.then_violates(UseGear(item=BLADE), "WEAPON-2")


@pytest.mark.rule("WEAPON-3")
def test_a_weapon_is_decided_before_rolling():
    armed(DAGGER).then_violates(UseGear(item=DAGGER), "WEAPON-3")


@pytest.mark.rule("ITEM-8")
def test_an_item_stays_after_use_unless_it_says_to_discard_it():
    given = armed(DAGGER)
    then = given.when(light_engage(weapon=DAGGER)).next().when(Resolve())
    hero = then.state.hero("ysolda")
    assert DAGGER in hero.ready and not hero.discarded
    then.then_lacks(GearDiscarded)


# --- Overtax (OVERTAX-1 to OVERTAX-5) --------------------------------------------------------


@pytest.mark.rule("OVERTAX-2")
@pytest.mark.rule("OVERTAX-4")
def test_an_overtaxed_weapon_adds_its_overtax_then_is_discarded_after_the_engage():
    given = armed(DAGGER)
    rolled = given.when(light_engage(weapon=DAGGER, overtax=True))
    rolled.then_has(WeaponWielded, item=DAGGER, overtax=True, rule="OVERTAX-2")
    then = rolled.next().when(Resolve())
    then.then_has(StatusPlaced, foe="e1")
    assert then.state.foe("e1").marks[0].status is Status.BANE
    then.then_has(GearDiscarded, item=DAGGER, rule="OVERTAX-4")
    kinds = [type(e).__name__ for e in then.events]
    assert kinds.index("GearDiscarded") > kinds.index("EngageResolved")  # after the engage
    hero = then.state.hero("ysolda")
    assert DAGGER not in hero.ready and hero.discarded == (DAGGER,)


@pytest.mark.rule("OVERTAX-5")
def test_a_discarded_item_cannot_be_used_again():
    then = armed(DAGGER).when(light_engage(weapon=DAGGER, overtax=True)).next().when(Resolve()).next()
    then.then_violates(Engage(form=BattleForm.LIGHT, target="e1", weapon=DAGGER), "OVERTAX-5")


@pytest.mark.rule("OVERTAX-1")
def test_only_weapons_and_armor_with_an_overtax_can_overtax():
    given = armed(DAGGER, DRAUGHT, BRACERS)
    given.then_violates(light_engage(weapon=DRAUGHT), "WEAPON-1")
    braced = given.when(UseGear(item=BRACERS, overtax=True))
    braced.then_has(GearBraced, item=BRACERS, rule="OVERTAX-3")


# --- Armor (ARMOR-1, ARMOR-2, OVERTAX-3, ITEM-4) ---------------------------------------------


@pytest.mark.rule("ARMOR-1")
@pytest.mark.rule("ITEM-4")
def test_armor_prevents_damage_when_an_enemy_engages_you():
    given = armed(BRACERS, SHIELD).when(UseGear(item=BRACERS)).next().when(UseGear(item=SHIELD)).next()
    then = struck(given)
    total = strike_total(given)
    then.then_has(GearUsed, item=BRACERS, rule="ARMOR-1")
    then.then_has(DamagePrevented, hero="ysolda", rule="ARMOR-1")
    dealt = hurt(given, then)
    assert dealt.amount == total and dealt.prevented == min(total, 1 + 2)
    assert then.state.hero("ysolda").ready == (BRACERS, SHIELD)  # ITEM-8: armor stays


@pytest.mark.rule("ARMOR-2")
def test_without_choose_defense_an_armor_acts_once_put_on_guard_before_the_damage():
    given = armed(BRACERS)
    assert hurt(given, struck(given)).prevented == 0  # not chosen: it does not act
    guarded = given.when(UseGear(item=BRACERS))
    guarded.then_has(GearBraced, item=BRACERS, overtax=False, rule="ARMOR-2")
    guarded = guarded.next()
    guarded.then_violates(UseGear(item=BRACERS), "ARMOR-2")  # on guard already
    assert hurt(given, struck(guarded)).prevented == 1


@pytest.mark.rule("OVERTAX-3")
def test_an_armor_readied_to_overtax_adds_its_overtax_then_is_discarded():
    given = armed(BRACERS).with_hero("ysolda", hp=9, max_hp=9)
    braced = given.when(UseGear(item=BRACERS, overtax=True)).next()
    then = struck(braced)
    then.then_has(GearUsed, item=BRACERS, overtax=True, rule="OVERTAX-3")
    assert hurt(given, then).prevented == min(strike_total(given), 1 + 3)
    then.then_has(GearDiscarded, item=BRACERS, rule="OVERTAX-4")
    assert then.state.hero("ysolda").discarded == (BRACERS,)


@pytest.mark.rule("ARMOR-2")
def test_with_choose_defense_the_armor_is_chosen_before_damage():
    given = armed(BRACERS).with_state(options=Options(physical_dice=True, choose_defense=True))
    waiting = struck(given)
    waiting.then_has(DefenseAwaited, hero="ysolda")
    waiting = waiting.next()
    assert Defend(gear=()) in waiting.legal() and Defend(overtax=(BRACERS,)) in waiting.legal()
    none = waiting.when(Defend(gear=()))
    assert hurt(given, none).prevented == 0
    over = waiting.when(Defend(overtax=(BRACERS,)))
    assert hurt(given, over).prevented == min(strike_total(given), 4)
    over.then_has(GearDiscarded, item=BRACERS, rule="OVERTAX-4")
    waiting.then_violates(Defend(gear=(DRAUGHT,)), "ITEM-6")


@pytest.mark.rule("OVERTAX-3")
def test_an_armor_overtax_can_ward_or_give_bonus_hp():
    given = armed(MAIL).with_hero("ysolda", hp=9, max_hp=9)
    then = struck(given.when(UseGear(item=MAIL, overtax=True)).next())
    assert hurt(given, then).prevented == min(strike_total(given), 2 + 2)  # block 2, ward 2
    assert then.state.hero("ysolda").item_ward == 2  # until its next turn
    given = armed(SHIELD).with_hero("ysolda", hp=9, max_hp=9)
    then = struck(given.when(UseGear(item=SHIELD, overtax=True)).next())
    then.then_has(Healed, unit="ysolda", bonus_hp=3)


# --- Potions, Consumables, Miscellaneous items (POTION-*, CONSUMABLE-1, MISC-1, EXPEND-1, ITEM-5) ----


@pytest.mark.rule("POTION-1")
@pytest.mark.rule("POTION-2")
def test_a_potion_gives_its_effect_then_is_expended():
    given = armed(DRAUGHT).with_hero("ysolda", hp=1)
    then = given.when(UseGear(item=DRAUGHT))
    then.then_has(Healed, unit="ysolda", amount=3, hp=4)
    then.then_has(GearExpended, item=DRAUGHT, rule="POTION-2")
    hero = then.state.hero("ysolda")
    assert hero.expended == (DRAUGHT,) and DRAUGHT in hero.ready  # EXPEND-2: it keeps its slot


@pytest.mark.rule("EXPEND-1")
def test_an_expended_item_cannot_be_used_until_replenished():
    used = armed(DRAUGHT).with_hero("ysolda", hp=1).when(UseGear(item=DRAUGHT)).next()
    used.then_violates(UseGear(item=DRAUGHT), "EXPEND-1")
    armed(DRAUGHT, expended=(DRAUGHT,)).then_violates(UseGear(item=DRAUGHT), "EXPEND-1")


@pytest.mark.rule("CONSUMABLE-1")
def test_a_consumable_reaches_nearby_adventurers_then_is_discarded():
    given = clash("Ysolda:imperial", "Brand:orc")
    ysolda, brand = given.state.hero("ysolda"), given.state.hero("brand")
    given = given.with_hero("ysolda", ready=(CIDER,))
    from domain.kernel.hexes import distance

    assert distance(ysolda.pos, brand.pos) == 1
    then = given.when(UseGear(item=CIDER))
    then.then_has(TenacityGained, hero="ysolda", amount=1)
    then.then_has(TenacityGained, hero="brand", amount=1)
    then.then_has(GearDiscarded, item=CIDER, rule="CONSUMABLE-1")
    assert then.state.hero("ysolda").ready == () and then.state.hero("ysolda").discarded == (CIDER,)


@pytest.mark.rule("ITEM-5")
def test_an_item_without_timing_is_used_on_your_own_turn():
    given = clash("Ysolda:imperial", "Brand:orc").with_hero("brand", ready=(DRAUGHT,))
    given.then_violates(UseGear(item=DRAUGHT, hero="brand"), "ITEM-5")
    rolled = armed(DRAUGHT).when(light_engage()).next()
    rolled.then_violates(UseGear(item=DRAUGHT), "ITEM-5")


@pytest.mark.rule("ITEM-3")
def test_an_item_is_used_at_the_timing_on_its_card():
    given = armed(CHARM)
    given.then_violates(UseGear(item=CHARM, dice=(0,), faces=(C_TWO,)), "ITEM-3")  # nothing rolled yet
    rolled = given.when(light_engage()).next()
    then = rolled.when(UseGear(item=CHARM, dice=(0,), faces=(C_TWO,)))
    then.then_has(DiceRerolled, positions=(0,), dice=(Rolled(1, "combat", C_TWO),), rule="MISC-1")
    then.then_has(GearExpended, item=CHARM, rule="EXPEND-1")


@pytest.mark.rule("MISC-1")
def test_miscellaneous_items_work_as_their_cards_say():
    given = armed(LAMP).with_hero("ysolda", track=(skill(1, 1), LIGHT))
    then = given.when(UseGear(item=LAMP))
    then.then_has(DiceRecovered, hero="ysolda", recovered=(1,))
    assert then.state.hero("ysolda").track == (LIGHT,)
    start = clash("Ysolda:imperial").without_foes().with_hero("ysolda", ready=(ROPE,))
    reach = [c for c in start.legal() if isinstance(c, UseGear)]
    assert reach, "the rope offers a free move"
    moved = start.when(reach[0])
    moved.then_has(HeroMovedFreely, hero="ysolda", rule="MISC-1")
    assert moved.state.turn.moves == 0  # free movement, not a Move action


# --- Enchantments (ENCHANT-1, ENCHANT-2) ------------------------------------------------------


@pytest.mark.rule("ENCHANT-2")
def test_an_attached_enchantment_leaves_the_inventory():
    given = armed(GLYPH)
    then = given.when(UseGear(item=GLYPH))
    then.then_has(GearAttached, item=GLYPH, on="ysolda", rule="ENCHANT-2")
    hero = then.state.hero("ysolda")
    assert hero.ready == () and hero.attached == ((GLYPH, "ysolda"),)


@pytest.mark.rule("ENCHANT-1")
def test_an_enchantment_on_an_adventurer_rerolls_once_in_each_engage():
    given = armed(GLYPH).when(UseGear(item=GLYPH)).next()
    rolled = given.when(light_engage()).next()
    once = rolled.when(UseGear(item=GLYPH, dice=(0,), faces=(C_TWO,)))
    once.then_has(DiceRerolled, rule="ENCHANT-1")
    once.next().then_violates(UseGear(item=GLYPH, dice=(0,), faces=(C_ONE,)), "ENCHANT-1")


@pytest.mark.rule("ENCHANT-1")
def test_an_enchantment_on_the_clash_tile_wards_every_adventurer_on_it():
    armed(WARDSTONE).then_violates(UseGear(item=WARDSTONE), "ENCHANT-1")  # the Entrance is no Clash tile
    base = clash("Ysolda:imperial").without_foes("e1")
    board = base.ctx.board
    spot = next(
        h
        for h in board.all_hexes()
        if board.passable(h) and board.tile_of(h) not in ("E", "#") and base.state.foe("e1").pos != h
    )
    given = foe_at(base.with_hero("ysolda", pos=spot), 1, enemy="cave-troll")
    given = given.with_hero("ysolda", ready=(WARDSTONE,), hp=9, max_hp=9)
    then = given.when(UseGear(item=WARDSTONE))
    then.then_has(GearAttached, item=WARDSTONE, on=f"tile:{board.tile_of(spot)}", rule="ENCHANT-2")
    hit = struck(then.next())
    assert hurt(given, hit).prevented == min(strike_total(given), 1)


# --- Pets (PET-1 to PET-3) ------------------------------------------------------------------


@pytest.mark.rule("PET-1")
@pytest.mark.rule("PET-2")
@pytest.mark.rule("PET-3")
def test_a_pet_prevents_harm_takes_a_chip_each_time_and_goes_at_its_limit():
    given = armed(MUDCRAB).with_hero("ysolda", hp=20, max_hp=20, chips=((MUDCRAB, 2),))
    given = given.when(UseGear(item=MUDCRAB)).next()
    then = struck(given)
    then.then_has(DamagePrevented, hero="ysolda", amount=1, rule="PET-1")
    then.then_has(PetChipped, item=MUDCRAB, chips=3, rule="PET-2")
    then.then_has(GearDiscarded, item=MUDCRAB, rule="PET-3")
    assert then.state.hero("ysolda").ready == ()
    given.then_violates(UseGear(item=MUDCRAB), "PET-1")  # on guard already


@pytest.mark.rule("PET-2")
def test_a_pet_takes_no_chip_when_nothing_harms_you():
    then = struck(armed(MUDCRAB, guarding=(MUDCRAB,)), face=MISS)
    then.then_lacks(PetChipped)


# --- races (RACE-BRETON, RACE-NORD) ------------------------------------------------------------


@pytest.mark.rule("RACE-BRETON")
def test_opportunist_returns_the_first_overtaxed_weapon_to_the_pack_then_readies_a_pack_item():
    given = armed(DAGGER, race="breton", packed=(DRAUGHT,))
    given.then_violates(UseRaceAbility(), "RACE-BRETON")  # it acts by itself
    then = given.when(light_engage(weapon=DAGGER, overtax=True)).next().when(Resolve())
    then.then_has(RaceAbilityUsed, hero="ysolda", rule="RACE-BRETON")
    then.then_has(GearStowed, item=DAGGER, rule="RACE-BRETON")
    then.then_lacks(GearDiscarded)
    hero = then.state.hero("ysolda")
    assert hero.stowed == (DAGGER,) and DAGGER in hero.packed and hero.opportunist
    after = then.next()
    assert UseGear(item=DRAUGHT) in after.legal()
    after.then_violates(UseGear(item=DAGGER), "READY-3")  # not the item it just stowed
    readied = after.when(UseGear(item=DRAUGHT))
    readied.then_has(GearReadied, item=DRAUGHT, rule="RACE-BRETON")
    hero = readied.state.hero("ysolda")
    assert hero.ready == (DRAUGHT,) and hero.readied == (DRAUGHT,) and not hero.opportunist


@pytest.mark.rule("RACE-BRETON")
def test_opportunist_is_once_per_battle():
    given = armed(DAGGER, BLADE, race="breton", race_used=True)
    then = given.when(light_engage(weapon=DAGGER, overtax=True)).next().when(Resolve())
    then.then_has(GearDiscarded, item=DAGGER, rule="OVERTAX-4")
    then.then_lacks(GearStowed)


@pytest.mark.rule("RACE-NORD")
def test_reveler_adds_one_enemy_die_per_weapon_in_the_inventory():
    given = armed(DAGGER, race="nord", weapons=2)
    ready = given.when(UseRaceAbility()).next()
    rolled = ready.when(Engage(form=BattleForm.LIGHT, target="e1", dice=(1,), faces=(C_ONE, TWO, MISS, ONE)))
    rolled.then_has(
        DiceRolled,
        dice=(Rolled(1, "combat", C_ONE), Rolled(0, "enemy", TWO), Rolled(0, "enemy", MISS), Rolled(0, "enemy", ONE)),
    )


# --- legal commands ---------------------------------------------------------------------------


def test_legal_commands_offer_item_uses():
    given = armed(DAGGER, DRAUGHT, BRACERS).with_hero("ysolda", hp=1)
    legal = given.legal()
    assert UseGear(item=DRAUGHT) in legal
    assert UseGear(item=BRACERS, overtax=True) in legal
    assert any(isinstance(c, Engage) and c.weapon == DAGGER and c.overtax for c in legal)
    assert any(isinstance(c, Engage) and c.weapon == DAGGER and not c.overtax for c in legal)


@pytest.mark.rule("RACE-BRETON")
def test_the_adventurer_records_what_opportunist_moved_between_pack_and_ready_slots():
    from msgspec.structs import replace

    from domain.betrayal.adventurer import aggregate as adv
    from domain.betrayal.adventurer.events import ItemsReturned
    from domain.betrayal.adventurer.events import evolve as adventurer_evolve
    from domain.betrayal.packs.load import starter_pack

    state = adv.create(starter_pack(), "adv-ysolda", "Ysolda", "breton", ()).state
    state = replace(state, ready=(DAGGER, BRACERS), packed=(DRAUGHT,))
    after = adventurer_evolve(state, ItemsReturned(battle_id="b", stowed=(DAGGER,), readied=(DRAUGHT,)))
    assert after.ready == (BRACERS, DRAUGHT) and after.packed == (DAGGER,)
