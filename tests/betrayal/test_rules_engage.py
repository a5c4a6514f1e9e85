"""Scenario tests of the Engage action (ENGAGE-1 to ENGAGE-9), battle forms
(FORM-1 to FORM-8), the Combat line (COMBAT-1 to COMBAT-7) and the stat
limits on engaging (STAMINA-2, MAGICKA-2), with the source's examples EX-7,
EX-8 and EX-26.

Faces are forced with physical dice. Ysolda (Nord: HP 4, Stamina 2, Magicka 2)
owns 1-3 Combat (T, 1, 1, 1, 1, 2), 4 Shield Bash (light), 5 Guard Up
(light), 6 Brace (defensive), 7 Second Wind (defensive)."""

from __future__ import annotations

import pytest
from adventurer_arrange import LIGHT, dice, foe_at, only_foe, skill
from scenario import Scenario

from domain.betrayal.battle.commands import (
    EndTurn,
    Engage,
    Move,
    NextRound,
    Resolve,
    RollEnemyDice,
)
from domain.betrayal.battle.events import (
    ActiveChanged,
    DamageDealt,
    DiceRolled,
    DieExhausted,
    EngageDeclared,
    EngageResolved,
    FatigueGained,
    TenacityGained,
    UnitDefeated,
)
from domain.betrayal.battle.rules import legal_commands
from domain.betrayal.battle.state import ActiveDie, DieKind, Phase, Rolled
from domain.betrayal.vocab import BattleForm, Difficulty
from domain.kernel.errors import MalformedCommand

LIGHT_FORM, HEAVY, RANGED, MAGIC, DEFENSIVE = (
    BattleForm.LIGHT,
    BattleForm.HEAVY,
    BattleForm.RANGED,
    BattleForm.MAGIC,
    BattleForm.DEFENSIVE,
)
# Combat die faces
TENACITY, ONE, TWO = 0, 1, 5


def physical(**kw) -> Scenario:
    return Scenario.clash(physical_dice=True, **kw)


def facing(enemy: str, k: int = 1, **kw) -> Scenario:
    """Ysolda, physical dice, with only e1 left: ``enemy`` at range ``k``."""
    return only_foe(physical(**kw), k, enemy)


def index(then, kind, **fields) -> int:
    event = then.then_has(kind, **fields)
    return next(i for i, e in enumerate(then.events) if e is event)


def engage_and_resolve(given: Scenario, cmd: Engage, skip=()) -> Scenario:
    return given.when(cmd).next().when(Resolve(skip=skip)).next()


# --- ENGAGE-1, ENGAGE-2 -------------------------------------------------------


@pytest.mark.rule("ENGAGE-1")
def test_engaging_an_enemy_rolls_the_gathered_dice_and_deals_their_damage_to_it():
    given = facing("shore-crab")
    rolled = given.when(Engage(form=LIGHT_FORM, target="e1", dice=(1,), faces=(TWO,)))
    rolled.then_has(EngageDeclared, hero="ysolda", number=1, form=LIGHT_FORM, target="e1")
    rolled.then_has(DiceRolled, unit="ysolda", dice=(Rolled(1, "combat", TWO),), typed=True)
    then = rolled.next().when(Resolve())
    then.then_has(DamageDealt, source="ysolda", target="e1", amount=2, prevented=0, to_hp=2, hp=1)
    then.then_has(EngageResolved, hero="ysolda")
    assert then.state.foe("e1").hp == 1


@pytest.mark.rule("ENGAGE-2")
def test_an_adventurer_may_engage_three_times_in_one_turn():
    s = facing("bandit-bruiser")
    for number, uid in enumerate((1, 2, 3), start=1):
        then = s.when(Engage(form=LIGHT_FORM, target="e1", dice=(uid,), faces=(ONE,)))
        then.then_has(EngageDeclared, number=number)
        s = then.next().when(Resolve()).next()
    assert s.state.turn.engages == 3
    assert s.state.hero("ysolda").track == (skill(1, ONE), LIGHT, skill(2, ONE), LIGHT, skill(3, ONE))


