"""Whom an enemy attacks and where it moves (ENEMY-5, ENEMY-6a/b/f/g,
EMOVE-1 to EMOVE-10).

Pure functions over a ``Board`` and ``Candidate`` units. The caller leaves
out defeated units and applies status effects (Stealth, Blind) before
calling, so every candidate given here may be targeted when in range and
sight.

Where the rules say "the party decides" (ENEMY-6b, ENEMY-6g, EMOVE-8) our
default is deterministic: equal-priority units go by ``Candidate.order``
(lower first; the caller passes turn order), equal destinations by the
canonical hex order of ``sort_hexes``, equal routes by ``Board.path``.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

import msgspec

from domain.kernel.hexes import Hex, sort_hexes

from .board import Board
from .vocab import Priority


class Candidate(msgspec.Struct, frozen=True):
    """A unit an enemy may attack or approach. ``hp`` excludes bonus HP
    (facts: ENEMY-6a); ``order`` breaks priority ties, lower first."""

    id: str
    pos: Hex
    hp: int
    order: int


def can_target(board: Board, frm: Hex, to: Hex, reach: int) -> bool:
    """True when a unit on ``frm`` with range ``reach`` may target the unit on
    ``to`` (ENEMY-6a): in line of sight and at most ``reach`` hexes away.
    A unit never targets its own hex."""
    if frm == to or not board.sees(frm, to):
        return False
    # Measured from the target: range is symmetric, and the target's search
    # is then cached for every hex the mover tries.
    d = board.range_distance(to, frm)
    return d is not None and d <= reach


def rank(candidates: Iterable[Candidate], priority: Priority) -> list[Candidate]:
    """Candidates in priority order (ENEMY-6a; facts): STRONGEST puts the
    most HP first, WEAKEST the fewest; an unknown icon acts as STRONGEST.
    Ties go by ``order`` (ENEMY-6b, ENEMY-6g: our default for the party's
    choice)."""
    if priority == Priority.WEAKEST:
        return sorted(candidates, key=lambda c: (c.hp, c.order))
    return sorted(candidates, key=lambda c: (-c.hp, c.order))


def designate(
    board: Board,
    pos: Hex,
    reach: int,
    priority: Priority,
    count: int,
    candidates: Iterable[Candidate],
) -> list[Candidate]:
    """The targets an enemy on ``pos`` designates (ENEMY-6a): targetable
    candidates in priority order, at most ``count`` of them (0 means all).
    The list is also the order damage resolves in (ENEMY-6f, ENEMY-6g)."""
    chosen = [c for c in rank(candidates, priority) if can_target(board, pos, c.pos, reach)]
    return chosen[:count] if count > 0 else chosen


def plan_move(
    board: Board,
    pos: Hex,
    reach: int,
    priority: Priority,
    candidates: Iterable[Candidate],
    occupied: Collection[Hex],
    steps: int = 2,
    *,
    hostiles: Iterable[Candidate] | None = None,
) -> list[Hex]:
    """The hexes an enemy on ``pos`` steps through this turn, start excluded;
    an empty list when it does not move (ENEMY-5, EMOVE-1 to EMOVE-10).

    - A candidate already targetable: no move (EMOVE-1, ENEMY-5a).
    - Otherwise head for the nearest empty hex, by path length through empty
      hexes, from which a candidate is targetable (EMOVE-2, EMOVE-3). Among
      equally near ones take the hex whose best target ranks highest, never
      counting targets (EMOVE-7, EMOVE-9); then canonical hex order
      (EMOVE-8, our default).
    - Move at most ``steps`` hexes along a shortest route (EMOVE-4) and stop
      on arrival (EMOVE-5, EMOVE-6).
    - With no such hex, approach the nearest hostile unit (EMOVE-10; see
      ``_approach``). ``hostiles`` are the units to approach, targetable or
      not; they default to ``candidates``.

    ``occupied`` holds every unit's hex; the mover's own does not block it.
    """
    ranked = rank(candidates, priority)
    if any(can_target(board, pos, c.pos, reach) for c in ranked):
        return []
    others = ranked if hostiles is None else rank(hostiles, priority)
    blocked = _blocked(pos, occupied, ranked, others)
    goal = _destination(board, pos, reach, ranked, blocked)
    if goal is None:
        return _approach(board, pos, others, blocked, steps)
    route = board.path(pos, goal, blocked)
    return route[1 : steps + 1] if route else []


def _blocked(
    pos: Hex, occupied: Collection[Hex], *units: Sequence[Candidate]
) -> set[Hex]:
    blocked = set(occupied)
    for group in units:
        blocked.update(c.pos for c in group)
    blocked.discard(pos)
    return blocked


def _destination(
    board: Board, pos: Hex, reach: int, ranked: Sequence[Candidate], blocked: set[Hex]
) -> Hex | None:
    """The EMOVE-2/7/8/9 destination, or None when no empty reachable hex
    has a target."""
    for level in _levels(board.reachable(pos, blocked, None)):
        best: Hex | None = None
        best_index = len(ranked)
        for h in sort_hexes(level):
            index = _best_target_index(board, h, reach, ranked)
            if index is not None and index < best_index:
                best, best_index = h, index
        if best is not None:
            return best
    return None


def _levels(lengths: dict[Hex, int]) -> list[list[Hex]]:
    """Hexes grouped by path length, nearest first, the start left out."""
    levels: list[list[Hex]] = []
    for h, d in lengths.items():
        if d == 0:
            continue
        while len(levels) < d:
            levels.append([])
        levels[d - 1].append(h)
    return levels


def _best_target_index(
    board: Board, h: Hex, reach: int, ranked: Sequence[Candidate]
) -> int | None:
    for i, c in enumerate(ranked):
        if can_target(board, h, c.pos, reach):
            return i
    return None


def _approach(
    board: Board, pos: Hex, hostiles: Sequence[Candidate], blocked: set[Hex], steps: int
) -> list[Hex]:
    """EMOVE-10: pick the hostile unit nearest by range (ties by priority
    rank), then end on the hex within ``steps`` that is nearest to it by
    range; ties by fewer steps, then canonical hex order. Stay put when no
    hex gets closer than ``pos``."""
    measured = [(d, c) for c in hostiles if (d := board.range_distance(c.pos, pos)) is not None]
    if not measured:
        return []
    here, target = min(measured, key=lambda m: m[0])
    best, best_key = pos, (here, 0)
    for h, taken in _in_order(board.reachable(pos, blocked, steps)):
        d = board.range_distance(target.pos, h)
        if d is not None and (d, taken) < best_key:
            best, best_key = h, (d, taken)
    if best == pos:
        return []
    route = board.path(pos, best, blocked)
    return route[1:] if route else []


def _in_order(lengths: dict[Hex, int]) -> list[tuple[Hex, int]]:
    return [(h, lengths[h]) for h in sort_hexes(lengths)]
