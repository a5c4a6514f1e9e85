"""The geometry of a growing delve map: tiles turned and shifted into place,
which Connection hexes are explorable (EXPLORATION-5), where a revealed tile
may connect (EXPLORATION-9 to EXPLORATION-9f), and the farthest-first order
caches and enemies are placed in (EXPLORATION-10a, EXPLORATION-11).

Pure and immutable; a ``DelveMap`` is built from the placed tiles and
cached by them, since every command of a delve asks for it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cached_property

import msgspec

from domain.kernel.hexes import DIRECTIONS, Hex, distance, from_offset, sort_hexes, to_offset

from domain.betrayal.battle.board import ENTRANCE_TILE, Board
from domain.betrayal.packs.catalog import DelveTile, MapHex, Pack, TileHex
from domain.betrayal.vocab import TileIcon

from .aggregate import PlacedTile

# DELVE-7 asks for room to grow; our table is this many hexes across and
# down, the Entrance in its middle (a default: a tile that would run off the
# table cannot be placed there, like one that overlaps).
TABLE = 60
ENTRANCE_ORIGIN: Hex = from_offset(TABLE // 2, TABLE // 2)


def rotate(h: Hex, turns: int) -> Hex:
    """``h`` turned ``turns`` sixths of a full turn clockwise about (0, 0)."""
    q, r = h
    for _ in range(turns % 6):
        q, r = -r, q + r
    return (q, r)


def lay(tile: DelveTile, rotation: int, origin: Hex) -> tuple[TileHex, ...]:
    """The tile's hexes on the map when turned and moved so (0, 0) is on ``origin``."""
    oq, or_ = origin
    out = []
    for cell in tile.hexes:
        q, r = rotate(cell.hex, rotation)
        out.append(TileHex((q + oq, r + or_), cell.icon))
    return tuple(out)


def on_table(h: Hex) -> bool:
    col, row = to_offset(h)
    return 0 <= col < TABLE and 0 <= row < TABLE


class Placement(msgspec.Struct, frozen=True):
    """One legal way to connect a revealed tile: its rotation and origin,
    and the Connection hex of the new tile that touches the explored hex."""

    rotation: int
    origin: Hex
    touching: Hex


