"""Players for demos, fixtures, property tests and benchmarks. Each picks
from ``legal_commands``, so whatever it does is legal; randomness comes from
a ``random.Random`` the caller seeds (never the global one)."""

from __future__ import annotations

import random

from .commands import (
    Charge,
    ChooseArrival,
    Clash,
    ConquestCommand,
    DeclareAbility,
    EndActivation,
    EndRound,
    March,
    ResolveDrawEvent,
    Surrender,
    Volley,
)
from .context import RulesContext
from .rules import legal_commands
from .state import ConquestState
from .vocab import Where


def random_choice(
    state: ConquestState, ctx: RulesContext, rnd: random.Random, surrender_chance: float = 0.001
) -> ConquestCommand:
    """Any legal command, surrendering only rarely so battles run their course."""
    legal = legal_commands(state, ctx)
    staying = [c for c in legal if not isinstance(c, Surrender)]
    if staying and rnd.random() >= surrender_chance:
        return rnd.choice(staying)
    return rnd.choice(legal)


def greedy_choice(state: ConquestState, ctx: RulesContext) -> ConquestCommand:
    """A plain, deterministic tactician: hurry reinforcements, use every
    ability and draw event, strike for the most stands, charge when it
    reaches, otherwise march as far as it may; score the VP of Regiments in
    the enemy half. It never surrenders."""
    legal = [c for c in legal_commands(state, ctx) if not isinstance(c, Surrender)]
    first = legal[0]
    if isinstance(first, ChooseArrival):
        # the heaviest choosable Regiment, since light ones come anyway
        return legal[-1]
    if isinstance(first, DeclareAbility):
        return DeclareAbility(use=True)
    if isinstance(first, ResolveDrawEvent):
        draws = [c for c in legal if isinstance(c, ResolveDrawEvent)]  # all of them: one kind is awaited at a time
        return max(draws, key=lambda c: (bool(c.event), c.inches))
    if isinstance(first, EndRound):
        return _score(state, ctx, [c for c in legal if isinstance(c, EndRound)])
    strikes = [c for c in legal if isinstance(c, (Clash, Volley))]
    if strikes:
        # declared results stand in for the table's dice: a fixed function
        # of the seed and the Round, so some battles are bloody, some not
        attacker = state.regiment(strikes[0].regiment)
        want = 0 if state.seed % 3 == 0 else (state.seed + state.round * attacker.stands) % 3
        return max(strikes, key=lambda c: (isinstance(c, Clash), -abs(c.removed - want)))
    charges = [c for c in legal if isinstance(c, Charge)]  # every legal Charge reaches (ACT-12)
    if charges:
        return min(charges, key=lambda c: (state.regiment(c.target).stands, c.target))
    marches = [c for c in legal if isinstance(c, March)]
    if marches:
        return max(marches, key=lambda c: (c.inches, c.side_edge))
    if any(isinstance(c, EndActivation) for c in legal):
        return EndActivation()
    return first


def _score(state: ConquestState, ctx: RulesContext, legal: list[EndRound]) -> EndRound:
    limit = max(c.vp[0] for c in legal)
    held = [
        min(
            limit,
            sum(
                1
                for r in state.regiments
                if r.side == side and r.where is Where.FIELD and r.front * 2 > ctx.scenario.depth
            ),
        )
        for side in (0, 1)
    ]
    return EndRound(vp=(held[0], held[1]))
