"""A command given out of its turn is refused by the rule its moment
breaks, and says so in a player's words (mutation testing found these
refusals' rules and reasons unchecked): the stack is fixed once ordered
(CMD-5), a card is drawn only between activations (ACT-16) and before an
action (ACT-2), a draw event is answered before acting (ACT-8), and a
phase finishes before the next (ROUND-2)."""

from __future__ import annotations

import pytest
from conquest_harness import acting, in_phase, place, start, violates, when
from msgspec.structs import replace

from domain.conquest.commands import DrawCard, OrderStack, Reform
from domain.conquest.vocab import Phase, Step, Where
from domain.kernel.errors import MalformedCommand


def _said(state, command, rule: str, reason: str) -> None:
    assert violates(state, command, rule).message == reason


@pytest.mark.rule("CMD-5")
def test_a_stack_ordered_for_the_round_cannot_be_ordered_again_in_supremacy_or_action():
    for phase, step in ((Phase.SUPREMACY, Step.ROLL_OFF), (Phase.ACTION, Step.NONE)):
        _said(
            in_phase(place(start(), a1=10), phase, step, round=2),
            OrderStack(cards=("a1", "ac1")),
            "CMD-5",
            "the Command Stack's order is fixed for this Round",
        )


@pytest.mark.rule("ACT-16")
def test_no_card_is_drawn_while_a_regiment_is_still_active():
    _said(acting(place(start(), a3=10), "a3"), DrawCard(), "ACT-16", "a3's activation is not over")


@pytest.mark.rule("ACT-2")
def test_an_action_before_any_card_is_drawn_is_refused():
    s = replace(in_phase(place(start(), a3=10), Phase.ACTION, round=2), activation=None)
    _said(s, Reform(regiment="a3"), "ACT-2", "draw a Command Card first")


@pytest.mark.rule("ACT-8")
def test_an_action_while_the_draw_event_waits_is_refused():
    s = replace(in_phase(place(start(), a1=10), Phase.ACTION, round=2), activation=None)
    s = replace(s, sides=(replace(s.sides[0], stack=("a1",)), s.sides[1]))
    s, _ = when(s, DrawCard(regiment="a1"))
    assert s.activation.step is Step.DRAW_EVENT
    _said(s, Reform(regiment="a1"), "ACT-8", "resolve or decline the draw event first")


@pytest.mark.rule("ROUND-2")
def test_a_command_of_a_later_phase_names_the_phase_and_what_it_waits_for_in_a_players_words():
    _said(
        start(),
        OrderStack(cards=()),
        "ROUND-2",
        "the Reinforcement Phase must finish first: it waits for rk choose-arrival",
    )


def _horn(**where):
    """a4 activated by the Reed Captain's card, its Rally Horn waiting to
    march another Regiment out of sequence."""
    from conquest_harness import in_phase as phase_of

    s = replace(phase_of(place(start(), a4=10, **where), Phase.ACTION, round=2), activation=None)
    s = replace(s, sides=(replace(s.sides[0], stack=("ac2",)), s.sides[1]))
    s, _ = when(s, DrawCard())
    return s


@pytest.mark.rule("ACTIONS-6")
def test_an_out_of_sequence_march_moves_another_friendly_regiment_wholly_on_the_field():
    from domain.conquest.commands import ResolveDrawEvent

    s = _horn(a1=10, a2="arriving", b1=30)
    _said(
        s,
        ResolveDrawEvent(event="rally-horn", target="b1", inches=2),
        "ACTIONS-6",
        "b1 is the enemy's: an out-of-sequence march moves another friendly Regiment",
    )
    _said(
        s,
        ResolveDrawEvent(event="rally-horn", target="a4", inches=2),
        "ACTIONS-6",
        "a4 is the one activated: an out-of-sequence march moves another friendly Regiment",
    )
    _said(
        s,
        ResolveDrawEvent(event="rally-horn", target="a2", inches=2),
        "ACTIONS-6",
        "a2 is not wholly on the battlefield",
    )
    partly = _horn(a1={"where": Where.FIELD, "front": 1})  # its front an inch in: its rear ranks still off
    assert partly.regiment("a1").partly_on
    _said(
        partly,
        ResolveDrawEvent(event="rally-horn", target="a1", inches=2),
        "ACTIONS-6",
        "a1 is not wholly on the battlefield",
    )
    with pytest.raises(MalformedCommand):
        when(s, ResolveDrawEvent(event="rally-horn", target=None, inches=2))
