"""Ailments and binds: the Suppression defense roll (SUPPRESS-1 ..
SUPPRESS-3), depth (DEPTH-1, DEPTH-2), Poison, Curse, Sleep, Fear and
Stun, bind skill blocks, natural recovery and depth −1 in the End phase."""

from __future__ import annotations

import pytest
from labyrinth_harness import at, decision, edit, of, pinned, start, violates, when

from domain.labyrinth import ailments, end_phase
from domain.labyrinth import events as ev
from domain.labyrinth.attack import attack, damage
from domain.labyrinth.commands import FullDefense, Pass, UseSkill
from domain.labyrinth.state import Affliction
from domain.labyrinth.stats import stats
from domain.labyrinth.vocab import Ailment, Bind


@pytest.mark.rule("SUPPRESS-1")
@pytest.mark.rule("SUPPRESS-2")
@pytest.mark.rule("DEPTH-1")
def test_a_failed_suppression_roll_records_the_target_value_as_depth():
    state = start()
    d = decision(at(state, pinned(state.seed, (2, 3), state.rng)))  # 5 + sdef 1 = 6 < 10
    assert ailments.inflict(d, "e1", "p1", Ailment.POISON, 10)
    roll = of(d.events, ev.SuppressionRolled)[0]
    assert (roll.total, roll.target_value, roll.success) == (6, 10, False)
    held = d.state.get("p1").ailment(Ailment.POISON)
    assert held.depth == 10 and held.poison == stats(state.get("e1"), d.pack).satk


@pytest.mark.rule("SUPPRESS-3")
def test_a_successful_suppression_roll_resists():
    state = start()
    d = decision(at(state, pinned(state.seed, (5, 4), state.rng)))  # 9 + 1 = 10 >= 10
    assert not ailments.inflict(d, "e1", "p1", Ailment.POISON, 10)
    assert not d.state.get("p1").ailments


@pytest.mark.rule("DEPTH-2")
@pytest.mark.rule("SUPPRESS-3")
def test_natural_recovery_rolls_against_the_depth_and_a_success_ends_the_ailment():
    state = edit(start(), "p1", ailments=(Affliction(kind="poison", depth=10, poison=1),))
    d = decision(at(state, pinned(state.seed, (6, 3), state.rng)))  # 9 + 1 = 10 vs depth 10
    ailments.natural_recovery(d, "p1")
    assert of(d.events, ev.SuppressionRolled)[0].target_value == 10
    assert not d.state.get("p1").ailments


@pytest.mark.rule("AILMENT-POISON")
@pytest.mark.rule("DEPTH-2")
def test_the_end_phase_deals_poison_then_lowers_its_depth():
    """The natural recovery roll between the two (End step 4) is pinned to
    fail: even at depth 30 two sixes would succeed (ATTACK-2) and end the
    Poison, whatever the seed."""
    state = edit(start(), "p1", ailments=(Affliction(kind="poison", depth=30, poison=3),))
    d = decision(at(state, pinned(state.seed, (1, 2), state.rng)))  # the End phase's only roll
    end_phase.run(d)
    lost = of(d.events, ev.HpLost)[0]
    assert (lost.who, lost.amount, lost.cause) == ("p1", 3, "poison")
    recovery = of(d.events, ev.SuppressionRolled)
    assert [(r.faces, r.success) for r in recovery] == [((1, 2), False)]
    assert d.state.get("p1").ailment(Ailment.POISON).depth == 29


@pytest.mark.rule("AILMENT-CURSE")
def test_a_cursed_attacker_takes_half_the_actual_damage_it_deals():
    state = edit(start(), "p1", ailments=(Affliction(kind="curse", depth=10),), hp=10)
    state = edit(state, "e1", hp=20)
    d = decision(at(state, pinned(state.seed, (4, 5, 6, 4, 5), state.rng)))
    damage(d, d.state.get("p1"), d.state.get("e1"), None, None)  # 5 dice above Cut 2
    dealt = of(d.events, ev.DamageRolled)[0].damage
    back = of(d.events, ev.HpLost)[0]
    assert back.cause == "curse" and back.amount == dealt // 2 and d.state.get("p1").hp == 10 - dealt // 2


