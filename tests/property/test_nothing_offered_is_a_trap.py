"""Nothing offered is a trap (ENGAGE-7, MOVE-1): over random legal play,
every command the rules list, decided, does something beyond spending its
action. An Engage rolls dice or strikes (not only declared, tired and
ended: ENGAGE-7 lets a declared Engage roll nothing, the rules still
accept one, but it is not offered); a Move moves the adventurer; and the
open Engage of a form lets no die be chosen only when a Weapon or free
dice act without them. Seeds as ``test_random_play``."""

from __future__ import annotations

import random

import pytest
from random_battles import MAX_COMMANDS, pick, random_table, state_summary, typed
from tiers import quick_first

from domain.betrayal.battle.abilities.race import reveler_dice
from domain.betrayal.battle.commands import Engage, Move, MoveToExplore
from domain.betrayal.battle.events import EngageDeclared, EngageResolved, FatigueGained
from domain.betrayal.battle.rules import decide, legal_commands, replay
from domain.betrayal.battle.state import Phase
from domain.betrayal.vocab import BattleForm
from domain.kernel.surface import surface_of
from domain.kernel.surface.open import open_commands

SEEDS = range(300)
# what an Engage that does nothing writes: declared, its fatigue (ENGAGE-4), over
SPENT_ONLY = (EngageDeclared, FatigueGained, EngageResolved)


def _play_probing_every_offer(seed: int, physical_dice: bool = False) -> int:
    """Play seed's battle to the end, deciding every Engage and Move listed
    on the way. Returns how many were probed."""
    rnd = random.Random(seed)
    table = random_table(rnd, physical_dice)
    ctx = table.ctx
    state = replay(decide(None, table.start_clash(f"p{seed}"), ctx))
    grammar = surface_of("betrayal").grammar
    probed = commands = 0
    while state.phase is not Phase.ENDED:
        assert commands < MAX_COMMANDS, f"seed {seed}: no end ({state_summary(state)})"
        legal = legal_commands(state, ctx)
        for command in legal:
            if isinstance(command, Engage):
                produced = decide(state, typed(command, rnd), ctx)
                assert any(not isinstance(e, SPENT_ONLY) for e in produced), (
                    f"seed {seed}: {command} offered but it only spends the Engage ({state_summary(state)})"
                )
                probed += 1
            elif isinstance(command, (Move, MoveToExplore)):
                hero = state.acting.hero
                after = replay(decide(state, command, ctx), state)
                assert after.hero(hero).pos != state.hero(hero).pos, f"seed {seed}: {command} goes nowhere"
                probed += 1
        if state.turn is not None and state.phase is Phase.ADVENTURER_TURN:
            hero = state.hero(state.turn.hero)
            for o in open_commands(grammar, legal, state, ctx):
                if o.cls is not Engage or o.domains["dice"].how != "some":
                    continue
                form = BattleForm(o.example.form)
                alone = reveler_dice(hero, form) or any(v.value for v in o.domains["weapon"].values)
                assert o.domains["dice"].low >= (0 if alone else 1), f"seed {seed}: {o.text()} lets no die be rolled"
        state = replay(decide(state, typed(pick(legal, rnd), rnd), ctx), state)
        commands += 1
    return probed


@pytest.mark.parametrize("seed", quick_first(SEEDS, 25))
def test_every_engage_and_move_offered_does_something_beyond_spending_the_action(seed: int) -> None:
    assert _play_probing_every_offer(seed) >= 0


@pytest.mark.parametrize("seed", quick_first(range(1000, 1030), 5))
def test_with_physical_dice_no_engage_offered_rolls_nothing(seed: int) -> None:
    _play_probing_every_offer(seed, physical_dice=True)
