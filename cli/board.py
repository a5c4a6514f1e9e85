"""The hex map as text: odd rows shifted half a hex right (odd-r), column
letters above and row numbers at the left, so every hex can be named the
way commands take it (``c4``)."""

from __future__ import annotations

from rich.text import Text

from domain.betrayal.context import RulesContext
from domain.betrayal.state import BattleState
from domain.betrayal.vocab import Marker
from domain.kernel.hexes import label, to_offset

from domain.betrayal.names import marks

HERO = "bold green"
FOE = "bold red"
CELL = 4  # characters per hex; odd rows shift right by half of it
TILE_COLOURS = ("blue", "magenta", "yellow", "cyan", "green", "red")


def board(state: BattleState, ctx: RulesContext) -> Text:
    """The hex map, odd rows shifted half a hex right, with column letters
    above and row numbers at the left so any hex can be named (``c4``)."""
    b = ctx.board
    cells = {to_offset(h): h for h in b.all_hexes()}
    if not cells:
        return Text("(no map)")
    width = max(c for c, _ in cells) + 1
    height = max(r for _, r in cells) + 1
    units = _units(state)
    caches = {c.hex: c.kind for c in state.caches}
    specials = set(b.special_hexes())
    tiles = sorted({t for h in b.all_hexes() if (t := b.tile_of(h)) not in ("E", "#", None)})
    colour = {t: TILE_COLOURS[i % len(TILE_COLOURS)] for i, t in enumerate(tiles)}

    out = Text("    ")
    for col in range(width):
        out.append(f"{label((col, 0))[:-1]:^{CELL}}", style="bold")
    for row in range(height):
        out.append(f"\n{row + 1:>3} " + (" " * (CELL // 2) if row % 2 else ""))
        for col in range(width):
            h = cells.get((col, row))
            text, style = _cell(b, h, units, caches, specials, colour)
            out.append(f"{text:^{CELL}}", style=style)
    out.append("\n")
    out.append(_legend(state))
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
    return "·", colour.get(tile, "")


def _legend(state: BattleState) -> Text:
    text = Text("    ")
    text.append("e1..", style=FOE)
    text.append(" enemies  E entrance  # obstacle  $ cache  $$ legendary  * special", style="dim")
    return text
