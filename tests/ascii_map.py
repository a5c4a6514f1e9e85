"""Small maps for board and targeting tests, drawn as ASCII rows."""

from __future__ import annotations

from domain.betrayal.battle.board import Board
from domain.betrayal.packs.catalog import MapHex
from domain.kernel.hexes import Hex, from_offset


def at(col: int, row: int) -> Hex:
    """The axial hex at (col, row) of the odd-r offset grid."""
    return from_offset(col, row)


def board(*rows: str) -> Board:
    """A board from ASCII rows, odd rows shifted right: a letter is a hex of
    that tile, "#" an obstacle hex, "." no hex."""
    return Board.from_hexes(
        MapHex(hex=at(col, row), tile=ch, impassable=ch == "#")
        for row, line in enumerate(rows)
        for col, ch in enumerate(line)
        if ch != "."
    )
