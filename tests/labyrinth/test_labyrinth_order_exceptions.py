"""The exceptions to the [Speed] order (ORDER-3): fastest actions first,
delayed actions last, ties inside each group as ORDER-2; delayed attacks
landing in End phase step 1 (ATTACK-1's special cases, facts section 8);
link groups acting together at the slowest one's [Speed]."""

from __future__ import annotations

import pytest
from labyrinth_harness import at, edit, of, pinned
from labyrinth_more import CTX, MORE, decision, legal, not_ones, start, when
from msgspec.structs import replace

from domain.kernel.errors import RuleViolation
from domain.labyrinth import end_phase
from domain.labyrinth import events as ev
from domain.labyrinth.commands import Attack, EnemyAct, FullDefense, Hold, Member, Pass, UseSkill
from domain.labyrinth.flow import waits_for
from domain.labyrinth.order import acting_order
from domain.labyrinth.rules import decide
from domain.labyrinth.state import Affliction, Deferred, DelayedAttack
from domain.labyrinth.windows import next_delayed, up_delayed


def main_phase(encounter: str = "slimes", seed: int = 1, **options):
    """Turn 1 with both PCs' Standby passed: the Main phase has begun."""
    state, events = when(start(seed, encounter, **options), Pass(actor="p1"), Pass(actor="p2"))
    return state, events


def refused(state, command, rule: str) -> None:
    with pytest.raises(RuleViolation) as caught:
        decide(state, command, CTX)
    assert caught.value.rule == rule, caught.value


# --- fastest actions ---------------------------------------------------------------------------


@pytest.mark.rule("ORDER-3")
def test_a_fastest_skill_acts_before_the_speed_order_even_for_the_slowest():
    state, events = main_phase()
    started = of(events, ev.MainStarted)[0]
    # [Speed]: mage 9, slimes 6 and 6, scout 3; only the scout has a fastest skill
    assert started.queue == ("p2", "e1", "e2", "p1") and started.fastest == ("p1",)
    assert (state.acting, state.window) == ("p1", "fastest")
    assert set(legal(state)) == {
        UseSkill(actor="p1", skill="dash", target="e1"),
        UseSkill(actor="p1", skill="dash", target="e2"),
        Hold(actor="p1"),
        Pass(actor="p1"),
    }
    state, events = when(at(state, not_ones(state)), UseSkill(actor="p1", skill="dash", target="e1"))
    kinds = [type(e) for e in events]
    assert of(events, ev.AttackRolled)[0].attacker == "p1"
    assert kinds.index(ev.AttackRolled) < kinds.index(ev.ActorUp)  # before anyone's turn in the order
    assert state.acting == "p2" and "p1" not in state.queue and state.get("p1").acted


@pytest.mark.rule("ORDER-3")
def test_holding_keeps_the_action_for_its_place_in_the_speed_order():
    state, _ = main_phase()
    state, events = when(state, Hold(actor="p1"))
    assert of(events, ev.Held)[0].who == "p1" and state.acting == "p2" and state.window == ""
    state, events = when(state, Pass(actor="p2"))
    # the slimes act, then the scout at its own [Speed]
    ups = [e.who for e in of(events, ev.ActorUp)]
    assert ups == ["e1", "e2", "p1"] and (state.acting, state.window) == ("p1", "")
    assert Attack(actor="p1", target="e1") in legal(state)


@pytest.mark.rule("ORDER-3")
def test_in_the_fastest_window_only_a_fastest_skill_a_hold_or_a_pass_is_taken():
    state, _ = main_phase()
    refused(state, Attack(actor="p1", target="e1"), "ORDER-3")
    refused(state, UseSkill(actor="p1", skill="slow-shot", target="e1"), "ORDER-3")
    later, _ = when(state, Hold(actor="p1"))
    refused(later, Hold(actor="p2"), "ORDER-3")  # holding is only for the window


