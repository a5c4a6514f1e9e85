"""Documents on a terminal: the lines, tables and maps a ruleset's views
and queries answer with (``domain.kernel.surface.document``), drawn with
rich. Tones become styles here and only here; text is shown as typed
(``Output.print`` escapes control characters); lines wrap between phrases
(``Phrases``)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from domain.kernel.surface.document import HexMap, Lines, Table, plain

from .phrases import Phrases
from .tones import STYLES, styled


def renderables(blocks: Iterable[Any]) -> list[Any]:
    """Each block as a rich renderable (a string passes as prose)."""
    return [_renderable(block) for block in blocks]


def _renderable(block: Any) -> Any:
    if isinstance(block, Table):
        return _table(block)
    if isinstance(block, Lines):
        from rich.text import Text

        text = Text(style="bold" if block.strong else "")
        for i, line in enumerate(block.lines):
            if i:
                text.append("\n")
            text.append_text(styled(line))
        return Phrases(text, hang=block.hang)
    if isinstance(block, HexMap):
        from rich.console import Group

        from .hexmap import draw

        grid = draw(block, STYLES)
        return Group(grid, Phrases(styled(block.legend), hang=0)) if block.legend else grid
    return block


def _table(block: Table) -> Any:
    from rich import box
    from rich.table import Table as RichTable

    if block.listing and all(isinstance(c, str) for row in block.rows for c in row):
        return _Listing(block)

    table = RichTable(
        title=styled(block.title) if block.title else None,
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        show_edge=block.edge,
        title_justify="left",
        show_header=block.heading,
        padding=0 if block.dense else (0, 1),
    )
    for column in block.columns:
        table.add_column(
            styled(column.name),
            justify=column.align,  # type: ignore[arg-type]
            no_wrap=not column.wrap,
            min_width=column.min_width or None,
            style=STYLES.get(column.tone, ""),
            ratio=1 if column.grow else None,
            overflow="fold" if column.terms or column.grow else "ellipsis",
        )
    for i, row in enumerate(block.rows):
        tone = block.row_tones[i] if i < len(block.row_tones) else ""
        table.add_row(
            *(
                Terms(cell) if column.terms and isinstance(cell, str) else styled(cell)
                for cell, column in zip(row, block.columns)
            ),
            style=STYLES.get(tone, ""),
        )
    return table


class _Listing:
    """A listing's rows, written straight at the width they are given when
    they fit (``cli.tables.simple_table``), else wrapping the columns that
    may wrap."""

    def __init__(self, block: Table) -> None:
        self.block = block

    def __rich_console__(self, console: Any, options: Any) -> Any:
        from .tables import simple_table

        columns = tuple((plain(c.name), c.align) for c in self.block.columns)
        wrap: tuple[str, ...] = tuple(plain(c.name) for c in self.block.columns if c.wrap)
        yield simple_table(columns, [[plain(w) for w in r] for r in self.block.rows], options.max_width, wrap=wrap)


# Where a cell of terms may break: after a clause's mark, or before an
# operator, so that a term ("party size 2", "level 1") stays on one line.
_TERM_GAP = re.compile(r"(?<=[,;:]) +(?=\S)| +(?=[=x+-] )")


class Terms:
    """A rich renderable: a cell wrapped between its clauses and the terms
    of its sum ("EP = XP 2 x party size 2 ⏎ = 4" never splits "size 2"); a
    clause wider than the cell breaks between its words."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pieces = _TERM_GAP.split(text)

    def __rich_measure__(self, console: Any, options: Any) -> Any:
        from rich.cells import cell_len
        from rich.measure import Measurement

        longest_word = max((cell_len(w) for w in self.text.split()), default=0)
        return Measurement(min(longest_word, options.max_width), min(cell_len(self.text), options.max_width))

    def __rich_console__(self, console: Any, options: Any) -> Any:
        from rich.text import Text

        yield Text("\n".join(self.lines(options.max_width)), overflow="fold")

    def lines(self, width: int) -> list[str]:
        """The cell's lines at ``width`` columns."""
        from rich.cells import cell_len

        lines: list[str] = []
        for phrase in self.pieces:
            words = phrase.split(" ") if cell_len(phrase) > width else [phrase]
            for i, word in enumerate(words):
                # a phrase too wide for a line starts one of its own
                joins = lines and (i > 0 or len(words) == 1)
                if joins and cell_len(lines[-1]) + 1 + cell_len(word) <= width:
                    lines[-1] += " " + word
                else:
                    lines.append(word)
        return lines or [""]


def text(blocks: Iterable[Any]) -> str:
    """The first line of the blocks as plain text (``rk legal``'s "nothing: ...")."""
    for block in blocks:
        if isinstance(block, Lines) and block.lines:
            return plain(block.lines[0])
    return ""
