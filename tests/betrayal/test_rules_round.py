"""The battle round through ``decide``: rounds and their steps (ROUND-*),
the Fatigue Round with the facts' fatigue damage (FATIGUE-ROUND-*), EX-1
and EX-3."""

import pytest
from scenario import Scenario, finish_round

from domain.betrayal.battle.commands import (
    EndTurn,
    Engage,
    NextRound,
    Resolve,
    Retreat,
)
from domain.betrayal.battle.events import (
    BattleEnded,
    DamageDealt,
    EnemyTurnStarted,
    FatigueGained,
    RoundEnded,
    RoundStarted,
    TurnEnded,
    TurnStarted,
    UnitDefeated,
)
from domain.betrayal.battle.state import ActiveDie, DieKind, Outcome, Phase, TrackDie
from domain.betrayal.vocab import BattleForm

OVER = TrackDie(DieKind.OVERFATIGUE)
LIGHT = TrackDie(DieKind.LIGHT_FATIGUE)
TRIO = ("Ysolda:nord", "Tarn:dark-elf", "Brand:imperial")


def end_of_round(round_number: int, party=("Ysolda:nord",), **kw) -> Scenario:
    """The End of Round step of ``round_number``, enemies still on the map."""
    return Scenario.clash(party=party, xp=1, **kw).with_state(
        round=round_number,
        phase=Phase.END_OF_ROUND,
        turn=None,
    )


# --- ROUND-1 to ROUND-3 -------------------------------------------------------


@pytest.mark.rule("ROUND-1")
@pytest.mark.rule("CLASH-10")
def test_a_battle_starts_in_round_one_and_goes_on_round_by_round():
    given = Scenario.clash(physical_dice=True)
    assert given.state.round == 1
    after, events = finish_round(given)
    assert [e.round for e in events if isinstance(e, RoundEnded)] == [1]
    then = after.when(NextRound())
    then.then_has(RoundStarted, round=2, fatigue_round=False)
    assert then.state.round == 2


@pytest.mark.rule("ROUND-2")
@pytest.mark.rule("ROUND-5")
def test_a_round_is_every_adventurer_turn_then_every_enemy_turn_then_its_end():
    given = Scenario.clash(party=("Ysolda:nord", "Tarn:dark-elf"), xp=4, physical_dice=True)
    _, events = finish_round(given)
    steps = [
        (type(e).__name__, getattr(e, "hero", None) or getattr(e, "foe", None))
        for e in events
        if isinstance(e, (TurnStarted, TurnEnded, EnemyTurnStarted, RoundEnded))
    ]
    assert steps == [
        ("TurnEnded", "ysolda"),
        ("TurnStarted", "tarn"),
        ("TurnEnded", "tarn"),
        ("EnemyTurnStarted", "e1"),
        ("EnemyTurnStarted", "e2"),
        ("EnemyTurnStarted", "e3"),
        ("EnemyTurnStarted", "e4"),
        ("RoundEnded", None),
    ]


@pytest.mark.rule("ROUND-3")
@pytest.mark.rule("ROUND-8")
def test_the_battle_goes_on_while_enemies_stand_and_no_one_retreated():
    given = Scenario.clash(physical_dice=True)
    after, events = finish_round(given)
    assert not [e for e in events if isinstance(e, BattleEnded)]
    assert after.state.phase is Phase.END_OF_ROUND
    assert after.legal() == [NextRound(), Retreat()]


# --- ROUND-4: start of round ----------------------------------------------------


@pytest.mark.rule("ROUND-4")
@pytest.mark.rule("ROUND-4a")
def test_the_start_of_a_round_raises_the_counter_by_one():
    then = end_of_round(3).when(NextRound())
    then.then_has(RoundStarted, round=4, fatigue_round=False)
    then.then_has(TurnStarted, hero="ysolda")
    assert (then.state.round, then.state.phase) == (4, Phase.ADVENTURER_TURN)


