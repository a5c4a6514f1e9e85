"""The end of a battle: when it ends (END-*, ROUND-8b), the objectives of a
clash (OBJ-1, OBJ-3), retreat (RETREAT-*), the End of Battle Cleanup
(CLEANUP-*, EX-4) and the write-back of each adventurer's HP and cooldown
track to its Adventurer aggregate (CLEANUP-3b, CLEANUP-4c, TRACK-7)."""

import pytest
from scenario import Scenario, finish_round

from domain.betrayal.battle.application import BetrayalApp, PartySpec
from domain.betrayal.battle.commands import (
    EndTurn,
    Engage,
    Move,
    NextRound,
    Resolve,
    Retreat,
    RollEnemyDice,
)
from domain.betrayal.battle.events import (
    ActiveChanged,
    BattleEnded,
    BattleStarted,
    DieExhausted,
    EnemyPlaced,
    EnemyTurnStarted,
    HeroCleanedUp,
    PartyRetreated,
    RoundEnded,
    RoundStarted,
    UnitDefeated,
)
from domain.betrayal.battle.state import ActiveDie, DieKind, Outcome, Phase, Termination, TrackDie
from domain.betrayal.vocab import BattleForm, Status

SKILL_1 = TrackDie(DieKind.SKILL, 1, 5)
BANE = TrackDie(DieKind.STATUS, 0, -1, Status.BANE)


def end_of_round(party=("Ysolda:nord",), **kw) -> Scenario:
    return Scenario.clash(party=party, xp=1, **kw).with_state(phase=Phase.END_OF_ROUND, turn=None)


def ended(given: Scenario | None = None):
    """The battle after the party retreats at the end of round 1."""
    return (given or end_of_round()).when(Retreat())


# --- END-1, END-2 -------------------------------------------------------------------


@pytest.mark.rule("END-1")
def test_no_command_is_accepted_once_the_battle_has_ended():
    after = ended().next()
    assert after.state.phase is Phase.ENDED
    after.then_violates(NextRound(), "END-1")
    after.then_violates(EndTurn(), "END-1")
    after.then_violates(Move(to=(1, 1)), "END-1")
    assert after.legal() == []


@pytest.mark.rule("END-1a")
@pytest.mark.rule("OBJ-1")
def test_a_conquer_clash_succeeds_when_every_enemy_is_defeated():
    then = Scenario.clash(party=("Ysolda:nord",), xp=2).without_foes().when(EndTurn())
    ended_ = then.then_has(BattleEnded)
    assert ended_.outcome is Outcome.SUCCESS
    assert ended_.reason is Termination.OBJECTIVE_MET and ended_.reason == "END-1a: the objective was achieved"
    assert then.state.outcome is Outcome.SUCCESS and then.state.termination is Termination.OBJECTIVE_MET


@pytest.mark.rule("OBJ-1")
def test_a_conquer_clash_goes_on_while_one_enemy_is_still_on_the_map():
    # two enemies placed (EP 2); one is defeated, the far one is not
    given = Scenario.clash(party=("Ysolda:nord",), xp=2, physical_dice=True).without_foes("e2")
    after, events = finish_round(given)
    assert [e.round for e in events if isinstance(e, RoundEnded)] == [1]
    assert not [e for e in events if isinstance(e, BattleEnded)]
    assert after.state.phase is Phase.END_OF_ROUND


@pytest.mark.rule("OBJ-3")
@pytest.mark.rule("END-1a")
def test_an_eliminate_clash_succeeds_when_its_objective_units_fall_even_with_other_enemies_left():
    given = Scenario.clash(setup="cinder-rite", party=("Ysolda:nord",), xp=2, physical_dice=True)
    quest = [f.id for f in given.state.foes if f.quest]
    others = [f.id for f in given.state.foes if not f.quest]
    assert quest == ["e1", "e2"] and others == ["e3", "e4"]
    # the objective units are gone; the two drawn enemies are far off
    after, events = finish_round(given.without_foes(*others))
    ended_ = next(e for e in events if isinstance(e, BattleEnded))
    assert ended_.outcome is Outcome.SUCCESS
    assert [f.id for f in after.state.foes if not f.defeated] == others


