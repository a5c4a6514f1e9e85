"""Scenario tests of what rolled dice do: the Active slot (ACTIVE-1 to
ACTIVE-11), Drained and Instant abilities (DRAINED-1 to DRAINED-4, INSTANT-1,
INSTANT-2), track abilities at the engage level (TRACK-11, TRACK-12), status
effects on adventurers and on enemies (STATUS-1 to STATUS-8 with the six
statuses of betrayal-facts), HP (HEALTH-4, HEALTH-5, HEALTH-8) and physical
dice (typed faces).

Faces are forced with physical dice. Ysolda (Nord: HP 4, Stamina 2, Magicka 2,
Cooldown 2) owns 1-3 Combat (T, 1, 1, 1, 1, 2), 4 Shield Bash (T, 1, 1, 2 dmg,
Daze, block 1), 5 Guard Up (T, block 1, 1, 2, 1 dmg, blank), 6 Brace (T, block
2, 1, 1, ward 1, bonus HP 1), 7 Second Wind (T, heal 1, 1, drained heal 3,
ward 1, bonus HP 2). The enemy die shows miss, miss, 1, 1, 1, 2."""

from __future__ import annotations

import pytest
from adventurer_arrange import (
    LIGHT,
    OVER,
    add_foe,
    chip,
    dice,
    foe_at,
    mark,
    only_foe,
    restart_turn,
    skill,
    status_die,
)
from scenario import Scenario

from domain.betrayal.battle.commands import (
    ClearActive,
    EndTurn,
    Engage,
    NextRound,
    Resolve,
    Retreat,
    RollEnemyDice,
)
from domain.betrayal.battle.events import (
    ActiveChanged,
    DamageDealt,
    DiceRecovered,
    DiceRolled,
    DieDrained,
    DieExhausted,
    EnemyEngaged,
    EnemyMoved,
    EnemyRollAwaited,
    EngageDeclared,
    FatigueGained,
    Healed,
    HeroCleanedUp,
    HeroStatusGained,
    HeroStatusLost,
    StatusLifted,
    StatusPlaced,
    TenacityGained,
    UnitDefeated,
)
from domain.betrayal.battle.heroes import statuses
from domain.betrayal.battle.state import ActiveDie, DieKind, Phase, Rolled, StatusMark
from domain.betrayal.vocab import BattleForm, Status
from domain.kernel.errors import MalformedCommand

LIGHT_FORM, HEAVY, RANGED, DEFENSIVE = BattleForm.LIGHT, BattleForm.HEAVY, BattleForm.RANGED, BattleForm.DEFENSIVE
ENEMY_MISS, ENEMY_ONE, ENEMY_TWO = 0, 2, 5
# faces
TENACITY, COMBAT_1, COMBAT_2 = 0, 1, 5
BASH_2, BASH_DAZE = 3, 4
GUARD_BLOCK_1, GUARD_BLOCK_2 = 1, 3
BRACE_WARD = 4
WIND_HEAL, WIND_DRAINED_HEAL, WIND_BONUS_2 = 1, 3, 5


def facing(enemy: str, k: int = 1, **hero) -> Scenario:
    """Ysolda with physical dice; only e1 is left, showing ``enemy``, at range ``k``."""
    given = Scenario.clash(physical_dice=True)
    if hero:
        given = given.with_hero("ysolda", **hero)
    return only_foe(given, k, enemy)


def resolve(given: Scenario, cmd: Engage, skip=()):
    return given.when(cmd).next().when(Resolve(skip=skip))


def struck(given: Scenario, *faces: int):
    """Ysolda ends her turn; e1 engages her and its dice show ``faces``."""
    waiting = given.when(EndTurn()).next()
    assert waiting.state.phase is Phase.ENEMY_ROLL, "the enemy was expected to engage"
    return waiting.when(RollEnemyDice(faces=faces))


def index(then, kind, **fields) -> int:
    event = then.then_has(kind, **fields)
    return next(i for i, e in enumerate(then.events) if e is event)


# --- Active slot -------------------------------------------------------------------


@pytest.mark.rule("ACTIVE-1")
@pytest.mark.rule("ACTIVE-10")
def test_an_active_face_puts_its_die_in_the_adventurers_own_active_slot():
    then = resolve(facing("shore-crab"), Engage(form=LIGHT_FORM, dice=(5,), faces=(GUARD_BLOCK_2,)))
    then.then_has(
        ActiveChanged, hero="ysolda", rule="ACTIVE-10", active=(ActiveDie(DieKind.SKILL, 5, GUARD_BLOCK_2, 2),)
    )
    hero = then.state.hero("ysolda")
    assert hero.active == (ActiveDie(DieKind.SKILL, 5, GUARD_BLOCK_2, 2),)
    assert hero.track == ()
    then.then_lacks(DieExhausted)


@pytest.mark.rule("ACTIVE-2")
def test_an_active_die_cannot_be_rolled_while_it_sits_in_the_slot():
    given = facing("shore-crab", active=(ActiveDie(DieKind.SKILL, 5, GUARD_BLOCK_2, 2),))
    error = given.then_violates(Engage(form=LIGHT_FORM, dice=(5,), faces=(1,)), "ACTIVE-2")
    assert error.message == "die #5 (Guard Up) is in an active slot and cannot be rolled"


@pytest.mark.rule("ACTIVE-2")
def test_an_active_die_stays_through_the_round_and_the_next_recovery():
    held = (ActiveDie(DieKind.SKILL, 5, GUARD_BLOCK_2, 2),)
    given = foe_at(Scenario.clash().without_foes("e1"), 6, enemy="shore-crab")
    given = given.with_hero("ysolda", active=held, track=(skill(1, 1),))
    end_of_round = given.when(EndTurn()).next()
    then = end_of_round.when(NextRound())
    then.then_has(DiceRecovered, hero="ysolda", recovered=(1,))
    assert then.state.turn.hero == "ysolda"
    assert then.state.hero("ysolda").active == held


