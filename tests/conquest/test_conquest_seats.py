"""Conquest's seats at a table (SEAT-1, ours): one seat per player, ``a``
for the first army named at setup and ``b`` for the second; a command is
given for the player whose decision the state awaits, a surrender for the
side it names (``Ruleset.seats``, ``Ruleset.actor``)."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from conquest_harness import ARMIES, CTX, acting, in_phase, start, when
from domain.conquest.commands import (
    ChooseArrival,
    ChooseFirstPlayer,
    EndActivation,
    EndRound,
    March,
    RollOff,
    Surrender,
)
from domain.conquest.rules import legal_commands
from domain.conquest.state import Side
from domain.conquest.vocab import Phase, Step
from domain.kernel.ruleset import Seat, load

R = load("conquest")


@pytest.mark.rule("SEAT-1")
def test_the_two_players_are_the_seats_named_by_their_armies():
    assert R.seats(start()) == (Seat(key="a", name=ARMIES[0]), Seat(key="b", name=ARMIES[1]))


def test_a_side_without_an_army_is_named_by_its_letter():
    state = replace(start(), sides=(Side(army=""), Side(army="")))
    assert [s.name for s in R.seats(state)] == ["player a", "player b"]


@pytest.mark.rule("SEAT-1")
@pytest.mark.parametrize(
    "command",
    [
        ChooseArrival(regiment="a1"),
        ChooseArrival(),
        RollOff(),
        ChooseFirstPlayer(),
        EndActivation(),
        EndRound(),
        March(regiment="a1", inches=3),
    ],
)
def test_a_command_is_given_for_the_player_whose_decision_the_state_awaits(command):
    state = start()
    assert R.actor(replace(state, turn=0), command) == "a"
    assert R.actor(replace(state, turn=1), command) == "b"


@pytest.mark.rule("SEAT-1")
def test_a_command_naming_the_other_players_regiment_is_still_the_awaited_players():
    # Whose regiment it may move is the rules' question (they refuse it);
    # the seat is the one whose decision is awaited.
    state = acting(start(), "a1")
    assert R.actor(state, March(regiment="b1", inches=3)) == "a"


@pytest.mark.rule("SEAT-1")
@pytest.mark.parametrize("turn", [0, 1])
def test_a_surrender_is_given_for_the_side_it_names_whoever_is_awaited(turn):
    state = replace(start(), turn=turn)
    assert R.actor(state, Surrender(side=0)) == "a"
    assert R.actor(state, Surrender(side=1)) == "b"


@pytest.mark.rule("SEAT-1")
def test_a_side_out_of_range_is_no_seats():
    assert R.actor(replace(start(), turn=2), EndRound()) is None
    assert R.actor(start(), Surrender(side=7)) is None


@pytest.mark.rule("SEAT-1")
def test_every_legal_command_but_a_surrender_is_the_awaited_players():
    state = start(physical=False)
    after, _ = when(state, ChooseArrival(regiment="a1"))
    for s in (state, after, in_phase(state, Phase.SUPREMACY, Step.ROLL_OFF, turn=1)):
        for command in legal_commands(s, CTX):
            expected = "ab"[command.side] if isinstance(command, Surrender) else "ab"[s.turn]
            assert R.actor(s, command) == expected, command