@pytest.mark.rule("ENGAGE-2")
@pytest.mark.rule("TRACK-5")
def test_a_die_used_in_one_engage_cannot_be_rolled_again_in_the_next():
    given = engage_and_resolve(facing("bandit-bruiser"), Engage(form=LIGHT_FORM, target="e1", dice=(1,), faces=(ONE,)))
    given.then_violates(Engage(form=LIGHT_FORM, target="e1", dice=(1,), faces=(ONE,)), "TRACK-5")


# --- ENGAGE-3 (EX-7) -------------------------------------------------------------


@pytest.mark.rule("ENGAGE-3")
@pytest.mark.rule("EX-7")
def test_moving_both_before_and_after_engaging_is_refused():
    given = Scenario.clash().with_foe("e1", pos=(4, 4))
    engaged = given.when(Move(to=(0, 1))).next().when(Engage(form=LIGHT_FORM)).next()
    engaged.then_violates(Move(to=(0, 2)), "ENGAGE-3")


@pytest.mark.rule("ENGAGE-3")
@pytest.mark.rule("MOVE-3")
def test_one_move_between_two_engages_is_allowed():
    given = Scenario.clash().with_foe("e1", pos=(4, 4))
    moved = given.when(Engage(form=LIGHT_FORM)).next().when(Move(to=(0, 1))).next()
    then = moved.when(Engage(form=LIGHT_FORM))
    then.then_has(EngageDeclared, hero="ysolda", number=2)
    then.next().then_violates(Move(to=(0, 2)), "MOVE-3")


# --- ENGAGE-4, ENGAGE-4a (EX-8) -----------------------------------------------------


@pytest.mark.rule("ENGAGE-4")
@pytest.mark.rule("EX-8")
def test_the_first_engage_of_a_turn_gains_no_fatigue():
    then = facing("shore-crab").when(Engage(form=LIGHT_FORM, target="e1", dice=(1,), faces=(ONE,)))
    then.then_lacks(FatigueGained)
    assert then.state.hero("ysolda").track == ()


@pytest.mark.rule("ENGAGE-4")
@pytest.mark.rule("EX-8")
@pytest.mark.parametrize("difficulty", [Difficulty.APPRENTICE, Difficulty.ADEPT])
def test_a_second_engage_gains_one_light_fatigue_as_soon_as_it_is_declared(difficulty):
    given = engage_and_resolve(
        facing("bandit-bruiser", difficulty=difficulty), Engage(form=LIGHT_FORM, target="e1", dice=(1,), faces=(ONE,))
    )
    then = given.when(Engage(form=LIGHT_FORM, target="e1", dice=(2,), faces=(ONE,)))
    then.then_has(
        FatigueGained, hero="ysolda", kind=DieKind.LIGHT_FATIGUE, count=1, rule="ENGAGE-4", track=(skill(1, ONE), LIGHT)
    )
    assert index(then, EngageDeclared, number=2) < index(then, FatigueGained) < index(then, DiceRolled)


@pytest.mark.rule("ENGAGE-4a")
@pytest.mark.rule("EX-8")
def test_at_expert_difficulty_a_second_engage_gains_two_light_fatigue():
    given = facing("bandit-bruiser", difficulty=Difficulty.EXPERT)
    given = engage_and_resolve(given, Engage(form=LIGHT_FORM, target="e1", dice=(1,), faces=(ONE,)))
    then = given.when(Engage(form=LIGHT_FORM))
    then.then_has(
        FatigueGained,
        hero="ysolda",
        kind=DieKind.LIGHT_FATIGUE,
        count=2,
        rule="ENGAGE-4a",
        track=(skill(1, ONE), LIGHT, LIGHT),
    )