@pytest.mark.rule("ACTIVE-3")
def test_an_active_face_finding_four_dice_in_the_slot_is_exhausted_unresolved():
    full = tuple(ActiveDie(DieKind.SKILL, uid, 1, 1) for uid in (1, 2, 6, 7))
    then = resolve(facing("shore-crab", active=full), Engage(form=LIGHT_FORM, dice=(5,), faces=(GUARD_BLOCK_2,)))
    then.then_has(DieExhausted, uid=5, face=GUARD_BLOCK_2, rule="ACTIVE-3")
    then.then_lacks(ActiveChanged)
    assert then.state.hero("ysolda").active == full


@pytest.mark.rule("ACTIVE-4")
@pytest.mark.rule("ACTIVE-6")
def test_an_active_die_removed_on_your_turn_without_resolving_is_exhausted():
    held = (ActiveDie(DieKind.SKILL, 5, GUARD_BLOCK_2, 2), ActiveDie(DieKind.SKILL, 6, 1, 2))
    given = facing("shore-crab", active=held, track=(LIGHT,))
    then = given.when(ClearActive(slot=0))
    then.then_has(ActiveChanged, hero="ysolda", rule="ACTIVE-4", active=(held[1],))
    then.then_has(DieExhausted, hero="ysolda", uid=5, face=GUARD_BLOCK_2, rule="ACTIVE-6")
    assert then.state.hero("ysolda").track == (LIGHT, skill(5, GUARD_BLOCK_2))


@pytest.mark.rule("ACTIVE-4")
@pytest.mark.rule("ACTIVE-3")
def test_with_rolled_dice_waiting_a_full_active_slot_can_be_cleared_to_make_room():
    """ "At any time during your turn": with four active dice and an active
    face rolled, clear a slot before resolving, and the new die takes it
    instead of being exhausted unresolved (ACTIVE-3)."""
    full = tuple(ActiveDie(DieKind.SKILL, uid, 1, 1) for uid in (1, 2, 6, 7))
    given = facing("shore-crab", active=full)
    rolled = given.when(Engage(form=LIGHT_FORM, dice=(5,), faces=(GUARD_BLOCK_2,))).next()
    assert rolled.state.phase is Phase.ENGAGE_RESOLVE
    assert ClearActive(slot=0) in rolled.legal()
    cleared = rolled.when(ClearActive(slot=0))
    cleared.then_has(ActiveChanged, hero="ysolda", rule="ACTIVE-4", active=full[1:])
    cleared.then_has(DieExhausted, hero="ysolda", uid=1, rule="ACTIVE-6")
    assert cleared.state.phase is Phase.ENGAGE_RESOLVE  # the rolled dice still wait
    then = cleared.next().when(Resolve())
    assert not [e for e in then.events if isinstance(e, DieExhausted) and e.uid == 5]
    assert [a.uid for a in then.state.hero("ysolda").active] == [2, 6, 7, 5]


@pytest.mark.rule("ACTIVE-4")
def test_an_empty_active_slot_cannot_be_cleared_and_the_refusal_names_the_slot():
    # slots are told counting from 1: index 0 is the first
    with pytest.raises(MalformedCommand, match="has no active die in slot 1$"):
        Scenario.clash().when(ClearActive(slot=0))


@pytest.mark.rule("ACTIVE-4")
def test_active_dice_cannot_be_cleared_outside_the_adventurers_turn():
    held = (ActiveDie(DieKind.SKILL, 5, GUARD_BLOCK_2, 2),)
    given = foe_at(Scenario.clash().without_foes("e1"), 6, enemy="shore-crab").with_hero("ysolda", active=held)
    end_of_round = given.when(EndTurn()).next()
    assert end_of_round.state.phase is Phase.END_OF_ROUND
    end_of_round.then_violates(ClearActive(slot=0), "ROUND-5")


@pytest.mark.rule("ACTIVE-7")
@pytest.mark.rule("ACTIVE-9c")
def test_a_defeated_adventurers_active_dice_and_fatigue_go_to_the_track():
    held = (ActiveDie(DieKind.SKILL, 5, GUARD_BLOCK_2, 0), ActiveDie(DieKind.LIGHT_FATIGUE, 0, -1, 0))
    given = Scenario.clash(party=("Ysolda:nord", "Tarn:dark-elf"))
    given = given.with_hero("tarn", hp=1, active=held, track=(status_die(Status.BANE),))
    then = given.when(EndTurn())
    then.then_has(ActiveChanged, hero="tarn", active=(), rule="ACTIVE-7")
    then.then_has(DieExhausted, hero="tarn", uid=5, face=GUARD_BLOCK_2, rule="ACTIVE-7")
    then.then_has(FatigueGained, hero="tarn", kind=DieKind.LIGHT_FATIGUE, count=1, rule="ACTIVE-7")
    assert index(then, ActiveChanged, hero="tarn") < index(then, UnitDefeated, unit="tarn")
    tarn = then.state.hero("tarn")
    assert tarn.defeated and tarn.active == ()
    assert tarn.track == (status_die(Status.BANE), skill(5, GUARD_BLOCK_2), LIGHT)


@pytest.mark.rule("ACTIVE-7")
@pytest.mark.rule("ACTIVE-9d")
def test_at_the_end_of_battle_active_dice_and_fatigue_are_exhausted():
    held = (ActiveDie(DieKind.SKILL, 5, GUARD_BLOCK_2, 2), ActiveDie(DieKind.OVERFATIGUE, 0, -1, 0))
    given = facing("shore-crab", hp=4, active=held).with_foe("e1", hp=1)
    won = resolve(given, Engage(form=LIGHT_FORM, target="e1", dice=(1,), faces=(COMBAT_1,))).next()
    then = won.when(EndTurn())
    then.then_has(ActiveChanged, hero="ysolda", active=(), rule="CLEANUP-4a")
    then.then_has(DieExhausted, hero="ysolda", uid=5, face=GUARD_BLOCK_2, rule="CLEANUP-4a")
    then.then_has(FatigueGained, hero="ysolda", kind=DieKind.OVERFATIGUE, rule="CLEANUP-4a")
    assert then.state.phase is Phase.ENDED
    assert then.state.hero("ysolda").track == (skill(1, COMBAT_1), skill(5, GUARD_BLOCK_2), OVER)


