"""The hex map as text: odd rows shifted half a hex right (odd-r), column
letters above and row numbers at the left, so every hex can be named the
way commands take it (``c4``).

A delve's map grows on a large table from its middle, far from ``a1``: it
is drawn cropped to the tiles placed so far, still labelled with the
table's own letters and numbers, each hex showing its tile (``E`` the
Entrance, ``1`` tile t1...) and what matters on it now.

Tiles read without colour (piped, or with NO_COLOR): a free hex shows its
tile's letter, and a bar stands between two hexes of different tiles side
by side."""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Group, RenderableType
from rich.text import Text

from domain.betrayal.context import RulesContext
from domain.betrayal.decision import Decision
from domain.betrayal.exploration import explorable
from domain.betrayal.names import marks
from domain.betrayal.state import BattleState
from domain.betrayal.vocab import Marker, TileIcon
from domain.kernel.hexes import Hex, from_offset, label, to_offset

from .phrases import Phrases

HERO = "bold green"
FOE = "bold red"
CELL = 4  # characters per hex, its separator included; odd rows shift right by half of it
TILE_EDGE = "|"  # the separator between two hexes of different tiles side by side
TILE_COLOURS = ("blue", "magenta", "yellow", "cyan", "green", "red")


def board(state: BattleState, ctx: RulesContext) -> RenderableType:
    """The hex map, odd rows shifted half a hex right, with column letters
    above and row numbers at the left so any hex can be named (``c4``);
    each free hex shows its tile's letter and a bar parts two hexes of
    different tiles side by side, so the tiles read without colour."""
    if ctx.delve is not None:
        return delve_board(state, ctx)
    b = ctx.board
    cells = {to_offset(h): h for h in b.all_hexes()}
    if not cells:
        return Text("(no map)")
    units = _units(state)
    caches = {c.hex: c.kind for c in state.caches}
    specials = set(b.special_hexes())
    tiles = sorted({t for h in b.all_hexes() if (t := b.tile_of(h)) not in ("E", "#", None)})
    colour = {t: TILE_COLOURS[i % len(TILE_COLOURS)] for i, t in enumerate(tiles)}
    cols = [c for c, _ in cells]
    rows = [r for _, r in cells]
    grid = _grid(cells, range(min(cols), max(cols) + 1), range(min(rows), max(rows) + 1), b.tile_of,
                 lambda h: _cell(b, h, units, caches, specials, colour))
    return Group(grid, Phrases(_legend(state), hang=0))