@pytest.mark.rule("ENGAGE-4")
def test_the_count_of_engages_starts_again_each_turn():
    given = foe_at(Scenario.clash().without_foes("e1"), 6, enemy="shore-crab")
    twice = given.when(Engage(form=LIGHT_FORM)).next().when(Engage(form=LIGHT_FORM)).next()
    end_of_round = twice.when(EndTurn()).next()
    assert end_of_round.state.phase is Phase.END_OF_ROUND
    next_turn = end_of_round.when(NextRound()).next()
    assert next_turn.state.turn.hero == "ysolda"
    then = next_turn.when(Engage(form=LIGHT_FORM))
    then.then_has(EngageDeclared, number=1)
    then.then_lacks(FatigueGained)


# --- ENGAGE-5, ENGAGE-6 --------------------------------------------------------------


@pytest.mark.rule("ENGAGE-5")
def test_the_declared_battle_form_is_marked_on_the_adventurer():
    given = Scenario.clash()
    assert given.state.hero("ysolda").form is LIGHT_FORM
    then = given.when(Engage(form=DEFENSIVE))
    then.then_has(EngageDeclared, form=DEFENSIVE)
    assert then.state.hero("ysolda").form is DEFENSIVE


@pytest.mark.rule("ENGAGE-6")
def test_an_engage_without_a_target_may_roll_but_its_damage_has_nothing_to_hit():
    given = facing("shore-crab")
    rolled = given.when(Engage(form=LIGHT_FORM, dice=(4,), faces=(3,)))  # Shield Bash: 2 damage
    rolled.then_has(EngageDeclared, target=None)
    then = rolled.next().when(Resolve())
    then.then_lacks(DamageDealt)
    then.then_has(DieExhausted, uid=4, face=3, rule="ENGAGE-8e")
    assert then.state.foe("e1").hp == 3


@pytest.mark.rule("ENGAGE-6")
def test_a_defeated_enemy_cannot_be_targeted():
    given = Scenario.clash().with_foe("e1", defeated=True, pos=None)
    given.then_violates(Engage(form=LIGHT_FORM, target="e1"), "ENGAGE-6")


@pytest.mark.rule("ENGAGE-6")
def test_an_unknown_target_is_malformed():
    with pytest.raises(MalformedCommand):
        Scenario.clash().when(Engage(form=LIGHT_FORM, target="e9"))


@pytest.mark.rule("ENGAGE-6")
def test_a_target_on_a_tile_that_does_not_touch_yours_is_out_of_sight():
    given = Scenario.clash().with_hero("ysolda", magicka=9).with_foe("e1", pos=(6, 2))
    assert given.ctx.board.tile_of((6, 2)) == "b"
    assert given.ctx.board.range_distance((0, 0), (6, 2)) <= 9
    given.then_violates(Engage(form=MAGIC, target="e1"), "ENGAGE-6")


# --- ENGAGE-7: gather and roll within the limits ------------------------------------------


@pytest.mark.rule("ENGAGE-7")
def test_the_dice_gathered_and_only_they_are_rolled_each_to_one_of_its_faces():
    given = only_foe(Scenario.clash(), 1, "shore-crab")
    then = given.when(Engage(form=LIGHT_FORM, target="e1", dice=(1, 4)))
    rolled = then.then_has(DiceRolled, unit="ysolda")
    assert [(r.uid, r.die) for r in rolled.dice] == [(1, "combat"), (4, "shield-bash")]
    assert all(0 <= r.face < 6 for r in rolled.dice)


def test_the_battles_own_dice_roll_from_its_counter_and_advance_it():
    """The dice log (DESIGN.md, Randomness), no rule of the game: a roll
    names the counter it was drawn at and moves it on one per die."""
    given = only_foe(Scenario.clash(), 1, "shore-crab")
    counter = given.state.rng
    then = given.when(Engage(form=LIGHT_FORM, target="e1", dice=(1, 4)))
    then.then_has(DiceRolled, unit="ysolda", counter=counter, typed=False)
    assert then.state.rng == counter + 2


