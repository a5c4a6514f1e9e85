"""Players for demos, fixtures, property tests and benchmarks. Each chooses
among ``legal_commands``, so whatever it does is legal; its randomness comes
from a ``random.Random`` the caller seeds (never the global one)."""

from __future__ import annotations

import random

from domain.kernel.hexes import Hex, distance

from domain.betrayal.delve.aggregate import DelveState

from .commands import BattleCommand, EndTurn, Engage, Explore, Move, MoveToExplore, NextRound, Resolve, Retreat
from .commands import CompanionEngage, EndCompanionTurn
from .context import RulesContext
from .rules import legal_commands
from .state import BattleState, Phase


def random_choice(
    state: BattleState, ctx: RulesContext, rnd: random.Random, retreat_chance: float = 0.03
) -> BattleCommand:
    """Any legal command, retreating only rarely so battles run their course."""
    legal = legal_commands(state, ctx)
    staying = [c for c in legal if not isinstance(c, Retreat)]
    if staying and rnd.random() >= retreat_chance:
        return rnd.choice(staying)
    return rnd.choice(legal)


def greedy_choice(state: BattleState, ctx: RulesContext, rnd: random.Random) -> BattleCommand:
    """A plain tactician: engage with the most dice at the weakest enemy in
    reach, otherwise close in on the nearest enemy, then end the turn. It
    never strikes an ally, though a Blind adventurer may (STATUS/blind)."""
    legal = legal_commands(state, ctx)
    if state.phase is Phase.END_OF_ROUND:
        return NextRound()
    if state.phase is Phase.COMPANION_TURN:  # a companion strikes an enemy it can, else ends its turn
        foe_ids = {f.id for f in state.foes}
        strike = [c for c in legal if isinstance(c, CompanionEngage) and set(c.targets) <= foe_ids]
        return strike[0] if strike else next(c for c in legal if isinstance(c, EndCompanionTurn))
    if state.phase is not Phase.ADVENTURER_TURN:
        return next((c for c in legal if isinstance(c, Resolve) and not c.skip), legal[0])
    foe_hp: dict[str | None, int] = {f.id: f.hp for f in state.foes if not f.defeated}  # keyed as Engage.target
    engages = [c for c in legal if isinstance(c, Engage) and c.target in foe_hp and c.dice]
    if engages and state.acting.engages == 0:
        return max(engages, key=lambda c: (len(c.dice), -foe_hp[c.target], rnd.random()))
    moves = [c for c in legal if isinstance(c, Move)]
    foes = [f.pos for f in state.foes if not f.defeated and f.pos is not None]
    if moves and foes and state.acting.moves == 0 and state.acting.engages == 0:
        hero = state.hero(state.acting.hero)
        here = min(distance(hero.at, f) for f in foes)
        best = min(moves, key=lambda c: (min(distance(c.to, f) for f in foes), rnd.random()))
        if min(distance(best.to, f) for f in foes) < here:
            return best
    return EndTurn()


def delve_choice(state: BattleState, ctx: RulesContext, rnd: random.Random) -> BattleCommand:
    """A delver: place a revealed tile anywhere legal, explore whenever it
    can, walk to a tile holding a skyshard, else toward the nearest hex it
    may explore, fight like ``greedy_choice`` when enemies are in reach,
    and retreat once an Uncover delve holds every skyshard (RETREAT-5) or
    nothing is left to explore."""
    legal = legal_commands(state, ctx)
    delve = ctx.delve
    if delve is None:
        return greedy_choice(state, ctx, rnd)
    if delve.placing is not None:
        return rnd.choice(legal)
    if state.phase is Phase.END_OF_ROUND:
        if delve.complete and delve.objective.value == "uncover":
            return Retreat()
        stuck = not delve.complete and not _explorable(ctx, delve) and not any(k.skyshards for k in delve.kept)
        return Retreat() if stuck or state.round >= 8 else NextRound()
    if state.phase is not Phase.ADVENTURER_TURN:
        return next((c for c in legal if isinstance(c, Resolve) and not c.skip), legal[0])
    explores = [c for c in legal if isinstance(c, (Explore, MoveToExplore))]
    if explores:
        return rnd.choice(explores)
    hero = state.hero(state.acting.hero)
    foe_hp: dict[str | None, int] = {f.id: f.hp for f in state.foes if not f.defeated}  # keyed as Engage.target
    engages = [c for c in legal if isinstance(c, Engage) and c.target in foe_hp and c.dice]
    if engages and state.acting.engages == 0 and rnd.random() < 0.7:
        return max(engages, key=lambda c: (len(c.dice), -foe_hp[c.target], rnd.random()))
    moves = [c for c in legal if isinstance(c, Move)]
    goals = [h for k in delve.kept if k.skyshards for h in ctx.map.hexes_of(k.tile)] or _explorable(ctx, delve)
    if moves and goals:
        here = min(distance(hero.at, g) for g in goals)
        best = min(moves, key=lambda c: (min(distance(c.to, g) for g in goals), rnd.random()))
        if min(distance(best.to, g) for g in goals) < here:
            return best
    return EndTurn()


def _explorable(ctx: RulesContext, delve: DelveState) -> list[Hex]:
    if delve.drawn >= delve.required or not delve.deck:
        return []
    return ctx.map.open_connections()
