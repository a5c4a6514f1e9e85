"""Random play over the extended fixture pack, whose encounters bring in
fastest and delayed skills, a delayed attack, an on-critical skill, a
token placer, a link group and an Enemy's Standby skill, with FP spent now
and then: every battle ends
with no dead end, replays to the same state, each random outcome
re-derives from (seed, counter) and each event narrates; through the
kernel too (undo, redo, replay, export, verify)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from kernel_play import Player, play_checked
from labyrinth_more import CTX, MORE, PARTY
from msgspec.structs import replace

from domain.kernel.games import GameApp
from domain.kernel.portable import export_battle, verify_log
from domain.labyrinth.ruleset import RULESET
from domain.labyrinth import events as ev
from domain.labyrinth.commands import Attack, Member, StartLabyrinth, UseSkill
from domain.labyrinth.rules import decide, evolve, legal_commands, replay
from domain.labyrinth.state import Options
from domain.labyrinth.vocab import Speed

ENCOUNTERS = ("imps", "caller", "pack", "howler")
MAX_COMMANDS = 2000


def play(seed: int):
    options = Options(gm_enemies=seed % 3 == 0, identify=seed % 2 == 0, full_defense_through_end=seed % 4 != 1)
    party = PARTY + ((Member(cls="fighter"),) if seed % 2 else ())
    command = StartLabyrinth(
        battle_id=f"s{seed}", encounter=ENCOUNTERS[seed % len(ENCOUNTERS)], party=party, seed=seed, options=options
    )
    events = decide(None, command, CTX)
    state = replay(events)
    rnd = random.Random(seed)
    for _ in range(MAX_COMMANDS):
        if state.over:
            return state, events
        options_now = legal_commands(state, CTX)
        assert options_now, f"dead end at turn {state.turn} {state.phase} ({state.acting}, {state.window})"
        fighting = [c for c in options_now if isinstance(c, (Attack, UseSkill))]
        produced = decide(
            state, _spending(state, rnd.choice(fighting if fighting and rnd.random() < 0.8 else options_now), rnd), CTX
        )
        for event in produced:
            assert RULESET.check_random(state, event) is None, event
            assert RULESET.describe_event(event, state, MORE)
            state = evolve(state, event)
        events += produced
    raise AssertionError("the battle did not end")


def _spending(state, command, rnd: random.Random):
    """Now and then a PC spends its FP on the check (legal_commands lists
    only the plain commands): an extra die, or a reroll."""
    if not isinstance(command, (Attack, UseSkill)) or rnd.random() < 0.7:
        return command
    skill = MORE.skills.get(getattr(command, "skill", ""))
    if state.get(command.actor).fp < 1 or (skill is not None and skill.speed is Speed.DELAYED):
        return command
    return replace(command, fp=1) if rnd.random() < 0.5 else replace(command, reroll=True)


@pytest.mark.rule("ORDER-3")
@pytest.mark.rule("ATTACK-1")
@pytest.mark.rule("FUMBLE-2")
def test_random_battles_with_the_special_cases_end_and_replay_exactly():
    seen: Counter[str] = Counter()
    for seed in range(48):
        state, events = play(seed)
        assert replay(events) == state
        seen.update(type(e).__name__ for e in events)
    # the special cases did come up
    for kind in (
        ev.Held,
        ev.ActionDelayed,
        ev.DelayedAttackResolved,
        ev.TokenPlaced,
        ev.Identified,
        ev.CriticalTriggered,
        ev.FpSpent,
        ev.CheckRerolled,
    ):
        assert seen[kind.__name__], kind.__name__


def _start(app, battle_id: str, rnd: random.Random):
    seed = rnd.randrange(2**31)
    return app.start(
        "labyrinth",
        StartLabyrinth(
            battle_id=battle_id,
            encounter=rnd.choice(ENCOUNTERS),
            party=PARTY,
            seed=seed,
            options=Options(gm_enemies=seed % 3 == 0, identify=seed % 2 == 0),
        ),
        battle_id=battle_id,
    )


def _choose(state, ctx, rnd: random.Random):
    options_now = RULESET.legal_commands(state, ctx)
    fighting = [c for c in options_now if isinstance(c, (Attack, UseSkill))]
    return rnd.choice(fighting if fighting and rnd.random() < 0.8 else options_now)


@pytest.mark.parametrize("seed", range(6))
def test_the_special_cases_hold_through_the_kernel_undo_redo_and_verify(seed: int) -> None:
    with GameApp("memory", packs={"labyrinth": MORE}) as app:
        game = play_checked(app, Player("labyrinth", _start, _choose), f"m{seed}", random.Random(seed))
        assert game.over
        report = verify_log(export_battle(app, f"m{seed}"), MORE)
        assert report.ok, report.summary()
