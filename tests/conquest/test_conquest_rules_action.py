"""The Action Phase (ACT), the Action List (ACTIONS) and the Victory Phase (VICTORY)."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from domain.conquest import events as ev
from domain.conquest.commands import (
    Charge,
    Clash,
    DrawCard,
    EndActivation,
    EndRound,
    March,
    Reform,
    ResolveDrawEvent,
    Surrender,
    Volley,
    Withdraw,
)
from domain.conquest.board import march_value
from domain.conquest.narrate import describe_event
from domain.conquest.rules import legal_commands
from domain.conquest.views import header
from domain.conquest.vocab import Action, Phase, Step, Termination, Use, Where
from domain.kernel.errors import AmbiguousCommand, MalformedCommand, RuleViolation
from conquest_harness import CTX, acting, in_phase, of, place, start, violates, when


def _stacks(s, a=(), b=()):
    return replace(s, sides=(replace(s.sides[0], stack=tuple(a)), replace(s.sides[1], stack=tuple(b))))


def _drawing(a=(), b=(), turn=0, **where):
    s = in_phase(place(start(), **where), Phase.ACTION, turn=turn, round=2)
    return _stacks(s, a, b)


@pytest.mark.rule("ACT-1")
@pytest.mark.rule("ACT-2")
@pytest.mark.rule("ACT-17")
def test_players_alternate_drawing_the_top_card_of_their_stacks():
    s = _drawing(a=("a3", "a1"), b=("b2",), a3=10, a1=10, b2=10)
    s, events = when(s, DrawCard())
    assert of(events, ev.CardDrawn)[0].regiment == "a3"
    s, events = when(s, Reform(regiment="a3"), EndActivation())
    assert s.regiment("a3").activated and s.turn == 1  # deactivated, play passes
    s, events = when(s, DrawCard())
    assert of(events, ev.CardDrawn)[0].regiment == "b2"


@pytest.mark.rule("ACT-3")
@pytest.mark.rule("ACT-5")
def test_a_card_activates_one_regiment_of_its_entry_name_of_the_players_choosing():
    s = _drawing(a=("a1",), a1=10, a2=10, a3=10)
    with pytest.raises(AmbiguousCommand):
        when(s, DrawCard())
    assert violates(s, DrawCard(regiment="a3"), "ACT-3").message == "card a1 activates a1 or a2, not a3"
    s, events = when(s, DrawCard(regiment="a2"), ResolveDrawEvent())  # a1's card, a2 shares its entry name
    assert s.activation.regiment == "a2"
    violates(s, Reform(regiment="a1"), "ACT-5")


@pytest.mark.rule("ACT-4")
@pytest.mark.rule("ACT-6")
@pytest.mark.rule("ACT-7")
def test_cards_with_nothing_to_activate_are_discarded_and_an_empty_stack_passes_play():
    s = _drawing(
        a=("ac1", "a4", "a3"),
        b=("b1",),
        a1={"where": Where.FIELD, "front": 5, "activated": True},
        a4="destroyed",
        a3=10,
        b1=10,
    )
    s, events = when(s, DrawCard())
    assert [e.card for e in of(events, ev.CardDiscarded)] == ["ac1", "a4"]
    assert s.activation.regiment == "a3"
    violates(
        _drawing(
            a=("a1",), a1={"where": Where.FIELD, "front": 5}, a2={"where": Where.FIELD, "front": 5, "activated": True}
        ),
        DrawCard(regiment="a2"),
        "ACT-4",
    )
    s = _drawing(a=("a4",), b=("b1",), a4="destroyed", b1=10)
    s, events = when(s, DrawCard())
    assert of(events, ev.CardDiscarded) and s.turn == 1 and s.phase is Phase.ACTION


@pytest.mark.rule("ACT-8")
def test_a_draw_event_may_be_resolved_or_declined_when_drawn():
    s = _drawing(a=("a1",), a1=10)
    s, _ = when(s, DrawCard(regiment="a1"))
    assert s.activation.step is Step.DRAW_EVENT
    violates(s, Reform(regiment="a1"), "ACT-8")
    violates(s, ResolveDrawEvent(event="press-on"), "ACT-8")
    declined, events = when(s, ResolveDrawEvent())
    assert declined.activation.step is Step.ACTING and not declined.activation.free
    used, _ = when(s, ResolveDrawEvent(event="quickstep"))
    assert used.activation.free == (Action.MARCH,)


@pytest.mark.rule("ACT-9")
def test_a_draw_event_is_not_resolved_for_a_regiment_not_on_the_battlefield():
    s = _drawing(a=("a1",), a1="arriving")
    s, events = when(s, DrawCard(regiment="a1"))
    assert of(events, ev.CardDrawn)[0].draw_events == () and s.activation.step is Step.ACTING


@pytest.mark.rule("ACT-10")
@pytest.mark.rule("ACT-13")
@pytest.mark.rule("ACT-16")
def test_two_actions_then_deactivation_and_the_second_may_be_declined():
    s = acting(place(start(), a3=10, b1=30), "a3")
    s, events = when(s, March(regiment="a3", inches=2), Volley(regiment="a3", target="b1", removed=1))
    assert of(events, ev.ActivationEnded) and s.regiment("b1").stands == 2  # both used: deactivated
    s = acting(place(start(), a3=10), "a3")
    violates(s, EndActivation(), "ACT-10")
    s, events = when(s, Reform(regiment="a3"), EndActivation())
    assert of(events, ev.ActivationEnded)[0].declined


@pytest.mark.rule("ACT-12")
def test_a_regiment_that_arrived_this_round_cannot_charge():
    s = acting(
        place(start(), a3={"where": Where.FIELD, "front": 6, "arrived": 2}, b1=40),
        "a3",
        performed=(Action.MARCH,),
        standard=1,
    )
    violates(s, Charge(regiment="a3", target="b1", inches=2), "ACT-12")
    old = acting(place(start(), a3=6, b1=40), "a3")
    s, events = when(old, Charge(regiment="a3", target="b1", inches=2))
    assert of(events, ev.RegimentCharged)[0].contact and ("a3", "b1") in s.contact


def _offered(s, kind, target):
    return [c for c in legal_commands(s, CTX) if isinstance(c, kind) and c.target == target]


# Positions: border-clash is 48" deep, each front measured from its owner's edge.
# b2 (Ash Skirmishers, Volley 10") stands with its front at 30", its 2" of depth
# from 18" to 20" of a's edge.


@pytest.mark.rule("ACT-10")
def test_a_volley_reaches_an_enemy_within_its_range_and_no_farther():
    ahead = acting(place(start(), b2=30, a2=8), "b2")  # a2's front at 40" of b's edge: 10" ahead
    s, _ = when(ahead, Volley(regiment="b2", target="a2", removed=1))
    assert s.regiment("a2").stands == 3
    too_far = acting(place(start(), b2=30, a2=7), "b2")  # 11" ahead
    rv = violates(too_far, Volley(regiment="b2", target="a2", removed=1), "ACT-10")
    assert '11" away' in str(rv) and not _offered(too_far, Volley, "a2")


@pytest.mark.rule("ACT-10")
def test_a_volley_names_an_enemy_regiment_on_the_battlefield_and_is_told_otherwise():
    """Found by mutation testing: neither refusal's words (nor the first's
    rule) were checked."""
    gone = acting(place(start(), b2=30, a2="destroyed"), "b2")
    rv = violates(gone, Volley(regiment="b2", target="a2", removed=1), "ACT-10")
    assert rv.message == "a2 is not on the battlefield"
    own = acting(place(start(), b2=30, b1=30), "b2")
    with pytest.raises(MalformedCommand) as caught:
        when(own, Volley(regiment="b2", target="b1", removed=1))
    assert str(caught.value) == "'b1' is not an enemy Regiment"


@pytest.mark.rule("ACT-10")
@pytest.mark.rule("ACTIONS-1")
def test_a_volley_needs_missile_weapons_and_a_clash_needs_contact_each_refused_under_its_rule():
    """Found by mutation testing: neither refusal's rule was checked."""
    s = acting(place(start(), a1=20, b2=28), "a1")  # a1 carries no missile weapons
    rv = violates(s, Volley(regiment="a1", target="b2", removed=1), "ACT-10")
    assert rv.message == "a1 has no missile weapons to Volley with"
    other = replace(acting(place(start(), a1=20, b1=10, b3=28), "a1"), contact=(("a1", "b3"),))
    rv = violates(other, Clash(regiment="a1", target="b1", removed=1), "ACTIONS-1")  # in contact with b3 only
    assert rv.message == "a1 can only Clash with an enemy it is in contact with"