@pytest.mark.rule("AILMENT-SLEEP")
def test_a_sleeper_has_no_evasion_and_a_hit_wakes_it():
    state = edit(start(), "e1", ailments=(Affliction(kind="sleep", depth=10),))
    assert stats(state.get("e1"), decision(state).pack).evasion == 0
    d = decision(at(state, pinned(state.seed, (3, 3), state.rng)))
    attack(d, "p1", ("e1",), mode="normal")
    assert of(d.events, ev.AttackRolled)[0].hit
    assert not d.state.get("e1").has(Ailment.SLEEP)


@pytest.mark.rule("AILMENT-SLEEP")
def test_a_sleepers_cut_bash_and_stab_resistance_is_minus_1_so_every_damage_die_deals_damage():
    """facts (Fills AILMENT-SLEEP): Cut/Bash/Stab resistance counts as -1."""
    state = start()
    faces = pinned(state.seed, (1, 2, 1, 2, 1), state.rng)  # the fighter's 5 dice, none above the slime's Cut 2
    awake = decision(at(state, faces))
    damage(awake, awake.state.get("p1"), awake.state.get("e1"), None, None)
    assert (of(awake.events, ev.DamageRolled)[0].resistance, of(awake.events, ev.DamageRolled)[0].dealt) == (2, 0)
    asleep = decision(at(edit(state, "e1", ailments=(Affliction(kind="sleep", depth=10),)), faces))
    damage(asleep, asleep.state.get("p1"), asleep.state.get("e1"), None, None)
    rolled = of(asleep.events, ev.DamageRolled)[0]
    assert (rolled.resistance, rolled.dealt, rolled.damage) == (-1, 5, 5)
    assert asleep.state.get("e1").hp == state.get("e1").hp - 5


@pytest.mark.rule("AILMENT-FEAR")
@pytest.mark.rule("STANDBY-6")
def test_fear_rolling_3_cancels_full_defense_and_the_turn():
    state, _ = when(start(), FullDefense(actor="p1"), Pass(actor="p2"))
    assert state.get("p1").full_defense
    d = decision(at(state, pinned(state.seed, (1, 1, 3), state.rng)))  # fails 10, then the 1D6 shows 3
    assert ailments.inflict(d, "e1", "p1", Ailment.FEAR, 10)
    p1 = d.state.get("p1")
    assert of(d.events, ev.AilmentRolled)[0].faces == (3,)
    assert p1.inactive and not p1.waiting and not p1.full_defense
    assert stats(p1, d.pack).evasion == 0 and p1.ailment(Ailment.FEAR).depth == 10


@pytest.mark.rule("AILMENT-STUN")
def test_stun_loses_the_turn_has_no_depth_and_ends_with_the_turn():
    state = start()
    d = decision(at(state, pinned(state.seed, (1, 2), state.rng)))
    assert ailments.inflict(d, "e1", "p1", Ailment.STUN, 10)
    assert d.state.get("p1").inactive and d.state.get("p1").ailment(Ailment.STUN).depth == 0
    end_phase.run(d)
    assert not d.state.get("p1").has(Ailment.STUN) and not d.state.get("p1").inactive


@pytest.mark.rule("BIND-ARM")
@pytest.mark.rule("BIND-1")
def test_an_arm_bind_blocks_arm_skills_only():
    state, _ = when(start(), Pass(actor="p1"), Pass(actor="p2"), Pass(actor="p2"))
    assert state.acting == "p1"
    bound = edit(state, "p1", binds=(Affliction(kind=Bind.ARM.value, depth=9),))
    violates(bound, UseSkill(actor="p1", skill="power-strike", target="e1"), "BIND-ARM")
