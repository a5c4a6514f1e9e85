"""What a command gives up (issue 24), said before it is sent: ending an
activation after its first action gives up the second (ACT-13), and a
surrender gives the opponent the battle (VICTORY-2)."""

from __future__ import annotations

import pytest
from conquest_harness import CTX, in_phase, place, start, when

from domain.conquest.commands import DrawCard, EndActivation, Reform, Surrender
from domain.conquest.rules import legal_commands
from domain.conquest.ruleset import RULESET
from domain.conquest.vocab import Phase
from msgspec.structs import replace


def _noted(state, command) -> list[tuple[str, str]]:
    listed = legal_commands(state, CTX)
    assert command in listed
    return [(g.what, g.rule) for g in RULESET.gives_up(state, CTX, command, listed)]


def _after_a_first_action():
    s = in_phase(place(start(), a3=10, a1=10, b2=10), Phase.ACTION, turn=0, round=2)
    s = replace(s, sides=(replace(s.sides[0], stack=("a3",)), replace(s.sides[1], stack=("b2",))))
    s, _ = when(s, DrawCard(), Reform(regiment="a3"))
    return s


@pytest.mark.rule("ACT-13")
def test_ending_an_activation_after_its_first_action_says_it_gives_up_the_second():
    s = _after_a_first_action()
    assert _noted(s, EndActivation()) == [("a3's second action", "ACT-13")]
    assert all(_noted(s, c) == [] for c in legal_commands(s, CTX) if not isinstance(c, (EndActivation, Surrender)))


@pytest.mark.rule("VICTORY-2")
def test_a_surrender_says_it_gives_the_opponent_the_battle():
    s = _after_a_first_action()
    assert _noted(s, Surrender(side=s.turn)) == [("the battle: the opponent wins", "VICTORY-2")]