@pytest.mark.rule("ACT-16")
def test_a_regiment_that_used_both_its_actions_is_refused_a_third_under_act_16():
    """Found by mutation testing: the rule ID was not checked."""
    s = acting(
        place(start(), a1={"where": Where.FIELD, "front": 6, "actions": (Action.MARCH,)}),
        "a1",
        standard=2,
        performed=(Action.MARCH, Action.MARCH),
    )
    rv = violates(s, Reform(regiment="a1"), "ACT-16")
    assert rv.message == "a1 has used both its actions"


@pytest.mark.rule("ACT-10")
def test_an_enemy_marched_past_is_as_far_as_its_rear_edge_from_ours():
    """a2 (3" deep) marched on to 44": its rear edge at 41", 21" beyond b2's
    rear at 20". The front ranks, back to back, are no measure: 21" is out
    of a 10" Volley (the engine once took it and removed 4 stands)."""
    passed = acting(place(start(), b2=30, a2=44), "b2")
    violates(passed, Volley(regiment="b2", target="a2", removed=4), "ACT-10")
    assert not _offered(passed, Volley, "a2")
    near = acting(place(start(), b2=30, a2=33), "b2")  # a2's rear at 30": 10" behind b2
    s, _ = when(near, Volley(regiment="b2", target="a2", removed=1))
    assert s.regiment("a2").stands == 3


