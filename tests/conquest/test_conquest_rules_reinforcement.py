"""Round structure, the Reinforcement Phase, the Reinforcement Line and
entering the battlefield (ROUND, REINF, RLINE, ARRIVE)."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from domain.conquest import events as ev
from domain.conquest.commands import ChooseArrival, DrawCard, EndRound, March, OrderStack, PickArrivals, StartConquest
from domain.conquest.packs import parse_pack, starter_files
from domain.conquest.context import context_for
from domain.conquest.rules import decide
from domain.conquest.vocab import Arrival, Phase, RegimentClass, Step, Where
from domain.kernel.errors import RuleViolation
from conquest_harness import CTX, acting, in_phase, of, place, start, violates, when


@pytest.mark.rule("REINF-1")
@pytest.mark.rule("ROUND-1")
def test_a_battle_starts_in_round_one_with_every_regiment_waiting():
    s = start()
    assert s.round == 1 and s.phase is Phase.REINFORCEMENT
    assert {r.where for r in s.regiments} == {Where.WAITING}


@pytest.mark.rule("REINF-2")
def test_each_character_joins_a_regiment_of_its_own_type():
    s = start()
    for c in s.characters:
        assert s.regiment(c.regiment).type == c.type
    assert start(assignments=(("ac1", "a3"),)).character("ac1").regiment == "a3"


@pytest.mark.rule("REINF-2")
def test_a_character_cannot_join_a_regiment_of_another_type():
    with pytest.raises(RuleViolation) as caught:
        start(assignments=(("ac1", "a4"),))
    assert caught.value.rule == "REINF-2"


@pytest.mark.rule("REINF-2")
def test_an_army_list_whose_character_has_no_eligible_regiment_is_rejected():
    files = starter_files()
    files["armies.toml"] = files["armies.toml"].replace(
        b'name = "Reed Captain"\ntype = "cavalry"', b'name = "Reed Captain"\ntype = "wyrm"'
    )
    pack = parse_pack(files)
    cmd = StartConquest(battle_id="t", scenario="border-clash", armies=("saltmarch", "cinderpact"), seed=1)
    with pytest.raises(RuleViolation) as caught:
        decide(None, cmd, context_for(pack, "border-clash"))
    assert caught.value.rule == "REINF-2" and "rejected" in caught.value.message


@pytest.mark.rule("REINF-4")
@pytest.mark.rule("REINF-6")
@pytest.mark.rule("REINF-10")
def test_the_chosen_regiment_arrives_automatically_and_the_others_of_its_class_are_rolled_for():
    s, events = when(start(), ChooseArrival(regiment="a1", faces=(6, 6)))
    chosen = of(events, ev.RegimentsArrived)[0]
    assert chosen.regiments == ("a1",) and chosen.reason is Arrival.CHOSEN
    rolled = of(events, ev.ReinforcementsRolled)
    assert [len(r.faces) for r in rolled] == [2]  # a2, a3; not a1
    assert s.regiment("a1").where is Where.ARRIVING and s.regiment("a2").where is Where.WAITING


@pytest.mark.rule("REINF-4")
def test_a_regiment_of_a_class_that_cannot_arrive_yet_cannot_be_chosen():
    violates(start(), ChooseArrival(regiment="a4", faces=(1, 1, 1)), "REINF-4")


@pytest.mark.rule("REINF-4")
def test_the_automatic_arrival_may_be_declined():
    s, events = when(start(), ChooseArrival(regiment="", faces=(6, 6, 6)))
    assert not of(events, ev.RegimentsArrived) and s.turn == 1


@pytest.mark.rule("REINF-5")
def test_a_class_due_automatically_arrives_whole_without_a_roll():
    s = replace(start(), round=3)
    s, events = when(s, ChooseArrival(regiment="", faces=(6, 6)))  # medium a4 and heavy a5 roll
    forced = [e for e in of(events, ev.RegimentsArrived) if e.reason is Arrival.FORCED][0]
    assert forced.regiments == ("a1", "a2", "a3")
    assert [e.cls for e in of(events, ev.ReinforcementsRolled)] == [RegimentClass.MEDIUM, RegimentClass.HEAVY]


@pytest.mark.rule("REINF-3")
@pytest.mark.rule("REINF-9")
def test_rolls_are_grouped_by_class_and_checked_against_the_table():
    s = replace(start(), round=2, turn=1)  # the Cinder Pact: no reinforcement bonus
    s, events = when(s, ChooseArrival(regiment="", faces=(4, 5, 2, 3)))
    light, medium = of(events, ev.ReinforcementsRolled)
    assert (light.cls, light.needed, light.faces, light.successes) == (RegimentClass.LIGHT, 4, (4, 5), 1)
    assert (medium.cls, medium.needed, medium.faces, medium.successes) == (RegimentClass.MEDIUM, 2, (2, 3), 1)


@pytest.mark.rule("REINF-9")
def test_a_natural_six_fails_and_a_natural_one_succeeds():
    s = replace(start(), round=2, turn=1)
    _, events = when(s, ChooseArrival(regiment="", faces=(1, 6, 6, 6)))
    assert [e.successes for e in of(events, ev.ReinforcementsRolled)] == [1, 0]


@pytest.mark.rule("REINF-8")
def test_each_success_lets_the_player_pick_any_waiting_regiment_of_that_class():
    s, events = when(start(), ChooseArrival(regiment="", faces=(6, 6, 2)))  # only the third die succeeds
    assert s.step is Step.PICK and s.picks[0].count == 1
    violates(s, PickArrivals(regiments=("a4",)), "REINF-8")
    violates(s, PickArrivals(regiments=("a1", "a2")), "REINF-8")
    violates(s, PickArrivals(regiments=("a1", "a1")), "REINF-8")  # one Regiment named twice is not two
    s, events = when(s, PickArrivals(regiments=("a1",)))  # not the die's own Regiment, a3
    assert s.regiment("a1").where is Where.ARRIVING and s.regiment("a3").where is Where.WAITING
    assert s.turn == 1 and s.step is Step.NONE


@pytest.mark.rule("REINF-7")
def test_characters_are_not_rolled_for_and_follow_their_regiment():
    s, events = when(start(), ChooseArrival(regiment="a1", faces=(6, 6)))
    assert sum(len(e.faces) for e in of(events, ev.ReinforcementsRolled)) == 2  # a2 and a3 only
    s, _ = when(s, ChooseArrival(regiment="b1", faces=(6,)))
    s, _ = when(s, OrderStack(cards=("a1", "ac1")))  # the Warlord's card comes with a1
    assert s.sides[0].stack == ("a1", "ac1")


@pytest.mark.rule("REINF-11")
@pytest.mark.rule("ARRIVE-1")
@pytest.mark.rule("ARRIVE-2")
@pytest.mark.rule("RLINE-1")
def test_an_arrived_regiment_enters_by_march_from_its_own_edge():
    s = acting(place(start(), a3="arriving"), "a3")
    s, events = when(s, March(regiment="a3", inches=5))
    marched = of(events, ev.RegimentMarched)[0]
    assert marched.entered and marched.front == 5 and s.regiment("a3").where is Where.FIELD
    violates(acting(place(start(), a3="arriving"), "a3"), March(regiment="a3", inches=7), "ARRIVE-2")


@pytest.mark.rule("ARRIVE-3")
def test_a_short_first_march_needs_a_second_march_for_the_remaining_stands():
    s = acting(place(start(), a5="arriving"), "a5")  # depth 4
    s, _ = when(s, March(regiment="a5", inches=2))
    assert s.regiment("a5").partly_on and s.activation is not None
    violates(s, March(regiment="a5", inches=1), "ARRIVE-3")
    from domain.conquest.commands import EndActivation, Reform

    violates(s, EndActivation(), "ARRIVE-3")
    violates(s, Reform(regiment="a5"), "ARRIVE-3")
    s, _ = when(s, March(regiment="a5", inches=3))
    assert s.regiment("a5").front == 5 and not s.regiment("a5").partly_on


@pytest.mark.rule("ARRIVE-4")
def test_a_side_edge_entry_must_lie_between_the_own_edge_and_the_line():
    s = place(start(), a1=20, a3="arriving")
    s = replace(s, sides=(replace(s.sides[0], line=17), s.sides[1]))  # a1's rear edge
    s = acting(s, "a3")
    rv = violates(s, March(regiment="a3", inches=6, side_edge=18), "ARRIVE-4")
    assert rv.message == 'a side-edge entry must lie wholly between the own edge and the Reinforcement Line at 17"'
    s, events = when(s, March(regiment="a3", inches=6, side_edge=17))
    assert of(events, ev.RegimentMarched)[0].side_edge and s.regiment("a3").front == 17


@pytest.mark.rule("RLINE-3")
def test_with_no_regiment_on_the_field_the_line_is_the_own_edge_and_no_side_entry_is_offered():
    s = acting(place(start(), a3="arriving"), "a3")
    from domain.conquest.rules import legal_commands

    assert not [c for c in legal_commands(s, CTX) if isinstance(c, March) and c.side_edge]


def _end_round(s):
    s = in_phase(s, Phase.VICTORY)
    return when(s, EndRound(vp=(0, 0)))


@pytest.mark.rule("RLINE-2")
@pytest.mark.rule("RLINE-3")
@pytest.mark.rule("RLINE-6")
@pytest.mark.rule("VICTORY-4")
def test_the_line_is_set_anew_at_the_start_of_each_round_through_the_foremost_rear_edge():
    s = place(start(), a1=30, a3=18, b1=14)  # a1 depth 3, a3 depth 2; b1 depth 3, from b's own edge
    s, events = _end_round(replace(s, round=2))
    started = of(events, ev.RoundStarted)[0]
    assert started.round == 3 and started.lines == (27, 11) and s.phase is Phase.REINFORCEMENT


@pytest.mark.rule("RLINE-4")
def test_the_line_is_pushed_back_past_an_enemy_that_crossed_it():
    # worked example 4: rear edges at 30 and 18, an enemy at 24 from our edge
    s = place(start(), a1=33, a3=20, b1=48 - 24)
    s, events = _end_round(replace(s, round=2))
    assert of(events, ev.RoundStarted)[0].lines[0] == 18


@pytest.mark.rule("RLINE-4")
def test_with_no_friendly_regiment_left_behind_the_line_it_falls_back_to_the_edge():
    s = place(start(), a1=33, b1=48 - 5)
    s, events = _end_round(replace(s, round=2))
    assert of(events, ev.RoundStarted)[0].lines[0] == 0


def _entering(s, regiment="a3"):
    """``regiment``, waiting to arrive, activated next."""
    return acting(replace(s, activation=None), regiment)


@pytest.mark.rule("RLINE-5")
def test_the_line_never_moves_forward_during_the_round():
    """The line was set through a1's rear edge, 30", as the Round began.
    a1 marching 6" on brings its rear edge to 36", and the line stays at
    30": a side-edge entry beyond 30" is still refused."""
    s = place(start(), a1=33, a3="arriving")
    s = replace(s, sides=(replace(s.sides[0], line=30), s.sides[1]))
    s, _ = when(acting(s, "a1"), March(regiment="a1", inches=6))
    assert s.regiment("a1").rear == 36 and s.sides[0].line == 30
    violates(_entering(s), March(regiment="a3", inches=6, side_edge=36), "ARRIVE-4")
    violates(_entering(s), March(regiment="a3", inches=6, side_edge=31), "ARRIVE-4")
    s, _ = when(_entering(s), March(regiment="a3", inches=6, side_edge=30))
    assert s.regiment("a3").front == 30


@pytest.mark.rule("RLINE-5")
def test_an_enemy_crossing_the_line_during_the_round_leaves_it_until_the_next_round():
    """Facts default (Fills RLINE-5: fixed once, at the start of the Round):
    b1 marching 2" past the line at 30" does not push it back until the
    next Round begins; a side-edge entry at 30" is still taken meanwhile."""
    s = place(start(), a1=33, a3="arriving", b1=12)
    s = replace(s, sides=(replace(s.sides[0], line=30), s.sides[1]))
    s, _ = when(acting(s, "b1"), March(regiment="b1", inches=8))
    assert 48 - s.regiment("b1").front == 28 and s.sides[0].line == 30  # b1's front 2" past the line
    s, events = when(_entering(s), March(regiment="a3", inches=6, side_edge=30))
    assert of(events, ev.RegimentMarched)[0].side_edge
    s, events = _end_round(replace(s, activation=None))
    assert of(events, ev.RoundStarted)[0].lines[0] == 28  # only now pushed back, to a3's rear edge (RLINE-4)


