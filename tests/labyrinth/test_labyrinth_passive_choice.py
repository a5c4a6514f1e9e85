"""Passive actions chosen by hand (PASSIVE-1 .. PASSIVE-3, the
``ask_passives`` option): an attack roll against a character with a usable
passive waits for its controller's answer, and the step resumes with it.

The strongest checks compare whole battles: answering every question with
the first skill offered plays out exactly as the automatic policy does, and
answering none exactly as a table that uses no passives."""

from __future__ import annotations

import msgspec
import pytest
from labyrinth_harness import edit, legal, of, start, violates, when

from domain.labyrinth import events as ev
from domain.labyrinth.commands import Attack, LabyrinthCommand, Pass, React, TypeFaces
from domain.labyrinth.flow import waits_for

SEEDS = range(1, 31)
QUESTIONS = (ev.ReactionAsked, ev.ReactionChosen)


def _play(seed: int, encounter: str, answer, **options):
    """A whole battle on the fixture pack: the last legal command each time
    (a deterministic policy), a question answered by ``answer``; the
    events without the questions and answers, and how many were asked."""
    state = start(seed=seed, encounter=encounter, **options)
    events, asked = [], 0
    for _ in range(2000):
        if state.over:
            break
        if state.question is not None:
            asked += 1
            command = React(actor=state.question.who, skill=answer(state.question.skills))
        else:
            command = legal(state)[-1]
        state, produced = when(state, command)
        events += [e for e in produced if not isinstance(e, QUESTIONS)]
    assert state.over
    return events, asked


@pytest.mark.rule("PASSIVE-2")
@pytest.mark.parametrize("encounter", ["slimes", "mixed"])
def test_choosing_the_first_passive_each_time_plays_as_the_automatic_policy(encounter: str) -> None:
    total = 0
    for seed in SEEDS:
        asked, n = _play(seed, encounter, lambda skills: skills[0], ask_passives=True)
        auto, _ = _play(seed, encounter, lambda skills: skills[0])
        assert asked == auto, seed
        total += n
    assert total > len(SEEDS)  # the questions were really asked


@pytest.mark.rule("PASSIVE-2")
@pytest.mark.parametrize("encounter", ["slimes", "mixed"])
def test_declining_every_passive_plays_as_a_table_without_passives(encounter: str) -> None:
    for seed in SEEDS:
        declined, _ = _play(seed, encounter, lambda skills: "", ask_passives=True)
        without, _ = _play(seed, encounter, lambda skills: skills[0], auto_passives=False)
        assert declined == without, seed
        assert not [e for e in declined if isinstance(e, ev.PassiveUsed)]


def _asked_state(seed: int = 25):
    """The fixture battle at its first question: a slime attacks the fighter (p1), who has Guard."""
    state = start(seed=seed, ask_passives=True)
    while state.question is None:
        state, _ = when(state, legal(state)[-1])
    return state


@pytest.mark.rule("PASSIVE-1")
def test_an_attack_roll_against_a_pc_with_a_passive_waits_for_its_player() -> None:
    state = _asked_state()
    q = state.question
    assert (q.who, q.skills, q.mode) == ("p1", ("guard",), "normal")
    assert state.get(q.attacker).side.value == "enemy"
    assert waits_for(state) == "p1"
    assert legal(state) == [React(actor="p1", skill="guard"), React(actor="p1")]


@pytest.mark.rule("PASSIVE-3")
def test_the_chosen_guard_is_the_one_passive_of_that_attack_roll_and_halves_it() -> None:
    hits = 0
    for seed in range(20, 40):
        asked = _asked_state(seed)
        attacker = asked.question.attacker
        _, events = when(asked, React(actor="p1", skill="guard"))
        used = [(e.who, e.skill) for e in of(events, ev.PassiveUsed) if e.against == attacker]
        assert used == [("p1", "guard")], seed  # one passive for that attack roll
        damage = [e for e in of(events, ev.DamageRolled) if e.attacker == attacker and e.target == "p1"][:1]
        for d in damage:
            assert d.halved == "guard" and d.damage == d.dealt // 2, seed
        hits += len(damage)
    assert hits  # some of those rolls hit, and their damage was halved


@pytest.mark.rule("PASSIVE-1")
def test_while_a_passive_is_awaited_nothing_else_may_be_done() -> None:
    state = _asked_state()
    rv = violates(state, Pass(actor="p2"), "PASSIVE-1")
    assert "waits for" in str(rv)
    violates(state, React(actor="p2"), "PASSIVE-1")  # the roll is against p1


@pytest.mark.rule("PASSIVE-1")
def test_faces_typed_while_a_passive_is_awaited_are_refused_saying_what_is_asked() -> None:
    """Physical faces given while the roll waits for a passive answer, not
    for dice: refused by PASSIVE-1, saying who is asked for what."""
    state = _asked_state()
    rv = violates(state, TypeFaces(actor="p1", faces=(3,)), "PASSIVE-1")
    assert rv.message.startswith("no roll waits for faces:") and rv.message.endswith("for a passive action first")


@pytest.mark.rule("PASSIVE-2")
def test_a_passive_not_offered_is_refused() -> None:
    state = _asked_state()
    violates(state, React(actor="p1", skill="rally"), "PASSIVE-2")


@pytest.mark.rule("PASSIVE-1")
def test_a_reaction_without_an_attack_roll_is_refused() -> None:
    violates(start(ask_passives=True), React(actor="p1"), "PASSIVE-1")


@pytest.mark.rule("PASSIVE-2")
@pytest.mark.rule("COUNTER-4")
def test_one_step_asks_the_gm_and_then_the_player_in_the_order_of_the_rolls() -> None:
    """The fighter attacks the brute (GM-run, Riposte): the GM chooses the
    brute's counter; the counter's roll against the fighter then asks for
    the fighter's Guard (a guard may answer a Counter; a Counter may not:
    the fighter holds Riposte too, and it is not offered)."""
    state = start(seed=3, encounter="mixed", ask_passives=True, gm_enemies=True)
    state = edit(state, "p1", skills=state.get("p1").skills + ("riposte",))
    state, _ = when(state, Pass(actor="p1"), Pass(actor="p2"))
    while state.acting != "p1":
        state, _ = when(state, legal(state)[-1])
    state, events = when(state, Attack(actor="p1", target="e1"))
    q = state.question
    assert (q.who, q.attacker, q.skills, waits_for(state)) == ("e1", "p1", ("riposte",), "gm")
    assert msgspec.json.decode(q.command, type=LabyrinthCommand) == Attack(actor="p1", target="e1")
    assert not of(events, ev.AttackRolled)  # nothing of the attack is resolved yet
    state, events = when(state, React(actor="e1", skill="riposte"))
    q = state.question
    assert (q.who, q.attacker, q.mode, q.skills) == ("p1", "e1", "counter", ("guard",))
    assert not of(events, ev.AttackRolled)
    state, events = when(state, React(actor="p1", skill="guard"))
    used = [(e.who, e.skill) for e in of(events, ev.PassiveUsed)]
    assert used == [("e1", "riposte"), ("p1", "guard")]
    rolls = [(e.attacker, e.mode) for e in of(events, ev.AttackRolled)]
    assert rolls[:2] == [("p1", "normal"), ("e1", "counter")]
    assert state.answers == ()