@pytest.mark.rule("OBJ-3")
def test_an_eliminate_clash_goes_on_while_an_objective_unit_stands_even_with_every_other_enemy_gone():
    given = Scenario.clash(setup="cinder-rite", party=("Ysolda:nord",), xp=2, physical_dice=True)
    given = given.without_foes("e2")  # e2: the Bound Sentinel, on a far special hex
    after, events = finish_round(given)
    assert [e.round for e in events if isinstance(e, RoundEnded)] == [1]
    assert not [e for e in events if isinstance(e, BattleEnded)]


@pytest.mark.rule("END-1c")
@pytest.mark.rule("HEALTH-5")
def test_the_battle_fails_after_the_round_in_which_every_adventurer_was_defeated():
    # Ysolda has 1 HP; a Shore Crab next to her rolls a 2
    given = (
        Scenario.clash(party=("Ysolda:nord",), xp=1, physical_dice=True)
        .with_foe("e1", enemy="shore-crab", hp=3, max_hp=3, pos=(1, 1))
        .with_hero("ysolda", hp=1, pos=(0, 1))
    )
    then = given.when(EndTurn()).next().when(RollEnemyDice(faces=(5,)))
    then.then_has(UnitDefeated, unit="ysolda")
    kinds = [type(e) for e in then.events]
    assert kinds.index(RoundEnded) < kinds.index(BattleEnded)
    result = then.then_has(BattleEnded)
    assert result.outcome is Outcome.FAILURE
    assert result.reason is Termination.PARTY_DEFEATED and result.reason == "END-1c: every adventurer was defeated"


@pytest.mark.rule("END-1c")
def test_once_every_adventurer_is_down_the_remaining_enemy_turns_are_skipped():
    # facts default: skip the round's remaining turns and go to End of Round
    given = (
        Scenario.clash(party=("Ysolda:nord",), xp=2, physical_dice=True)
        .with_foe("e1", enemy="shore-crab", hp=3, max_hp=3, level=1, pos=(1, 1))
        .with_hero("ysolda", hp=1, pos=(0, 1))
    )
    then = given.when(EndTurn()).next().when(RollEnemyDice(faces=(5,)))
    assert [e.foe for e in then.of(EnemyTurnStarted)] == []  # e2 never starts
    then.then_has(BattleEnded)


# --- RETREAT ----------------------------------------------------------------------------


@pytest.mark.rule("RETREAT-1")
def test_a_retreat_is_refused_during_an_adventurer_turn():
    Scenario.clash().then_violates(Retreat(), "RETREAT-1")


@pytest.mark.rule("RETREAT-2")
@pytest.mark.rule("END-1b")
def test_a_retreat_ends_the_encounter_at_once():
    then = ended()
    kinds = [type(e) for e in then.events]
    assert kinds[:2] == [PartyRetreated, BattleEnded]
    then.then_lacks(RoundStarted)
    then.then_has(PartyRetreated, round=1)
    assert then.state.phase is Phase.ENDED


@pytest.mark.rule("RETREAT-4")
@pytest.mark.rule("END-1b")
def test_a_retreat_counts_as_a_failed_encounter():
    then = ended()
    result = then.then_has(BattleEnded)
    assert (result.outcome, result.reason) == (Outcome.FAILURE, "RETREAT-4: the party retreated")
    assert result.reason is Termination.RETREATED and then.state.termination is Termination.RETREATED
    assert then.state.outcome is Outcome.FAILURE


def test_each_way_a_battle_ends_names_its_rule_and_only_two_of_them_succeed():
    assert [t.rule for t in Termination] == ["END-1a", "END-1c", "RETREAT-4", "RETREAT-5", "OBJ-6", "OBJ-9"]
    won = {t for t in Termination if t.outcome is Outcome.SUCCESS}
    assert won == {Termination.OBJECTIVE_MET, Termination.RETREATED_WITH_EVERY_SKYSHARD}


def test_a_battle_still_going_has_no_termination():
    assert Scenario.clash().state.termination is None


# --- CLEANUP --------------------------------------------------------------------------


@pytest.mark.rule("CLEANUP-1")
@pytest.mark.rule("CLEANUP-3")
def test_the_cleanup_follows_the_end_of_the_battle_for_every_adventurer_win_or_lose():
    lost = ended(end_of_round(party=("Ysolda:nord", "Tarn:dark-elf")))
    won = Scenario.clash(party=("Ysolda:nord", "Tarn:dark-elf")).without_foes().when(EndTurn()).next().when(EndTurn())
    for then in (lost, won):
        kinds = [type(e) for e in then.events]
        assert kinds.index(BattleEnded) < kinds.index(HeroCleanedUp)
        assert [e.hero for e in then.of(HeroCleanedUp)] == ["ysolda", "tarn"]