@pytest.mark.rule("ARRIVE-5")
def test_only_an_enemy_on_the_table_edge_closes_it_not_one_an_inch_away():
    from domain.conquest.board import entry_possible

    assert not entry_possible(place(start(), b2=48), CTX, 0)  # its front rank on a's edge
    assert entry_possible(place(start(), b2=47), CTX, 0)  # an inch short of it


@pytest.mark.rule("ARRIVE-5")
@pytest.mark.rule("ARRIVE-6")
@pytest.mark.rule("ACT-18")
def test_a_regiment_that_cannot_enter_goes_back_and_passes_automatically_next_round():
    s = place(start(), a3="arriving", b2=48)  # an enemy stands on a's table edge
    s = replace(acting(s, "a3"), activation=None)
    s = replace(s, sides=(replace(s.sides[0], stack=("a3",)), s.sides[1]))
    s, events = when(s, DrawCard())
    assert of(events, ev.EntryRefused) and s.regiment("a3").where is Where.WAITING and s.activation is None
    assert s.regiment("a3").activated and s.regiment("a3").carried
    s = in_phase(replace(s, round=3, activation=None), Phase.REINFORCEMENT)
    s, events = when(s, ChooseArrival(regiment="a4", faces=(6,)))  # the automatic choice is still free
    reasons = {e.reason: e.regiments for e in of(events, ev.RegimentsArrived)}
    assert reasons[Arrival.CARRIED_OVER] == ("a3",) and reasons[Arrival.CHOSEN] == ("a4",)
    assert not s.regiment("a3").carried  # the automatic pass is spent once used
    violates(
        in_phase(place(start(), a3={"carried": True}), Phase.REINFORCEMENT),
        ChooseArrival(regiment="a3", faces=(6, 6)),
        "ARRIVE-6",
    )