class DelveMap:
    """The map of a delve as placed so far."""

    def __init__(self, pack: Pack, tiles: Sequence[PlacedTile]) -> None:
        self.pack = pack
        self.tiles = tuple(tiles)
        self.icon: dict[Hex, TileIcon] = {}
        self.tile_of: dict[Hex, str] = {}
        for placed in self.tiles:
            for cell in lay(self.content(placed), placed.rotation, placed.origin):
                self.icon[cell.hex] = cell.icon
                self.tile_of[cell.hex] = placed.key

    def content(self, placed: PlacedTile) -> DelveTile:
        if placed.key == ENTRANCE_TILE:
            assert self.pack.entrance is not None
            return self.pack.entrance
        return self.pack.tiles[placed.tile]

    @cached_property
    def board(self) -> Board:
        """The battle board of this map: every hex passable, each in its tile
        for sight (facts: sight is the same or a touching tile)."""
        return Board({h: MapHex(hex=h, tile=k) for h, k in self.tile_of.items()})

    def hexes_of(self, key: str) -> list[Hex]:
        return sort_hexes(h for h, k in self.tile_of.items() if k == key)

    def connections(self) -> list[Hex]:
        return sort_hexes(h for h, i in self.icon.items() if i is TileIcon.CONNECTION)

    # --- EXPLORATION-5 -----------------------------------------------------------

    def is_edge(self, h: Hex) -> bool:
        """EXPLORATION-5a: an edge of ``h`` is shared with no tile."""
        q, r = h
        return any((q + dq, r + dr) not in self.tile_of for dq, dr in DIRECTIONS)

    def is_explored(self, h: Hex) -> bool:
        """EXPLORATION-5b with our default (facts): only a Connection hex of
        another tile touching ``h`` makes it explored."""
        q, r = h
        mine = self.tile_of[h]
        for dq, dr in DIRECTIONS:
            n = (q + dq, r + dr)
            if self.icon.get(n) is TileIcon.CONNECTION and self.tile_of[n] != mine:
                return True
        return False

    def open_connections(self) -> list[Hex]:
        """Connection hexes that are edge hexes and not yet explored
        (EXPLORATION-5a, EXPLORATION-5b); the skyshard condition
        (EXPLORATION-5d) is the caller's."""
        return [h for h in self.connections() if self.is_edge(h) and not self.is_explored(h)]

    # --- EXPLORATION-9 ----------------------------------------------------------------

    def placements(self, tile: DelveTile, explored: Hex) -> list[Placement]:
        """Every legal placement of ``tile`` against the explored hex: a
        Connection hex of the new tile shares an edge with it (EXPLORATION-9,
        9a), any rotation (9b), no overlap and on the table; the first tile
        against the Entrance touches both Entrance Connection hexes (9e);
        where possible a new Connection hex stays explorable (9d). Placements
        that put the same icons on the same hexes are one; listed by
        rotation, then origin."""
        first = len(self.tiles) == 1
        entrance_links = [h for h in self.connections() if self.tile_of[h] == ENTRANCE_TILE]
        found: dict[frozenset[tuple[Hex, TileIcon]], Placement] = {}
        for rotation in range(6):
            turned = [TileHex(rotate(c.hex, rotation), c.icon) for c in tile.hexes]
            for link in (c for c in turned if c.icon is TileIcon.CONNECTION):
                for dq, dr in DIRECTIONS:
                    spot = (explored[0] + dq, explored[1] + dr)
                    if spot in self.tile_of:
                        continue
                    if first and not all(distance(spot, e) == 1 for e in entrance_links):
                        continue
                    origin = (spot[0] - link.hex[0], spot[1] - link.hex[1])
                    laid = [TileHex((c.hex[0] + origin[0], c.hex[1] + origin[1]), c.icon) for c in turned]
                    if any(c.hex in self.tile_of or not on_table(c.hex) for c in laid):
                        continue
                    key = frozenset((c.hex, c.icon) for c in laid)
                    candidate = Placement(rotation, origin, spot)
                    known = found.get(key)
                    if known is None or (candidate.rotation, candidate.origin) < (known.rotation, known.origin):
                        found[key] = candidate
        legal = sorted(found.values(), key=lambda p: (p.rotation, p.origin))
        keeping = [p for p in legal if self._keeps_one_open(tile, p)]
        return keeping or legal  # EXPLORATION-9d: "where possible"

    def _keeps_one_open(self, tile: DelveTile, p: Placement) -> bool:
        grown = self.with_tile(PlacedTile("?", tile.id, p.rotation, p.origin), tile)
        mine = [h for h in grown.connections() if grown.tile_of[h] == "?"]
        return any(grown.is_edge(h) and not grown.is_explored(h) for h in mine)

    def with_tile(self, placed: PlacedTile, tile: DelveTile | None = None) -> DelveMap:
        """This map with one more tile (a new map; this one is unchanged)."""
        grown = DelveMap.__new__(DelveMap)
        grown.pack = self.pack
        grown.tiles = (*self.tiles, placed)
        grown.icon = dict(self.icon)
        grown.tile_of = dict(self.tile_of)
        content = tile if tile is not None else self.content(placed)
        for cell in lay(content, placed.rotation, placed.origin):
            grown.icon[cell.hex] = cell.icon
            grown.tile_of[cell.hex] = placed.key
        return grown

    # --- EXPLORATION-10a, EXPLORATION-11 -------------------------------------------------

    def farthest_first(self, key: str, icon: TileIcon, explored: Hex) -> list[Hex]:
        """The hexes of tile ``key`` with ``icon``, farthest from the explored
        hex first; equally far ones in reading order (our default for "the
        party chooses")."""
        cells = [h for h in self.hexes_of(key) if self.icon[h] is icon]
        return sorted(cells, key=lambda h: -distance(h, explored))


_MAPS: dict[tuple[str, tuple[PlacedTile, ...]], DelveMap] = {}
_MAPS_KEPT = 512


def delve_map(pack: Pack, tiles: Iterable[PlacedTile]) -> DelveMap:
    """The map of these placed tiles (shared: maps never change)."""
    key = (pack.delve_hash, tuple(tiles))
    found = _MAPS.get(key)
    if found is None or found.pack is not pack:
        if len(_MAPS) >= _MAPS_KEPT:
            _MAPS.pop(next(iter(_MAPS)))
        found = _MAPS[key] = DelveMap(pack, key[1])
    return found


def entrance(pack: Pack) -> PlacedTile:
    """The Entrance as placed at setup (DELVE-7): unturned, mid-table."""
    assert pack.entrance is not None
    return PlacedTile(ENTRANCE_TILE, pack.entrance.id, 0, ENTRANCE_ORIGIN)
