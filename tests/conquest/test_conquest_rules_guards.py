"""Edges of the Action Phase that mutation testing (tests/MUTATION.md) found
unguarded: the reasons refusals give, the far table edge, the stand counts
offered."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from domain.conquest import events as ev
from domain.conquest.commands import Clash, DrawCard, March, StartConquest, Volley
from domain.conquest.rules import decide, legal_commands
from domain.conquest.vocab import Phase, Where
from domain.kernel.errors import MalformedCommand, RuleViolation
from conquest_harness import ARMIES, CTX, acting, in_phase, of, place, start, violates, when


@pytest.mark.rule("ACT-4")
def test_a_regiment_activated_this_round_is_refused_by_name():
    s = in_phase(
        place(start(), a1={"where": Where.FIELD, "front": 5}, a2={"where": Where.FIELD, "front": 5, "activated": True}),
        Phase.ACTION,
        round=2,
    )
    s = replace(s, sides=(replace(s.sides[0], stack=("a1",)), s.sides[1]))
    rv = violates(s, DrawCard(regiment="a2"), "ACT-4")
    assert rv.message == "a2 has already activated this Round"


@pytest.mark.rule("ARRIVE-2")
def test_a_march_may_reach_the_far_table_edge_but_not_go_past_it():
    depth = CTX.scenario.depth
    s = acting(place(start(), a1=depth - 2), "a1")
    rv = violates(s, March(regiment="a1", inches=3), "ARRIVE-2")
    assert rv.message == "a1 would march off the far table edge"
    s, events = when(s, March(regiment="a1", inches=2))
    assert of(events, ev.RegimentMarched)[0].front == depth == s.regiment("a1").front


@pytest.mark.rule("ARRIVE-3")
def test_the_second_march_refusal_says_how_many_inches_are_still_off_the_table():
    s = acting(place(start(), a5="arriving"), "a5")  # 4" deep
    s, _ = when(s, March(regiment="a5", inches=1))
    rv = violates(s, March(regiment="a5", inches=2), "ARRIVE-3")
    assert rv.message == "the second March must bring the rest of a5 on (at least 3 inches)"


@pytest.mark.rule("ACT-10")
def test_a_volley_or_clash_is_offered_removing_every_stand_count_up_to_all():
    s = acting(place(start(), b2=30, a2=8), "b2")  # a2 10" ahead, in Volley range
    stands = s.regiment("a2").stands
    offered = sorted(c.removed for c in legal_commands(s, CTX) if isinstance(c, Volley) and c.target == "a2")
    assert offered == list(range(stands + 1))
    s, events = when(s, Volley(regiment="b2", target="a2", removed=stands))
    assert of(events, ev.StandsRemoved)[0].destroyed
    s = replace(acting(place(start(), a1=20, b1=28), "a1"), contact=(("a1", "b1"),))
    offered = sorted(c.removed for c in legal_commands(s, CTX) if isinstance(c, Clash) and c.target == "b1")
    assert offered == list(range(s.regiment("b1").stands + 1))


@pytest.mark.rule("REINF-2")
def test_a_character_cannot_join_a_regiment_of_the_other_army():
    with pytest.raises(RuleViolation) as caught:
        start(assignments=(("ac1", "b3"),))
    assert (caught.value.rule, caught.value.message) == ("REINF-2", "ac1 can only join a Regiment of its own army")


@pytest.mark.rule("REINF-2")
def test_an_assignment_naming_no_character_of_the_armies_is_malformed_and_names_it():
    """Found by mutation testing: an unknown Character was let through."""
    with pytest.raises(MalformedCommand) as caught:
        start(assignments=(("zz9", "a3"),))
    assert str(caught.value) == "no Character 'zz9'"


@pytest.mark.rule("ROUND-3")
def test_a_battle_in_a_scenario_the_pack_lacks_is_malformed_and_names_those_it_has():
    """The scenario sets the Round count and victory conditions (ROUND-3):
    an unknown one cannot start, and the refusal lists the known ones."""
    with pytest.raises(MalformedCommand) as caught:
        decide(None, StartConquest(battle_id="t", scenario="nowhere", armies=ARMIES, seed=1), CTX)
    assert str(caught.value) == f"no scenario 'nowhere' (there are: {', '.join(CTX.pack.scenarios)})"


@pytest.mark.rule("ROUND-3")
def test_a_battle_ended_mid_activation_leaves_no_activation_or_step_open():
    """Whenever it ends (a surrender comes at any time), nothing of the
    activation under way stays open (found by mutation testing)."""
    from domain.conquest.commands import Surrender
    from domain.conquest.vocab import Step

    s = acting(place(start(), a3=10), "a3")
    s = replace(s, step=Step.DECLARE)
    assert s.activation is not None
    over, events = when(s, Surrender(side=0))
    assert of(events, ev.BattleEnded)
    assert (over.phase, over.step, over.activation) == (Phase.OVER, Step.NONE, None)


def test_a_battle_set_up_without_two_armies_is_malformed_saying_what_to_name():
    """Found by mutation testing: the words were not checked."""
    from domain.conquest.context import context_for
    from domain.conquest.packs import starter_pack

    cmd = StartConquest(battle_id="t", scenario="border-clash", armies=ARMIES[:1], seed=1)
    with pytest.raises(MalformedCommand) as caught:
        decide(None, cmd, context_for(starter_pack(), "border-clash"))
    assert str(caught.value) == 'name two armies (and two warlords, or "")'
