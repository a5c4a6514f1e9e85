"""Random legal play on the pure rules, many seeds (STYLE.md item 9).

Each seed sets up a clash (any setup of the starter pack, 1-4 adventurers of
random races, starting lines and forms, XP 0-8, any difficulty) and plays it
to the end choosing among ``legal_commands``. Along the way: no crash, no
dead end, every listed command probed is accepted, ``decide`` is
deterministic, the battle ends within ``MAX_COMMANDS``; at the end, replaying
every event from nothing gives the live state.
"""

from __future__ import annotations

import random

import pytest
from tiers import quick_first
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.structs import replace
from random_battles import MAX_COMMANDS, pick, random_table, state_summary, typed

from domain.betrayal.battle.commands import Engage
from domain.betrayal.battle.events import BattleEvent, DiceRolled
from domain.betrayal.battle.items.use import weapon_dice
from domain.betrayal.battle.abilities.race import reveler_dice
from domain.betrayal.battle.rules import decide, legal_commands, replay
from domain.betrayal.battle.state import BattleState, Options, Phase
from domain.kernel.errors import MalformedCommand, RuleViolation

SEEDS = range(800)
PHYSICAL_SEEDS = range(1000, 1060)
PROBES = 3  # listed commands decided at each step besides the one played


def play(seed: int, physical_dice: bool = False) -> tuple[BattleState, list[BattleEvent], int]:
    """Play seed's battle to the end on the pure rules, checking each step.
    Returns the final state, every event and the number of commands."""
    rnd = random.Random(seed)
    probe_rnd = random.Random(-seed - 1)  # probing does not change the game played
    table = random_table(rnd, physical_dice)
    ctx = table.ctx
    events = decide(None, table.start_clash(f"p{seed}"), ctx)
    state = replay(events)
    commands = 0
    while state.phase is not Phase.ENDED:
        assert commands < MAX_COMMANDS, f"seed {seed}: no end after {commands} commands ({state_summary(state)})"
        legal = legal_commands(state, ctx)
        assert legal, f"seed {seed}: dead end ({state_summary(state)})"
        for probe in probe_rnd.sample(legal, min(PROBES, len(legal))):
            _accepted(seed, state, typed(probe, probe_rnd), ctx)
        command = typed(pick(legal, rnd), rnd)
        produced = _accepted(seed, state, command, ctx)
        assert decide(state, command, ctx) == produced, f"seed {seed}: {command} decided twice differs"
        events += produced
        state = replay(produced, state)
        commands += 1
    assert legal_commands(state, ctx) == []
    assert state.outcome is not None and state.ended_reason
    assert replay(events) == state, f"seed {seed}: replay from nothing differs from the live state"
    return state, events, commands


def _accepted(seed, state, command, ctx) -> list[BattleEvent]:
    try:
        return decide(state, command, ctx)
    except (RuleViolation, MalformedCommand) as e:
        raise AssertionError(f"seed {seed}: listed {command} refused: {e!r} ({state_summary(state)})") from e


@pytest.mark.parametrize("seed", quick_first(SEEDS, 100))
def test_random_legal_play_ends_without_dead_ends_and_replays_to_the_live_state(seed: int) -> None:
    play(seed)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32))
def test_any_seed_plays_to_an_end_that_replay_reproduces(seed: int) -> None:
    play(seed)


@pytest.mark.parametrize("seed", quick_first(PHYSICAL_SEEDS, 10))
def test_physical_dice_battles_with_typed_faces_play_to_an_end(seed: int) -> None:
    _, events, _ = play(seed, physical_dice=True)
    assert all(e.typed for e in events if isinstance(e, DiceRolled))


@pytest.mark.parametrize("seed", quick_first(range(30), 10))
def test_physical_dice_offer_the_same_engages_as_rolled_dice(seed: int) -> None:
    """The option changes who rolls, not what may be engaged: at every step
    of a battle the physical twin lists the same engages, with faces to type."""
    rnd = random.Random(seed)
    table = random_table(rnd)
    ctx = table.ctx
    state = replay(decide(None, table.start_clash(f"p{seed}"), ctx))
    while state.phase is not Phase.ENDED:
        legal = legal_commands(state, ctx)
        twin = replace(state, options=Options(physical_dice=True))
        rolled = [(c.form, c.target, c.dice) for c in legal if isinstance(c, Engage)]
        typed_engages = [c for c in legal_commands(twin, ctx) if isinstance(c, Engage)]
        assert [(c.form, c.target, c.dice) for c in typed_engages] == rolled, state_summary(state)
        # an armed Nord's free enemy Combat dice (RACE-NORD) are typed after the gathered ones
        hero = state.hero(state.turn.hero) if state.turn is not None else None
        # so are a Weapon's free dice (ENGAGE-7c)
        # (an engage that rolls nothing has no faces to type: None, as a player gives it)
        assert all(
            len(c.faces or ())
            == len(c.dice) + reveler_dice(hero, c.form) + weapon_dice(ctx.pack.gear.get(c.weapon), c.overtax)
            for c in typed_engages
        )
        state = replay(decide(state, pick(legal, rnd), ctx), state)