@pytest.mark.rule("ENGAGE-7")
def test_an_engage_may_gather_no_dice_at_all():
    then = facing("shore-crab").when(Engage(form=LIGHT_FORM, target="e1"))
    then.then_has(EngageResolved, hero="ysolda")
    then.then_lacks(DiceRolled)
    assert then.state.phase is Phase.ADVENTURER_TURN


@pytest.mark.rule("ENGAGE-7a")
@pytest.mark.rule("COMBAT-6")
def test_no_more_stamina_dice_than_stamina_may_be_gathered():
    given = facing("shore-crab")
    given.then_violates(Engage(form=LIGHT_FORM, target="e1", dice=(1, 2, 3), faces=(1, 1, 1)), "ENGAGE-7a")
    given.then_violates(Engage(form=LIGHT_FORM, target="e1", dice=(1, 2, 4), faces=(1, 1, 1)), "ENGAGE-7a")
    given.when(Engage(form=LIGHT_FORM, target="e1", dice=(1, 4), faces=(1, 1))).then_has(DiceRolled)


@pytest.mark.rule("STAMINA-2")
@pytest.mark.rule("COMBAT-6")
def test_stamina_3_lets_a_nord_roll_all_three_combat_dice():
    given = facing("shore-crab").with_hero("ysolda", stamina=3)
    then = given.when(Engage(form=LIGHT_FORM, target="e1", dice=(1, 2, 3), faces=(1, 1, 1)))
    assert len(then.then_has(DiceRolled).dice) == 3


def mage(k: int = 1, **changes) -> Scenario:
    """Ela (High Elf, Destruction Staff): 1 Combat, 2 Cinder Bolt, 3 Rime Veil
    (Magicka dice with the Magic icon); only e1, a Shore Crab, at range ``k``."""
    given = Scenario.clash(party=("Ela:high-elf:destruction-staff",), physical_dice=True)
    return foe_at(given.without_foes("e1").with_hero("ela", **changes), k, hero="ela", enemy="shore-crab")


@pytest.mark.rule("ENGAGE-7a")
@pytest.mark.rule("MAGICKA-2")
def test_magicka_limits_the_magicka_dice_and_stamina_does_not_make_room_for_them():
    given = mage(magicka=1, stamina=5)
    given.then_violates(Engage(form=MAGIC, target="e1", dice=(2, 3), faces=(1, 1)), "ENGAGE-7a")
    given.when(Engage(form=MAGIC, target="e1", dice=(2,), faces=(1,))).then_has(DiceRolled)


@pytest.mark.rule("ENGAGE-7a")
@pytest.mark.rule("MAGICKA-2")
def test_stamina_0_does_not_stop_magicka_dice():
    given = mage(magicka=2, stamina=0)
    then = given.when(Engage(form=MAGIC, target="e1", dice=(2, 3), faces=(1, 1)))
    assert [r.uid for r in then.then_has(DiceRolled).dice] == [2, 3]


@pytest.mark.rule("ENGAGE-7b")
@pytest.mark.rule("FORM-2")
@pytest.mark.parametrize("form", [HEAVY, RANGED, DEFENSIVE, MAGIC])
def test_a_die_with_the_light_weapon_icon_rolls_only_in_the_light_weapon_form(form):
    Scenario.clash().then_violates(Engage(form=form, dice=(4,)), "ENGAGE-7b")


@pytest.mark.rule("ENGAGE-7b")
@pytest.mark.rule("FORM-1")
@pytest.mark.parametrize("form", [LIGHT_FORM, HEAVY, RANGED, DEFENSIVE])
def test_a_combat_die_has_no_form_icon_so_it_rolls_in_every_weapon_and_defensive_form(form):
    then = Scenario.clash().when(Engage(form=form, dice=(1,)))
    then.then_has(DiceRolled, unit="ysolda")