@pytest.mark.rule("ACT-12")
def test_a_charge_is_offered_and_taken_only_where_it_reaches():
    """a3 (March 6", its front at 10") charges b1: straight into contact, so
    exactly the distance between them, and only if that is within its March."""
    s = acting(place(start(), a3=10, b1=34), "a3")  # b1's front 4" ahead
    march = march_value(s, CTX, s.regiment("a3"))
    assert _offered(s, Charge, "b1") == [Charge(regiment="a3", target="b1", inches=4)]
    violates(s, Charge(regiment="a3", target="b1", inches=3), "ACT-12")  # would fall short
    charged, events = when(s, Charge(regiment="a3", target="b1", inches=4))
    assert ("a3", "b1") in charged.contact and of(events, ev.RegimentCharged)[0].front == 14
    far = acting(place(start(), a3=10, b1=38 - march - 1), "a3")  # one inch beyond its March
    rv = violates(far, Charge(regiment="a3", target="b1", inches=march), "ACT-12")
    assert "charge reach" in str(rv) and not _offered(far, Charge, "b1")


@pytest.mark.rule("ACT-12")
def test_no_charge_at_an_enemy_behind():
    """b1 (3" deep, its front at 36") stands from 12" to 15" of a's edge:
    behind a3's rear at 18", 3" away, well within a3's March, and yet no
    Charge: a Charge goes straight ahead (facts: Fills ACT-12)."""
    s = acting(place(start(), a3=20, b1=36), "a3")
    violates(s, Charge(regiment="a3", target="b1", inches=0), "ACT-12")
    violates(s, Charge(regiment="a3", target="b1", inches=3), "ACT-12")
    assert not _offered(s, Charge, "b1")


@pytest.mark.rule("ACT-10")
def test_regiments_that_overlap_or_touch_are_no_distance_apart():
    from domain.conquest.board import distance

    for a, b in ((30, 20), (24, 24), (26, 22)):  # overlapping by 2 to 6 inches, in contact at 24/24
        s = place(start(), a1=a, b1=b)
        assert distance(CTX, s.regiment("a1"), s.regiment("b1")) == 0, (a, b)
    s = place(start(), a1=20, b1=20)
    assert distance(CTX, s.regiment("a1"), s.regiment("b1")) == 8


