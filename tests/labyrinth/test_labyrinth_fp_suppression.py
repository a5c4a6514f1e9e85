"""FP spent on a Suppression defense roll (FUMBLE-2 with the ``ask_fp``
option): before each of a PC's Suppression defense rolls its player says
what FP to spend on it, as on the first check of a Main action (extra dice
with the best 2 kept, a reroll if it fails), and the step resumes with it.

Spending nothing every time plays exactly as a table without the option."""

from __future__ import annotations

import pytest
from labyrinth_harness import PACK, at, decision, edit, legal, of, pinned, start, violates, when

from domain.labyrinth import ailments
from domain.labyrinth import events as ev
from domain.labyrinth.commands import Pass, React, SpendFp
from domain.labyrinth.flow import waits_for
from domain.labyrinth.state import Answer
from domain.labyrinth.stats import stats
from domain.labyrinth.vocab import Ailment

QUESTIONS = (ev.ReactionAsked, ev.ReactionChosen)


def _play(seed: int, encounter: str, **options):
    """A whole battle: the last legal command each time, every question
    answered with nothing spent and no passive; the events without the
    questions and answers, and how many FP questions were asked."""
    state = start(seed=seed, encounter=encounter, **options)
    events, asked = [], 0
    for _ in range(2000):
        if state.over:
            break
        q = state.question
        if q is not None:
            asked += q.kind == "fp"
            command = SpendFp(actor=q.who) if q.kind == "fp" else React(actor=q.who)
        else:
            command = legal(state)[-1]
        state, produced = when(state, command)
        events += [e for e in produced if not isinstance(e, QUESTIONS)]
    assert state.over
    return events, asked


@pytest.mark.rule("FUMBLE-2")
def test_spending_nothing_each_time_plays_as_a_table_that_is_not_asked() -> None:
    total = 0
    for seed in range(1, 25):
        asked, n = _play(seed, "mixed", ask_fp=True)
        plain, _ = _play(seed, "mixed")
        assert asked == plain, seed
        total += n
    assert total > 0  # the wasp's venom made the PCs roll, and they were asked


def _roll(state, answer: Answer | None, faces: tuple[int, ...], target: int = 12):
    """p1's Suppression defense roll against ``target`` with ``answer``
    given, on pinned faces: the decision after it."""
    d = decision(at(state, pinned(state.seed, faces, state.rng)))
    d.answers = (answer,) if answer else ()
    ok = ailments.check(d, "p1", target, Ailment.POISON.value, "resist")
    return d, ok


@pytest.mark.rule("FUMBLE-2")
def test_fp_spent_on_a_suppression_roll_adds_dice_keeps_the_best_two_and_gives_no_fp() -> None:
    state = edit(start(ask_fp=True), "p1", fp=3)
    sdef = stats(state.get("p1"), PACK).sdef
    d, ok = _roll(state, Answer(fp=2), (1, 6, 5, 1))
    rolled = of(d.events, ev.SuppressionRolled)[0]
    assert rolled.faces == (1, 6, 5, 1) and rolled.kept == (6, 5) and rolled.total == 11 + sdef
    assert rolled.fp == 0  # FP was spent on it: its 1s give none
    assert [(e.amount, e.reason) for e in of(d.events, ev.FpSpent)] == [(2, "extra dice")]
    assert d.state.get("p1").fp == 1 and ok == (11 + sdef >= 12)


@pytest.mark.rule("FUMBLE-2")
def test_a_failed_suppression_roll_is_rerolled_once_for_fp_when_asked() -> None:
    state = edit(start(ask_fp=True), "p1", fp=2)
    d, ok = _roll(state, Answer(reroll=True), (1, 2, 6, 6))
    assert [e.faces for e in of(d.events, ev.CheckRerolled)] == [(1, 2)]
    rolled = of(d.events, ev.SuppressionRolled)[0]
    assert rolled.faces == (6, 6) and rolled.success and rolled.absolute == "success" and ok
    assert [(e.amount, e.reason) for e in of(d.events, ev.FpSpent)] == [(1, "reroll")]
    assert d.state.get("p1").fp == 1


@pytest.mark.rule("FUMBLE-2")
def test_without_an_answer_a_pc_holding_fp_is_asked_and_one_without_fp_is_not() -> None:
    from domain.labyrinth.decision import NeedReaction

    state = start(ask_fp=True)
    with pytest.raises(NeedReaction) as asked:
        _roll(state, None, (3, 4))
    assert (asked.value.who, asked.value.kind) == ("p1", "fp") and "poison" in asked.value.check
    d, _ = _roll(edit(state, "p1", fp=0), None, (3, 4))
    assert of(d.events, ev.SuppressionRolled)[0].fp == 0


def _asked_state():
    """A battle on the fixture pack at its first FP question."""
    for seed in range(1, 40):
        state = start(seed=seed, encounter="mixed", ask_fp=True)
        for _ in range(300):
            if state.over or (state.question is not None and state.question.kind == "fp"):
                break
            q = state.question
            state, _ = when(state, React(actor=q.who) if q is not None else legal(state)[-1])
        if state.question is not None and state.question.kind == "fp":
            return state
    pytest.fail("no FP question was asked")


@pytest.mark.rule("FUMBLE-2")
def test_the_question_waits_for_the_pc_lists_what_it_can_spend_and_resumes_with_the_answer() -> None:
    state = _asked_state()
    q, pc = state.question, state.get(state.question.who)
    assert waits_for(state) == q.who and pc.fp >= 1
    options = legal(state)
    assert SpendFp(actor=q.who) in options and SpendFp(actor=q.who, fp=pc.fp) in options
    assert SpendFp(actor=q.who, fp=pc.fp, reroll=True) not in options  # no FP left for the reroll
    violates(state, Pass(actor=q.who), "FUMBLE-2")
    violates(state, SpendFp(actor=q.who, fp=pc.fp + 1), "FUMBLE-2")
    after, events = when(state, SpendFp(actor=q.who, fp=1))
    rolled = [e for e in of(events, ev.SuppressionRolled) if e.who == q.who][0]
    assert len(rolled.faces) == 3 and len(rolled.kept) == 2
    assert after.get(q.who).fp <= pc.fp - 1 + sum(e.fp for e in of(events, ev.SuppressionRolled) if e.who == q.who)


@pytest.mark.rule("FUMBLE-2")
def test_spending_without_a_roll_asked_is_refused() -> None:
    violates(start(ask_fp=True), SpendFp(actor="p1", fp=1), "FUMBLE-2")
