"""Hex geometry on axial coordinates (q, r), pointy-top.

Maps are written in content as rows with odd rows shifted right ("odd-r"
offset); ``from_offset`` turns (col, row) into axial.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Sequence

from domain.kernel.errors import MalformedCommand

Hex = tuple[int, int]

DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def as_hex(h: Sequence[int]) -> Hex:
    """``h`` as a ``Hex`` tuple (a command built in code may hold a list);
    MalformedCommand when it is not two coordinates."""
    if len(h) != 2:
        raise MalformedCommand(f"{tuple(h)!r} is not a hex: a hex has two coordinates")
    return (h[0], h[1])


def from_offset(col: int, row: int) -> Hex:
    """Axial coordinates of the cell at (col, row) of an odd-r offset grid."""
    return (col - (row - (row & 1)) // 2, row)


def to_offset(h: Hex) -> tuple[int, int]:
    """(col, row) of an axial hex on an odd-r offset grid."""
    q, r = h
    return (q + (r - (r & 1)) // 2, r)


def neighbours(h: Hex) -> list[Hex]:
    """The six hexes sharing an edge with ``h``."""
    q, r = h
    return [(q + dq, r + dr) for dq, dr in DIRECTIONS]


def distance(a: Hex, b: Hex) -> int:
    """Hex count from a to b on an open grid."""
    dq = a[0] - b[0]
    dr = a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def adjacent(a: Hex, b: Hex) -> bool:
    """True when a and b share an edge."""
    return distance(a, b) == 1


def path_lengths(
    start: Hex,
    passable: Callable[[Hex], bool],
    limit: int | None = None,
) -> dict[Hex, int]:
    """Breadth-first path lengths from ``start`` over hexes ``passable`` says
    may be stepped into. ``start`` itself is always included at 0."""
    seen = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        d = seen[here]
        if limit is not None and d >= limit:
            continue
        for nxt in neighbours(here):
            if nxt not in seen and passable(nxt):
                seen[nxt] = d + 1
                queue.append(nxt)
    return seen


def sort_hexes(hexes: Iterable[Hex]) -> list[Hex]:
    """Hexes in reading order (row, then column): the canonical tie-break."""
    return sorted(hexes, key=lambda h: (h[1], to_offset(h)[0]))


def label(h: Hex) -> str:
    """The name people use for ``h``: its column letter and row number on the
    odd-r offset grid, ``a1`` top-left. Columns past ``z`` go on ``aa``,
    ``ab``... as spreadsheets do.

    >>> label((0, 0)), label(from_offset(2, 3))
    ('a1', 'c4')
    """
    col, row = to_offset(h)
    if col < 0 or row < 0:
        raise ValueError(f"hex {h} lies left of or above a1 and has no label")
    letters = ""
    col += 1
    while col:
        col, rest = divmod(col - 1, 26)
        letters = chr(ord("a") + rest) + letters
    return f"{letters}{row + 1}"


def name(h: Hex) -> str:
    """``label(h)`` where it has one, else its axial coordinates: for
    messages about hexes that may lie off any map."""
    try:
        return label(h)
    except ValueError:
        return f"({h[0]}, {h[1]})"


# The longest label parsed: far beyond any map (zz9999), short enough that a
# typed label never becomes a huge number.
LABEL_LETTERS, LABEL_DIGITS = 2, 4


def parse_label(text: str) -> Hex:
    """The hex a label such as ``c4`` names (case and spaces ignored); the
    inverse of ``label``. Raises MalformedCommand for anything else.

    >>> parse_label("C4") == from_offset(2, 3)
    True
    """
    cleaned = text.strip().lower()
    split = len(cleaned) - len(cleaned.lstrip("abcdefghijklmnopqrstuvwxyz"))
    letters, digits = cleaned[:split], cleaned[split:]
    if (
        not letters
        or len(letters) > LABEL_LETTERS
        or not digits.isascii()
        or not digits.isdigit()
        or len(digits) > LABEL_DIGITS
        or int(digits) < 1
    ):
        shown = repr(text if len(text) <= 20 else text[:12] + "...")
        raise MalformedCommand(
            f"{shown} is not a hex label: write a column letter and a row number, like c4 (a1 is top-left)"
        )
    col = 0
    for ch in letters:
        col = col * 26 + (ord(ch) - ord("a") + 1)
    return from_offset(col - 1, int(digits) - 1)
