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

from domain.betrayal.vocab import Priority

from ..board import Board


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


def standing(candidate: Candidate, priority: Priority) -> int:
    """What the priority icon compares, lower first (ENEMY-6a; facts):
    STRONGEST puts the most HP first, WEAKEST the fewest; an unknown icon
    acts as STRONGEST. Equal standings are a tie (ENEMY-6b, ENEMY-6g)."""
    return candidate.hp if priority == Priority.WEAKEST else -candidate.hp


def rank(candidates: Iterable[Candidate], priority: Priority) -> list[Candidate]:
    """Candidates in priority order (ENEMY-6a): by ``standing``, ties by
    ``order`` (ENEMY-6b, ENEMY-6g: our default for the party's choice)."""
    return sorted(candidates, key=lambda c: (standing(c, priority), c.order))


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
    chosen = eligible(board, pos, reach, priority, candidates)
    return chosen[:count] if count > 0 else chosen


def eligible(
    board: Board, pos: Hex, reach: int, priority: Priority, candidates: Iterable[Candidate]
) -> list[Candidate]:
    """The candidates an enemy on ``pos`` may target (in range and sight),
    in priority order: what ``designate`` takes its targets from."""
    return [c for c in rank(candidates, priority) if can_target(board, pos, c.pos, reach)]


class Destination(msgspec.Struct, frozen=True):
    """An empty hex among the nearest from which a candidate is targetable
    (EMOVE-2), with the first candidate in priority order targetable from
    it (``target``) and that candidate's place in the order (0 first):
    what EMOVE-7 compares."""

    hex: Hex
    target: Candidate
    rank: int


class Approach(msgspec.Struct, frozen=True):
    """EMOVE-10 worked out: the range to each hostile unit, in priority
    order (``ranges``); the nearest one, approached (``unit``); each hex
    the enemy may end on, the start included, in canonical hex order, with
    its range to that unit and the steps it takes (``hexes``); and the hex
    chosen (``end``: the start when no hex gets closer)."""

    ranges: tuple[tuple[Candidate, int], ...]
    unit: Candidate
    hexes: tuple[tuple[Hex, int, int], ...]
    end: Hex


class MovePlan(msgspec.Struct, frozen=True):
    """How an enemy's move was chosen (ENEMY-5, EMOVE-1 to EMOVE-10).

    ``in_range``: the first candidate, in priority order, targetable from
    the start (EMOVE-1: no move), else None. ``destinations``: the nearest
    empty hexes with a target (EMOVE-2), ``distance`` path steps away (0
    when there are none), in canonical hex order; ``goal`` the one chosen
    (EMOVE-7, EMOVE-8) and ``route`` the way there, start included
    (EMOVE-3). ``approach``: EMOVE-10, when no hex has a target. ``path``:
    the hexes stepped through this turn, start excluded."""

    in_range: Candidate | None = None
    distance: int = 0
    destinations: tuple[Destination, ...] = ()
    goal: Hex | None = None
    route: tuple[Hex, ...] = ()
    approach: Approach | None = None
    path: tuple[Hex, ...] = ()


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
    ``move_plan`` gives the same choice with what it compared.
    """
    return list(move_plan(board, pos, reach, priority, candidates, occupied, steps, hostiles=hostiles).path)


def move_plan(
    board: Board,
    pos: Hex,
    reach: int,
    priority: Priority,
    candidates: Iterable[Candidate],
    occupied: Collection[Hex],
    steps: int = 2,
    *,
    hostiles: Iterable[Candidate] | None = None,
) -> MovePlan:
    """``plan_move``'s choice, with the candidates, hexes and keys it
    compared on the way (for ``explain``)."""
    ranked = rank(candidates, priority)
    in_range = next((c for c in ranked if can_target(board, pos, c.pos, reach)), None)
    if in_range is not None:
        return MovePlan(in_range=in_range)
    others = ranked if hostiles is None else rank(hostiles, priority)
    blocked = blocked_hexes(pos, occupied, ranked, others)
    distance, destinations = _destinations(board, pos, reach, ranked, blocked)
    if not destinations:
        approach = _approach(board, pos, others, blocked, steps)
        if approach is None or approach.end == pos:
            return MovePlan(approach=approach)
        route = board.path(pos, approach.end, blocked)
        return MovePlan(approach=approach, route=tuple(route or ()), path=tuple(route[1:] if route else ()))
    # min keeps the first of equal ranks: canonical hex order (EMOVE-8)
    goal = min(destinations, key=lambda d: d.rank).hex
    route = board.path(pos, goal, blocked)
    return MovePlan(
        distance=distance,
        destinations=tuple(destinations),
        goal=goal,
        route=tuple(route or ()),
        path=tuple(route[1 : steps + 1] if route else ()),
    )


def blocked_hexes(pos: Hex, occupied: Collection[Hex], *units: Sequence[Candidate]) -> set[Hex]:
    """The hexes a mover on ``pos`` may not step into: every unit's
    (EMOVE-3), its own excepted."""
    blocked = set(occupied)
    for group in units:
        blocked.update(c.pos for c in group)
    blocked.discard(pos)
    return blocked


def _destinations(
    board: Board, pos: Hex, reach: int, ranked: Sequence[Candidate], blocked: set[Hex]
) -> tuple[int, list[Destination]]:
    """The EMOVE-2 hexes: at the nearest path length where any empty
    reachable hex has a target, each such hex with its best target (EMOVE-7,
    EMOVE-9), in canonical hex order; (0, []) when no hex has one."""
    for distance, level in enumerate(_levels(board.reachable(pos, blocked, None)), start=1):
        found = []
        for h in sort_hexes(level):
            index = _best_target_index(board, h, reach, ranked)
            if index is not None:
                found.append(Destination(h, ranked[index], index))
        if found:
            return distance, found
    return 0, []


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


def _best_target_index(board: Board, h: Hex, reach: int, ranked: Sequence[Candidate]) -> int | None:
    for i, c in enumerate(ranked):
        if can_target(board, h, c.pos, reach):
            return i
    return None


def _approach(board: Board, pos: Hex, hostiles: Sequence[Candidate], blocked: set[Hex], steps: int) -> Approach | None:
    """EMOVE-10: pick the hostile unit nearest by range (ties by priority
    rank), then end on the hex within ``steps`` that is nearest to it by
    range; ties by fewer steps, then canonical hex order. The end is the
    start when no hex gets closer than ``pos``; None when no hostile unit
    can be reached at all."""
    measured = [(c, d) for c in hostiles if (d := board.range_distance(c.pos, pos)) is not None]
    if not measured:
        return None
    target, here = min(measured, key=lambda m: m[1])
    best, best_key = pos, (here, 0)
    hexes = []
    for h, taken in _in_order(board.reachable(pos, blocked, steps)):
        d = board.range_distance(target.pos, h)
        if d is None:
            continue
        hexes.append((h, d, taken))
        if (d, taken) < best_key:
            best, best_key = h, (d, taken)
    return Approach(ranges=tuple(measured), unit=target, hexes=tuple(hexes), end=best)


def _in_order(lengths: dict[Hex, int]) -> list[tuple[Hex, int]]:
    return [(h, lengths[h]) for h in sort_hexes(lengths)]
