"""Buffs and debuffs (BUFF-3 .. BUFF-7 and their community readings), the
Recovery roll (HEAL-1 .. HEAL-3), and the Pursuit/Counter chain
(CHASE-1 .. CHASE-5, COUNTER-1 .. COUNTER-5)."""

from __future__ import annotations

import pytest
from labyrinth_harness import at, decision, edit, of, pinned, start, when

from domain.labyrinth import buffs, end_phase
from domain.labyrinth import events as ev
from domain.labyrinth.attack import attack
from domain.labyrinth.chain import pursue
from domain.labyrinth.commands import Pass
from domain.labyrinth.skills import heal
from domain.labyrinth.state import ActiveBuff
from domain.labyrinth.vocab import Attribute, Buff


def _apply(state, who, *new):
    d = decision(state)
    for b in new:
        buffs.apply(d, who, b)
    return d


@pytest.mark.rule("BUFF-6")
def test_the_same_kind_keeps_only_the_largest():
    d = _apply(start(), "p1", ActiveBuff(kind=Buff.PATK_UP, amount=2), ActiveBuff(kind=Buff.PATK_UP, amount=4))
    assert [(b.kind, b.amount) for b in d.state.get("p1").buffs] == [(Buff.PATK_UP, 4)]
    d = _apply(d.state, "p1", ActiveBuff(kind=Buff.PATK_UP, amount=1))
    assert [(b.kind, b.amount) for b in d.state.get("p1").buffs] == [(Buff.PATK_UP, 4)]


@pytest.mark.rule("BUFF-7")
def test_an_opposing_buff_and_debuff_both_disappear_whatever_their_size():
    d = _apply(start(), "p1", ActiveBuff(kind=Buff.PATK_UP, amount=3), ActiveBuff(kind=Buff.PATK_DOWN, amount=1))
    assert d.state.get("p1").buffs == ()
    assert of(d.events, ev.BuffsChanged)[-1].rule == "BUFF-7"


@pytest.mark.rule("BUFF-7")
@pytest.mark.rule("BUFF-RESIST")
def test_resistance_and_weakness_grants_oppose_only_on_the_same_element_by_default():
    d = _apply(start(), "p1", ActiveBuff(kind=Buff.RESIST, element=Attribute.FIRE),
               ActiveBuff(kind=Buff.WEAK, element=Attribute.ICE))
    assert len(d.state.get("p1").buffs) == 2
    d = _apply(d.state, "p1", ActiveBuff(kind=Buff.WEAK, element=Attribute.FIRE))
    assert [b.element for b in d.state.get("p1").buffs] == [Attribute.ICE]


@pytest.mark.rule("BUFF-5")
def test_a_fourth_kind_of_buff_drops_the_oldest_by_default():
    kinds = (Buff.PATK_UP, Buff.DEF_UP, Buff.SPD_UP, Buff.EVA_UP)
    d = _apply(start(), "p1", *(ActiveBuff(kind=k, amount=1) for k in kinds))
    assert [b.kind for b in d.state.get("p1").buffs] == list(kinds[1:])
    d = _apply(start(buff_limit_drops_oldest=False), "p1", *(ActiveBuff(kind=k, amount=1) for k in kinds))
    assert [b.kind for b in d.state.get("p1").buffs] == list(kinds[:3])


@pytest.mark.rule("BUFF-2")
@pytest.mark.rule("BUFF-3")
@pytest.mark.rule("BUFF-4")
def test_durations_fall_in_the_end_phase_and_an_effect_at_zero_disappears():
    state = edit(start(), "p1", buffs=(ActiveBuff(kind=Buff.SPD_UP, amount=2, turns=1),
                                       ActiveBuff(kind=Buff.DEF_UP, amount=1, turns=3)))
    d = decision(state)
    end_phase.run(d)
    assert [(b.kind, b.turns) for b in d.state.get("p1").buffs] == [(Buff.DEF_UP, 2)]
    d = _apply(start(), "p1", ActiveBuff(kind=Buff.HIT_UP, amount=1, turns=0))
    assert d.state.get("p1").buffs[0].turns == 3  # no duration given: 3 turns (OQ 59)


