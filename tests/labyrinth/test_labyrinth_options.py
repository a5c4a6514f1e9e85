"""The table options: each community reading of the facts is on by default
and can be turned off, and each house rule or table choice does what it
says. Each test checks the reading and its alternative."""

from __future__ import annotations

import pytest
from labyrinth_harness import at, decision, edit, of, pinned, start, when
from msgspec.structs import replace

from domain.labyrinth import ailments, buffs, end_phase
from domain.labyrinth import events as ev
from domain.labyrinth.attack import attack, damage
from domain.labyrinth.catalog import SkillEffect
from domain.labyrinth.chain import pursue
from domain.labyrinth.commands import Pass, UseSkill
from domain.labyrinth.decision import faces_at
from domain.labyrinth.flow import waits_for
from domain.labyrinth.state import ActiveBuff, Affliction
from domain.labyrinth.vocab import Ailment, Attribute, Buff, Effect, Side


def counter_where(state, n: int, wanted) -> int:
    """The first counter from the state's on whose next ``n`` faces satisfy ``wanted``."""
    counter = state.rng
    while not wanted(faces_at(state.seed, counter, n)):
        counter += 1
    return counter


def mage_up(**options):
    state, _ = when(start(**options), Pass(actor="p1"), Pass(actor="p2"))
    assert state.acting == "p2"
    return state


@pytest.mark.rule("FUMBLE-1")
@pytest.mark.parametrize("pays, tp", [(True, 2), (False, 0)])
def test_a_failed_activation_pays_its_cost_unless_the_option_is_off(pays, tp):
    state = mage_up(failed_activation_pays=pays)
    state, events = when(
        at(state, pinned(state.seed, (1, 1), state.rng)), UseSkill(actor="p2", skill="heal", target="p1")
    )
    assert of(events, ev.SkillUsed)[0].tp == tp and state.get("p2").tp == 6 - tp


@pytest.mark.rule("FUMBLE-1")
@pytest.mark.rule("MAIN-5")
@pytest.mark.parametrize("pays, tp", [(True, 3), (False, 0)])
def test_an_attack_skill_whose_first_hit_check_fumbles_pays_only_with_the_reading(pays, tp):
    """Its activation roll is its first hit check (MAIN-5), rolled after its
    costs are paid: without OQ 9 the fumble gives them back."""
    state = mage_up(failed_activation_pays=pays)
    state, events = when(at(state, pinned(state.seed, (1, 1), state.rng)), UseSkill(actor="p2", skill="flame-burst"))
    fumbled = of(events, ev.SkillFumbled)
    assert [f.refund_tp for f in fumbled] == [3 - tp] and state.get("p2").tp == 6 - tp
    assert not of(events, ev.DamageRolled)


@pytest.mark.rule("DEPTH-2")
@pytest.mark.parametrize("raises, depth", [(True, 10), (False, 8)])
def test_reinflicting_a_held_ailment_only_raises_its_depth_by_default(raises, depth):
    state = start(reapply_raises_depth=raises)
    d = decision(at(state, pinned(state.seed, (1, 1, 1, 1), state.rng)))
    ailments.inflict(d, "e1", "p1", Ailment.POISON, 10)
    ailments.inflict(d, "e1", "p1", Ailment.POISON, 8)
    assert d.state.get("p1").ailment(Ailment.POISON).depth == depth


@pytest.mark.rule("AILMENT-1")
@pytest.mark.parametrize("one, held", [(False, ["blind", "poison"]), (True, ["poison"])])
def test_different_ailments_coexist_unless_one_at_a_time_is_chosen(one, held):
    state = start(one_ailment_at_a_time=one)
    d = decision(at(state, pinned(state.seed, (1, 1, 1, 1), state.rng)))
    ailments.inflict(d, "e1", "p1", Ailment.BLIND, 10)
    ailments.inflict(d, "e1", "p1", Ailment.POISON, 10)
    assert [a.kind for a in d.state.get("p1").ailments] == held


@pytest.mark.rule("AILMENT-SLEEP")
@pytest.mark.parametrize("hit_only, asleep", [(True, True), (False, False)])
def test_only_a_hit_wakes_a_sleeper_unless_the_option_is_off(hit_only, asleep):
    state = edit(start(sleep_wakes_on_hit_only=hit_only), "e1", ailments=(Affliction(kind="sleep", depth=10),))
    d = decision(at(state, pinned(state.seed, (1, 1), state.rng)))  # all 1s: a miss even at [Evasion] 0
    attack(d, "p1", ("e1",), mode="normal")
    assert not of(d.events, ev.AttackRolled)[0].hit
    assert d.state.get("e1").has(Ailment.SLEEP) is asleep