@pytest.mark.rule("ROUND-4a")
@pytest.mark.rule("CLASH-10")
def test_the_first_round_starts_at_one_without_a_raise():
    given = Scenario.clash()
    assert given.state.round == 1
    assert not given.state.fatigue_round


@pytest.mark.rule("ROUND-8")
def test_next_round_is_refused_before_the_round_has_ended():
    Scenario.clash().then_violates(NextRound(), "ROUND-8")


# --- Fatigue Round ----------------------------------------------------------------


@pytest.mark.rule("FATIGUE-ROUND-1")
def test_round_five_is_not_yet_a_fatigue_round():
    then = end_of_round(4).when(NextRound())
    then.then_has(RoundStarted, round=5, fatigue_round=False)
    then.then_lacks(FatigueGained)
    then.then_lacks(DamageDealt)


@pytest.mark.rule("FATIGUE-ROUND-1")
@pytest.mark.rule("FATIGUE-ROUND-4")
@pytest.mark.rule("EX-1")
def test_after_round_five_the_fatigue_round_starts_and_each_adventurer_takes_fatigue_damage():
    # given the end of round 5, two standing adventurers with clean tracks
    given = end_of_round(5, party=("Ysolda:nord", "Tarn:dark-elf"))
    # when the next round starts
    then = given.when(NextRound())
    # then it is the Fatigue Round
    then.then_has(RoundStarted, round=6, fatigue_round=True)
    assert then.state.fatigue_round
    # each adventurer gains 1 Overfatigue, then takes true damage equal to
    # the Overfatigue dice on its track (facts: FATIGUE-ROUND-4)
    for hero in ("ysolda", "tarn"):
        gained = then.then_has(FatigueGained, hero=hero)
        assert (gained.kind, gained.count, gained.rule) == (DieKind.OVERFATIGUE, 1, "FATIGUE-ROUND-4")
        hit = then.then_has(DamageDealt, target=hero)
        assert (hit.source, hit.amount, hit.true_damage, hit.hp, hit.rule) == ("fatigue", 1, True, 3, "FATIGUE-ROUND-4")
    # the fatigue comes before the first adventurer's turn
    kinds = [type(e) for e in then.events]
    assert kinds.index(DamageDealt) < kinds.index(TurnStarted)


@pytest.mark.rule("FATIGUE-ROUND-4")
def test_fatigue_damage_counts_every_overfatigue_die_on_the_track():
    given = end_of_round(5).with_hero("ysolda", track=(LIGHT, OVER, OVER))
    then = given.when(NextRound())
    gained = then.then_has(FatigueGained, hero="ysolda")
    assert gained.track == (LIGHT, OVER, OVER, OVER)
    assert then.then_has(DamageDealt, target="ysolda").amount == 3
    assert then.state.hero("ysolda").hp == 1


@pytest.mark.rule("FATIGUE-ROUND-4")
def test_fatigue_damage_is_true_damage_past_block_dice_and_bonus_hp():
    block = ActiveDie(DieKind.SKILL, 5, 3, 2)
    given = end_of_round(5).with_hero("ysolda", bonus_hp=2, active=(block,))
    then = given.when(NextRound())
    hit = then.then_has(DamageDealt, target="ysolda")
    assert (hit.prevented, hit.to_bonus, hit.to_hp) == (0, 0, 1)
    hero = then.state.hero("ysolda")
    assert (hero.hp, hero.bonus_hp, hero.active) == (3, 2, (block,))


@pytest.mark.rule("FATIGUE-ROUND-4")
@pytest.mark.parametrize(("down", "standing"), [("tarn", "ysolda"), ("ysolda", "tarn")])
def test_a_defeated_adventurer_gains_no_fatigue_and_takes_no_fatigue_damage(down, standing):
    """Whether the fallen adventurer comes first in turn order or last, the
    ones after it still take the Fatigue Round's fatigue."""
    given = end_of_round(5, party=("Ysolda:nord", "Tarn:dark-elf")).with_hero(
        down,
        hp=0,
        defeated=True,
        pos=None,
    )
    assert given.state.order == ("ysolda", "tarn")
    then = given.when(NextRound())
    assert [e.hero for e in then.of(FatigueGained)] == [standing]
    assert [e.target for e in then.of(DamageDealt)] == [standing]
    assert then.state.hero(down).track == ()