@pytest.mark.rule("ENGAGE-7d")
@pytest.mark.rule("FORM-8")
@pytest.mark.rule("COMBAT-5")
def test_combat_dice_cannot_be_rolled_in_the_magic_form():
    error = mage().then_violates(Engage(form=MAGIC, target="e1", dice=(1,), faces=(1,)), "ENGAGE-7d")
    assert error.message == "Combat dice cannot be rolled in the Magic form"


@pytest.mark.rule("ENGAGE-7a")
@pytest.mark.rule("ENGAGE-7b")
@pytest.mark.rule("ENGAGE-7d")
def test_the_legal_engages_gather_what_each_form_and_the_stat_limits_allow():
    given = Scenario.clash().with_foe("e1", pos=(4, 4))
    untargeted = {
        c.form: c.dice for c in legal_commands(given.state, given.ctx) if isinstance(c, Engage) and c.target is None
    }
    # Magic could roll none of Ysolda's dice: an Engage that rolls nothing is not offered (issue 24)
    assert untargeted == {
        LIGHT_FORM: (1, 2),
        HEAVY: (1, 2),
        RANGED: (1, 2),
        DEFENSIVE: (1, 2),
    }


# --- ENGAGE-8: resolve -----------------------------------------------------------------


@pytest.mark.rule("ENGAGE-8")
def test_resolve_without_rolled_dice_is_refused():
    Scenario.clash().then_violates(Resolve(), "ENGAGE-8")


@pytest.mark.rule("ENGAGE-8")
def test_skipping_a_die_that_was_not_rolled_is_malformed_naming_its_position():
    rolled = facing("shore-crab").when(Engage(form=LIGHT_FORM, target="e1", dice=(1,), faces=(ONE,))).next()
    # positions are told counting from 1: index 1 is the second die
    with pytest.raises(MalformedCommand, match="no rolled die at position 2$"):
        rolled.when(Resolve(skip=(1,)))


@pytest.mark.rule("ENGAGE-8c")
def test_an_engages_damage_is_pooled_and_defense_prevents_it_once():
    given = facing("bandit-bruiser")  # HP 6, Defense 1
    rolled = given.when(Engage(form=LIGHT_FORM, target="e1", dice=(1, 4), faces=(TWO, 1))).next()
    then = rolled.when(Resolve())  # Combat 2 + Shield Bash 1
    assert len(then.of(DamageDealt)) == 1
    then.then_has(DamageDealt, target="e1", amount=3, prevented=1, to_hp=2, hp=4, true_damage=False)
    assert then.state.foe("e1").hp == 4


@pytest.mark.rule("ENGAGE-8c")
def test_defense_is_whole_again_for_the_next_engage():
    given = facing("bandit-bruiser")
    first = engage_and_resolve(given, Engage(form=LIGHT_FORM, target="e1", dice=(1,), faces=(TWO,)))
    assert first.state.foe("e1").hp == 5
    second = first.when(Engage(form=LIGHT_FORM, target="e1", dice=(2,), faces=(TWO,))).next().when(Resolve())
    second.then_has(DamageDealt, target="e1", amount=2, prevented=1, to_hp=1, hp=4)


@pytest.mark.rule("ENGAGE-8c")
def test_true_damage_is_not_prevented_by_defense():
    given = facing("bandit-bruiser", k=2).with_hero("ysolda", dice=dice("steady-shot"))
    then = engage_and_resolve(given, Engage(form=RANGED, target="e1", dice=(1,), faces=(4,)))
    assert then.state.foe("e1").hp == 5
    rolled = given.when(Engage(form=RANGED, target="e1", dice=(1,), faces=(4,))).next().when(Resolve())
    rolled.then_has(DamageDealt, target="e1", amount=1, prevented=0, to_hp=1, true_damage=True)


