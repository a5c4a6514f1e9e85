"""A document written straight: the lines rich would write for prose, a
view's lines, its hex map and its tables, byte for byte, built without
importing rich, when everything fits the width as it is.

rich lays out every block by measuring, wrapping and styling it again,
which for `rk status` costs more than the rest of the command (importing
rich's console, text and table is about a sixth of its instructions).
When nothing has to be wrapped or cut by rich (each line of prose, as
``cli.phrases`` breaks it, fits; a table's cells fit their columns
without shrinking any; the map fits) and every character is printable and
one cell wide (``cli.cells``), the lines are known without it; anything
else raises ``Cannot`` and rich draws the whole output as before.
``tests/cli/test_straight.py`` compares both over generated documents and
real statuses.

A line is a list of segments, (text, style): rich writes one escape
sequence per segment, cut wherever a style span begins or ends, so the
segments here are cut exactly where rich's are.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from domain.kernel.surface.document import HexMap, Lines, Table

from . import ansi
from .phrases import phrase_lines
from .straight_table import table
from .styled import Cannot, Line, Styled, check, clip, segments, style, words
from .tones import STYLES

# --- prose and a view's lines ---------------------------------------------------------------


def phrases(text: Styled, width: int, hang: int = 2) -> list[Line]:
    """``cli.phrases.Phrases(text, hang)`` as rich prints it at ``width``:
    each line broken between phrases; every line it makes must fit."""
    check(text.plain)
    out: list[Line] = []
    for line in text.lines():
        for indent, a, b in phrase_lines(line.plain, width, hang):
            if indent + b - a > width:
                raise Cannot("a phrase wider than the screen")  # rich folds it
            spans = [(indent, indent + b - a, text.base)] if text.base is not None and b > a else []
            spans += clip(line.spans, a, b, indent)
            out.append(segments(Styled(" " * indent + line.plain[a:b], spans, text.base)))
    return out


def prose(thing: str, width: int) -> list[Line]:
    """A plain string as ``Output.print`` prints it (``Phrases``, hang 2)."""
    return phrases(Styled(thing), width)


def lines_block(block: Lines, width: int) -> list[Line]:
    """A document's ``Lines`` as ``cli.document`` draws them."""
    text = Styled(base=style("bold") if block.strong else None)
    for i, line in enumerate(block.lines):
        if i:
            text.plain += "\n"
        piece = words(line)
        text.spans += [(a + len(text.plain), b + len(text.plain), s) for a, b, s in piece.spans]
        text.plain += piece.plain
    return phrases(text, width, block.hang)


def hex_map(block: HexMap, width: int) -> list[Line]:
    """The map as ``cli.hexmap.draw`` draws it (never wrapped: it must
    fit), then its legend as prose hung by nothing."""
    from .hexmap import pieces

    drawn = pieces(block, STYLES)
    if drawn is None:
        out = phrases(Styled("(no map)"), width)
    else:
        grid = Styled()
        for text, definition in drawn:
            grid.append(text, definition)
        check(grid.plain)
        out = []
        for line in grid.lines():
            if len(line.plain) > width:
                raise Cannot("a map wider than the screen")  # rich crops it
            out.append(segments(line))
    if block.legend:
        out += phrases(words(block.legend), width, hang=0)
    return out


def block_lines(block: Any, width: int) -> list[Line]:
    """One block (or a string of prose) as rich would print it alone."""
    if isinstance(block, str):
        return prose(block, width)
    if isinstance(block, Lines):
        return lines_block(block, width)
    if isinstance(block, HexMap):
        return hex_map(block, width)
    if isinstance(block, Table):
        return table(block, width)
    raise Cannot(type(block).__name__)


def document(blocks: Iterable[Any], width: int) -> list[Line]:
    """Every block's lines, in order (``Cannot`` if any needs rich)."""
    return [line for lines in each_block(blocks, width) for line in lines]


def each_block(blocks: Iterable[Any], width: int) -> list[list[Line]]:
    """Each block's lines (``Cannot`` if any block needs rich)."""
    if width < 1:
        raise Cannot("no width")
    return [block_lines(block, width) for block in blocks]


def render(lines: list[Line], colour: bool | None) -> str:
    """The lines as written: plain (``colour`` None, no colour system), or
    with rich's escape codes (``colour`` False: attributes only, NO_COLOR)."""
    if colour is None:
        return "".join("".join(text for text, _ in line) + "\n" for line in lines)
    paint = ansi.paint
    return "".join("".join(paint(text, look, colour) for text, look in line) + "\n" for line in lines)