@pytest.mark.rule("FATIGUE-ROUND-4")
@pytest.mark.rule("END-1c")
def test_fatigue_damage_that_defeats_the_last_adventurer_ends_the_battle_in_failure():
    given = end_of_round(5).with_hero("ysolda", hp=1)
    then = given.when(NextRound())
    then.then_has(UnitDefeated, unit="ysolda")
    then.then_lacks(TurnStarted)
    ended = then.then_has(BattleEnded)
    assert ended.outcome is Outcome.FAILURE and ended.reason.startswith("END-1c")


@pytest.mark.rule("FATIGUE-ROUND-4")
@pytest.mark.rule("ROUND-5")
def test_an_adventurer_felled_by_fatigue_is_skipped_in_the_turn_order():
    given = end_of_round(5, party=("Ysolda:nord", "Tarn:dark-elf")).with_hero("ysolda", hp=1)
    then = given.when(NextRound())
    then.then_has(UnitDefeated, unit="ysolda")
    assert [e.hero for e in then.of(TurnStarted)] == ["tarn"]
    assert then.state.turn.hero == "tarn"


@pytest.mark.rule("FATIGUE-ROUND-2")
@pytest.mark.rule("FATIGUE-ROUND-4")
def test_the_fatigue_round_stays_for_every_later_round():
    # the Overfatigue gained in round 6 is still on the track in round 7
    # (Ysolda's Cooldown 2 cycles it back to the end of the queue)
    given = end_of_round(6).with_hero("ysolda", track=(OVER,))
    then = given.when(NextRound())
    then.then_has(RoundStarted, round=7, fatigue_round=True)
    assert then.then_has(DamageDealt, target="ysolda").amount == 2
    assert then.state.fatigue_round


# --- ROUND-5: adventurer turns in turn order ---------------------------------------


@pytest.mark.rule("ROUND-5")
@pytest.mark.rule("CLASH-8c")
@pytest.mark.rule("EX-13")
def test_adventurers_take_their_turns_in_placement_order_every_round():
    given = Scenario.clash(party=TRIO, xp=1, physical_dice=True)
    assert given.state.order == ("ysolda", "tarn", "brand")
    after, events = finish_round(given)
    assert [e.hero for e in events if isinstance(e, TurnStarted)] == ["tarn", "brand"]
    then = after.when(NextRound())
    assert [e.hero for e in then.of(TurnStarted)] == ["ysolda"]
    _, events = finish_round(then.next())
    assert [e.hero for e in events if isinstance(e, TurnStarted)] == ["tarn", "brand"]


@pytest.mark.rule("ROUND-5")
def test_a_defeated_adventurer_takes_no_turn():
    given = Scenario.clash(party=TRIO, xp=1).with_hero("tarn", hp=0, defeated=True, pos=None)
    then = given.when(EndTurn())
    assert [e.hero for e in then.of(TurnStarted)] == ["brand"]


# --- ROUND-7: enemy turns, highest level first --------------------------------------


@pytest.mark.rule("ROUND-7")
@pytest.mark.rule("ROUND-7a")
def test_enemies_act_highest_level_first_and_equal_levels_in_placement_order():
    # EP 8: a level-5 enemy on hex 1, then three level-1 enemies
    given = Scenario.clash(party=("Ysolda:nord", "Tarn:dark-elf"), xp=4, physical_dice=True)
    given = given.with_foe("e1", level=1).with_foe("e3", level=5)
    _, events = finish_round(given)
    assert [e.foe for e in events if isinstance(e, EnemyTurnStarted)] == ["e3", "e1", "e2", "e4"]


# --- ROUND-8: end of round ----------------------------------------------------------


