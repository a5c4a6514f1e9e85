"""The map of one Betrayal battle: which hexes exist, which may be entered,
which tile each belongs to, and the distances, sight and routes the rules
measure on it (MOVE-1, EMOVE-2, EMOVE-3, FORM-4 to FORM-7; facts §3).

A ``Board`` is immutable once built. It precomputes neighbour lists and tile
adjacency, and caches range searches per source hex, because random play
asks these questions in hot loops. It is pure: no I/O, no randomness.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Iterable, Mapping

from domain.kernel.hexes import DIRECTIONS, Hex, as_hex, sort_hexes

from domain.betrayal.packs.catalog import MapHex, Setup
from domain.betrayal.vocab import Marker

OBSTACLE_TILE = "#"  # obstacle tiles: impassable and part of no tile for sight
ENTRANCE_TILE = "E"
_CACHES = (Marker.COMMON_CACHE, Marker.LEGENDARY_CACHE)


class Board:
    """One battle's map. Build it with ``from_hexes`` or ``from_setup``."""

    __slots__ = (
        "_cells",
        "_passable",
        "_steps",
        "_sight_tile",
        "_touching",
        "_ranges",
        "_all",
        "_entrances",
        "_numbered",
        "_caches",
        "_specials",
    )

    def __init__(self, cells: Mapping[Hex, MapHex]) -> None:
        self._cells = dict(cells)
        self._passable = frozenset(h for h, c in self._cells.items() if not c.impassable)
        self._steps = {h: _steps_from(h, self._passable) for h in self._passable}
        self._sight_tile = {h: c.tile for h, c in self._cells.items() if c.tile != OBSTACLE_TILE}
        self._touching = _touching_tiles(self._sight_tile)
        self._ranges: dict[Hex, dict[Hex, int]] = {}
        self._all = tuple(sort_hexes(self._cells))
        self._entrances = tuple(h for h in self._all if self._cells[h].tile == ENTRANCE_TILE and h in self._passable)
        numbered = [h for h in self._all if self._cells[h].number > 0]
        self._numbered = tuple(sorted(numbered, key=lambda h: self._cells[h].number))
        self._caches = tuple((h, self._cells[h].marker) for h in self._all if self._cells[h].marker in _CACHES)
        self._specials = tuple(h for h in self._all if self._cells[h].marker == Marker.SPECIAL)

    @classmethod
    def from_hexes(cls, hexes: Iterable[MapHex]) -> Board:
        """A board of these diagram hexes. Raises ValueError on a hex listed twice."""
        cells: dict[Hex, MapHex] = {}
        for cell in hexes:
            h = as_hex(cell.hex)
            if h in cells:
                raise ValueError(f"hex {h} is listed twice")
            cells[h] = cell
        return cls(cells)

    @classmethod
    def from_setup(cls, setup: Setup) -> Board:
        """The board of a clash setup diagram (CLASH-3 to CLASH-7)."""
        return cls.from_hexes(setup.hexes)

    # --- what is where -------------------------------------------------

    def contains(self, h: Hex) -> bool:
        """True when ``h`` is on the map (impassable hexes included)."""
        return h in self._cells

    def passable(self, h: Hex) -> bool:
        """True when ``h`` is on the map and may be entered (facts: MOVE-1)."""
        return h in self._passable

    def tile_of(self, h: Hex) -> str | None:
        """The tile letter of ``h`` ("E" Entrance, "#" obstacle), None off the map."""
        cell = self._cells.get(h)
        return cell.tile if cell is not None else None

    def all_hexes(self) -> list[Hex]:
        """Every hex of the map, in reading order."""
        return list(self._all)

    def entrance_hexes(self) -> list[Hex]:
        """The passable hexes of the Entrance tile in reading order (CLASH-8)."""
        return list(self._entrances)

    def numbered_hexes(self) -> list[Hex]:
        """The numbered enemy hexes, hex 1 first (CLASH-7)."""
        return list(self._numbered)

    def cache_hexes(self) -> list[tuple[Hex, Marker]]:
        """The cache hexes and their face, in reading order (CLASH-6)."""
        return list(self._caches)

    def special_hexes(self) -> list[Hex]:
        """The special (★) hexes in reading order (DUNGEON-8d)."""
        return list(self._specials)

    # --- sight and range -------------------------------------------------

    def sees(self, a: Hex, b: Hex) -> bool:
        """Line of sight (facts: EXPLORE-1, ENEMY-5b): a and b lie on the same
        tile or on tiles that touch. A hex always sees itself. Obstacle ("#")
        hexes and hexes off the map belong to no tile and see nothing."""
        if a == b:
            return True
        ta = self._sight_tile.get(a)
        tb = self._sight_tile.get(b)
        return ta is not None and tb is not None and tb in self._touching[ta]

    def range_distance(self, a: Hex, b: Hex) -> int | None:
        """Range from a to b (facts: FORM-4, EMOVE-2): hexes counted to b,
        b included, ignoring occupants and never through impassable hexes.
        0 from a hex to itself; None when either hex is impassable or off the
        map, or when no route joins them.

        Symmetric, so whichever end already has a cached search is used."""
        if a == b:
            return 0 if a in self._passable else None
        known = self._ranges.get(a)
        if known is None:
            other = self._ranges.get(b)
            if other is not None:
                return other.get(a)
            known = self._ranges_from(a)
        return known.get(b)

    def _ranges_from(self, a: Hex) -> dict[Hex, int]:
        if a not in self._passable:
            return {}
        lengths = _lengths(a, self._steps, frozenset(), None)
        self._ranges[a] = lengths
        return lengths

    # --- movement ----------------------------------------------------------

    def reachable(self, start: Hex, occupied: Collection[Hex], limit: int | None) -> dict[Hex, int]:
        """Path lengths from ``start`` to every hex it can reach in at most
        ``limit`` steps (no limit when None), stepping only into passable hexes
        that hold no unit (MOVE-1 with facts: no unit moves through another,
        friend or foe). ``start`` is included at 0 even if it is listed in
        ``occupied``."""
        return _lengths(start, self._steps, occupied, limit)

    def path(self, start: Hex, goal: Hex, occupied: Collection[Hex]) -> list[Hex] | None:
        """A shortest route from start to goal, both included, through
        passable hexes that hold no unit (EMOVE-3); None when there is none.
        The goal must be passable and unoccupied.

        Among equal routes the first found in ``DIRECTIONS`` order is taken:
        our default for "the party picks among equal routes" (facts §3)."""
        if start == goal:
            return [start]
        if goal not in self._passable or goal in occupied:
            return None
        back: dict[Hex, Hex] = {start: start}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for nxt in self._steps.get(here, ()):
                if nxt in back or nxt in occupied:
                    continue
                back[nxt] = here
                if nxt == goal:
                    return _walk_back(back, start, goal)
                queue.append(nxt)
        return None