@pytest.mark.rule("ARRIVE-7")
@pytest.mark.rule("ACT-11")
def test_a_regiment_that_can_enter_must_march_on_first():
    from domain.conquest.commands import EndActivation, Reform
    from domain.conquest.rules import legal_commands

    s = acting(place(start(), a3="arriving"), "a3")
    violates(s, EndActivation(), "ARRIVE-7")
    violates(s, Reform(regiment="a3"), "ACT-11")
    assert {type(c).__name__ for c in legal_commands(s, CTX)} == {"March", "Surrender"}


@pytest.mark.rule("ROUND-2")
def test_a_phase_must_finish_before_the_next_one():
    violates(start(), OrderStack(cards=()), "ROUND-2")


# --- the seed a log may carry ----------------------------------------------------------


@pytest.mark.parametrize("seed", [2**63, 2**64, -1])
def test_a_seed_outside_0_to_2_63_minus_1_is_malformed(seed):
    from domain.kernel.errors import MalformedCommand

    with pytest.raises(MalformedCommand, match="seed"):
        start(seed=seed)
    assert start(seed=2**63 - 1).seed == 2**63 - 1


@pytest.mark.rule("RLINE-3")
def test_a_foremost_regiment_still_partly_off_the_table_puts_the_line_on_the_own_edge():
    """Its rear edge lies behind the own table edge, so the line is the edge
    itself, 0", never behind it nor in front (found by mutation testing)."""
    s = place(start(), a1=2)  # a1 is 3" deep: its rear at -1", partly on the table
    s, events = _end_round(replace(s, round=2))
    assert of(events, ev.RoundStarted)[0].lines[0] == 0


@pytest.mark.rule("CMD-1")
@pytest.mark.rule("RLINE-2")
def test_a_new_round_clears_last_rounds_ordered_stacks():
    """Each Round's stacks are ordered afresh (found by mutation testing: the
    mark that a stack was ordered outlived its Round)."""
    s = place(start(), a1=30, b1=14)
    s = replace(s, round=2, sides=tuple(replace(side, stack=("x",), stacked=True) for side in s.sides))
    s, _ = _end_round(s)
    assert [(side.stack, side.stacked) for side in s.sides] == [((), False), ((), False)]