@pytest.mark.rule("ACT-14")
def test_no_action_but_march_twice_in_a_round():
    s = acting(place(start(), a3={"where": Where.FIELD, "front": 6, "actions": (Action.REFORM,)}), "a3")
    violates(s, Reform(regiment="a3"), "ACT-14")
    s, _ = when(acting(place(start(), a3=6), "a3"), March(regiment="a3", inches=1), March(regiment="a3", inches=1))
    assert s.regiment("a3").front == 8


@pytest.mark.rule("ACT-15")
@pytest.mark.rule("ACTIONS-2")
def test_a_free_action_does_not_use_up_one_of_the_two_actions():
    s = acting(place(start(), a1=6), "a1", free=(Action.MARCH,))
    s, events = when(s, March(regiment="a1", inches=1))
    assert of(events, ev.RegimentMarched)[0].use is Use.FREE and s.activation.standard == 0
    s, events = when(s, March(regiment="a1", inches=1), Reform(regiment="a1"))
    assert len(of(events, ev.ActivationEnded)) == 1 and s.regiment("a1").actions == (Action.MARCH,) * 2 + (
        Action.REFORM,
    )


@pytest.mark.rule("ACTIONS-3")
def test_a_free_action_does_not_allow_a_repeat_by_itself():
    s = acting(
        place(start(), a1={"where": Where.FIELD, "front": 6, "actions": (Action.REFORM,)}),
        "a1",
        free=(Action.REFORM,),
        standard=2,
        performed=(Action.MARCH, Action.MARCH),
    )
    rv = violates(s, Reform(regiment="a1"), "ACTIONS-3")
    assert rv.message == "a free reform does not allow repeating it"


@pytest.mark.rule("ACTIONS-4")
def test_an_additional_action_spends_an_action_to_repeat_the_same_action():
    s = acting(
        place(start(), a4={"where": Where.FIELD, "front": 20, "actions": (Action.CLASH,)}, b1=28),
        "a4",
        additional=(Action.CLASH,),
        standard=1,
        performed=(Action.CLASH,),
    )
    s = replace(s, contact=(("a4", "b1"),))
    s, events = when(s, Clash(regiment="a4", target="b1", removed=1))
    assert of(events, ev.StandsRemoved)[0].use is Use.ADDITIONAL and of(events, ev.ActivationEnded)


@pytest.mark.rule("ACTIONS-5")
def test_no_more_than_three_actions_in_one_activation():
    s = acting(
        place(start(), a1=6),
        "a1",
        free=(Action.MARCH,),
        performed=(Action.MARCH, Action.MARCH, Action.REFORM),
        standard=1,
    )
    violates(s, March(regiment="a1", inches=1), "ACTIONS-5")


@pytest.mark.rule("ACTIONS-1")
def test_non_combat_actions_out_of_contact_combat_actions_in_contact():
    s = replace(acting(place(start(), a1=20, b1=28), "a1"), contact=(("a1", "b1"),))
    violates(s, March(regiment="a1", inches=1), "ACTIONS-1")
    s, events = when(s, Withdraw(regiment="a1"))
    assert not s.contact and s.regiment("a1").front == 14
    violates(acting(place(start(), a1=20, b1=28), "a1"), Clash(regiment="a1", target="b1", removed=1), "ACTIONS-1")


@pytest.mark.rule("ACTIONS-6")
@pytest.mark.rule("ACTIONS-7")
@pytest.mark.rule("ACTIONS-8")
def test_an_out_of_sequence_march_neither_counts_nor_activates():
    s = _drawing(a=("ac2",), a4=10, a1=10)
    s, _ = when(s, DrawCard())  # the Reed Captain's card activates a4; its Rally Horn moves a1
    s, events = when(s, ResolveDrawEvent(event="rally-horn", target="a1", inches=4))
    moved = of(events, ev.RegimentMarched)[0]
    assert moved.use is Use.OUT_OF_SEQUENCE and s.regiment("a1").front == 14
    assert not s.regiment("a1").activated and s.regiment("a1").actions == () and s.activation.performed == ()


