"""A document's ``Table`` written straight (``cli.straight``): the lines
rich's ``Table`` draws for it in ``cli.document`` (a SIMPLE_HEAD box, no
edge padding), when every column is as wide as its widest line and all
of them fit the screen. Then rich wraps nothing: each cell's lines are
justified in its column, padded, styled with its column's and its row's
style, and joined by a space; a header is set over a rule. Anything else
(a title, a listing, a cell of terms, a table too wide) is rich's."""

from __future__ import annotations

from domain.kernel.surface.document import Table

from . import ansi
from .styled import Cannot, Line, Styled, check, segments, style, words
from .tones import STYLES

BOLD = ansi.parse("bold")  # rich's "table.header"
JUSTIFY = ("left", "center", "right")


def table(block: Table, width: int) -> list[Line]:
    """The table's lines at ``width`` (``Cannot`` unless it fits as it is)."""
    if block.title or block.listing or any(c.terms for c in block.columns):
        raise Cannot("a title, a listing or terms")
    count = len(block.columns)
    if not count or not (block.heading or block.rows):
        raise Cannot("no columns, or no cell to measure")  # rich gives such a column all the width
    pad = 0 if block.dense else 1
    # pad_edge=False: no padding left of the first column, nor right of the last.
    pads = [(0 if i == 0 else pad, 0 if i == count - 1 else pad) for i in range(count)]
    heading = [words(c.name) for c in block.columns] if block.heading else None
    rows = [[words(cell) for cell in row] for row in block.rows]
    if any(len(row) != count for row in rows):
        raise Cannot("a row of another length")
    for text in [*(heading or []), *(cell for row in rows for cell in row)]:
        check(text.plain)
    widths = []
    for i, column in enumerate(block.columns):
        if column.align not in JUSTIFY:
            raise Cannot(column.align)
        texts = ([heading[i]] if heading else []) + [row[i] for row in rows]
        widest = max((len(line) for t in texts for line in t.plain.splitlines()), default=0)
        w = widest + sum(pads[i])
        if column.min_width:
            w = max(w, column.min_width + sum(pads[i]))
        w = w or 1
        if w - sum(pads[i]) < 1:
            raise Cannot("a column with no room")
        widths.append(w)
    edge = 2 if block.edge else 0
    if sum(widths) > width - edge - (count - 1):
        raise Cannot("a table wider than the screen")  # rich shrinks and wraps columns
    styles = [style(STYLES.get(c.tone, "")) if STYLES.get(c.tone, "") else None for c in block.columns]
    out: list[Line] = []
    total = sum(widths) + count - 1 + edge
    if block.edge:
        out.append([(" " * total, ansi.NONE)])
    if heading is not None:
        out += _row(block, heading, widths, pads, [BOLD] * count, None, top=False)
        rule = "─" * (total - edge)
        out.append([(f" {rule} " if block.edge else rule, ansi.NONE)])
    for index, row in enumerate(rows):
        tone = block.row_tones[index] if index < len(block.row_tones) else ""
        row_style = style(STYLES[tone]) if STYLES.get(tone, "") else None
        out += _row(block, row, widths, pads, styles, row_style, top=True)
    if block.edge:
        out.append([(" " * total, ansi.NONE)])
    return out


def _row(
    block: Table,
    cells: list[Styled],
    widths: list[int],
    pads: list[tuple[int, int]],
    styles: list[ansi.Style | None],
    row_style: ansi.Style | None,
    top: bool,
) -> list[Line]:
    """One row's lines: each cell's lines set in its column (at the top of
    the row, or for the header at its bottom), in its style and the row's."""
    drawn = []
    for cell, w, (left, right), look, column in zip(cells, widths, pads, styles, block.columns):
        under = _under(look, row_style)
        drawn.append(_cell(cell, w, left, right, column.align, under))
    height = max(len(lines) for lines in drawn)
    # The divider between cells is a space in the row's background (rich's SIMPLE_HEAD).
    divider = (" ", ansi.background(row_style) if row_style is not None else ansi.NONE)
    out = []
    for n in range(height):
        line: Line = [(" ", ansi.NONE)] if block.edge else []
        for i, (lines, w, look) in enumerate(zip(drawn, widths, styles)):
            missing = height - len(lines)
            if (n < len(lines)) if top else (n >= missing):
                line += lines[n if top else n - missing]
            else:
                line.append((" " * w, _under(look, row_style) or ansi.NONE))
            if i < len(drawn) - 1:
                line.append(divider)
        if block.edge:
            line.append((" ", ansi.NONE))
        out.append(line)
    return out


def _under(look: ansi.Style | None, row_style: ansi.Style | None) -> ansi.Style | None:
    if look is None:
        return row_style
    return look if row_style is None else ansi.add(look, row_style)


def _cell(text: Styled, width: int, left: int, right: int, align: str, under: ansi.Style | None) -> list[Line]:
    """A cell's lines: each justified in the room its padding leaves, the
    padding around it, all in ``under`` (its column's and row's style)."""
    room = width - left - right
    out = []
    for line in text.lines():
        plain, spans = line.plain, line.spans
        if align != "left":  # rich strips what ends a line before setting it right or centred
            plain = plain.rstrip()
            spans = [(a, min(b, len(plain)), s) for a, b, s in spans if a < len(plain)]
            before = (room - len(plain)) // 2 if align == "center" else room - len(plain)
            spans = [(a + before, b + before, s) for a, b, s in spans]
            plain = " " * before + plain
        plain += " " * (room - len(plain))
        cut = segments(Styled(plain, spans, line.base), under)
        if left:
            cut.insert(0, (" " * left, under or ansi.NONE))
        if right:
            cut.append((" " * right, under or ansi.NONE))
        out.append(cut)
    return out