@pytest.mark.rule("ROUND-8b")
@pytest.mark.rule("END-1a")
def test_the_end_of_round_ends_the_battle_when_the_objective_is_achieved():
    given = Scenario.clash().without_foes()
    then = given.when(EndTurn())
    then.then_has(RoundEnded, round=1)
    ended = then.then_has(BattleEnded)
    assert ended.outcome is Outcome.SUCCESS and ended.reason.startswith("END-1a")
    assert then.state.phase is Phase.ENDED


@pytest.mark.rule("ROUND-8c")
@pytest.mark.rule("RETREAT-1")
def test_at_the_end_of_a_round_the_party_may_declare_a_retreat():
    then = end_of_round(2).when(Retreat())
    ended = then.then_has(BattleEnded)
    assert ended.outcome is Outcome.FAILURE
    assert then.state.retreated


# --- EX-3 / END-2: Conquer does not end the battle at once ---------------------------


@pytest.mark.rule("EX-3")
@pytest.mark.rule("END-2")
@pytest.mark.rule("ROUND-8b")
@pytest.mark.rule("END-1a")
def test_defeating_the_last_enemy_ends_the_battle_only_after_the_round():
    # given a Conquer clash with one enemy left, 2 HP, next to Ysolda
    given = (
        Scenario.clash(party=("Ysolda:nord", "Tarn:dark-elf"), xp=1, physical_dice=True)
        .without_foes("e1")
        .with_foe("e1", enemy="road-lookout", hp=2, max_hp=2, pos=(1, 1))
        .with_hero("ysolda", pos=(0, 1))
    )
    # when Ysolda defeats it with two Combat dice showing 1 and 2
    rolled = given.when(Engage(form=BattleForm.LIGHT, target="e1", dice=(1, 2), faces=(1, 5)))
    then = rolled.next().when(Resolve())
    then.then_has(UnitDefeated, unit="e1")
    # then the battle is not over: the rest of the round is played
    then.then_lacks(BattleEnded)
    assert then.state.phase is Phase.ADVENTURER_TURN
    after_ysolda = then.next().when(EndTurn())
    after_ysolda.then_has(TurnStarted, hero="tarn")
    after_ysolda.then_lacks(BattleEnded)
    # and it ends once the round is over
    last = after_ysolda.next().when(EndTurn())
    kinds = [type(e) for e in last.events]
    assert kinds.index(RoundEnded) < kinds.index(BattleEnded)
    assert last.then_has(BattleEnded).outcome is Outcome.SUCCESS


@pytest.mark.rule("ROUND-8")
def test_when_a_round_ends_no_enemy_is_left_queued_to_act_in_it():
    """The End of Round step (ROUND-8) closes the enemies' step (ROUND-7):
    whatever the queue still held (a foe defeated before its turn stays in
    it) is dropped, and no turn stays open, so nothing of this round's
    turns carries over."""
    from domain.betrayal.battle.evolve import evolve

    given = Scenario.clash().with_state(enemy_queue=("e1", "e2"))
    assert given.state.turn is not None  # no turn is left open either (found by mutation testing)
    after = evolve(given.state, RoundEnded(round=given.state.round))
    assert (after.phase, after.enemy_queue, after.turn) == (Phase.END_OF_ROUND, (), None)


def test_every_battle_event_has_a_rule_in_evolve_and_one_without_is_named_at_import(monkeypatch):
    """evolve checks, as it is imported, that every battle event type has
    its rule, so a new event cannot be written that replay would ignore."""
    from domain.betrayal.battle import evolve as module
    from domain.betrayal.battle import events as ev

    module._check_complete()  # every event type of today has one

    unheard = type("Unheard", (), {})  # not a BattleEvent subclass: it must not outlive the test
    known = ev.all_event_types()
    monkeypatch.setattr(ev, "all_event_types", lambda: (*known, unheard))
    with pytest.raises(TypeError, match=r"evolve has no rule for \['Unheard'\]"):
        module._check_complete()