@pytest.mark.rule("ACTIVE-8")
@pytest.mark.rule("ACTIVE-3")
def test_a_fatigue_die_in_the_active_slot_fills_a_slot_like_a_skill_die():
    full = (*(ActiveDie(DieKind.SKILL, uid, 1, 1) for uid in (1, 2, 6)), ActiveDie(DieKind.LIGHT_FATIGUE, 0, -1, 0))
    then = resolve(facing("shore-crab", active=full), Engage(form=LIGHT_FORM, dice=(5,), faces=(GUARD_BLOCK_1,)))
    then.then_has(DieExhausted, uid=5, rule="ACTIVE-3")
    assert then.state.hero("ysolda").active == full


@pytest.mark.rule("ACTIVE-9b")
def test_a_fatigue_die_cleared_from_the_active_slot_goes_to_the_track():
    held = (ActiveDie(DieKind.LIGHT_FATIGUE, 0, -1, 0),)
    then = facing("shore-crab", active=held, track=(skill(1, 1),)).when(ClearActive(slot=0))
    then.then_has(
        FatigueGained, hero="ysolda", kind=DieKind.LIGHT_FATIGUE, count=1, rule="ACTIVE-9b", track=(skill(1, 1), LIGHT)
    )
    then.then_lacks(DieExhausted)


@pytest.mark.rule("ACTIVE-11")
@pytest.mark.rule("COMBAT-4")
def test_the_fewest_active_dice_that_stop_the_damage_are_exhausted():
    held = (ActiveDie(DieKind.SKILL, 5, GUARD_BLOCK_1, 1), ActiveDie(DieKind.SKILL, 6, 1, 2))
    then = struck(facing("shore-crab", active=held), ENEMY_TWO)
    then.then_has(DamageDealt, target="ysolda", amount=2, prevented=2, to_hp=0, hp=4)
    then.then_has(ActiveChanged, hero="ysolda", active=(held[0],), rule="COMBAT-4")
    then.then_has(DieExhausted, hero="ysolda", uid=6, face=1, rule="ACTIVE-11")


@pytest.mark.rule("ACTIVE-9a")
@pytest.mark.rule("ACTIVE-8")
def test_a_fatigue_die_spent_as_a_block_goes_to_the_cooldown_track():
    """A fatigue die in an active slot is treated like a skill die (ACTIVE-8);
    spent as its ability says, it goes to the track, not out of the game."""
    held = (ActiveDie(DieKind.LIGHT_FATIGUE, 0, -1, 2),)
    then = struck(facing("shore-crab", active=held), ENEMY_TWO)
    then.then_has(DamageDealt, target="ysolda", amount=2, prevented=2, to_hp=0, hp=4)
    then.then_has(FatigueGained, hero="ysolda", kind=DieKind.LIGHT_FATIGUE, count=1, rule="ACTIVE-9a")
    hero = then.state.hero("ysolda")
    assert hero.active == () and hero.track == (LIGHT,)


@pytest.mark.rule("ACTIVE-11")
def test_a_block_die_is_exhausted_whole_even_when_less_damage_is_taken():
    held = (ActiveDie(DieKind.SKILL, 5, GUARD_BLOCK_2, 2),)
    then = struck(facing("shore-crab", active=held), ENEMY_ONE)
    then.then_has(DamageDealt, target="ysolda", amount=1, prevented=1, to_hp=0, hp=4)
    assert then.state.hero("ysolda").active == ()
    assert then.state.hero("ysolda").track == (skill(5, GUARD_BLOCK_2),)


# --- Drained ---------------------------------------------------------------------------


def cleaver(enemy: str = "shore-crab", **hero) -> Scenario:
    """Ysolda with 1 Combat and 2 Cleave (T, 1, 2, 2, drained 3 dmg, Maim)."""
    return facing(enemy, dice=dice("combat", "cleave"), **hero)


CLEAVE_DRAINED, CLEAVE_MAIM = 4, 5


@pytest.mark.rule("DRAINED-1")
@pytest.mark.rule("DRAINED-2")
def test_a_drained_face_resolves_at_once_and_its_die_goes_to_the_race_sheet():
    then = resolve(cleaver("bandit-bruiser"), Engage(form=HEAVY, target="e1", dice=(2,), faces=(CLEAVE_DRAINED,)))
    then.then_has(DieDrained, hero="ysolda", uid=2, drained=(2,))
    then.then_has(DamageDealt, target="e1", amount=3, prevented=1, to_hp=2, hp=4)
    then.then_lacks(DieExhausted)
    hero = then.state.hero("ysolda")
    assert hero.drained == (2,) and hero.track == ()


@pytest.mark.rule("DRAINED-1")
def test_a_drained_face_that_cannot_resolve_is_exhausted_not_drained():
    then = resolve(cleaver(), Engage(form=HEAVY, dice=(2,), faces=(CLEAVE_DRAINED,)))
    then.then_has(DieExhausted, uid=2, face=CLEAVE_DRAINED, rule="ENGAGE-8e")
    then.then_lacks(DieDrained)
    assert then.state.hero("ysolda").drained == ()


@pytest.mark.rule("HEALTH-2")
@pytest.mark.rule("DRAINED-1")
def test_a_drained_heal_restores_hp_up_to_the_health_stat():
    then = resolve(facing("shore-crab", hp=2), Engage(form=DEFENSIVE, dice=(7,), faces=(WIND_DRAINED_HEAL,)))
    then.then_has(Healed, unit="ysolda", amount=2, hp=4, bonus_hp=0)
    then.then_has(DieDrained, uid=7, drained=(7,))


@pytest.mark.rule("DRAINED-2")
def test_a_drained_die_cannot_be_rolled_and_recovery_does_not_return_it():
    given = Scenario.clash(party=("Ysolda:nord", "Tarn:dark-elf")).with_hero("tarn", drained=(3,), track=(skill(4, 1),))
    turn = given.when(EndTurn()).next()
    assert turn.state.turn.hero == "tarn"
    assert turn.state.hero("tarn").drained == (3,)
    turn.then_violates(Engage(form=LIGHT_FORM, dice=(3,)), "DRAINED-2")
    turn.when(Engage(form=LIGHT_FORM, dice=(4,))).then_has(DiceRolled, unit="tarn")