@pytest.mark.rule("BUFF-HP-REGEN")
def test_regen_heals_in_the_end_phase_up_to_the_maximum():
    state = edit(start(), "p1", hp=8, buffs=(ActiveBuff(kind=Buff.HP_REGEN, amount=5, turns=3),))
    d = decision(state)
    end_phase.run(d)
    assert d.state.get("p1").hp == 10


@pytest.mark.rule("HEAL-1")
@pytest.mark.rule("HEAL-2")
@pytest.mark.rule("HEAL-3")
def test_a_recovery_roll_heals_one_per_die_of_four_or_more():
    # the mage's [Elemental attack] is 5 (TEC bonus 2 + staff 3); with modifier +2 it rolls 7D6
    state = edit(start(), "p1", hp=2)
    d = decision(at(state, pinned(state.seed, (1, 4, 6, 3, 5, 2, 4), state.rng)))
    heal(d, "p2", "p1", 2, item=False)
    healed = of(d.events, ev.Healed)[0]
    assert healed.faces == (1, 4, 6, 3, 5, 2, 4) and healed.amount == 4 and d.state.get("p1").hp == 6


@pytest.mark.rule("BUFF-CHASE")
@pytest.mark.rule("CHASE-2")
@pytest.mark.rule("CHASE-3")
@pytest.mark.rule("COUNTER-5")
@pytest.mark.rule("COUNTER-4")
@pytest.mark.rule("CHASE-4")
def test_a_pursuit_follows_an_attack_a_counter_answers_the_pursuit_and_the_chain_stops():
    state = start(encounter="mixed")  # e1 is a brute with a Counter passive
    state = edit(state, "p2", buffs=(ActiveBuff(kind=Buff.CHASE, target="p1", turns=3),), row=state.get("p1").row)
    state = edit(state, "p1", skills=())  # no guard: keep the chain plain
    state = edit(state, "e1", hp=99)
    d = decision(state)
    attack(d, "p1", ("e1",), mode="normal")
    pursue(d, "p1", ("e1",), "normal")
    modes = [(e.attacker, e.mode) for e in of(d.events, ev.AttackRolled)]
    # A -> E (E counters A), B pursues -> E (E counters B); no pursuit of a counter, no counter of a counter
    assert modes == [("p1", "normal"), ("e1", "counter"), ("p2", "pursuit"), ("e1", "counter")]


@pytest.mark.rule("CHASE-5")
def test_no_pursuit_follows_a_counter():
    state = edit(start(), "p2", buffs=(ActiveBuff(kind=Buff.CHASE, target="p1", turns=3),))
    d = decision(state)
    pursue(d, "p1", ("e1",), "counter")
    pursue(d, "p1", ("e1",), "pursuit")
    assert d.events == []


@pytest.mark.rule("COUNTER-1")
@pytest.mark.rule("COUNTER-2")
@pytest.mark.rule("COUNTER-3")
def test_a_counter_is_a_normal_attack_roll_on_the_attacker():
    state = edit(start(encounter="mixed"), "e1", hp=99)
    state = edit(state, "p1", skills=())
    d = decision(state)
    attack(d, "p1", ("e1",), mode="normal")
    counters = [e for e in of(d.events, ev.AttackRolled) if e.mode == "counter"]
    assert [(c.attacker, c.target) for c in counters] == [("e1", "p1")]
    assert of(d.events, ev.PassiveUsed)[0].skill == "riposte"


def test_passing_keeps_the_battle_waiting_for_the_next_pc():
    state, _ = when(start(), Pass(actor="p1"), Pass(actor="p2"))
    assert state.acting == "p2"
