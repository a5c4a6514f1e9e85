"""Documents on a terminal: the lines, tables and maps a ruleset's views
and queries answer with (``domain.kernel.surface.document``), drawn with
rich. Tones become styles here and only here; text is shown as typed
(``Output.print`` escapes control characters); lines wrap between phrases
(``Phrases``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from domain.kernel.surface.document import HexMap, Lines, Table, Words, plain

from .phrases import Phrases

# How each tone of a document looks on a terminal.
STYLES = {
    "": "", "strong": "bold", "ally": "bold green", "foe": "bold red", "dim": "dim", "warn": "yellow",
    "good": "bold green", "bad": "bold red", "shard": "bold magenta", "open": "bold black on yellow",
    "cache": "yellow", "special": "magenta", "entrance": "cyan", "note": "dim",
}


def styled(words: Words, base: str = "") -> Any:
    """``words`` as rich text, each piece in its tone's style."""
    from rich.text import Text

    if isinstance(words, str):
        return Text(words, style=base)
    out = Text(style=base)
    for text, tone in words:
        out.append(text, style=STYLES.get(tone, ""))
    return out


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

    table = RichTable(title=styled(block.title) if block.title else None, box=box.SIMPLE_HEAD, pad_edge=False,
                      show_edge=block.edge, title_justify="left", show_header=block.heading)
    for column in block.columns:
        table.add_column(styled(column.name), justify=column.align,  # type: ignore[arg-type]
                         no_wrap=not column.wrap, min_width=column.min_width or None,
                         style=STYLES.get(column.tone, ""))
    for i, row in enumerate(block.rows):
        tone = block.row_tones[i] if i < len(block.row_tones) else ""
        table.add_row(*(styled(cell) for cell in row), style=STYLES.get(tone, ""))
    return table


def text(blocks: Iterable[Any]) -> str:
    """The first line of the blocks as plain text (``rk legal``'s "nothing: ...")."""
    for block in blocks:
        if isinstance(block, Lines) and block.lines:
            return plain(block.lines[0])
    return ""