@pytest.mark.rule("DRAINED-3")
def test_drained_dice_are_recovered_in_the_end_of_battle_cleanup():
    won = resolve(cleaver(), Engage(form=HEAVY, target="e1", dice=(2,), faces=(CLEAVE_DRAINED,))).next()
    assert won.state.foe("e1").defeated
    then = won.when(EndTurn())
    then.then_has(HeroCleanedUp, hero="ysolda", drained_recovered=(2,))
    assert then.state.hero("ysolda").drained == ()


THIRTEEN_LIGHT = (LIGHT,) * 13


@pytest.mark.rule("DRAINED-4")
@pytest.mark.rule("TRACK-9a")
def test_a_die_exhausted_onto_a_full_track_is_drained_and_the_fatigue_it_displaces_is_returned():
    given = facing("shore-crab", track=THIRTEEN_LIGHT)
    then = resolve(given, Engage(form=LIGHT_FORM, target="e1", dice=(1,), faces=(COMBAT_1,)))
    then.then_has(DieExhausted, uid=1, drained=(1,), track=(LIGHT,) * 12 + (OVER,))
    assert then.state.hero("ysolda").drained == (1,)


@pytest.mark.rule("DRAINED-4")
@pytest.mark.rule("TRACK-9c")
def test_fatigue_gained_on_a_full_track_is_returned_and_drains_the_skill_die_it_displaces():
    given = facing("shore-crab", track=(LIGHT,) * 12 + (skill(4, 1),)).with_turn(engages=1)
    then = given.when(Engage(form=LIGHT_FORM))
    then.then_has(FatigueGained, kind=DieKind.LIGHT_FATIGUE, drained=(4,), track=(LIGHT,) * 12 + (OVER,))
    assert then.state.hero("ysolda").drained == (4,)


# --- Instant -------------------------------------------------------------------------


@pytest.mark.rule("INSTANT-1")
@pytest.mark.rule("INSTANT-2")
def test_an_instant_face_resolves_then_its_die_is_exhausted():
    then = resolve(facing("shore-crab"), Engage(form=LIGHT_FORM, target="e1", dice=(4,), faces=(BASH_2,)))
    then.then_has(DamageDealt, target="e1", amount=2, to_hp=2, hp=1)
    then.then_has(DieExhausted, uid=4, face=BASH_2, rule="INSTANT-2")
    assert then.state.hero("ysolda").track == (skill(4, BASH_2),)


@pytest.mark.rule("HEALTH-2")
@pytest.mark.rule("INSTANT-1")
@pytest.mark.rule("INSTANT-2")
@pytest.mark.parametrize(("hp", "healed"), [(2, 1), (4, 0)])
def test_an_instant_heal_restores_what_it_can_and_the_die_is_exhausted(hp, healed):
    then = resolve(facing("shore-crab", hp=hp), Engage(form=DEFENSIVE, dice=(7,), faces=(WIND_HEAL,)))
    assert [(e.amount, e.hp) for e in then.of(Healed)] == ([(1, hp + 1)] if healed else [])
    then.then_has(DieExhausted, uid=7, face=WIND_HEAL, rule="INSTANT-2")
    assert then.state.hero("ysolda").hp == hp + healed


# --- Track abilities -----------------------------------------------------------------------


@pytest.mark.rule("TRACK-11")
def test_a_track_face_is_exhausted_showing_that_face():
    then = resolve(facing("shore-crab"), Engage(form=DEFENSIVE, dice=(6,), faces=(BRACE_WARD,)))
    then.then_has(DieExhausted, uid=6, face=BRACE_WARD, rule="TRACK-11")
    then.then_lacks(TenacityGained)
    assert then.state.hero("ysolda").track == (skill(6, BRACE_WARD),)


@pytest.mark.rule("TRACK-11")
def test_a_ward_on_the_track_prevents_damage_while_it_stays_there():
    then = struck(facing("shore-crab", track=(skill(6, BRACE_WARD),)), ENEMY_TWO)
    then.then_has(DamageDealt, target="ysolda", amount=2, prevented=1, to_hp=1, hp=3)
    assert then.state.hero("ysolda").track == (skill(6, BRACE_WARD),)


@pytest.mark.rule("TRACK-11")
def test_a_ward_recovered_from_the_track_prevents_nothing_more():
    # Tarn (Dark Elf: 5 Brace) on (1, 1) with a ward on the track; e1 next to him only
    given = Scenario.clash(party=("Ysolda:nord", "Tarn:dark-elf"), physical_dice=True).without_foes("e1")
    given = given.with_hero("tarn", pos=(1, 1), track=(skill(5, BRACE_WARD),))
    given = restart_turn(given.with_foe("e1", pos=(2, 1), defeated=False, **chip(given, "shore-crab")))
    tarns_turn = given.when(EndTurn()).next()
    assert tarns_turn.state.hero("tarn").track == ()
    then = tarns_turn.when(EndTurn()).next().when(RollEnemyDice(faces=(ENEMY_TWO,)))
    then.then_has(DamageDealt, target="tarn", amount=2, prevented=0, to_hp=2, hp=2)


@pytest.mark.rule("TRACK-12")
def test_a_track_face_left_unresolved_goes_to_the_track_tenacity_face_up_for_no_tenacity():
    then = resolve(facing("shore-crab"), Engage(form=DEFENSIVE, dice=(6,), faces=(BRACE_WARD,)), skip=(0,))
    then.then_has(DieExhausted, uid=6, face=TENACITY, rule="TRACK-12")
    then.then_lacks(TenacityGained)
    assert then.state.hero("ysolda").tenacity == 0


@pytest.mark.rule("TRACK-12")
def test_a_ward_die_placed_tenacity_face_up_prevents_nothing():
    then = struck(facing("shore-crab", track=(skill(6, TENACITY),)), ENEMY_TWO)
    then.then_has(DamageDealt, target="ysolda", amount=2, prevented=0, to_hp=2, hp=2)


# --- HP --------------------------------------------------------------------------------


@pytest.mark.rule("HEALTH-4")
def test_damage_taken_comes_off_hp():
    then = struck(facing("shore-crab"), ENEMY_TWO)
    then.then_has(DamageDealt, source="e1", target="ysolda", amount=2, prevented=0, to_bonus=0, to_hp=2, hp=2)
    assert then.state.hero("ysolda").hp == 2


