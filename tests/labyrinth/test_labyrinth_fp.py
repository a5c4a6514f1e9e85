"""Spending FP on the first check of a Main action (FUMBLE-2; facts: Fills
FUMBLE-2): +1D6 per FP with the best 2 kept and no FP from that roll; a
reroll once per check, for 1 FP (OQ 18) or the table's cost."""

from __future__ import annotations

import pytest
from labyrinth_harness import at, edit, of, pinned, start, violates, when

from domain.labyrinth import events as ev
from domain.labyrinth.commands import Attack, Pass, UseSkill


def fighter_up(**options):
    state, _ = when(start(**options), Pass(actor="p1"), Pass(actor="p2"), Pass(actor="p2"))
    assert state.acting == "p1" and state.get("p1").fp == 1  # 1 FP at the start
    return state


@pytest.mark.rule("FUMBLE-2")
@pytest.mark.rule("HIT-1")
def test_each_fp_spent_adds_a_die_the_best_two_are_kept_and_that_roll_gives_no_fp():
    state = fighter_up()
    state = at(state, pinned(state.seed, (1, 6, 2), state.rng))
    state, events = when(state, Attack(actor="p1", target="e1", fp=1))
    spent = of(events, ev.FpSpent)[0]
    assert (spent.who, spent.amount, spent.reason) == ("p1", 1, "extra dice")
    check = of(events, ev.AttackRolled)[0]
    assert (check.faces, check.kept, check.total, check.hit, check.fp) == ((1, 6, 2), (6, 2), 9, True, 0)
    assert state.get("p1").fp == 0


@pytest.mark.rule("FUMBLE-2")
def test_no_more_fp_can_be_spent_than_is_held():
    violates(fighter_up(), Attack(actor="p1", target="e1", fp=2), "FUMBLE-2")
    violates(fighter_up(), Attack(actor="p1", target="e1", fp=1, reroll=True), "FUMBLE-2")


@pytest.mark.rule("FUMBLE-2")
def test_a_failed_check_is_rolled_again_once_for_1_fp_and_neither_roll_gives_fp():
    state = edit(fighter_up(), "p1", fp=3)
    state = at(state, pinned(state.seed, (1, 2, 5, 5), state.rng))  # 3 + 1 < 7, then 10 + 1
    state, events = when(state, Attack(actor="p1", target="e1", reroll=True))
    assert of(events, ev.CheckRerolled)[0].faces == (1, 2)
    assert [(e.amount, e.reason) for e in of(events, ev.FpSpent)] == [(1, "reroll")]
    check = of(events, ev.AttackRolled)[0]
    assert (check.faces, check.hit, check.fp) == ((5, 5), True, 0)
    assert state.get("p1").fp == 2


@pytest.mark.rule("FUMBLE-2")
def test_a_check_that_succeeds_is_not_rerolled_and_nothing_is_paid():
    state = edit(fighter_up(), "p1", fp=3)
    state = at(state, pinned(state.seed, (5, 5), state.rng))
    state, events = when(state, Attack(actor="p1", target="e1", reroll=True))
    assert not of(events, ev.CheckRerolled) and not of(events, ev.FpSpent) and state.get("p1").fp == 3


@pytest.mark.rule("FUMBLE-1")
@pytest.mark.rule("FUMBLE-2")
def test_extra_dice_save_an_activation_from_all_ones_and_the_reroll_cost_is_the_tables():
    state, _ = when(start(fp_reroll_cost=2), Pass(actor="p1"), Pass(actor="p2"))
    assert state.acting == "p2"
    state = edit(state, "p2", fp=3)
    state = at(state, pinned(state.seed, (1, 1, 3), state.rng))
    state, events = when(state, UseSkill(actor="p2", skill="heal", target="p1", fp=1))
    used = of(events, ev.SkillUsed)[0]
    assert (used.faces, used.kept, used.fumbled) == ((1, 1, 3), (3, 1), False) and of(events, ev.Healed)
    again, _ = when(start(fp_reroll_cost=2), Pass(actor="p1"), Pass(actor="p2"))
    again = at(edit(again, "p2", fp=2), pinned(again.seed, (1, 1, 4, 4), again.rng))
    again, events = when(again, UseSkill(actor="p2", skill="heal", target="p1", reroll=True))
    assert [(e.amount, e.reason) for e in of(events, ev.FpSpent)] == [(2, "reroll")]
    assert not of(events, ev.SkillUsed)[0].fumbled and again.get("p2").fp == 0
