"""Betrayal's seats at a table (SEAT-1, ours): one seat per adventurer,
and the seat each command is given for, read from the state and the
command alone (``Ruleset.seats``, ``Ruleset.actor``)."""

from __future__ import annotations

import pytest
from scenario import Scenario, finish_round

from domain.betrayal.battle.commands import (
    Defend,
    EndTurn,
    Engage,
    Move,
    NextRound,
    Retreat,
    RollEnemyDice,
    TurnClassSheet,
    UseClassAbility,
    UseGear,
    UseRaceAbility,
)
from domain.betrayal.battle.state import Phase, PendingDefense
from domain.betrayal.vocab import BattleForm
from domain.kernel.ruleset import Seat, load

R = load("betrayal")


@pytest.fixture
def given() -> Scenario:
    """Ysolda and Tarn, round 1, Ysolda's turn."""
    return Scenario.clash(party=("Ysolda:nord", "Tarn:orc"))


@pytest.mark.rule("SEAT-1")
def test_each_adventurer_of_the_party_is_a_seat_in_turn_order(given):
    assert R.seats(given.state) == (Seat(key="ysolda", name="Ysolda"), Seat(key="tarn", name="Tarn"))


@pytest.mark.rule("SEAT-1")
@pytest.mark.parametrize(
    "command",
    [
        Move(to=(0, 1)),
        EndTurn(),
        Engage(form=BattleForm.LIGHT, dice=(1,)),
        UseRaceAbility(),
        UseGear(item="potion"),
        TurnClassSheet(),
        UseClassAbility(ability="x"),
    ],
)
def test_a_command_that_names_no_adventurer_is_given_for_whoever_has_the_turn(given, command):
    assert R.actor(given.state, command) == "ysolda"
    assert R.actor(given.with_turn(hero="tarn").state, command) == "tarn"


@pytest.mark.rule("SEAT-1")
@pytest.mark.parametrize("named", ["tarn", "Tarn", "TARN"])
@pytest.mark.parametrize(
    "make",
    [
        lambda n: UseRaceAbility(hero=n),
        lambda n: UseGear(item="potion", hero=n),
        lambda n: TurnClassSheet(hero=n),
        lambda n: UseClassAbility(ability="x", hero=n),
    ],
    ids=["race", "gear", "class-sheet", "class-ability"],
)
def test_a_command_naming_an_adventurer_by_id_or_name_in_any_case_is_given_for_it(given, named, make):
    assert R.actor(given.state, make(named)) == "tarn"  # on Ysolda's turn


@pytest.mark.rule("SEAT-1")
def test_a_command_naming_no_adventurer_of_the_party_is_no_seats(given):
    actor = R.actor(given.state, UseRaceAbility(hero="Mallory"))
    assert actor not in {s.key for s in R.seats(given.state)} and actor is not None


@pytest.mark.rule("SEAT-1")
@pytest.mark.parametrize("command", [NextRound(), Retreat(), RollEnemyDice(faces=(1, 2))])
def test_the_next_round_a_retreat_and_an_enemys_dice_are_the_whole_tables(given, command):
    assert R.actor(given.state, command) is None


@pytest.mark.rule("SEAT-1")
def test_a_defend_is_given_for_the_adventurer_the_waiting_strike_hits(given):
    waiting = PendingDefense(foe="e1", targets=("ysolda", "tarn"), faces=(4,), index=1, amount=2)
    struck = given.with_state(phase=Phase.DEFEND, defense=waiting)
    assert R.actor(struck.state, Defend()) == "tarn"  # on Ysolda's turn, the strike hits Tarn
    assert R.actor(given.state, Defend()) is None  # no strike waits: nobody's


@pytest.mark.rule("SEAT-1")
def test_without_a_turn_a_command_naming_no_adventurer_is_the_tables(given):
    assert R.actor(given.with_state(turn=None).state, EndTurn()) is None


@pytest.mark.rule("SEAT-1")
def test_at_the_end_of_a_round_every_legal_command_is_the_whole_tables(given):
    ended, _ = finish_round(given)
    assert ended.state.phase is Phase.END_OF_ROUND
    commands = ended.legal()
    assert commands and {R.actor(ended.state, c) for c in commands} == {None}


@pytest.mark.rule("SEAT-1")
def test_every_legal_command_of_a_turn_is_the_adventurer_whose_turn_it_is(given):
    for state, hero in ((given.state, "ysolda"), (given.when(EndTurn()).state, "tarn")):
        commands = Scenario(state, given.ctx).legal()
        assert commands and {R.actor(state, c) for c in commands} == {hero}


def test_seats_and_actor_read_the_state_without_changing_it(given):
    before = given.state
    R.seats(before)
    R.actor(before, UseRaceAbility(hero="tarn"))
    assert given.state is before and given.state == Scenario.clash(party=("Ysolda:nord", "Tarn:orc")).state