@pytest.mark.rule("ORDER-3")
@pytest.mark.rule("ORDER-2")
def test_fastest_actions_tie_as_order_2_pc_before_enemy():
    state, events = main_phase("imps")
    # the imp (speed 3, a fastest jab) and the scout (speed 3) both go fastest: the PC first
    assert of(events, ev.MainStarted)[0].fastest == ("p1", "e1")
    state, events = when(state, Hold(actor="p1"))
    assert [e.who for e in of(events, ev.ActorUp)][:1] == ["e1"]
    assert [e.window for e in of(events, ev.ActorUp)][:1] == ["fastest"]


@pytest.mark.rule("ORDER-3")
def test_a_participant_without_a_usable_fastest_skill_is_not_asked():
    state = edit(start(), "p1", tp=0)  # dash costs 1 TP
    state, events = when(state, Pass(actor="p1"), Pass(actor="p2"))
    assert of(events, ev.MainStarted)[0].fastest == () and state.acting == "p2"


@pytest.mark.rule("ORDER-3")
def test_a_gm_holds_or_takes_an_enemys_fastest_action():
    state, _ = main_phase("imps", gm_enemies=True)
    state, _ = when(state, Hold(actor="p1"))
    assert (state.acting, state.window, waits_for(state)) == ("e1", "fastest", "gm")
    assert set(legal(state)) == {
        EnemyAct(actor="e1", skill="jab", target="p1"),
        Hold(actor="e1"),
        EnemyAct(actor="e1", skill="pass"),
    }
    refused(state, EnemyAct(actor="e1", target="p1"), "ORDER-3")
    state, events = when(state, EnemyAct(actor="e1", skill="jab", target="p1"))
    assert of(events, ev.AttackRolled)[0].attacker == "e1" and state.get("e1").acted


# --- delayed actions ---------------------------------------------------------------------------


@pytest.mark.rule("ORDER-3")
def test_a_delayed_skill_is_taken_after_everyone_elses_action():
    state, _ = main_phase()
    state = edit(state, "p2", skills=state.get("p2").skills + ("slow-shot",))
    state, _ = when(state, Hold(actor="p1"))
    state, events = when(state, UseSkill(actor="p2", skill="slow-shot", target="e1"))
    assert of(events, ev.ActionDelayed)[0].who == "p2" and not state.get("p2").acted
    assert not [e for e in of(events, ev.AttackRolled) if e.attacker == "p2"]
    state, events = when(at(state, not_ones(state)), Pass(actor="p1"))
    order = [
        (type(e).__name__, getattr(e, "who", getattr(e, "attacker", "")))
        for e in events
        if isinstance(e, (ev.Passed, ev.ActorUp, ev.AttackRolled))
    ]
    # the scout's pass closes the [Speed] order; then the mage's delayed shot
    assert order.index(("Passed", "p1")) < order.index(("ActorUp", "p2")) < order.index(("AttackRolled", "p2"))
    assert [e.window for e in of(events, ev.ActorUp) if e.who == "p2"] == ["delayed"]


@pytest.mark.rule("ORDER-3")
@pytest.mark.rule("ORDER-2")
def test_delayed_actions_tie_as_order_2_and_the_faster_goes_first():
    state, _ = main_phase()
    state = edit(state, "e1", base=replace(state.get("e1").base, speed=3))  # the scout's [Speed]
    state = replace(
        state,
        delayed=(
            Deferred(who="e1", skill="slow-shot", target="p1"),
            Deferred(who="p1", skill="slow-shot", target="e1"),
        ),
    )
    assert next_delayed(state, MORE).who == "p1"
    faster = replace(
        state,
        delayed=(
            Deferred(who="p1", skill="slow-shot", target="e1"),
            Deferred(who="e2", skill="slow-shot", target="p1"),
        ),
    )
    assert next_delayed(faster, MORE).who == "e2"  # speed 6 before 3


@pytest.mark.rule("ORDER-3")
def test_a_delayed_action_whose_target_is_gone_lapses_unpaid():
    state, _ = main_phase()
    state = replace(
        state, queue=(), fastest=(), acting="", delayed=(Deferred(who="p1", skill="slow-shot", target="e1"),)
    )
    state = edit(state, "e1", hp=0)
    d = decision(state)
    up_delayed(d)
    skipped = of(d.events, ev.ActionSkipped)[0]
    assert (skipped.who, skipped.rule) == ("p1", "ORDER-3") and not of(d.events, ev.SkillUsed)


