"""Arranging battles with companions for the companion rules tests: the
real setup commands with ``companions``, then ``scenario.Scenario`` to
adjust and play them."""

from __future__ import annotations

from scenario import Scenario, new_party

from domain.betrayal.battle.commands import EndTurn, Escort, StartClash, StartDungeon
from domain.betrayal.battle.context import context_for
from domain.betrayal.battle.evolve import replay
from domain.betrayal.battle.rules import decide
from domain.betrayal.battle.state import Phase
from domain.betrayal.packs.load import starter_pack


def escorts(*specs: str) -> tuple[Escort, ...]:
    """``chip:Controller`` specs as a setup's companions."""
    return tuple(Escort(chip=s.split(":")[0], controller=s.split(":")[1]) for s in specs)


def clash(
    companions=("fox:Ysolda",), party=("Ysolda:nord",), xp: int = 1, seed: int = 1, dungeon: str = "", **kw
) -> Scenario:
    """A clash (or the dungeon ``dungeon``) set up with ``companions``."""
    setup = dungeon or "waystone-crossing"
    ctx = context_for(starter_pack(), setup)
    kind = StartDungeon if dungeon else StartClash
    cmd = kind(
        battle_id="test", setup=setup, party=new_party(*party), xp=xp, seed=seed, companions=escorts(*companions), **kw
    )
    return Scenario(replay(decide(None, cmd, ctx)), ctx)


def at_companions(given: Scenario) -> Scenario:
    """End every adventurer's turn: the Companion Turns step (ROUND-6)."""
    while given.state.phase is Phase.ADVENTURER_TURN:
        given = given.when(EndTurn()).next()
    assert given.state.phase is Phase.COMPANION_TURN
    return given


def with_ally(given: Scenario, companion_id: str, **changes) -> Scenario:
    from msgspec.structs import replace

    allies = tuple(replace(a, **changes) if a.id == companion_id else a for a in given.state.companions)
    return given.with_state(companions=allies)