def _steps_from(h: Hex, passable: frozenset[Hex]) -> tuple[Hex, ...]:
    q, r = h
    return tuple(n for n in ((q + dq, r + dr) for dq, dr in DIRECTIONS) if n in passable)


def _touching_tiles(tile_of: Mapping[Hex, str]) -> dict[str, frozenset[str]]:
    """Each tile with the tiles it touches, itself included."""
    touching: dict[str, set[str]] = {t: {t} for t in tile_of.values()}
    for (q, r), tile in tile_of.items():
        for dq, dr in DIRECTIONS:
            other = tile_of.get((q + dq, r + dr))
            if other is not None and other != tile:
                touching[tile].add(other)
    return {t: frozenset(ts) for t, ts in touching.items()}


def _lengths(
    start: Hex,
    steps: Mapping[Hex, tuple[Hex, ...]],
    blocked: Collection[Hex],
    limit: int | None,
) -> dict[Hex, int]:
    seen = {start: 0}
    frontier = [start]
    d = 0
    while frontier and (limit is None or d < limit):
        d += 1
        nxt_frontier = []
        for here in frontier:
            for nxt in steps.get(here, ()):
                if nxt not in seen and nxt not in blocked:
                    seen[nxt] = d
                    nxt_frontier.append(nxt)
        frontier = nxt_frontier
    return seen


def _walk_back(back: Mapping[Hex, Hex], start: Hex, goal: Hex) -> list[Hex]:
    route = [goal]
    while route[-1] != start:
        route.append(back[route[-1]])
    return route[::-1]
