"""Tables of plain cells for a terminal, written straight when every row
fits (rich measures and wraps every cell, which at a thousand rows costs
far more than reading them), else drawn by rich as the same SIMPLE_HEAD
box, wrapping only the columns allowed to."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import cast

from rich import box
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, JustifyMethod, RenderableType
from rich.segment import Segment
from rich.style import Style
from rich.table import Table
from rich.text import Text

_ODD_SPACE = re.compile(r"[^\S ]")


def simple_table(
    columns: tuple[tuple[str, str], ...], cells: list[list[str]], width: int, wrap: tuple[str, ...] | None = None
) -> RenderableType:
    """The rich table of ``cells`` (a SIMPLE_HEAD box, no edge padding). When
    every row fits on one line within ``width``, the same lines are written
    straight away (``table_lines``): rich measures and wraps every cell,
    which at a thousand rows costs far more than reading them. ``wrap``
    names the columns that may wrap when the table is too wide (the others
    only if it still is, broken rather than cut); None lets rich wrap any."""
    lines = table_lines(columns, cells, width)
    return rich_table(columns, cells, width, wrap) if lines is None else _Lines(lines)


def rich_table(
    columns: tuple[tuple[str, str], ...], cells: list[list[str]], width: int, wrap: tuple[str, ...] | None = None
) -> Table:
    """``simple_table`` as rich lays it out, measuring and wrapping every cell."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    least = _least_widths(columns, cells, wrap) if wrap is not None else None
    if least is not None and 2 + sum(least) + 3 * (len(columns) - 1) > width:
        least = None  # too narrow even so: rich shares the width out and folds what must be
    for i, (name, justify) in enumerate(columns):
        if wrap is None:
            table.add_column(name, justify=cast(JustifyMethod, justify))
        else:
            table.add_column(
                name, justify=cast(JustifyMethod, justify), overflow="fold", min_width=least[i] if least else None
            )
    for row in cells:
        table.add_row(*(Text(c) for c in row))
    return table


def table_lines(
    columns: tuple[tuple[str, str], ...], cells: list[list[str]], width: int
) -> list[tuple[str, str]] | None:
    """The lines of ``simple_table``, each with its rich style ("" for
    none), when every row fits on one line within ``width``, as rich draws
    them; None when rich must lay the table out (a row does not fit, or a
    cell holds whitespace rich would trim or break at, or a character of no
    width). A column of printable ASCII alone, the usual one, is measured
    and padded by its length, without looking at each character."""
    if not cells:
        return None
    widths: list[int] = []
    plain: list[bool] = []  # the column is printable ASCII: a cell's width is its length
    for i, (name, _) in enumerate(columns):
        column = [row[i] for row in cells]
        every = "\n" + "\n".join(column) + "\n"
        if every.isascii() and "".join(column).isprintable():
            if " \n" in every or "\n " in every:  # a cell begins or ends with a space: rich trims it
                return None
            widths.append(max(cell_len(name), *map(len, column)))
            plain.append(True)
        else:
            if any(c != c.strip() or _ODD_SPACE.search(c) or _zero_width(c) for c in column):
                return None  # rich trims and breaks at whitespace, and drops what takes no cell
            widths.append(max(cell_len(name), *map(cell_len, column)))
            plain.append(False)
    total = 2 + sum(widths) + 3 * (len(columns) - 1)
    if total > width:
        return None
    justified = [(w, justify == "right", fast) for w, (_, justify), fast in zip(widths, columns, plain)]
    if all(plain):
        # One format for every row: str.format pads by length, which is the width here.
        row_format = " " + "   ".join(f"{{:{'>' if right else '<'}{w}}}" for w, right, _ in justified) + " "
        rows = [row_format.format(*row) for row in cells]
    else:
        rows = [_line(row, justified) for row in cells]
    return [
        (" " * total, ""),
        (_line([name for name, _ in columns], [(w, right, False) for w, right, _ in justified]), "bold"),
        (" " + "─" * (total - 2) + " ", ""),
        *((row, "") for row in rows),
        (" " * total, ""),
    ]


def _line(row: list[str], justified: list[tuple[int, bool, bool]]) -> str:
    """One row: each cell padded to its column's width (``len`` for a
    column of printable ASCII, else the cells it takes)."""
    out = []
    for c, (w, right, fast) in zip(row, justified):
        pad = " " * (w - (len(c) if fast else cell_len(c)))
        out.append(pad + c if right else c + pad)
    return " " + "   ".join(out) + " "


class _Lines:
    """Lines already laid out, each with its style, handed to rich as they
    are: a ``Text`` of a thousand rows would be split and wrapped again."""

    def __init__(self, lines: list[tuple[str, str]]) -> None:
        self.lines = lines

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Segment]:
        styles: dict[str, Style | None] = {"": None}
        newline = Segment.line()
        for text, style in self.lines:
            if style not in styles:
                styles[style] = console.get_style(style)
            yield Segment(text, styles[style])
            yield newline


def _zero_width(text: str) -> bool:
    """Whether ``text`` holds a character that takes no cell (a Hangul
    filler, a combining mark): rich's table drops or joins such characters,
    so only rich lays those cells out."""
    return not text.isascii() and any(cell_len(ch) == 0 for ch in text)


def least_width(columns: tuple[tuple[str, str], ...], cells: list[list[str]], wrap: tuple[str, ...]) -> int:
    """The narrowest ``simple_table(columns, cells, width, wrap)`` breaks
    no word at."""
    return 2 + sum(_least_widths(columns, cells, wrap)) + 3 * (len(columns) - 1)


def _least_widths(columns: tuple[tuple[str, str], ...], cells: list[list[str]], wrap: tuple[str, ...]) -> list[int]:
    """How narrow each column may get: a column in ``wrap`` down to its
    longest word ("adventurer-turn" is never broken), any other not at all."""
    return [
        max([cell_len(name)] + [cell_len(w) for row in cells for w in row[i].split(" ")])
        if name in wrap
        else max([cell_len(name)] + [cell_len(row[i]) for row in cells])
        for i, (name, _) in enumerate(columns)
    ]
