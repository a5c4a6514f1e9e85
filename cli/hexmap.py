"""A hex map on a terminal (``domain.kernel.surface.document.HexMap``):
odd rows shifted half a hex right (odd-r), column letters above and row
numbers at the left, so every hex can be named the way commands take it
(``c4``). Tiles read without colour (piped, or with NO_COLOR): a bar stands
between two hexes of different tiles side by side."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.kernel.hexes import from_offset, label, to_offset
from domain.kernel.surface.document import HexMap

CELL = 4  # characters per hex, its separator included; odd rows shift right by half of it
TILE_EDGE = "|"  # the separator between two hexes of different tiles side by side
TILE_COLOURS = ("blue", "magenta", "yellow", "cyan", "green", "red")
OBSTACLE = "#"  # a blocked hex belongs to the tile around it: no bar beside it


def draw(block: HexMap, styles: Mapping[str, str]) -> Any:
    """The map's rows (its legend is the document's to draw), each tone in
    its style of ``styles``."""
    from rich.text import Text

    drawn = pieces(block, styles)
    if drawn is None:
        return Text("(no map)")
    out = Text()
    for text, style in drawn:
        out.append(text, style=style)
    out.no_wrap = True  # a map never folds: its rows line up or nothing does
    out.overflow = "crop"
    return out


def pieces(block: HexMap, styles: Mapping[str, str]) -> list[tuple[str, str]] | None:
    """The map's rows as pieces of text, each with its style ("" for
    none), rows parted by line breaks; None when it has no hex."""
    cells = {to_offset(c.at): c for c in block.cells}
    if not cells:
        return None
    colour = {t: TILE_COLOURS[i % len(TILE_COLOURS)] for i, t in enumerate(block.tiles)}
    cols = [c for c, _ in cells]
    rows = [r for _, r in cells]
    out: list[tuple[str, str]] = [("    ", "")]
    for col in range(min(cols), max(cols) + 1):
        out.append((f" {label(from_offset(col, 0))[:-1]:<{CELL - 1}}", "bold"))
    for row in range(min(rows), max(rows) + 1):
        out.append((f"\n{row + 1:>3} " + (" " * (CELL // 2) if row % 2 else ""), ""))
        before = None
        for col in range(min(cols), max(cols) + 1):
            cell = cells.get((col, row))
            tile = cell.tile if cell is not None else None
            edge = before not in (None, OBSTACLE) and tile not in (None, OBSTACLE) and tile != before
            out.append((TILE_EDGE if edge else " ", "dim"))
            if cell is None:
                out.append((" " * (CELL - 1), ""))
            else:
                style = colour.get(cell.tile or "", "") if cell.tone == "tile" else styles.get(cell.tone, "")
                out.append((f"{cell.text:<{CELL - 1}}", style))
            before = tile
    return out
