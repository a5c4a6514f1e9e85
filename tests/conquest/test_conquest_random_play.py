"""Random and greedy play over many seeds: no exception, no dead end, every
battle ends, replay equals the live state, the random outcomes re-derive
from (seed, counter), and the same seed gives the same events."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from domain.conquest.ruleset import RULESET
from domain.conquest.bots import greedy_choice, random_choice
from domain.conquest.commands import StartConquest
from domain.conquest.rules import decide, evolve, legal_commands, replay
from domain.conquest.vocab import Termination
from conquest_harness import ARMIES, ctx_for

MAX_COMMANDS = 3000


def play(seed: int, bot: str, scenario: str = "border-clash", physical: bool = False):
    ctx = ctx_for(scenario)
    events = decide(
        None,
        StartConquest(battle_id=f"g{seed}", scenario=scenario, armies=ARMIES, seed=seed, physical_dice=physical),
        ctx,
    )
    state = replay(events)
    rnd = random.Random(seed)
    for _ in range(MAX_COMMANDS):
        if state.over:
            return state, events
        legal = legal_commands(state, ctx)
        assert legal, f"dead end in {state.phase} {state.step}"
        command = random_choice(state, ctx, rnd) if bot == "random" else greedy_choice(state, ctx)
        produced = decide(state, command, ctx)
        assert produced
        for event in produced:
            assert RULESET.check_random(state, event) is None
            assert RULESET.describe_event(event, state, None)
            state = evolve(state, event)
        events += produced
    raise AssertionError("the battle did not end")


@pytest.mark.rule("ROUND-3")
@pytest.mark.rule("ROUND-4")
def test_random_play_over_many_seeds_always_ends_and_replays_exactly():
    ends = Counter()
    for seed in range(120):
        scenario = "hold-the-ford" if seed % 4 == 0 else "border-clash"
        state, events = play(seed, "random", scenario, physical=seed % 10 == 0)
        assert replay(events) == state
        assert state.round <= ctx_for(scenario).scenario.rounds
        ends[state.result.termination] += 1
    assert ends[Termination.ROUND_LIMIT] and ends[Termination.WIPE_OUT]


def test_greedy_play_ends_by_wipe_out_or_by_the_round_limit_depending_on_the_seed():
    ends = Counter()
    for seed in range(100):
        state, events = play(seed, "greedy")
        assert replay(events) == state
        ends[state.result.termination] += 1
    assert ends[Termination.WIPE_OUT] and ends[Termination.ROUND_LIMIT]


@pytest.mark.rule("ROUND-4")
def test_the_phases_come_in_order_each_round():
    from domain.conquest.events import PlayPassed, RoundStarted

    _, events = play(7, "greedy")
    order, seen = ["reinforcement", "command", "supremacy", "action", "victory"], []
    for e in events:
        if isinstance(e, RoundStarted):
            seen.append(["reinforcement"])
        elif isinstance(e, PlayPassed) and e.phase.value != seen[-1][-1]:
            seen[-1].append(e.phase.value)
    for phases in seen[:-1]:
        assert [p for p in order if p in phases] == phases and phases[0] == "reinforcement"


def test_the_same_seed_gives_the_same_events():
    assert play(11, "random")[1] == play(11, "random")[1]
    assert play(11, "greedy")[1] == play(11, "greedy")[1]