@pytest.mark.rule("ENGAGE-8c")
@pytest.mark.rule("HEALTH-5")
def test_an_enemy_whose_hp_reaches_0_is_defeated_and_leaves_the_map():
    given = facing("shore-crab")  # HP 3, Defense 0
    then = given.when(Engage(form=LIGHT_FORM, target="e1", dice=(1, 4), faces=(TWO, 3))).next().when(Resolve())
    then.then_has(DamageDealt, target="e1", amount=4, to_hp=3, hp=0)
    then.then_has(UnitDefeated, unit="e1")
    foe = then.state.foe("e1")
    assert foe.defeated and foe.pos is None


@pytest.mark.rule("ENGAGE-8d")
def test_a_tenacity_face_is_exhausted_for_one_tenacity():
    rolled = facing("shore-crab").when(Engage(form=LIGHT_FORM, target="e1", dice=(1, 2), faces=(TENACITY, TENACITY)))
    then = rolled.next().when(Resolve())
    then.then_has(DieExhausted, uid=1, face=TENACITY, rule="ENGAGE-8d")
    then.then_has(DieExhausted, uid=2, face=TENACITY, rule="ENGAGE-8d")
    assert [e.tenacity for e in then.of(TenacityGained)] == [1, 2]
    then.then_lacks(DamageDealt)
    assert then.state.hero("ysolda").tenacity == 2


@pytest.mark.rule("ENGAGE-8d")
def test_tenacity_stops_at_its_maximum_of_10():
    given = facing("shore-crab").with_hero("ysolda", tenacity=10)
    then = engage_and_resolve(given, Engage(form=LIGHT_FORM, target="e1", dice=(1,), faces=(TENACITY,)))
    assert then.state.hero("ysolda").tenacity == 10
    assert then.state.hero("ysolda").track == (skill(1, TENACITY),)


@pytest.mark.rule("ENGAGE-8e")
def test_a_die_left_unresolved_is_exhausted_showing_its_face_and_does_nothing():
    rolled = facing("shore-crab").when(Engage(form=LIGHT_FORM, target="e1", dice=(1, 4), faces=(TWO, 3))).next()
    then = rolled.when(Resolve(skip=(1,)))
    then.then_has(DieExhausted, uid=4, face=3, rule="ENGAGE-8e")
    then.then_has(DamageDealt, target="e1", amount=2, to_hp=2, hp=1)


@pytest.mark.rule("ENGAGE-8e")
def test_a_blank_face_is_exhausted():
    then = engage_and_resolve(facing("shore-crab"), Engage(form=LIGHT_FORM, target="e1", dice=(5,), faces=(5,)))
    assert then.state.hero("ysolda").track == (skill(5, 5),)
    assert then.state.foe("e1").hp == 3


# --- FORM-3 to FORM-7: ranges (EX-26) -------------------------------------------------------


@pytest.mark.rule("FORM-3")
def test_the_defensive_form_has_no_range_so_it_cannot_target():
    facing("shore-crab").then_violates(Engage(form=DEFENSIVE, target="e1"), "FORM-3")


@pytest.mark.rule("FORM-4")
def test_the_heavy_weapon_form_reaches_adjacent_units_only():
    facing("shore-crab", k=1).when(Engage(form=HEAVY, target="e1")).then_has(EngageDeclared, target="e1")
    facing("shore-crab", k=2).then_violates(Engage(form=HEAVY, target="e1"), "FORM-4")


@pytest.mark.rule("FORM-5")
def test_the_light_weapon_form_reaches_adjacent_units_only():
    facing("shore-crab", k=1).when(Engage(form=LIGHT_FORM, target="e1")).then_has(EngageDeclared, target="e1")
    facing("shore-crab", k=2).then_violates(Engage(form=LIGHT_FORM, target="e1"), "FORM-5")


@pytest.mark.rule("FORM-6")
@pytest.mark.rule("EX-26")
@pytest.mark.rule("STAMINA-2")
@pytest.mark.parametrize(("k", "allowed"), [(1, False), (2, True), (3, True), (4, False)])
def test_with_stamina_3_the_ranged_form_reaches_2_or_3_hexes_but_not_adjacent(k, allowed):
    given = only_foe(physical().with_hero("ysolda", stamina=3), k, "shore-crab")
    cmd = Engage(form=RANGED, target="e1")
    if allowed:
        given.when(cmd).then_has(EngageDeclared, target="e1", form=RANGED)
    else:
        given.then_violates(cmd, "FORM-6")