@pytest.mark.rule("HEALTH-4")
@pytest.mark.rule("HEALTH-8")
def test_bonus_hp_is_lost_before_hp():
    then = struck(facing("shore-crab", bonus_hp=1), ENEMY_TWO)
    then.then_has(DamageDealt, target="ysolda", amount=2, to_bonus=1, to_hp=1, hp=3, bonus_hp=0)


@pytest.mark.rule("HEALTH-5")
def test_an_adventurer_who_loses_the_last_hp_is_defeated():
    then = struck(facing("shore-crab", hp=1), ENEMY_TWO)
    then.then_has(DamageDealt, target="ysolda", amount=2, to_hp=1, hp=0)
    then.then_has(UnitDefeated, unit="ysolda")
    hero = then.state.hero("ysolda")
    assert hero.defeated and hero.pos is None and hero.hp == 0


@pytest.mark.rule("HEALTH-8")
def test_bonus_hp_may_go_above_the_health_stat():
    then = resolve(facing("shore-crab"), Engage(form=DEFENSIVE, dice=(7,), faces=(WIND_BONUS_2,)))
    then.then_has(Healed, unit="ysolda", amount=2, hp=4, bonus_hp=2)
    hero = then.state.hero("ysolda")
    assert (hero.hp, hero.max_hp, hero.bonus_hp) == (4, 4, 2)


@pytest.mark.rule("HEALTH-8")
def test_true_damage_skips_bonus_hp():
    given = Scenario.clash(party=("Ysolda:nord", "Tarn:dark-elf"))
    given = given.with_hero("tarn", bonus_hp=2, track=(skill(3, 1), skill(4, 1), status_die(Status.BANE)))
    then = given.when(EndTurn())
    then.then_has(DamageDealt, target="tarn", amount=1, true_damage=True, to_bonus=0, to_hp=1, hp=3, bonus_hp=2)


@pytest.mark.rule("HEALTH-8")
def test_bonus_hp_is_cleared_when_the_battle_ends():
    given = facing("shore-crab", bonus_hp=2).with_foe("e1", hp=1)
    won = resolve(given, Engage(form=LIGHT_FORM, target="e1", dice=(1,), faces=(COMBAT_1,))).next()
    then = won.when(EndTurn())
    then.then_has(HeroCleanedUp, hero="ysolda", hp=4)
    assert then.state.hero("ysolda").bonus_hp == 0


# --- Status dice placed on enemies -------------------------------------------------------


@pytest.mark.rule("STATUS-2")
def test_a_die_on_an_enemy_is_refused_as_such_even_while_another_die_sits_in_an_active_slot():
    """Which of its places a die cannot be rolled from is the die's own
    (found by mutation testing: any skill die in an active slot made every
    unavailable die read as an active one)."""
    held = (ActiveDie(DieKind.SKILL, 5, GUARD_BLOCK_2, 2),)
    given = facing("shore-crab", active=held)
    then = resolve(given, Engage(form=LIGHT_FORM, target="e1", dice=(4,), faces=(BASH_DAZE,)))
    assert then.state.hero("ysolda").active == held
    error = then.next().then_violates(Engage(form=LIGHT_FORM, dice=(4,), faces=(1,)), "STATUS-2")
    assert error.message.endswith("is placed on an enemy as a status effect and cannot be rolled")


@pytest.mark.rule("STATUS-1")
def test_a_status_face_places_its_die_on_the_target():
    then = resolve(facing("shore-crab"), Engage(form=LIGHT_FORM, target="e1", dice=(4,), faces=(BASH_DAZE,)))
    then.then_has(StatusPlaced, foe="e1", mark=StatusMark(Status.DAZE, "ysolda", 4))
    then.then_lacks(DieExhausted)
    assert then.state.foe("e1").marks == (StatusMark(Status.DAZE, "ysolda", 4),)
    assert then.state.hero("ysolda").track == ()
    then.next().then_violates(Engage(form=LIGHT_FORM, dice=(4,), faces=(1,)), "STATUS-2")


@pytest.mark.rule("STATUS-1")
def test_a_status_face_without_a_target_is_exhausted():
    then = resolve(facing("shore-crab"), Engage(form=LIGHT_FORM, dice=(4,), faces=(BASH_DAZE,)))
    then.then_lacks(StatusPlaced)
    then.then_has(DieExhausted, uid=4, face=BASH_DAZE, rule="ENGAGE-8e")


@pytest.mark.rule("STATUS-3")
def test_a_quest_unit_takes_no_status_from_an_adventurer():
    given = facing("shore-crab").with_foe("e1", quest=True)
    then = resolve(given, Engage(form=LIGHT_FORM, target="e1", dice=(4,), faces=(BASH_DAZE,)))
    then.then_lacks(StatusPlaced)
    then.then_has(DieExhausted, uid=4, face=BASH_DAZE, rule="STATUS-3")
    assert then.state.foe("e1").marks == ()


@pytest.mark.rule("STATUS-7")
def test_an_enemy_holds_only_one_of_each_status():
    given = facing("shore-crab", dice=dice("combat", "shield-bash", "shield-bash"))
    given = given.with_foe("e1", marks=(mark(Status.DAZE, 2),))
    then = resolve(given, Engage(form=LIGHT_FORM, target="e1", dice=(3,), faces=(BASH_DAZE,)))
    then.then_lacks(StatusPlaced)
    then.then_has(DieExhausted, uid=3, face=BASH_DAZE, rule="STATUS-7")
    assert then.state.foe("e1").marks == (mark(Status.DAZE, 2),)


@pytest.mark.rule("STATUS-7")
def test_different_statuses_stack_on_an_enemy():
    given = facing("shore-crab", dice=dice("combat", "tainted-arrow", "shield-bash"))
    given = given.with_foe("e1", marks=(mark(Status.BANE, 2),))
    then = resolve(given, Engage(form=LIGHT_FORM, target="e1", dice=(3,), faces=(BASH_DAZE,)))
    assert then.state.foe("e1").marks == (mark(Status.BANE, 2), mark(Status.DAZE, 3))