@pytest.mark.rule("ACTIONS-1")
@pytest.mark.rule("ACTIONS-6")
def test_an_out_of_sequence_march_of_a_regiment_in_contact_is_refused_saying_so():
    """Found by mutation testing: the refusal's rule and words were not checked."""
    s = _drawing(a=("ac2",), a4=10, a1=20, b1=28)
    s = replace(s, contact=(("a1", "b1"),))
    s, _ = when(s, DrawCard())  # the Reed Captain's card activates a4; its Rally Horn would move a1
    rv = violates(s, ResolveDrawEvent(event="rally-horn", target="a1", inches=4), "ACTIONS-1")
    assert rv.message == "a1 is in contact with an enemy and cannot March"


@pytest.mark.rule("VICTORY-1")
@pytest.mark.rule("VICTORY-2")
def test_when_the_action_phase_ends_a_wiped_out_army_loses():
    s = _drawing(
        a=("a3",),
        a3=10,
        b1={"where": Where.FIELD, "front": 28, "stands": 1},
        **{f"b{i}": "destroyed" for i in range(2, 6)},
    )
    s = replace(s, contact=(("a3", "b1"),))
    s, events = when(s, DrawCard(), Clash(regiment="a3", target="b1", removed=1), EndActivation())
    assert s.phase is Phase.VICTORY and not s.over  # checked in the Victory Phase
    s, events = when(s, EndRound())
    assert s.result.winner == 0 and s.result.termination is Termination.WIPE_OUT


@pytest.mark.rule("VICTORY-2")
@pytest.mark.rule("ROUND-3")
def test_a_surrender_ends_the_battle_at_once_for_the_opponent():
    s, _ = when(start(), Surrender(side=0))
    assert s.over and s.result.winner == 1 and s.result.termination is Termination.SURRENDER
    violates(s, EndRound(), "ROUND-3")
    assert legal_commands(s, CTX) == []


@pytest.mark.rule("VICTORY-2")
@pytest.mark.rule("ROUND-3")
def test_the_end_of_a_battle_names_the_players_by_their_armies():
    """The log and the header say who surrendered or was wiped out as every
    other line names a player: by army (not "player 1", counted from one,
    where the seats are a and b)."""
    before = start()
    after, events = when(before, Surrender(side=0))
    line = describe_event(of(events, ev.BattleEnded)[0], before)
    army_a, army_b = before.sides[0].army, before.sides[1].army
    assert f"{army_b} wins: {army_a} surrendered" in line and "player 1" not in line
    assert f"({army_a} surrendered)" in header(after).lines[0]
    wiped = ev.BattleEnded(winner=0, termination=Termination.WIPE_OUT, reason="player 2's army was wiped out")
    assert f"{army_b}'s army was wiped out" in describe_event(wiped, before)


@pytest.mark.rule("VICTORY-3")
def test_victory_points_are_capped_by_the_scenario_and_reaching_its_target_wins():
    s = in_phase(replace(place(start(), a1=10, b1=10), round=2), Phase.VICTORY)
    violates(s, EndRound(vp=(4, 0)), "VICTORY-3")
    violates(in_phase(place(start(), a1=10), Phase.VICTORY), EndRound(vp=(1, 0)), "VICTORY-3")  # round 1
    from conquest_harness import ctx_for

    ford = ctx_for("hold-the-ford")
    s = replace(s, sides=(replace(s.sides[0], vp=7), s.sides[1]), scenario="hold-the-ford")
    s, events = when(s, EndRound(vp=(1, 2)), ctx=ford)
    assert s.result.termination is Termination.SCENARIO and s.result.winner == 0
    assert of(events, ev.BattleEnded)[0].reason.endswith("VP reached (8–2)")