@pytest.mark.rule("AILMENT-CONFUSE")
@pytest.mark.rule("ORDER-3")
def test_a_unit_confused_before_its_delayed_action_attacks_an_ally_of_its_row_instead():
    # two scouts in the front row; p1 deferred Slow Shot, then was confused
    state, _ = when(start(party=(Member(cls="scout"), Member(cls="scout", name="Second"))), Pass(actor="p1"))
    state, _ = when(state, Pass(actor="p2"))
    state = replace(
        state, queue=(), fastest=(), acting="", delayed=(Deferred(who="p1", skill="slow-shot", target="e1"),)
    )
    state = edit(state, "p1", confused=True, ailments=(Affliction(kind="confuse", depth=10),))
    d = decision(at(state, not_ones(state)))
    up_delayed(d)
    assert of(d.events, ev.ActorUp)[0].who == "p1"
    [picked] = [e for e in of(d.events, ev.TargetPicked) if e.who == "p1"]
    assert picked.among == ("p2",)
    assert [(e.attacker, e.target, e.mode) for e in of(d.events, ev.AttackRolled)] == [("p1", "p2", "normal")]
    assert not of(d.events, ev.SkillUsed)  # Slow Shot is not used


# --- delayed attacks ---------------------------------------------------------------------------


def storm_turn(**options):
    """The scout holds, the mage passes, the slimes act; the scout calls its
    storm (delay 1), which waits for the delayed group."""
    state, _ = main_phase(**options)
    state, _ = when(state, Hold(actor="p1"), Pass(actor="p2"))
    assert state.acting == "p1"
    return state


@pytest.mark.rule("ATTACK-1")
@pytest.mark.rule("ORDER-3")
def test_a_delayed_attack_is_paid_now_and_lands_in_end_step_1_of_the_turn_its_count_runs_out():
    state = storm_turn()
    tp = state.get("p1").tp
    state, events = when(state, UseSkill(actor="p1", skill="storm"))
    assert of(events, ev.ActionDelayed) and of(events, ev.SkillUsed)[0].tp == 2
    assert state.get("p1").tp == tp - 2
    assert [(x.who, x.skill, x.due) for x in of(events, ev.DelayedAttackSet)] == [("p1", "storm", 2)]
    assert not [e for e in of(events, ev.AttackRolled) if e.attacker == "p1"]  # turn 1's End: not yet
    assert state.turn == 2 and state.pending
    # turn 2: everyone passes or acts; the storm lands first thing in the End phase
    state, events = when(state, Pass(actor="p1"), Pass(actor="p2"))
    state, events2 = when(state, Hold(actor="p1"), Pass(actor="p2"))
    state, events3 = when(state, Pass(actor="p1"))
    end = events3[[type(e) for e in events3].index(ev.EndStarted) :]
    assert type(end[1]) is ev.DelayedAttackResolved and end[1].landed
    assert [e.target for e in end if isinstance(e, ev.AttackRolled) and e.attacker == "p1"][:1] == ["e1"]
    assert not state.pending


@pytest.mark.rule("ATTACK-1")
def test_no_new_delayed_attack_until_the_last_one_lands():
    state = storm_turn()
    state, _ = when(state, UseSkill(actor="p1", skill="storm"))
    state, _ = when(state, Pass(actor="p1"), Pass(actor="p2"), Hold(actor="p1"), Pass(actor="p2"))
    assert state.acting == "p1" and state.pending
    refused(state, UseSkill(actor="p1", skill="storm"), "ATTACK-1")
    assert not [c for c in legal(state) if isinstance(c, UseSkill) and c.skill == "storm"]


@pytest.mark.rule("ATTACK-1")
def test_a_delayed_attack_is_lost_if_its_user_has_fallen():
    state = replace(start(), pending=(DelayedAttack(who="e1", skill="storm", target="", due=1),))
    state = edit(state, "e1", hp=0)
    d = decision(state)
    end_phase.run(d)
    lost = of(d.events, ev.DelayedAttackResolved)[0]
    assert not lost.landed and not of(d.events, ev.AttackRolled) and not d.state.pending
    assert lost.reason == "its user is out of the fight"  # the log says why it came to nothing


