"""Players for demos, fixtures, property tests and benchmarks. Each chooses
among ``legal_commands``, so whatever it does is legal; its randomness comes
from a ``random.Random`` the caller seeds (never the global one)."""

from __future__ import annotations

import random

from domain.kernel.hexes import distance

from .commands import BattleCommand, EndTurn, Engage, Move, NextRound, Resolve, Retreat
from .context import RulesContext
from .rules import legal_commands
from .state import BattleState, Phase


def random_choice(state: BattleState, ctx: RulesContext, rnd: random.Random,
                  retreat_chance: float = 0.03) -> BattleCommand:
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
    if state.phase is not Phase.ADVENTURER_TURN:
        return next((c for c in legal if isinstance(c, Resolve) and not c.skip), legal[0])
    foe_hp = {f.id: f.hp for f in state.foes if not f.defeated}
    engages = [c for c in legal if isinstance(c, Engage) and c.target in foe_hp and c.dice]
    if engages and state.turn.engages == 0:
        return max(engages, key=lambda c: (len(c.dice), -foe_hp[c.target], rnd.random()))
    moves = [c for c in legal if isinstance(c, Move)]
    foes = [f.pos for f in state.foes if not f.defeated and f.pos is not None]
    if moves and foes and state.turn.moves == 0 and state.turn.engages == 0:
        hero = state.hero(state.turn.hero)
        here = min(distance(hero.pos, f) for f in foes)
        best = min(moves, key=lambda c: (min(distance(c.to, f) for f in foes), rnd.random()))
        if min(distance(best.to, f) for f in foes) < here:
            return best
    return EndTurn()