@pytest.mark.rule("ROUND-3")
def test_at_the_round_limit_more_vp_wins_and_equal_vp_draws():
    s = in_phase(replace(place(start(), a1=10, b1=10), round=10), Phase.VICTORY)
    won, _ = when(s, EndRound(vp=(1, 0)))
    drawn, _ = when(s, EndRound(vp=(2, 2)))
    lost, events = when(s, EndRound(vp=(0, 3)))
    assert (won.result.winner, won.result.termination) == (0, Termination.ROUND_LIMIT)
    assert drawn.result.winner == -1
    assert (lost.result.winner, lost.result.termination) == (1, Termination.ROUND_LIMIT)  # the second player ahead
    assert of(events, ev.BattleEnded)[0].reason == "Round 10 played (0–3 VP)"


@pytest.mark.rule("VICTORY-3")
def test_a_victory_point_declaration_out_of_bounds_is_refused_saying_the_bounds():
    s = in_phase(replace(place(start(), a1=10, b1=10), round=2), Phase.VICTORY)
    with pytest.raises(RuleViolation, match="VICTORY-3") as refused:
        when(s, EndRound(vp=(0, 4)))
    assert "0 to 3 VP per player in Round 2" in str(refused.value)
    with pytest.raises(MalformedCommand, match="both players"):
        when(s, EndRound(vp=(1,)))


@pytest.mark.rule("VICTORY-2")
def test_both_armies_wiped_out_in_the_same_round_is_a_draw():
    """facts §6 default: each army wiped out by the Victory Phase: nobody wins."""
    s = in_phase(
        place(start(), **{f"a{i}": "destroyed" for i in range(1, 6)}, **{f"b{i}": "destroyed" for i in range(1, 6)}),
        Phase.VICTORY,
    )
    s, events = when(s, EndRound())
    (ended,) = of(events, ev.BattleEnded)
    assert (ended.winner, ended.termination) == (-1, Termination.WIPE_OUT) and s.result.winner == -1
    assert ended.reason == "both armies wiped out"  # as logged: a log's events never change wording


@pytest.mark.rule("VICTORY-2")
def test_the_logged_reason_of_an_end_stays_as_logs_hold_it():
    """An ending's reason is in the event, so in every log written: it keeps
    its wording (players counted from 1 there), whatever the narration says."""
    s = in_phase(place(start(), a1=10, **{f"b{i}": "destroyed" for i in range(1, 6)}), Phase.VICTORY)
    _, events = when(s, EndRound())
    assert of(events, ev.BattleEnded)[0].reason == "player 2's army was wiped out"
    _, events = when(start(), Surrender(side=0))
    assert of(events, ev.BattleEnded)[0].reason == "player 1 surrendered"


@pytest.mark.rule("ROUND-3")
def test_the_second_player_surrendering_gives_the_first_the_battle():
    s, events = when(start(), Surrender(side=1))
    assert s.over and s.result.winner == 0 and s.result.termination is Termination.SURRENDER
    with pytest.raises(MalformedCommand, match="side"):
        when(start(), Surrender(side=2))


@pytest.mark.rule("ACTIONS-1")
def test_a_regiment_in_contact_cannot_volley_and_one_out_of_contact_cannot_clash_each_told_why():
    """ACTIONS-1: Volley is a non-combat action, refused to a Regiment in
    contact even at an enemy within its range; Clash is a combat action,
    refused out of contact. Each refusal names the action's kind (found by
    mutation testing: the activation's own check was skipped unseen)."""
    near = acting(place(start(), b2=30, a2=8), "b2")
    engaged = replace(near, contact=(("b2", "a2"),))
    rv = violates(engaged, Volley(regiment="b2", target="a2", removed=1), "ACTIONS-1")
    assert rv.message == "b2 is in contact with an enemy: volley is a non-combat action"
    apart = acting(place(start(), a1=20, b1=28), "a1")
    rv = violates(apart, Clash(regiment="a1", target="b1", removed=1), "ACTIONS-1")
    assert rv.message == "a1 is not in contact with an enemy: clash is a combat action"
