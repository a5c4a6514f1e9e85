"""Buffs and debuffs (BUFF-3 .. BUFF-7 and their community readings), the
Recovery roll (HEAL-1 .. HEAL-3), and the Pursuit/Counter chain
(CHASE-1 .. CHASE-5, COUNTER-1 .. COUNTER-5)."""

from __future__ import annotations

import pytest
from labyrinth_harness import at, decision, edit, legal, of, pinned, start, when

from domain.labyrinth import buffs, end_phase
from domain.labyrinth import events as ev
from domain.labyrinth.attack import attack
from domain.labyrinth.commands import Attack, Pass
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
    kept = of(d.events, ev.BuffsChanged)[-1]  # the log says why the smaller one did not apply
    assert (kept.rule, kept.note) == ("BUFF-6", f"the {Buff.PATK_UP.value} already held is as large")


@pytest.mark.rule("BUFF-6")
def test_a_larger_buff_of_a_kind_held_replaces_it_and_the_log_says_why():
    d = _apply(start(), "p1", ActiveBuff(kind=Buff.PATK_UP, amount=2), ActiveBuff(kind=Buff.PATK_UP, amount=4))
    changed = of(d.events, ev.BuffsChanged)[-1]
    assert (changed.rule, changed.note) == ("BUFF-6", f"the larger {Buff.PATK_UP.value} applies")


@pytest.mark.rule("BUFF-7")
def test_an_opposing_buff_and_debuff_both_disappear_whatever_their_size():
    d = _apply(start(), "p1", ActiveBuff(kind=Buff.PATK_UP, amount=3), ActiveBuff(kind=Buff.PATK_DOWN, amount=1))
    assert d.state.get("p1").buffs == ()
    assert of(d.events, ev.BuffsChanged)[-1].rule == "BUFF-7"


@pytest.mark.rule("BUFF-7")
@pytest.mark.rule("BUFF-RESIST")
def test_resistance_and_weakness_grants_oppose_only_on_the_same_element_by_default():
    d = _apply(
        start(),
        "p1",
        ActiveBuff(kind=Buff.RESIST, element=Attribute.FIRE),
        ActiveBuff(kind=Buff.WEAK, element=Attribute.ICE),
    )
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
    state = edit(
        start(),
        "p1",
        buffs=(ActiveBuff(kind=Buff.SPD_UP, amount=2, turns=1), ActiveBuff(kind=Buff.DEF_UP, amount=1, turns=3)),
    )
    d = decision(state)
    end_phase.run(d)
    assert [(b.kind, b.turns) for b in d.state.get("p1").buffs] == [(Buff.DEF_UP, 2)]
    changed = of(d.events, ev.BuffsChanged)[-1]
    assert (changed.rule, changed.note) == ("BUFF-4", "spd-up")  # events keep the engine's words: old logs verify
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


def _pursuing(cid: str, of_whom: str) -> dict:
    return {"buffs": (ActiveBuff(kind=Buff.CHASE, target=of_whom, turns=3),)}


def _both_sides_counter_and_pursue(**options):
    """Every fighter holds Riposte (a Counter) and nothing else that
    answers a roll, and each holds Pursuit on its side's other one: p1 and
    p2 on each other, e2 on e1. p2 stands in p1's row (in reach of e1),
    and no one falls."""
    state = start(encounter="mixed", **options)
    state = edit(state, "p1", skills=("riposte",), hp=99, **_pursuing("p1", "p2"))
    state = edit(state, "p2", skills=("riposte",), hp=99, row=state.get("p1").row, **_pursuing("p2", "p1"))
    state = edit(state, "e1", skills=("riposte",), hp=99)
    state = edit(state, "e2", skills=("riposte",), hp=99, **_pursuing("e2", "e1"))
    return state