@pytest.mark.rule("CLEANUP-3a")
def test_the_cleanup_removes_bonus_hp():
    then = ended(end_of_round().with_hero("ysolda", hp=3, bonus_hp=2))
    then.then_has(HeroCleanedUp, hero="ysolda", hp=3)
    hero = then.state.hero("ysolda")
    assert (hero.hp, hero.bonus_hp) == (3, 0)


@pytest.mark.rule("CLEANUP-3a")
def test_the_cleanup_removes_hp_above_the_health_maximum():
    then = ended(end_of_round().with_hero("ysolda", hp=6, max_hp=4))
    then.then_has(HeroCleanedUp, hero="ysolda", hp=4)
    assert then.state.hero("ysolda").hp == 4


@pytest.mark.rule("CLEANUP-4")
@pytest.mark.rule("CLEANUP-4a")
@pytest.mark.rule("ACTIVE-7")
def test_the_cleanup_exhausts_the_dice_left_in_the_active_slot():
    given = end_of_round().with_hero(
        "ysolda",
        track=(SKILL_1,),
        active=(ActiveDie(DieKind.SKILL, 5, 1, 1), ActiveDie(DieKind.SKILL, 6, 1, 2)),
    )
    then = ended(given)
    then.then_has(ActiveChanged, hero="ysolda", active=(), rule="CLEANUP-4a")
    assert [e.uid for e in then.of(DieExhausted) if e.rule == "CLEANUP-4a"] == [5, 6]
    hero = then.state.hero("ysolda")
    assert hero.active == ()
    assert hero.track == (SKILL_1, TrackDie(DieKind.SKILL, 5, 1), TrackDie(DieKind.SKILL, 6, 1))


@pytest.mark.rule("CLEANUP-4a")
@pytest.mark.rule("ACTIVE-9d")
def test_a_fatigue_die_in_the_active_slot_goes_to_the_track_at_the_cleanup():
    given = end_of_round().with_hero("ysolda", active=(ActiveDie(DieKind.LIGHT_FATIGUE, 0, -1, 0),))
    then = ended(given)
    assert then.state.hero("ysolda").track == (TrackDie(DieKind.LIGHT_FATIGUE),)


@pytest.mark.rule("CLEANUP-4b")
@pytest.mark.rule("DRAINED-3")
def test_the_cleanup_recovers_every_drained_die():
    then = ended(end_of_round().with_hero("ysolda", drained=(4, 6)))
    then.then_has(HeroCleanedUp, hero="ysolda", drained_recovered=(4, 6))
    assert then.state.hero("ysolda").drained == ()


@pytest.mark.rule("CLEANUP-4c")
@pytest.mark.rule("TRACK-7")
def test_dice_on_the_cooldown_track_stay_there_at_the_end_of_the_battle():
    track = (SKILL_1, TrackDie(DieKind.OVERFATIGUE), BANE)
    then = ended(end_of_round().with_hero("ysolda", track=track))
    then.then_has(HeroCleanedUp, hero="ysolda", track=track)
    assert then.state.hero("ysolda").track == track


@pytest.mark.rule("EX-4")
@pytest.mark.rule("CLEANUP-4a")
@pytest.mark.rule("CLEANUP-4b")
@pytest.mark.rule("CLEANUP-4c")
def test_active_dice_go_to_the_track_drained_dice_come_back_and_the_track_carries_over():
    given = end_of_round().with_hero(
        "ysolda",
        track=(SKILL_1, BANE),
        drained=(6,),
        active=(ActiveDie(DieKind.SKILL, 5, 1, 1),),
    )
    hero = ended(given).state.hero("ysolda")
    assert hero.track == (SKILL_1, BANE, TrackDie(DieKind.SKILL, 5, 1))
    assert (hero.active, hero.drained) == ((), ())


@pytest.mark.rule("CLEANUP-3")
def test_a_defeated_adventurer_is_cleaned_up_with_zero_hp():
    given = end_of_round(party=("Ysolda:nord", "Tarn:dark-elf")).with_hero("tarn", hp=0, defeated=True, pos=None)
    ended(given).then_has(HeroCleanedUp, hero="tarn", hp=0)