@pytest.mark.rule("FORM-7")
@pytest.mark.rule("MAGICKA-2")
@pytest.mark.parametrize(("k", "allowed"), [(1, True), (2, True), (3, False)])
def test_the_magic_form_reaches_up_to_magicka_hexes(k, allowed):
    given = only_foe(physical(), k, "shore-crab")  # Magicka 2
    cmd = Engage(form=MAGIC, target="e1")
    if allowed:
        given.when(cmd).then_has(EngageDeclared, target="e1", form=MAGIC)
    else:
        given.then_violates(cmd, "FORM-7")


# --- COMBAT ----------------------------------------------------------------------------


@pytest.mark.rule("COMBAT-1")
@pytest.mark.rule("COMBAT-2")
@pytest.mark.parametrize(("race", "count"), [("nord", 3), ("breton", 1), ("dark-elf", 2)])
def test_an_adventurer_brings_the_race_sheets_white_combat_dice_as_skill_dice(race, count):
    hero = Scenario.clash(party=(f"Hero:{race}",)).state.hero("hero")
    combat = [o.uid for o in hero.dice if o.die == "combat"]
    assert combat == list(range(1, count + 1))
    assert Scenario.clash(party=(f"Hero:{race}",)).ctx.die("combat").line == "combat"


@pytest.mark.rule("COMBAT-3")
@pytest.mark.parametrize(("form", "k"), [(LIGHT_FORM, 1), (HEAVY, 1), (RANGED, 2)])
def test_in_a_weapon_form_a_combat_die_deals_its_value_to_the_target(form, k):
    given = facing("shore-crab", k=k)
    then = engage_and_resolve(given, Engage(form=form, target="e1", dice=(1,), faces=(TWO,)))
    assert then.state.foe("e1").hp == 1
    assert then.state.hero("ysolda").track == (skill(1, TWO),)


@pytest.mark.rule("COMBAT-4")
@pytest.mark.rule("ACTIVE-1")
def test_in_the_defensive_form_a_combat_die_goes_to_the_active_slot_with_its_value():
    rolled = facing("shore-crab").when(Engage(form=DEFENSIVE, dice=(1, 2), faces=(TWO, ONE))).next()
    then = rolled.when(Resolve())
    then.then_has(ActiveChanged, hero="ysolda", rule="COMBAT-4", active=(ActiveDie(DieKind.SKILL, 1, TWO, 2),))
    hero = then.state.hero("ysolda")
    assert hero.active == (ActiveDie(DieKind.SKILL, 1, TWO, 2), ActiveDie(DieKind.SKILL, 2, ONE, 1))
    assert hero.track == ()
    then.then_lacks(DamageDealt)


@pytest.mark.rule("COMBAT-4")
@pytest.mark.rule("ACTIVE-11")
def test_defensive_combat_dice_are_exhausted_to_reduce_damage_taken():
    given = facing("shore-crab").with_hero("ysolda", active=(ActiveDie(DieKind.SKILL, 1, TWO, 2),))
    waiting = given.when(EndTurn()).next()
    assert waiting.state.phase is Phase.ENEMY_ROLL
    then = waiting.when(RollEnemyDice(faces=(5,)))  # the enemy die's 2
    then.then_has(DamageDealt, target="ysolda", amount=2, prevented=2, to_hp=0, hp=4)
    then.then_has(ActiveChanged, hero="ysolda", active=(), rule="COMBAT-4")
    then.then_has(DieExhausted, hero="ysolda", uid=1, face=TWO, rule="ACTIVE-11")
    assert then.state.hero("ysolda").track == (skill(1, TWO),)