@pytest.mark.rule("STATUS-2")
@pytest.mark.rule("STATUS-4")
def test_a_defeated_enemys_statuses_come_off_and_their_dice_are_exhausted_to_their_owner():
    given = facing("shore-crab").with_foe("e1", hp=1, marks=(mark(Status.DAZE, 4),))
    then = resolve(given, Engage(form=LIGHT_FORM, target="e1", dice=(1,), faces=(COMBAT_1,)))
    then.then_has(StatusLifted, foe="e1", status=Status.DAZE, rule="STATUS-4")
    then.then_has(DieExhausted, hero="ysolda", uid=4, face=BASH_DAZE, rule="STATUS-2")
    assert index(then, StatusLifted) < index(then, UnitDefeated, unit="e1")
    assert then.state.hero("ysolda").track == (skill(1, COMBAT_1), skill(4, BASH_DAZE))


@pytest.mark.rule("STATUS-4")
def test_a_status_placed_in_the_engage_that_defeats_the_enemy_comes_off_with_it():
    given = facing("shore-crab").with_foe("e1", hp=2)
    then = resolve(given, Engage(form=LIGHT_FORM, target="e1", dice=(1, 4), faces=(COMBAT_2, BASH_DAZE)))
    assert index(then, StatusPlaced, foe="e1") < index(then, StatusLifted, foe="e1", rule="STATUS-4")
    then.then_has(UnitDefeated, unit="e1")
    assert then.state.hero("ysolda").track == (skill(1, COMBAT_2), skill(4, BASH_DAZE))


@pytest.mark.rule("STATUS-5")
@pytest.mark.rule("STATUS-6")
def test_at_the_end_of_battle_enemy_statuses_come_off_but_the_adventurers_stay():
    given = Scenario.clash().with_hero("ysolda", dice=dice("combat", "cleave"), track=(status_die(Status.FEAR),))
    given = foe_at(given.without_foes("e1"), 6, enemy="shore-crab", marks=(mark(Status.MAIM, 2),))
    end_of_round = given.when(EndTurn()).next()
    assert end_of_round.state.phase is Phase.END_OF_ROUND
    then = end_of_round.when(Retreat())
    then.then_has(StatusLifted, foe="e1", status=Status.MAIM, rule="STATUS-5")
    then.then_has(DieExhausted, hero="ysolda", uid=2, face=CLEAVE_MAIM, rule="STATUS-2")
    then.then_has(HeroCleanedUp, hero="ysolda", track=(status_die(Status.FEAR), skill(2, CLEAVE_MAIM)))
    assert then.state.foe("e1").marks == ()
    assert Status.FEAR in statuses(then.state.hero("ysolda"))


@pytest.mark.rule("STATUS-8")
@pytest.mark.rule("TRACK-10")
def test_an_adventurer_gaining_a_status_it_has_moves_that_die_to_the_end_of_the_queue():
    given = facing("tunnel-rat", track=(status_die(Status.BANE), skill(1, 1)))  # Venom: Bane
    then = struck(given, ENEMY_TWO)
    then.then_has(
        HeroStatusGained,
        hero="ysolda",
        status=Status.BANE,
        refreshed=True,
        track=(skill(1, 1), status_die(Status.BANE)),
    )


@pytest.mark.rule("STATUS-1")
@pytest.mark.rule("TRACK-1")
def test_an_enemy_skill_puts_its_status_die_on_the_adventurers_track():
    then = struck(facing("tunnel-rat", track=(skill(1, 1),)), ENEMY_ONE)
    then.then_has(
        HeroStatusGained,
        hero="ysolda",
        status=Status.BANE,
        refreshed=False,
        track=(skill(1, 1), status_die(Status.BANE)),
    )


# --- The six statuses on an adventurer (facts: STATUS-1) --------------------------------


def blind_between(first: str = "shore-crab", second: str = "bandit-bruiser") -> Scenario:
    """Blind Ysolda on (2, 1) between e1 (``first``) on (3, 1) and e2
    (``second``) on (2, 2); e1 has 3 HP, e2 6."""
    given = Scenario.clash(physical_dice=True).without_foes("e1")
    given = given.with_hero("ysolda", pos=(2, 1), track=(status_die(Status.BLIND),))
    given = only_foe(given, 1, first).with_foe("e1", pos=(3, 1))
    return add_foe(given, "e2", second, (2, 2))


@pytest.mark.rule("STATUS-1")
def test_a_blind_adventurer_may_target_only_the_strongest_adjacent_unit():
    given = blind_between()
    given.then_violates(Engage(form=LIGHT_FORM, target="e1"), "STATUS-1")
    given.when(Engage(form=LIGHT_FORM, target="e2")).then_has(EngageDeclared, target="e2")


@pytest.mark.rule("STATUS-1")
def test_a_blind_adventurer_next_to_a_stronger_ally_may_not_target_a_weaker_enemy():
    given = Scenario.clash(party=("Ysolda:nord", "Tarn:dark-elf"), physical_dice=True).without_foes("e1")
    given = given.with_hero("ysolda", pos=(2, 1), track=(status_die(Status.BLIND),)).with_hero("tarn", pos=(1, 1))
    given = restart_turn(only_foe(given, 1, "shore-crab").with_foe("e1", pos=(3, 1)))
    assert given.state.hero("tarn").hp == 4 > given.state.foe("e1").hp == 3
    error = given.then_violates(Engage(form=LIGHT_FORM, target="e1"), "STATUS-1")
    assert error.message == "you are blind: you may target only the strongest adjacent unit"


@pytest.mark.rule("STATUS-1")
@pytest.mark.rule("HEALTH-8")
def test_a_blind_adventurer_s_true_damage_on_the_ally_it_must_strike_skips_the_ally_s_bonus_hp():
    """A Blind adventurer beside a stronger ally strikes the ally; a true-damage
    face deals true damage to it as to an enemy, so its bonus HP is skipped
    (found by mutation testing: it came off the bonus HP as physical damage)."""
    given = Scenario.clash(party=("Ysolda:nord", "Tarn:dark-elf"), physical_dice=True).without_foes("e1")
    blind = (status_die(Status.BLIND),)
    given = given.with_hero(
        "ysolda", pos=(2, 1), track=blind, dice=dice("cinder-bolt"), magicka=3, form=BattleForm.MAGIC
    )
    given = given.with_hero("tarn", pos=(1, 1), bonus_hp=2)
    given = restart_turn(only_foe(given, 1, "shore-crab").with_foe("e1", pos=(3, 1)))
    then = resolve(given, Engage(form=BattleForm.MAGIC, target="tarn", dice=(1,), faces=(4,)))  # true damage 1
    hit = then.then_has(DamageDealt, source="ysolda", target="tarn")
    assert (hit.amount, hit.true_damage, hit.to_bonus, hit.to_hp) == (1, True, 0, 1)
    assert then.state.hero("tarn").bonus_hp == 2


