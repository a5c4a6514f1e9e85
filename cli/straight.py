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

from bisect import bisect_right
from collections.abc import Iterable
from typing import Any

from domain.kernel.surface.document import HexMap, Lines, Table

from . import ansi
from .cells import odd
from .phrases import phrase_lines
from .tones import STYLES

Span = tuple[int, int, ansi.Style]  # start, end, style
Segment = tuple[str, ansi.Style]
Line = list[Segment]


class Cannot(Exception):
    """This block needs rich: something must wrap, fold, crop or be measured by it."""


class Styled:
    """Text with style spans, as rich's ``Text`` holds it: ``base`` (None,
    or the text's own style) covers every line; spans keep the order they
    were added in, which is the order rich adds their styles."""

    __slots__ = ("plain", "spans", "base")

    def __init__(self, plain: str = "", spans: list[Span] | None = None, base: ansi.Style | None = None) -> None:
        self.plain = plain
        self.spans = spans if spans is not None else []
        self.base = base

    def append(self, text: str, style: str = "") -> None:
        """Add ``text``, with a span of ``style`` unless it is empty."""
        if style and text:
            self.spans.append((len(self.plain), len(self.plain) + len(text), _style(style)))
        self.plain += text

    def lines(self) -> list[Styled]:
        """Each line (blank ones kept), its spans cut to it."""
        parts = self.plain.split("\n")
        if len(parts) == 1:
            return [self]
        out: list[Styled] = []
        starts = []
        start = 0
        for part in parts:
            out.append(Styled(part, [], self.base))
            starts.append(start)
            start += len(part) + 1
        for a, b, style in self.spans:  # each span to the lines it crosses, cut to each
            first = bisect_right(starts, a) - 1
            for n in range(first, len(out)):
                if starts[n] >= b:
                    break
                low, high = max(a, starts[n]), min(b, starts[n] + len(out[n].plain))
                if high > low:
                    out[n].spans.append((low - starts[n], high - starts[n], style))
        return out


def _style(definition: str) -> ansi.Style:
    try:
        return ansi.parse(definition)
    except ansi.Unknown:
        raise Cannot(definition) from None


def _clip(spans: list[Span], start: int, end: int, shift: int = 0) -> list[Span]:
    """The spans within ``start``..``end``, moved to begin there (plus
    ``shift``); those left empty are dropped, as rich's ``divide`` does."""
    out = []
    for a, b, style in spans:
        a, b = max(a, start), min(b, end)
        if b > a:
            out.append((a - start + shift, b - start + shift, style))
    return out


def words(words: Any, base: str = "") -> Styled:
    """A document's words (a string or pieces with tones), as ``cli.tones.styled`` makes them."""
    if isinstance(words, str):
        return Styled(words, base=_style(base) if base else None)
    text = Styled(base=_style(base) if base else None)
    for piece, tone in words:
        text.append(piece, STYLES.get(tone, ""))
    return text


def segments(line: Styled, under: ansi.Style | None = None) -> Line:
    """One line cut where rich cuts it: at every span's start and end; each
    piece in ``under``, the line's base style and the spans over it, in
    that order."""
    plain = line.plain
    if not line.spans:
        style = _over(under, line.base)
        return [(plain, style)] if plain else []
    cuts = sorted({0, len(plain), *(a for a, _, _ in line.spans), *(b for _, b, _ in line.spans)})
    out: Line = []
    for a, b in zip(cuts, cuts[1:]):
        style = _over(under, line.base)
        for s, e, span_style in line.spans:
            if s <= a < e:
                style = ansi.add(style, span_style)
        out.append((plain[a:b], style))
    return out


def _over(first: ansi.Style | None, then: ansi.Style | None) -> ansi.Style:
    if first is None:
        return then or ansi.NONE
    return first if then is None else ansi.add(first, then)


def check(text: str) -> None:
    """Refuse text rich would show otherwise than as its characters, one cell each."""
    if odd(text.replace("\n", " ")):
        raise Cannot(text[:40])


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
            spans += _clip(line.spans, a, b, indent)
            out.append(segments(Styled(" " * indent + line.plain[a:b], spans, text.base)))
    return out


def prose(thing: str, width: int) -> list[Line]:
    """A plain string as ``Output.print`` prints it (``Phrases``, hang 2)."""
    return phrases(Styled(thing), width)


def lines_block(block: Lines, width: int) -> list[Line]:
    """A document's ``Lines`` as ``cli.document`` draws them."""
    text = Styled(base=_style("bold") if block.strong else None)
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
        for text, style in drawn:
            grid.append(text, style)
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
        from .straight_table import table

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
    return "".join("".join(paint(text, style, colour) for text, style in line) + "\n" for line in lines)
