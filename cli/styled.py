"""Styled text as rich's ``Text`` holds it, for ``cli.straight``: its
spans, its lines, and the segments rich cuts a line into (one escape
sequence each, cut wherever a span begins or ends), built without rich."""

from __future__ import annotations

from bisect import bisect_right
from typing import Any

from . import ansi
from .cells import odd
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

    def append(self, text: str, definition: str = "") -> None:
        """Add ``text``, with a span of the style ``definition`` names unless it is empty."""
        if definition and text:
            self.spans.append((len(self.plain), len(self.plain) + len(text), style(definition)))
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
        for a, b, look in self.spans:  # each span to the lines it crosses, cut to each
            first = bisect_right(starts, a) - 1
            for n in range(first, len(out)):
                if starts[n] >= b:
                    break
                low, high = max(a, starts[n]), min(b, starts[n] + len(out[n].plain))
                if high > low:
                    out[n].spans.append((low - starts[n], high - starts[n], look))
        return out


def style(definition: str) -> ansi.Style:
    """The style a definition names (``Cannot`` for one rich alone knows)."""
    try:
        return ansi.parse(definition)
    except ansi.Unknown:
        raise Cannot(definition) from None


def clip(spans: list[Span], start: int, end: int, shift: int = 0) -> list[Span]:
    """The spans within ``start``..``end``, moved to begin there (plus
    ``shift``); those left empty are dropped, as rich's ``divide`` does."""
    out = []
    for a, b, look in spans:
        a, b = max(a, start), min(b, end)
        if b > a:
            out.append((a - start + shift, b - start + shift, look))
    return out


def words(said: Any, base: str = "") -> Styled:
    """A document's words (a string or pieces with tones), as ``cli.tones.styled`` makes them."""
    if isinstance(said, str):
        return Styled(said, base=style(base) if base else None)
    text = Styled(base=style(base) if base else None)
    for piece, tone in said:
        text.append(piece, STYLES.get(tone, ""))
    return text


def segments(line: Styled, under: ansi.Style | None = None) -> Line:
    """One line cut where rich cuts it: at every span's start and end; each
    piece in ``under``, the line's base style and the spans over it, in
    that order."""
    plain = line.plain
    if not line.spans:
        return [(plain, _over(under, line.base))] if plain else []
    cuts = sorted({0, len(plain), *(a for a, _, _ in line.spans), *(b for _, b, _ in line.spans)})
    out: Line = []
    for a, b in zip(cuts, cuts[1:]):
        current = _over(under, line.base)
        for s, e, look in line.spans:
            if s <= a < e:
                current = ansi.add(current, look)
        out.append((plain[a:b], current))
    return out


def _over(first: ansi.Style | None, then: ansi.Style | None) -> ansi.Style:
    if first is None:
        return then or ansi.NONE
    return first if then is None else ansi.add(first, then)


def check(text: str) -> None:
    """Refuse text rich would show otherwise than as its characters, one cell each."""
    if odd(text.replace("\n", " ")):
        raise Cannot(text[:40])