@pytest.mark.rule("STATUS-1")
def test_a_blind_adventurer_cannot_target_at_range():
    given = blind_between().with_foe("e2", pos=(4, 1)).with_hero("ysolda", stamina=3)
    given = restart_turn(given)
    assert given.ctx.board.range_distance((2, 1), (4, 1)) == 2
    given.then_violates(Engage(form=RANGED, target="e2"), "STATUS-1")


@pytest.mark.rule("STATUS-1")
def test_a_feared_adventurers_non_combat_dice_do_nothing_but_combat_dice_still_strike():
    given = facing("shore-crab", track=(status_die(Status.FEAR),))
    then = resolve(given, Engage(form=LIGHT_FORM, target="e1", dice=(1, 4), faces=(COMBAT_1, BASH_2)))
    then.then_has(DieExhausted, uid=4, face=BASH_2, rule="STATUS-1")
    then.then_has(DamageDealt, target="e1", amount=1, to_hp=1, hp=2)


@pytest.mark.rule("STATUS-1")
@pytest.mark.rule("TRACK-12")
def test_a_feared_adventurers_ward_face_does_not_ward():
    given = facing("shore-crab", track=(status_die(Status.FEAR),))
    then = resolve(given, Engage(form=DEFENSIVE, dice=(6,), faces=(BRACE_WARD,)))
    then.then_has(DieExhausted, uid=6, face=TENACITY, rule="STATUS-1")
    struck(then.next(), ENEMY_TWO).then_has(DamageDealt, target="ysolda", amount=2, prevented=0, to_hp=2)


@pytest.mark.rule("STATUS-1")
def test_a_maimed_adventurers_combat_damage_is_halved_but_other_damage_is_not():
    given = facing("shore-crab", track=(status_die(Status.MAIM),)).with_foe("e1", hp=5, max_hp=5)
    then = resolve(given, Engage(form=LIGHT_FORM, target="e1", dice=(1, 4), faces=(COMBAT_2, BASH_2)))
    then.then_has(DamageDealt, target="e1", amount=3, to_hp=3, hp=2)


@pytest.mark.rule("STATUS-1")
def test_a_maimed_adventurers_single_combat_1_rounds_down_to_nothing():
    given = facing("shore-crab", track=(status_die(Status.MAIM),))
    then = resolve(given, Engage(form=LIGHT_FORM, target="e1", dice=(1,), faces=(COMBAT_1,)))
    then.then_lacks(DamageDealt)
    assert then.state.foe("e1").hp == 3


@pytest.mark.rule("STATUS-1")
def test_an_adventurers_stealth_ends_once_it_deals_damage():
    given = facing("shore-crab", track=(status_die(Status.STEALTH), skill(5, 1)))
    then = resolve(given, Engage(form=LIGHT_FORM, target="e1", dice=(1,), faces=(COMBAT_1,)))
    then.then_has(HeroStatusLost, hero="ysolda", status=Status.STEALTH, rule="STATUS-1")
    assert statuses(then.state.hero("ysolda")) == frozenset()


@pytest.mark.rule("STATUS-1")
def test_an_adventurers_stealth_stays_when_defense_prevents_all_the_damage():
    given = facing("bandit-bruiser", track=(status_die(Status.STEALTH),))
    then = resolve(given, Engage(form=LIGHT_FORM, target="e1", dice=(1,), faces=(COMBAT_1,)))
    then.then_has(DamageDealt, target="e1", amount=1, prevented=1, to_hp=0)
    then.then_lacks(HeroStatusLost)


@pytest.mark.rule("STATUS-1")
def test_an_enemy_not_adjacent_at_the_start_of_its_turn_cannot_target_a_stealthed_adventurer():
    given = facing("shore-crab", k=2, track=(status_die(Status.STEALTH),))
    then = given.when(EndTurn())
    then.then_has(EnemyMoved, foe="e1")
    then.then_lacks(EnemyEngaged)
    assert then.state.phase is Phase.END_OF_ROUND


@pytest.mark.rule("STATUS-1")
def test_an_enemy_adjacent_at_the_start_of_its_turn_may_target_a_stealthed_adventurer():
    given = facing("shore-crab", k=1, track=(status_die(Status.STEALTH),))
    then = given.when(EndTurn())
    then.then_has(EnemyRollAwaited, foe="e1", targets=("ysolda",))


@pytest.mark.rule("ENGAGE-8c")
def test_the_true_damage_faces_of_one_engage_are_pooled_and_defense_prevents_none_of_it():
    """Two Steady Shot dice showing their true-damage face (1 each) make one
    instance of 2 true damage, which the Bandit Bruiser's Defense 1 does not
    reduce (found by mutation testing: the second face replaced the first)."""
    given = facing("bandit-bruiser", k=2, dice=dice("steady-shot", "steady-shot"), form=BattleForm.RANGED)
    then = resolve(given, Engage(form=BattleForm.RANGED, target="e1", dice=(1, 2), faces=(4, 4)))
    hit = then.then_has(DamageDealt, source="ysolda", target="e1")
    assert (hit.amount, hit.prevented, hit.true_damage, hit.to_hp) == (2, 0, True, 2)


# --- The six statuses on an enemy, placed by adventurers' dice (facts: STATUS-1) -------------


@pytest.mark.rule("STATUS-1")
def test_a_baned_enemy_takes_1_true_damage_at_the_start_of_its_turn_through_its_defense():
    given = facing("bandit-bruiser", k=4, dice=dice("combat", "tainted-arrow"))
    given = given.with_foe("e1", marks=(mark(Status.BANE, 2),))
    then = given.when(EndTurn())
    then.then_has(
        DamageDealt,
        source="ysolda",
        target="e1",
        amount=1,
        prevented=0,
        to_hp=1,
        hp=5,
        true_damage=True,
        rule="ENEMY-4",
    )