@pytest.mark.rule("AILMENT-CURSE")
@pytest.mark.parametrize("can, hp", [(True, -1), (False, 1)])
def test_a_curse_can_fell_its_bearer_unless_the_option_is_off(can, hp):
    state = edit(start(curse_can_incapacitate=can), "p1", ailments=(Affliction(kind="curse", depth=10),), hp=1)
    state = edit(state, "e1", hp=30)
    d = decision(at(state, pinned(state.seed, (6, 5, 5, 5, 4), state.rng)))
    damage(d, d.state.get("p1"), d.state.get("e1"), None, None)  # 5 dealt: 2 come back
    assert d.state.get("p1").hp == hp


@pytest.mark.rule("BUFF-6")
@pytest.mark.parametrize("longer, turns", [(True, 3), (False, 1)])
def test_an_equal_buff_keeps_the_longer_duration_unless_the_option_is_off(longer, turns):
    d = decision(start(same_buff_keeps_longer=longer))
    buffs.apply(d, "p1", ActiveBuff(kind=Buff.PATK_UP, amount=2, turns=3))
    buffs.apply(d, "p1", ActiveBuff(kind=Buff.PATK_UP, amount=2, turns=1))
    assert [b.turns for b in d.state.get("p1").buffs] == [turns]


@pytest.mark.rule("BUFF-7")
def test_without_the_same_element_reading_any_resistance_and_weakness_grants_cancel():
    d = decision(start(resist_weak_same_element=False))
    buffs.apply(d, "p1", ActiveBuff(kind=Buff.RESIST, element=Attribute.FIRE))
    buffs.apply(d, "p1", ActiveBuff(kind=Buff.WEAK, element=Attribute.ICE))
    assert d.state.get("p1").buffs == ()


@pytest.mark.rule("BUFF-2")
def test_a_buff_with_no_duration_lasts_the_tables_default_turns():
    d = decision(start(default_buff_turns=5))
    buffs.apply(d, "p1", ActiveBuff(kind=Buff.HIT_UP, amount=1, turns=0))
    assert d.state.get("p1").buffs[0].turns == 5


@pytest.mark.rule("CHASE-3")
@pytest.mark.parametrize("need, pursues", [(True, False), (False, True)])
def test_a_pursuer_out_of_range_does_not_pursue_unless_the_option_is_off(need, pursues):
    # the mage stands in the back row with a near staff
    state = edit(start(follow_ups_need_range=need), "p2", buffs=(ActiveBuff(kind=Buff.CHASE, target="p1"),))
    d = decision(state)
    pursue(d, "p1", ("e1",), "normal")
    assert bool([e for e in of(d.events, ev.AttackRolled) if e.mode == "pursuit"]) is pursues


@pytest.mark.rule("BUFF-CHASE")
@pytest.mark.parametrize("stays", [True, False])
def test_pursuit_is_not_used_up_by_pursuing_unless_the_option_is_off(stays):
    state = edit(
        start(pursuit_stays=stays), "p2", buffs=(ActiveBuff(kind=Buff.CHASE, target="p1"),), row=start().get("p1").row
    )
    d = decision(edit(state, "e1", hp=30))
    pursue(d, "p1", ("e1",), "normal")
    assert [e.mode for e in of(d.events, ev.AttackRolled)][:1] == ["pursuit"]
    assert bool(d.state.get("p2").buffs) is stays


@pytest.mark.rule("DAMAGE-1")
@pytest.mark.parametrize("nothing, dice", [(True, 0), (False, 1)])
def test_a_dice_count_of_zero_or_less_deals_nothing_or_one_die_without_the_reading(nothing, dice):
    state = start(zero_dice_deal_nothing=nothing)
    armoured = edit(state, "p1", base=replace(state.get("p1").base, defense=10))
    d = decision(armoured)
    damage(d, d.state.get("e1"), d.state.get("p1"), None, None)  # 5 − 12: below zero
    assert len(of(d.events, ev.DamageRolled)[0].faces) == dice


@pytest.mark.rule("CRIT-2")
@pytest.mark.parametrize("never, least", [(True, 9), (False, 13)])
def test_the_four_critical_dice_make_no_further_critical_unless_the_option_is_off(never, least):
    state = edit(start(critical_dice_never_crit=never), "e1", hp=40)

    def chained(faces):  # 5 dice that make a critical, then 4 extra that would make another
        return faces[:5].count(6) - faces[:5].count(1) >= 2 and faces[5:9].count(6) - faces[5:9].count(1) >= 2

    d = decision(at(state, counter_where(state, 9, chained)))
    damage(d, d.state.get("p1"), d.state.get("e1"), None, None)
    faces = of(d.events, ev.DamageRolled)[0].faces
    assert len(faces) == least if never else len(faces) >= least


