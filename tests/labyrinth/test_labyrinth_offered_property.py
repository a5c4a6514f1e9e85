"""Nothing offered is a trap, over random play (issue 24): every Pursuit
skill offered, used and not fumbled, grants its user a Pursuit of the ally
named (BUFF-CHASE); every Recovery offered (a skill or an item whose every
effect heals one ally) aims at an ally below its maximum HP (HEAL-3).
Seeds, parties and options as ``test_labyrinth_random_play``."""

from __future__ import annotations

import random

import pytest
from labyrinth_harness import CTX
from test_labyrinth_random_play import ALLIES, BIG_PARTY, PARTY, _options, choose

from domain.labyrinth import events as ev
from domain.labyrinth.commands import EnemyAct, StartLabyrinth, UseItem, UseSkill, UseStandbySkill
from domain.labyrinth.rules import decide, legal_commands, replay
from domain.labyrinth.stats import stats
from domain.labyrinth.vocab import Buff, Effect, Targets

MAX_COMMANDS = 2000


def _effects(command):
    if isinstance(command, UseItem):
        return CTX.pack.items[command.item].effects
    if isinstance(command, (UseSkill, UseStandbySkill, EnemyAct)) and command.skill not in ("", "pass"):
        return CTX.pack.skills[command.skill].effects
    return ()


def _probe(seed: int) -> int:
    cmd = StartLabyrinth(
        battle_id=f"g{seed}",
        encounter=("slimes", "mixed")[seed % 2],
        party=BIG_PARTY if seed % 3 == 0 else PARTY,
        seed=seed,
        options=_options(seed),
        allies=ALLIES[: seed % 4] if seed % 4 < 3 else (),
    )
    state = replay(decide(None, cmd, CTX))
    rnd = random.Random(seed)
    probed = 0
    for _ in range(MAX_COMMANDS):
        if state.over:
            return probed
        for command in legal_commands(state, CTX):
            effects = _effects(command)
            if not effects:
                continue
            if all(e.effect is Effect.CHASE for e in effects):
                assert command.target != command.actor, f"seed {seed}: {command} pursues its own user"
                produced = decide(state, command, CTX)
                used = [e for e in produced if isinstance(e, ev.SkillUsed)]
                if used and not used[0].fumbled:
                    after = replay(produced, state).get(command.actor)
                    assert any(b.kind is Buff.CHASE and b.target == command.target for b in after.buffs), (
                        f"seed {seed}: {command} granted nothing"
                    )
                probed += 1
            elif all(e.effect is Effect.HEAL and e.targets is Targets.ALLY for e in effects):
                t = state.get(command.target)
                assert t.hp < stats(t, CTX.pack).max_hp, f"seed {seed}: {command} heals someone unhurt"
                probed += 1
        state = replay(decide(state, choose(state, CTX, rnd), CTX), state)
    raise AssertionError(f"seed {seed}: the battle did not end")


@pytest.mark.rule("BUFF-CHASE")
@pytest.mark.rule("HEAL-3")
def test_every_pursuit_and_recovery_offered_does_something():
    assert sum(_probe(seed) for seed in range(24)) > 0