@pytest.mark.rule("ATTACK-1")
@pytest.mark.rule("ORDER-2")
def test_delayed_attacks_due_together_land_in_acting_order_whatever_order_they_were_set():
    """End step 1 lands the delayed attacks due in acting order (facts
    section 8), not in the order they were set (found by mutation testing)."""
    state = start()
    first, second = acting_order(state, MORE)[:2]
    late = (
        DelayedAttack(who=second, skill="storm", target="", due=1),
        DelayedAttack(who=first, skill="storm", target="", due=1),
    )
    d = decision(replace(state, pending=late))
    end_phase.run(d)
    assert [e.who for e in of(d.events, ev.DelayedAttackResolved)] == [first, second]


@pytest.mark.rule("MAIN-5")
@pytest.mark.rule("FUMBLE-1")
def test_a_delayed_attack_whose_hit_check_shows_all_ones_fumbles_as_it_lands():
    """A delayed attack skill's activation roll is its hit check, made as it
    lands (MAIN-5): all 1s fumble it (found by mutation testing)."""
    state = replace(start(), pending=(DelayedAttack(who="e1", skill="storm", target="", due=1),))
    d = decision(at(state, pinned(state.seed, (1, 1), state.rng)))
    end_phase.run(d)
    assert [(e.who, e.skill) for e in of(d.events, ev.SkillFumbled)] == [("e1", "storm")]


def _landing_on_a_defender(**options):
    state, _ = when(start(**options), FullDefense(actor="p1"), Pass(actor="p2"))
    state = replace(state, pending=(DelayedAttack(who="e1", skill="storm", target="", due=1),))
    # the slime's storm: 2D6 hit check, then [Elemental attack] 0 + 1 die against Volt 3
    d = decision(at(state, pinned(state.seed, (6, 6, 6), state.rng)))
    end_phase.run(d)
    return [e for e in of(d.events, ev.DamageRolled) if e.target == "p1"][0]


@pytest.mark.rule("STANDBY-7")
@pytest.mark.rule("ATTACK-1")
def test_full_defense_halves_a_delayed_attack_in_the_end_phase_unless_the_option_ends_it_there():
    through = _landing_on_a_defender()
    assert (through.dealt, through.damage, through.halved) == (1, 0, "full defense")
    ended = _landing_on_a_defender(full_defense_through_end=False)
    assert (ended.dealt, ended.damage, ended.halved) == (1, 1, "")


# --- link groups -------------------------------------------------------------------------------


@pytest.mark.rule("ORDER-1")
@pytest.mark.rule("ATTACK-1")
def test_linked_enemies_act_together_at_the_slowest_ones_speed():
    state = start(encounter="pack")
    # mage 9, slime 6, then the hounds (10 and 5) together at 5, the scout 3
    assert acting_order(state, MORE) == ("p2", "e3", "e1", "e2", "p1")


@pytest.mark.rule("ORDER-2")
def test_a_link_group_keeps_order_2_against_a_pc_of_the_same_speed():
    state = edit(start(encounter="pack"), "p1", base=replace(start(encounter="pack").get("p1").base, speed=5))
    assert acting_order(state, MORE) == ("p2", "e3", "p1", "e1", "e2")


@pytest.mark.rule("MAIN-1")
def test_every_member_of_a_link_group_counts_as_having_acted():
    state, _ = main_phase("pack", gm_enemies=True)
    state, _ = when(state, Hold(actor="p1"), Pass(actor="p2"), EnemyAct(actor="e3", skill="pass"))
    assert state.acting == "e1"
    state, _ = when(state, EnemyAct(actor="e1", skill="pass"))
    assert state.acting == "e2"  # its partner, straight after
    state, _ = when(state, EnemyAct(actor="e2", skill="pass"))
    assert state.get("e1").acted and state.get("e2").acted and state.acting == "p1"
