"""Positions, as much as the Reinforcement Line and contact need (RLINE,
ARRIVE, facts §3): distances in whole inches along the axis between the two
table edges, each player's measured from their own edge."""

from __future__ import annotations

from .context import RulesContext
from .state import ConquestState, Regiment
from .vocab import AbilityEffect, AbilityKind, Where


def near_edge(ctx: RulesContext, enemy: Regiment) -> int:
    """How far ``enemy``'s front rank is from its opponent's edge."""
    return ctx.scenario.depth - enemy.front


def gap(ctx: RulesContext, r: Regiment, enemy: Regiment) -> int:
    """Distance from ``r``'s front rank ahead to ``enemy``'s front rank
    (negative once ``enemy``'s front has come level with or passed ``r``'s)."""
    return near_edge(ctx, enemy) - r.front


def distance(ctx: RulesContext, r: Regiment, enemy: Regiment) -> int:
    """The distance between two opposing Regiments: from the nearer edge
    of one to the nearer edge of the other, ahead or behind, 0 where they
    overlap. Once two Regiments have marched past each other their front
    ranks face away, so the gap between front ranks (``gap``) no longer
    measures anything: their rear edges are what is nearest."""
    ahead = gap(ctx, r, enemy)
    behind = r.rear - (ctx.scenario.depth - enemy.rear)  # from the enemy's rear edge to ours
    return max(0, ahead, behind)


def reinforcement_line(state: ConquestState, ctx: RulesContext, side: int) -> int:
    """The line through the rear edge of the foremost friendly Regiment
    (RLINE-3), pushed back to the next-foremost while any part of an enemy
    Regiment is beyond it (RLINE-4); the own edge (0) with no Regiment on the
    battlefield or none left behind the line (facts §3 defaults)."""
    friends = sorted((r for r in state.regiments if r.side == side and r.where is Where.FIELD), key=lambda r: -r.front)
    enemies = [near_edge(ctx, e) for e in state.regiments if e.side != side and e.where is Where.FIELD]
    for friend in friends:
        line = max(0, friend.rear)
        if not any(point < line for point in enemies):
            return line
    return 0


def entry_possible(state: ConquestState, ctx: RulesContext, side: int) -> bool:
    """Whether a Regiment of ``side`` can enter at all (ARRIVE-5): not while an
    enemy Regiment stands on its table edge, which also pushes the line back
    to that edge, closing the side edges (facts §3 default)."""
    return not any(e.side != side and e.where is Where.FIELD and near_edge(ctx, e) <= 0 for e in state.regiments)


def on_battlefield(state: ConquestState, character_regiment: str) -> bool:
    r = state.find(character_regiment)
    return r is not None and r.where is Where.FIELD


def ability_bonus(state: ConquestState, ctx: RulesContext, side: int, effect: AbilityEffect) -> int:
    """What the Warlord's Always Active (SUP-7) and Battlefield (SUP-8)
    abilities add to ``effect``; Activated ones work through ``Side.surge``."""
    warlord = state.warlord(side)
    if warlord is None:
        return 0
    total = 0
    for ability_id in warlord.abilities:
        ability = ctx.pack.abilities[ability_id]
        if ability.effect is not effect:
            continue
        if ability.kind is AbilityKind.ALWAYS or (
            ability.kind is AbilityKind.BATTLEFIELD and on_battlefield(state, warlord.regiment)
        ):
            total += ability.amount
    return total


def march_value(state: ConquestState, ctx: RulesContext, r: Regiment) -> int:
    """The Regiment's March in inches with its Warlord's bonuses."""
    return r.march + ability_bonus(state, ctx, r.side, AbilityEffect.MARCH_BONUS) + state.sides[r.side].surge