def _grid(cells: dict[tuple[int, int], Hex], cols: range, rows: range, tile_of: Callable[[Hex], str | None],
          cell: Callable[[Hex | None], tuple[str, str]]) -> Text:
    """The rows of a map: column letters above, row numbers at the left,
    odd rows shifted half a hex right; each hex ``CELL`` wide, a separator
    then what ``cell`` shows. The separator is ``TILE_EDGE`` between
    two hexes of different tiles side by side (an obstacle, ``#``, belongs
    to the tile around it)."""
    out = Text("    ")
    for col in cols:
        out.append(f" {label(from_offset(col, 0))[:-1]:<{CELL - 1}}", style="bold")
    for row in rows:
        out.append(f"\n{row + 1:>3} " + (" " * (CELL // 2) if row % 2 else ""))
        before = None
        for col in cols:
            h = cells.get((col, row))
            tile = tile_of(h) if h is not None else None
            edge = before not in (None, "#") and tile not in (None, "#") and tile != before
            out.append(TILE_EDGE if edge else " ", style="dim")
            text, style = cell(h)
            out.append(f"{text:<{CELL - 1}}", style=style)
            before = tile
    out.no_wrap = True  # a map never folds: its rows line up or nothing does
    out.overflow = "crop"
    return out


def _units(state: BattleState) -> dict:
    m = marks(state)
    units = {}
    for hero in state.heroes:
        if hero.pos is not None and not hero.defeated:
            units[tuple(hero.pos)] = (m[hero.id], HERO)
    for foe in state.foes:
        if foe.pos is not None and not foe.defeated:
            units[tuple(foe.pos)] = (m[foe.id], FOE)
    return units


def _cell(b, h, units, caches, specials, colour) -> tuple[str, str]:
    if h is None:
        return "", ""
    if h in units:
        return units[h]
    tile = b.tile_of(h)
    if not b.passable(h):
        return "#", "dim"
    if h in caches:
        return ("$$" if caches[h] is Marker.LEGENDARY_CACHE else "$"), "yellow"
    if h in specials:
        return "*", "magenta"
    if tile == "E":
        return "E", "cyan"
    return tile, colour.get(tile, "")


def _legend(state: BattleState) -> Text:
    text = Text("    ")
    text.append("e1..", style=FOE)
    text.append(f" enemies  E entrance  a b.. tiles ({TILE_EDGE} between two)  # obstacle  $ cache"
                "  $$ legendary  * special", style="dim")
    return text


# --- delves ----------------------------------------------------------------------

EXPLORABLE = "bold black on yellow"
SKYSHARD = "bold magenta"


def tile_tag(key: str) -> str:
    """How a delve tile is marked on its hexes: ``E`` the Entrance, ``3`` tile t3."""
    return key[1:] if key.startswith("t") else key


def open_hexes(state: BattleState, ctx: RulesContext) -> list[Hex]:
    """The hexes that may be explored now (EXPLORATION-5), as the rules list
    them; none while a revealed tile waits to be placed (EXPLORATION-9)."""
    if state is None or ctx.delve is None or ctx.delve.pending is not None:
        return []
    return explorable(Decision(state, ctx))


def delve_board(state: BattleState, ctx: RulesContext) -> RenderableType:
    """The delve's map so far, cropped to its tiles: each hex shows its
    tile's tag (``E``, ``1``, ``2``...), ``+`` on a Connection hex, ``?``
    on one explorable now, ``*`` on a tile whose skyshard waits to be
    taken; units and caches over all of it."""
    m = ctx.map
    delve = ctx.delve
    cells = {to_offset(h): h for h in m.tile_of}
    cols = [c for c, _ in cells]
    rows = [r for _, r in cells]
    left, right, top, bottom = min(cols), max(cols), min(rows), max(rows)
    units = _units(state)
    caches = {tuple(c.hex): c.kind for c in state.caches}
    open_ = set(open_hexes(state, ctx))
    exploring = tuple(delve.pending.hex) if delve.pending is not None else None
    skyshards = {k.tile for k in delve.kept if k.skyshards}
    keys = [t.key for t in m.tiles]
    colour = {k: ("cyan" if k == "E" else TILE_COLOURS[i % len(TILE_COLOURS)]) for i, k in enumerate(keys)}

    grid = _grid(cells, range(left, right + 1), range(top, bottom + 1), m.tile_of.get,
                 lambda h: _delve_cell(m, h, units, caches, open_, exploring, skyshards, colour))
    return Group(grid, Phrases(_delve_legend(), hang=0))


def _delve_cell(m, h, units, caches, open_, exploring, skyshards, colour) -> tuple[str, str]:
    if h is None:
        return "", ""
    if h in units:
        return units[h]
    if h in caches:
        return ("$$" if caches[h] is Marker.LEGENDARY_CACHE else "$"), "yellow"
    key = m.tile_of[h]
    tag = tile_tag(key)
    if h == exploring:
        return tag + "!", EXPLORABLE
    if h in open_:
        return tag + "?", EXPLORABLE
    if m.icon.get(h) is TileIcon.CONNECTION:
        return tag + "+", colour[key]
    if key in skyshards:
        return tag + "*", SKYSHARD
    return tag, colour[key]


def _delve_legend() -> Text:
    text = Text("    ")
    text.append("e1..", style=FOE)
    text.append(f" enemies  E 1 2.. tiles ({TILE_EDGE} between two)  + connection  ", style="dim")
    text.append("?", style=EXPLORABLE)
    text.append(" explorable  ", style="dim")
    text.append("!", style=EXPLORABLE)
    text.append(" exploring  $ $$ caches  ", style="dim")
    text.append("*", style=SKYSHARD)
    text.append(" skyshard", style="dim")
    return text
