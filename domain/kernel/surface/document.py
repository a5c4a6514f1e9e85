"""What a view or a query answers, as a small document any adapter can
draw: lines of text, tables and a hex map. A ruleset writes its views
(``rk status``) and listings (``rk scenarios``, an adventurer's sheet) in
these; the command line draws them with rich, and ``--json`` gives the
data instead.

Text is a plain string, or pieces each with a ``Tone``: what the words
are, never how to colour them (the adapter chooses): ``strong``, ``ally``
(a unit of the players'), ``foe``, ``dim`` (gone, defeated), ``warn`` (a
status to watch), ``good`` and ``bad`` (an outcome), ``shard`` (a
skyshard), ``open`` (explorable now).
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

Tone = str
TONES = ("", "strong", "ally", "foe", "dim", "warn", "good", "bad", "shard", "open")
Piece = tuple[str, Tone]
Words = str | tuple[Piece, ...]


def plain(words: Words) -> str:
    """The words without their tones."""
    return words if isinstance(words, str) else "".join(text for text, _ in words)


class Column(msgspec.Struct, frozen=True):
    """A table's column: its heading, how its cells align (``left``,
    ``center`` or ``right``), whether they may wrap between words (or, with
    ``terms``, only between clauses and the terms of a sum), a width they
    are never squeezed below, and a tone for all its cells."""

    name: Words
    align: str = "left"
    wrap: bool = True
    min_width: int = 0
    tone: Tone = ""
    terms: bool = False  # a sum's terms ("= XP 2 x party size 2") stay whole when it wraps
    grow: bool = False  # takes the width the other columns leave


class Table(msgspec.Struct, frozen=True):
    """Rows of cells under columns, with an optional title above; a row's
    tone (``row_tones``, by row) applies to all its cells. ``edge``: blank
    lines above and below set it apart; ``heading``: show the columns' names."""

    columns: tuple[Column, ...]
    rows: tuple[tuple[Words, ...], ...]
    title: Words = ""
    edge: bool = True
    row_tones: tuple[Tone, ...] = ()
    heading: bool = True
    listing: bool = False  # plain rows, maybe a thousand: a terminal writes them straight when they fit
    dense: bool = False  # one space between columns rather than three: wide tables fit 80 columns


class Lines(msgspec.Struct, frozen=True):
    """Paragraphs of text, each wrapping between its phrases (the lines it
    goes on onto indented by ``hang``); ``strong`` ones stand out."""

    lines: tuple[Words, ...]
    strong: bool = False
    hang: int = 2


class HexCell(msgspec.Struct, frozen=True):
    """One hex of a map at axial ``at``: the few characters it shows
    (``text``, a unit or a tile's letter), their tone, and the tile it
    belongs to (a bar parts two hexes of different tiles side by side)."""

    at: tuple[int, int]
    text: str
    tone: Tone = ""
    tile: str | None = None


class HexMap(msgspec.Struct, frozen=True):
    """A map of hexes, drawn odd rows shifted half a hex right, labelled
    with column letters above and row numbers at the left (``a1`` top-left)
    so any hex can be named; ``legend`` under it. ``tiles``: the tiles'
    keys in the order their colours are dealt."""

    cells: tuple[HexCell, ...]
    legend: Words = ""
    tiles: tuple[str, ...] = ()


Block = Table | Lines | HexMap


def table(
    columns: tuple[str | Column, ...],
    rows: Sequence[Sequence[Words]],
    title: Words = "",
    edge: bool = True,
    row_tones: tuple[Tone, ...] = (),
    listing: bool = False,
) -> Table:
    """A table from column names (or ``Column``s) and rows of cells."""
    cols = tuple(c if isinstance(c, Column) else Column(c) for c in columns)
    return Table(cols, tuple(tuple(r) for r in rows), title, edge, row_tones, listing=listing)