# --- write-back to the Adventurer aggregate ------------------------------------------------


@pytest.fixture
def app():
    app = BetrayalApp(store="memory")
    yield app
    app.close()


def fight_and_retreat(app: BetrayalApp, battle_id: str = "b1") -> None:
    """Ysolda alone against a Tunnel Rat (EP 1, seed 1): she rolls a Combat
    die at no target (it goes to her track), the rat closes in and hits her
    for 2 (Venom: Bane), and the party retreats at the end of round 1."""
    app.new_clash(
        setup="waystone-crossing",
        party=[PartySpec("Ysolda", "nord")],
        xp=1,
        seed=1,
        physical_dice=True,
        battle_id=battle_id,
    )
    app.execute(battle_id, Engage(form=BattleForm.LIGHT, dice=(1,), faces=(5,)))
    app.execute(battle_id, Resolve())
    app.execute(battle_id, EndTurn())
    app.execute(battle_id, RollEnemyDice(faces=(5,)))
    app.execute(battle_id, Retreat())


@pytest.mark.rule("CLEANUP-3b")
@pytest.mark.rule("CLEANUP-4c")
@pytest.mark.rule("TRACK-7")
def test_the_adventurer_keeps_its_remaining_hp_and_its_cooldown_track_after_the_battle(app):
    fight_and_retreat(app)
    ysolda = app.adventurer("Ysolda")
    assert (ysolda.hp, ysolda.max_hp) == (2, 4)
    assert ysolda.track == (SKILL_1, BANE)
    assert ysolda.battles == ("b1",)


@pytest.mark.rule("TRACK-7")
@pytest.mark.rule("CLEANUP-4c")
@pytest.mark.rule("STATUS-6")
def test_the_next_battle_starts_with_the_hp_and_track_the_last_one_left(app):
    fight_and_retreat(app)
    app.new_clash(
        setup="waystone-crossing", party=[PartySpec("Ysolda")], xp=1, seed=2, physical_dice=True, battle_id="b2"
    )
    started = next(e.event for e in app.stream("b2") if isinstance(e.event, BattleStarted))
    carried = started.party[0]
    assert (carried.hp, carried.max_hp, carried.track) == (2, 4, (SKILL_1, BANE))


@pytest.mark.rule("CLEANUP-3b")
def test_a_won_battle_also_writes_the_hp_back(app):
    app.new_clash(
        setup="waystone-crossing", party=[PartySpec("Ysolda", "nord")], xp=1, seed=1, physical_dice=True, battle_id="b1"
    )
    # Ysolda kills the Tunnel Rat (2 HP) when it comes next to her
    app.execute("b1", EndTurn())
    app.execute("b1", RollEnemyDice(faces=(2,)))  # the rat deals 1
    app.execute("b1", NextRound())
    state = app.battle("b1").state
    rat = state.foe("e1")
    assert rat.pos == (1, 0)
    app.execute("b1", Engage(form=BattleForm.LIGHT, target="e1", dice=(1, 2), faces=(1, 1)))
    result = app.execute("b1", Resolve())
    assert result.battle.state.foe("e1").defeated
    result = app.execute("b1", EndTurn())
    assert result.battle.state.outcome is Outcome.SUCCESS
    # 1 from the rat's bite, 1 from its Bane at the start of her second turn
    ysolda = app.adventurer("Ysolda")
    assert ysolda.hp == 2
    assert ysolda.battles == ("b1",)


# --- CLEANUP-5a: enemy chips go back to the bag ------------------------------------------


@pytest.mark.rule("CLEANUP-5")
@pytest.mark.rule("CLEANUP-5a")
def test_enemy_chips_drawn_in_one_battle_are_back_in_the_bag_for_the_next(app):
    fight_and_retreat(app)
    first = [e.event.enemy for e in app.stream("b1") if isinstance(e.event, EnemyPlaced)]
    app.new_clash(setup="waystone-crossing", party=[PartySpec("Ysolda")], xp=1, seed=1, battle_id="b2")
    second = [e.event.enemy for e in app.stream("b2") if isinstance(e.event, EnemyPlaced)]
    # the same seed draws the same chip again: the bag is whole
    assert first == second == ["tunnel-rat"]
