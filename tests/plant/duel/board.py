"""The duel's board (DUEL-1): ``width`` columns by three rows, odd rows
shifted right, as the kernel's hex labels count them (a1 top-left)."""

from __future__ import annotations

from domain.kernel.hexes import from_offset, neighbours, sort_hexes

from .state import Hex
from .vocab import ROWS


def hexes(width: int) -> list[Hex]:
    """Every hex of the board, in reading order."""
    return sort_hexes(from_offset(col, row) for row in range(ROWS) for col in range(width))


def homes(width: int) -> tuple[Hex, Hex]:
    """Where the pawns start: the middle row's two ends, a on the left."""
    return from_offset(0, 1), from_offset(width - 1, 1)


def steps(width: int, here: Hex, blocked: Hex) -> list[Hex]:
    """The hexes a pawn on ``here`` may step to: on the board, next to it,
    not ``blocked`` (the other pawn's), in reading order."""
    board = set(hexes(width))
    return sort_hexes(h for h in neighbours(here) if h in board and h != blocked)