def _attack_in_main(state, actor: str, target: str):
    """``actor``'s Normal attack on ``target`` in the Main phase, given as
    a command; the attack rolls of that action, as (attacker, target, mode)."""
    state, _ = when(state, Pass(actor="p1"), Pass(actor="p2"))
    while state.acting != actor:
        state, _ = when(state, Pass(actor=state.acting) if state.acting in ("p1", "p2") else legal(state)[-1])
    state, events = when(state, Attack(actor=actor, target=target))
    ended = next(i for i, e in enumerate(events) if isinstance(e, ev.ActionEnded) and e.who == actor)
    return [(e.attacker, e.target, e.mode) for e in of(events[:ended], ev.AttackRolled)]  # not the turns after


@pytest.mark.rule("BUFF-CHASE")
@pytest.mark.rule("CHASE-2")
@pytest.mark.rule("CHASE-3")
@pytest.mark.rule("CHASE-4")
@pytest.mark.rule("CHASE-5")
@pytest.mark.rule("COUNTER-4")
@pytest.mark.rule("COUNTER-5")
def test_with_counters_and_pursuits_on_both_sides_the_chain_stops_where_the_rules_say():
    """p1 attacks e1: e1 counters (COUNTER-1); p1 holds Riposte but a
    Counter draws no Counter (COUNTER-4), and e2's Pursuit of e1 does not
    follow e1's Counter (CHASE-5). p2 pursues p1's attack (BUFF-CHASE);
    e1 counters the Pursuit (COUNTER-5); p2 does not counter that Counter
    (COUNTER-4), and p1 does not pursue p2's Pursuit (CHASE-4). Each rule
    broken loops for ever or adds a roll."""
    rolls = _attack_in_main(_both_sides_counter_and_pursue(), "p1", "e1")
    assert rolls == [("p1", "e1", "normal"), ("e1", "p1", "counter"), ("p2", "e1", "pursuit"), ("e1", "p2", "counter")]


@pytest.mark.rule("CHASE-4")
@pytest.mark.rule("CHASE-5")
@pytest.mark.rule("COUNTER-4")
@pytest.mark.rule("COUNTER-5")
def test_every_reaction_is_one_the_chain_table_allows_however_the_hits_are_answered():
    """The same fighters, each hit of an action its own attack roll (the
    OQ 54 reading off) and pursuits needing no reach: still Attack ->
    Counter, Attack -> Pursuit -> Counter, and nothing after a Counter."""
    rolls = _attack_in_main(
        _both_sides_counter_and_pursue(one_passive_per_action=False, follow_ups_need_range=False), "p1", "e1"
    )
    assert rolls == [("p1", "e1", "normal"), ("e1", "p1", "counter"), ("p2", "e1", "pursuit"), ("e1", "p2", "counter")]


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


@pytest.mark.rule("BUFF-1")
@pytest.mark.rule("BUFF-PATK-UP")
@pytest.mark.rule("BUFF-CHASE")
def test_the_log_tells_buffs_by_the_names_the_rules_give_them():
    from domain.labyrinth.narrate import describe_event

    d = _apply(
        start(),
        "p1",
        ActiveBuff(kind=Buff.PATK_UP, amount=2, turns=3),
        ActiveBuff(kind=Buff.CHASE, target="p2", turns=1),
    )
    told = describe_event(of(d.events, ev.BuffsChanged)[-1], d.state)
    assert told.endswith("now holds Physical attack up 2 (3 turns), Pursuit p2 (1 turn)")
    assert "patk-up" not in told and "chase" not in told
    state = edit(d.state, "p1", buffs=(ActiveBuff(kind=Buff.SPD_UP, amount=1, turns=1),))
    d = decision(state)
    end_phase.run(d)
    told = describe_event(of(d.events, ev.BuffsChanged)[-1], d.state)
    assert told.endswith("now holds no buff or debuff (Speed up wore off)")
    d = _apply(start(), "p1", ActiveBuff(kind=Buff.PATK_UP, amount=2), ActiveBuff(kind=Buff.PATK_UP, amount=4))
    told = describe_event(of(d.events, ev.BuffsChanged)[-1], d.state)
    assert told.endswith("now holds Physical attack up 4 (3 turns) (the larger Physical attack up applies)")