@pytest.mark.rule("PASSIVE-3")
@pytest.mark.parametrize("one, guarded", [(True, ["guard", ""]), (False, ["guard", "guard"])])
def test_the_hits_of_one_action_are_one_attack_roll_for_passives_unless_the_option_is_off(one, guarded):
    state = start(one_passive_per_action=one)
    twice = SkillEffect(effect=Effect.ATTACK, hits=2)
    for counter in range(state.rng, state.rng + 2000):  # the first counter at which both hits land
        d = decision(at(state, counter))
        attack(d, "e1", ("p1",), mode="skill", effect=twice)
        if len(of(d.events, ev.DamageRolled)) == 2:
            break
    assert [e.halved for e in of(d.events, ev.DamageRolled)] == guarded
    assert len(of(d.events, ev.PassiveUsed)) == len([g for g in guarded if g])


@pytest.mark.rule("DEPTH-2")
@pytest.mark.parametrize("keeps", [True, False])
def test_an_ailment_at_depth_0_stays_unless_the_option_is_off(keeps):
    state = edit(start(depth_zero_keeps_ailment=keeps), "p1", ailments=(Affliction(kind="blind", depth=1),))
    d = decision(state)
    ailments.lower_depths(d, "p1")
    assert d.state.get("p1").has(Ailment.BLIND) is keeps
    if keeps:
        assert d.state.get("p1").ailment(Ailment.BLIND).depth == 0


@pytest.mark.rule("AILMENT-POISON")
@pytest.mark.parametrize("ignores, lost", [(True, 3), (False, 1)])
def test_poison_ignores_defense_unless_the_option_is_off(ignores, lost):
    state = edit(
        start(poison_ignores_defense=ignores), "p1", ailments=(Affliction(kind="poison", depth=30, poison=3),)
    )  # the fighter's [Defense] is 2
    d = decision(state)
    end_phase.run(d)
    assert [e.amount for e in of(d.events, ev.HpLost)] == [lost]


@pytest.mark.rule("AILMENT-POISON")
@pytest.mark.parametrize("recorded, lost", [(True, [3]), (False, [])])
def test_a_fallen_poisoners_recorded_value_still_poisons_unless_the_option_is_off(recorded, lost):
    state = edit(
        start(poison_recorded_if_gone=recorded),
        "p1",
        ailments=(Affliction(kind="poison", depth=30, poison=3, source="e1"),),
    )
    d = decision(edit(state, "e1", hp=0))
    end_phase.run(d)
    assert [e.amount for e in of(d.events, ev.HpLost)] == lost


@pytest.mark.rule("AILMENT-CONFUSE")
@pytest.mark.parametrize("nothing", [True, False])
def test_a_confused_one_with_no_ally_to_hit_does_nothing_unless_the_option_is_off(nothing):
    # the fighter stands alone in the front row
    state = edit(
        start(confused_alone_does_nothing=nothing),
        "p1",
        confused=True,
        ailments=(Affliction(kind="confuse", depth=10),),
    )
    state, events = when(state, Pass(actor="p2"), Pass(actor="p2"))
    if nothing:
        assert [e.who for e in of(events, ev.Passed)] == ["p2", "p1"] and waits_for(state) != "p1"
    else:
        assert waits_for(state) == "p1" and state.acting == "p1"  # it acts as it chooses


@pytest.mark.rule("PASSIVE-2")
def test_without_automatic_passives_no_passive_answers():
    state = start(auto_passives=False)
    d = decision(at(state, pinned(state.seed, (6, 6, 4, 5, 6), state.rng)))
    attack(d, "e1", ("p1",), mode="normal")
    assert not of(d.events, ev.PassiveUsed) and of(d.events, ev.DamageRolled)[0].halved == ""


def test_ambushed_enemies_take_no_action_in_turn_1():
    state, events = when(
        start(ambush=Side.ENEMY), Pass(actor="p1"), Pass(actor="p2"), Pass(actor="p2"), Pass(actor="p1")
    )
    skipped = {e.who for e in of(events, ev.ActionSkipped) if "ambushed" in e.reason}
    assert skipped == {"e1", "e2"} and not [e for e in of(events, ev.AttackRolled) if e.attacker.startswith("e")]