@pytest.mark.rule("STATUS-1")
def test_a_blind_enemy_attacks_the_strongest_adjacent_unit_even_another_enemy():
    given = Scenario.clash(physical_dice=True).without_foes("e1").with_hero("ysolda", pos=(2, 1), hp=2)
    given = only_foe(given, 1, "shore-crab").with_foe("e1", pos=(3, 1), marks=(mark(Status.BLIND, 5),))
    given = add_foe(given, "e2", "shore-crab", (4, 1))
    then = given.when(EndTurn())
    then.then_has(EnemyEngaged, foe="e1", targets=("e2",))
    then.then_has(EnemyRollAwaited, foe="e1", targets=("e2",))


@pytest.mark.rule("STATUS-1")
@pytest.mark.rule("STATUS-2")
def test_a_dazed_enemy_that_moves_rolls_nothing_and_its_daze_returns_to_the_owners_track():
    given = facing("shore-crab", k=2).with_foe("e1", marks=(mark(Status.DAZE, 4),))
    then = given.when(EndTurn())
    then.then_has(EnemyMoved, foe="e1")
    then.then_has(EnemyEngaged, foe="e1", targets=("ysolda",))
    then.then_lacks(EnemyRollAwaited)
    then.then_lacks(DamageDealt)
    then.then_has(StatusLifted, foe="e1", status=Status.DAZE, rule="STATUS-1")
    then.then_has(DieExhausted, hero="ysolda", uid=4, face=BASH_DAZE, rule="STATUS-2")
    assert then.state.hero("ysolda").track == (skill(4, BASH_DAZE),)


@pytest.mark.rule("STATUS-1")
def test_a_dazed_enemy_that_does_not_move_still_rolls():
    given = facing("shore-crab", k=1).with_foe("e1", marks=(mark(Status.DAZE, 4),))
    given.when(EndTurn()).then_has(EnemyRollAwaited, foe="e1", dice=1)


@pytest.mark.rule("STATUS-1")
def test_a_feared_enemys_skill_does_nothing():
    given = facing("tunnel-rat", dice=dice("combat", "battle-roar")).with_foe("e1", marks=(mark(Status.FEAR, 2),))
    then = struck(given, ENEMY_TWO)
    then.then_has(DamageDealt, target="ysolda", amount=2, to_hp=2)
    then.then_lacks(HeroStatusGained)


@pytest.mark.rule("STATUS-1")
def test_a_maimed_enemys_rolled_damage_is_halved():
    given = facing("shore-crab", dice=dice("combat", "cleave")).with_foe("e1", marks=(mark(Status.MAIM, 2),))
    struck(given, ENEMY_TWO).then_has(DamageDealt, target="ysolda", amount=1, to_hp=1, hp=3)


@pytest.mark.rule("STATUS-1")
@pytest.mark.rule("STATUS-2")
def test_a_stealthed_enemy_loses_stealth_once_it_deals_damage():
    given = facing("shore-crab", dice=dice("combat", "tainted-arrow")).with_foe("e1", marks=(mark(Status.STEALTH, 2),))
    then = struck(given, ENEMY_TWO)
    then.then_has(StatusLifted, foe="e1", status=Status.STEALTH, rule="STATUS-1")
    then.then_has(DieExhausted, hero="ysolda", uid=2, face=2, rule="STATUS-2")


# --- Physical dice: typed faces ---------------------------------------------------------------
# The dice log and the physical-dice option (DESIGN.md, Randomness) are no rule
# of the game: these tests cite none, except where a rule's outcome is checked.


def test_typed_faces_are_recorded_as_typed_and_leave_the_battles_counter_alone():
    given = facing("shore-crab")
    counter = given.state.rng
    then = given.when(Engage(form=LIGHT_FORM, target="e1", dice=(1, 4), faces=(COMBAT_2, BASH_DAZE)))
    then.then_has(
        DiceRolled, unit="ysolda", typed=True, dice=(Rolled(1, "combat", COMBAT_2), Rolled(4, "shield-bash", BASH_DAZE))
    )
    assert then.state.rng == counter


@pytest.mark.parametrize(
    "faces", [None, (1,), (1, 1, 1), (1, 6), (-1, 1)], ids=["missing", "too-few", "too-many", "no-face-7", "negative"]
)
def test_typed_faces_must_name_one_face_of_each_die_rolled(faces):
    with pytest.raises(MalformedCommand):
        facing("shore-crab").when(Engage(form=LIGHT_FORM, target="e1", dice=(1, 4), faces=faces))


def test_faces_cannot_be_typed_when_the_battle_rolls_its_own_dice():
    with pytest.raises(
        MalformedCommand,
        match="^this battle rolls its own dice; faces can be typed only with the physical-dice option$",
    ):
        Scenario.clash().when(Engage(form=LIGHT_FORM, dice=(1,), faces=(1,)))


@pytest.mark.rule("ENGAGE-7")  # gathering and rolling dice is optional
def test_with_physical_dice_an_engage_that_rolls_nothing_needs_no_faces():
    then = facing("shore-crab").when(Engage(form=LIGHT_FORM, target="e1"))
    then.then_lacks(DiceRolled)
    assert then.state.turn.engages == 1


@pytest.mark.rule("STATUS-1")
def test_a_blind_adventurer_may_strike_the_stronger_ally_beside_it():
    """Blind treats every unit as opposing (facts: STATUS-1): the strongest
    adjacent unit is the ally, so the blow lands on the ally."""
    given = Scenario.clash(party=("Ysolda:nord", "Tarn:dark-elf"), physical_dice=True).without_foes("e1")
    given = given.with_hero("ysolda", pos=(2, 1), track=(status_die(Status.BLIND),)).with_hero("tarn", pos=(1, 1))
    given = restart_turn(only_foe(given, 1, "shore-crab").with_foe("e1", pos=(3, 1)))
    then = resolve(given, Engage(form=LIGHT_FORM, target="tarn", dice=(1,), faces=(COMBAT_1,)))
    hit = then.then_has(DamageDealt, target="tarn", source="ysolda")
    assert (hit.to_hp, then.state.hero("tarn").hp) == (1, 3)
