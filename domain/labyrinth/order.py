"""The Main-phase acting order (ORDER-1 .. ORDER-3, facts: Fills MAIN-1):
fastest actions first, then [Speed] highest first, then delayed actions;
inside each group ties go PC -> allied NPC -> Enemy, then roster order;
[Speed] below 0 counts 0.

Two special cases of the facts' section 8 share a place in the order: the
Enemies of one link group act together, one after another, at the slowest
one's [Speed]; a token acts at its placer's [Speed], right after it."""

from __future__ import annotations

from .catalog import Pack
from .state import Combatant, LabyrinthState
from .stats import stats
from .vocab import Side, Speed

_SIDE_RANK = {Side.PC: 0, Side.NPC: 1, Side.ENEMY: 2}
_GROUP_RANK = {Speed.FASTEST: 0, Speed.NORMAL: 1, Speed.DELAYED: 2}

Key = tuple[int, int, int, int, int]


def slot(state: LabyrinthState, pack: Pack, c: Combatant, depth: int = 0) -> tuple[int, int, int]:
    """Where ``c`` stands in the [Speed] order: (speed, side rank, anchor).
    A link group shares its slowest living member's [Speed] and its first
    member's roster place; a token takes its placer's slot."""
    placer = state.find(c.placer) if c.placer else None
    if placer is not None and depth < len(state.combatants):
        return slot(state, pack, placer, depth + 1)
    if c.link:
        group = [m for m in state.combatants if m.link == c.link and m.pc_side == c.pc_side]
        living = [m for m in group if not m.down] or [c]
        return (min(stats(m, pack).speed for m in living), _SIDE_RANK[c.side], min(m.roster for m in group))
    return (stats(c, pack).speed, _SIDE_RANK[c.side], c.roster)


def order_key(state: LabyrinthState, pack: Pack, c: Combatant, group: Speed = Speed.NORMAL) -> Key:
    """Sort key: group, [Speed] descending (stats clamp it at 0), side, slot, roster."""
    speed, side, anchor = slot(state, pack, c)
    return (_GROUP_RANK[group], -speed, side, anchor, c.roster)


def acting_order(state: LabyrinthState, pack: Pack) -> tuple[str, ...]:
    """Everyone still in the fight, in [Speed] order."""
    alive = [c for c in state.combatants if not c.down]
    return tuple(c.id for c in sorted(alive, key=lambda c: order_key(state, pack, c)))


def in_group(state: LabyrinthState, pack: Pack, ids, group: Speed) -> tuple[str, ...]:
    """``ids`` sorted as members of ``group`` (the fastest or the delayed
    actions: ties inside a group as ORDER-2)."""
    return tuple(sorted(ids, key=lambda cid: order_key(state, pack, state.get(cid), group)))
