"""``setups.toml`` of a Betrayal pack: clash setups and their diagrams
(rows of hex tokens in odd-r offset), which a dungeon's setup shares
(``delve``): tiles, the Entrance, numbered enemy hexes, markers, and
a map every hex of which can be reached."""

from __future__ import annotations

from typing import Any

from domain.kernel.content import (
    REQUIRED as _REQUIRED,
    At as _At,
    choice as _choice,
    ident as _ident,
    keyed as _keyed,
    list_of as _list_of,
    record as _record,
    text as _text,
)
from domain.kernel.hexes import Hex, from_offset, path_lengths, to_offset

from domain.betrayal.vocab import Marker, Mode, Objective

from .catalog import Enemy, MapHex, Setup

ENTRANCE = "E"
OBSTACLE = "#"
MIN_ENTRANCE_HEXES = 4  # room for a full party on the Entrance (CLASH-8)
BATTLE_OBJECTIVES = (Objective.CONQUER, Objective.ELIMINATE)  # clashes and dungeons


def _battle_objective(value: object, at: _At) -> Objective:
    objective = _choice(Objective)(value, at)
    if objective not in BATTLE_OBJECTIVES:
        at.fail(f"{objective.value} is a delve objective (OBJ-4, OBJ-8); a clash or dungeon is conquer or eliminate")
    return objective


SETUP_FIELDS = {
    "name": (_text, _REQUIRED),
    "objective": (_battle_objective, _REQUIRED),
    "objective_units": (_list_of(_ident), ()),
    "rows": (_list_of(_text), _REQUIRED),
}
_MARKERS = {"c": Marker.COMMON_CACHE, "L": Marker.LEGENDARY_CACHE, "*": Marker.SPECIAL}


def clash_setups(doc: dict[str, Any], enemies: dict[str, Enemy]) -> dict[str, Setup]:
    """The clash setups of ``setups.toml``, by id."""
    at = _At("setups.toml")
    top = _record(doc, at, {"setups": (lambda v, a: _keyed(v, a, SETUP_FIELDS), _REQUIRED)})
    return {key: parse_setup(key, row, enemies, at.key("setups").key(key)) for key, row in top["setups"].items()}


def parse_setup(key: str, row: dict[str, Any], enemies: dict[str, Enemy], at: _At, mode: Mode = Mode.CLASH) -> Setup:
    """A clash or dungeon setup from its checked ``SETUP_FIELDS`` row (a
    dungeon's row has its ``encounter`` too): the diagram read and checked,
    the objective units checked against the enemies."""
    hexes = _parse_map(row["rows"], at.key("rows"), mode)
    _check_objective(row, hexes, enemies, at)
    return Setup(id=key, hexes=hexes, mode=mode, **row)


def _check_objective(row: dict[str, Any], hexes: tuple[MapHex, ...], enemies: dict[str, Enemy], at: _At) -> None:
    units = row["objective_units"]
    for i, unit in enumerate(units):
        where = at.key("objective_units").index(i)
        if unit not in enemies:
            where.fail(f"unknown enemy {unit!r}")
        if not enemies[unit].quest:
            where.fail(f"{unit!r} is not a quest unit")
    if row["objective"] is not Objective.ELIMINATE:
        if units:
            objective = row["objective"].value
            at.key("objective_units").fail(f"only an eliminate setup names objective units, not {objective}")
        return
    if not units:
        at.key("objective_units").fail("an eliminate setup must name its objective units (OBJ-3)")
    special = sum(1 for h in hexes if h.marker is Marker.SPECIAL)
    if special < len(units):
        need = len(units)
        at.key("rows").fail(f"{need} objective units need at least {need} special hexes (*), found {special}")


def _parse_map(rows: tuple[str, ...], at: _At, mode: Mode = Mode.CLASH) -> tuple[MapHex, ...]:
    """Read a clash or dungeon diagram: rows of space-separated tokens in
    odd-r offset."""
    hexes: list[MapHex] = []
    numbered: set[int] = set()
    for r, text in enumerate(rows):
        for col, token in enumerate(text.split()):
            cell = _cell(token, col, r, at.index(r))
            if cell is None:
                continue
            if cell.number:
                if cell.number in numbered:
                    at.index(r).fail(f"column {col}: enemy hex {cell.number} is numbered twice")
                numbered.add(cell.number)
            hexes.append(cell)
    if not hexes:
        at.fail("the map has no hexes")
    _check_tiles(hexes, at, mode)
    _check_numbers(numbered, at, mode)
    _check_connected(hexes, at)
    return tuple(hexes)


def _cell(token: str, col: int, row: int, at: _At) -> MapHex | None:
    if token == ".":
        return None
    tile, mark = token[0], token[1:]
    if not (tile in (ENTRANCE, OBSTACLE) or "a" <= tile <= "z"):
        at.fail(f"column {col}: token {token!r} must start with E, # or a lowercase tile letter")
    where = from_offset(col, row)
    if tile == OBSTACLE:
        if mark:
            at.fail(f"column {col}: an obstacle hex cannot carry a marker ({token!r})")
        return MapHex(hex=where, tile=OBSTACLE, impassable=True)
    if not mark:
        return MapHex(hex=where, tile=tile)
    if mark in _MARKERS:
        return MapHex(hex=where, tile=tile, marker=_MARKERS[mark])
    if not (mark.isascii() and mark.isdigit()) or mark.startswith("0"):
        at.fail(f"column {col}: unknown marker {mark!r} in {token!r} (expected a number from 1, c, L or *)")
    if tile == ENTRANCE:
        at.fail(f"column {col}: enemy hex {mark} cannot be on the Entrance tile")
    return MapHex(hex=where, tile=tile, marker=Marker.ENEMY, number=int(mark))


_MAP_RULES = {Mode.CLASH: ("CLASH-1", "CLASH-7"), Mode.DUNGEON: ("DUNGEON-1", "DUNGEON-8a")}


def _check_tiles(hexes: list[MapHex], at: _At, mode: Mode) -> None:
    tiles = {h.tile for h in hexes if not h.impassable}
    if len(tiles) < 2:
        found, rule = len(tiles), _MAP_RULES[mode][0]
        at.fail(f"a {mode.value} map needs 2 or more tiles besides obstacles ({rule}), found {found}")
    if ENTRANCE not in tiles:
        at.fail("the map has no Entrance tile (E)")
    free = sum(1 for h in hexes if h.tile == ENTRANCE and h.marker is Marker.NONE)
    if free < MIN_ENTRANCE_HEXES:
        need = MIN_ENTRANCE_HEXES
        at.fail(f"the Entrance tile needs at least {need} unmarked hexes, found {free}")


def _check_numbers(numbered: set[int], at: _At, mode: Mode) -> None:
    if not numbered:
        at.fail(f"the map has no numbered enemy hexes ({_MAP_RULES[mode][1]})")
    missing = sorted(set(range(1, len(numbered) + 1)) - set(numbered))
    if missing:
        last = len(numbered)
        at.fail(f"enemy hexes must be numbered 1..{last} without gaps; {missing[0]} is missing")


def _check_connected(hexes: list[MapHex], at: _At) -> None:
    open_hexes: set[Hex] = {h.hex for h in hexes if not h.impassable}
    start = min(open_hexes, key=lambda h: (h[1], h[0]))
    reached = path_lengths(start, open_hexes.__contains__)
    for h in hexes:
        if not h.impassable and h.hex not in reached:
            col, row = to_offset(h.hex)
            at.index(row).fail(f"column {col}: this hex cannot be reached from the rest of the map")
