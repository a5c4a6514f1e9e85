"""Physical dice in Conquest: every roll (the Reinforcement Rolls, REINF-6;
the roll-off, SUP-1) takes the faces the table typed, checked by the rules
(how many, each 1 to 6) and recorded as typed; the RNG counter stays."""

from __future__ import annotations

import pytest

from domain.conquest import events as ev
from domain.conquest.commands import ChooseArrival, RollOff
from domain.conquest.reinforcement import dice_needed
from domain.conquest.ruleset import RULESET
from domain.conquest.vocab import Phase, Step
from conquest_harness import CTX, in_phase, of, start, violates, when


@pytest.mark.rule("REINF-6")
def test_reinforcement_rolls_take_the_typed_faces_and_record_them_as_typed():
    s = start(physical=True)
    n = dice_needed(s, CTX, 0, "a1")
    after, events = when(s, ChooseArrival(regiment="a1", faces=(1,) * n))
    rolled = of(events, ev.ReinforcementsRolled)
    assert [f for r in rolled for f in r.faces] == [1] * n and all(r.typed for r in rolled)
    assert after.rng == s.rng  # typed faces draw nothing from the RNG
    assert all(RULESET.check_random(s, r) is None for r in rolled)  # nothing to re-derive


@pytest.mark.rule("REINF-6")
def test_reinforcement_faces_of_the_wrong_count_or_off_the_die_are_refused_with_reinf_6():
    s = start(physical=True)
    n = dice_needed(s, CTX, 0, "a1")
    for faces in (None, (1,) * (n + 1), (0,) + (1,) * (n - 1), (7,) * n):
        err = violates(s, ChooseArrival(regiment="a1", faces=faces), "REINF-6")
        assert "physical dice" in err.message
    for faces, given in ((None, "none"), ((1,) * (n + 1), str(n + 1))):  # the count given, in words
        err = violates(s, ChooseArrival(regiment="a1", faces=faces), "REINF-6")
        assert err.message.endswith(f", not {given}")


@pytest.mark.rule("REINF-6")
def test_with_physical_dice_each_arrival_is_offered_with_as_many_faces_as_its_rolls_take():
    """Found by mutation testing: the offered faces were not checked."""
    from domain.conquest.rules import legal_commands

    s = start(physical=True)
    offered = [c for c in legal_commands(s, CTX) if isinstance(c, ChooseArrival)]
    assert offered and all(len(c.faces) == dice_needed(s, CTX, 0, c.regiment or "") for c in offered if c.faces)
    assert any(c.faces for c in offered)


@pytest.mark.rule("REINF-6")
def test_faces_typed_in_a_battle_that_rolls_its_own_dice_are_refused_with_reinf_6():
    err = violates(start(physical=False), ChooseArrival(regiment="a1", faces=(1, 1)), "REINF-6")
    assert err.message == "this battle rolls its own dice: faces are typed only with --physical-dice"


@pytest.mark.rule("SUP-1")
def test_the_roll_off_refuses_missing_or_impossible_faces_with_sup_1():
    s = in_phase(start(physical=True), Phase.SUPREMACY, Step.ROLL_OFF)
    for faces in (None, (3,), (3, 4, 5), (0, 4), (4, 7)):
        violates(s, RollOff(faces=faces), "SUP-1")
    violates(in_phase(start(physical=False), Phase.SUPREMACY, Step.ROLL_OFF), RollOff(faces=(2, 5)), "SUP-1")


@pytest.mark.rule("SUP-1")
def test_the_roll_off_records_the_typed_faces_as_typed():
    s = in_phase(start(physical=True), Phase.SUPREMACY, Step.ROLL_OFF)
    after, events = when(s, RollOff(faces=(6, 2)))
    rolled = of(events, ev.SupremacyRolled)[0]
    assert rolled.faces == (6, 2) and rolled.typed and after.rng == s.rng


@pytest.mark.rule("SUP-1")
def test_with_physical_dice_the_roll_off_is_offered_as_either_player_rolling_higher():
    """`rk legal` offers the roll-off with faces to be typed over: one with
    each player ahead (found by mutation testing)."""
    from domain.conquest.rules import legal_commands

    def roll_offs(physical: bool) -> list[RollOff]:
        s = in_phase(start(physical=physical), Phase.SUPREMACY, Step.ROLL_OFF)
        return [c for c in legal_commands(s, CTX) if isinstance(c, RollOff)]

    assert roll_offs(True) == [RollOff(faces=(1, 2)), RollOff(faces=(2, 1))]
    assert roll_offs(False) == [RollOff()]
