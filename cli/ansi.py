"""The styles of ``cli.tones`` and ``cli.hexmap`` as a terminal receives
them, without rich: the same escape codes rich's ``Style.render`` writes
for them (``tests/cli/test_straight.py`` compares every combination).

A style here is a triple: its attributes (a bit per attribute, in the
order rich writes their codes), its colour and its background (0 to 15,
or None). Only the words those modules use are known; anything else is
``Unknown``, and rich draws it.
"""

from __future__ import annotations

from functools import lru_cache

Style = tuple[int, int | None, int | None]
NONE: Style = (0, None, None)

# Attributes by their code, in the order rich writes them.
ATTRIBUTES = {"bold": 1, "dim": 2, "italic": 3, "underline": 4, "blink": 5, "reverse": 7, "strike": 9}
_BITS = {name: 1 << i for i, name in enumerate(ATTRIBUTES)}
_CODES = tuple(ATTRIBUTES.values())
COLOURS = ("black", "red", "green", "yellow", "blue", "magenta", "cyan", "white")
_NUMBERS = {name: i for i, name in enumerate(COLOURS)} | {f"bright_{name}": 8 + i for i, name in enumerate(COLOURS)}


class Unknown(ValueError):
    """A style word this module does not render (rich does)."""


@lru_cache(maxsize=64)
def parse(definition: str) -> Style:
    """The style a definition such as ``"bold black on yellow"`` names."""
    bits, colour, background = 0, None, None
    words = iter(definition.split())
    for word in words:
        if word == "on":
            name = next(words, "")
            if name not in _NUMBERS:
                raise Unknown(definition)
            background = _NUMBERS[name]
        elif word in _BITS:
            bits |= _BITS[word]
        elif word in _NUMBERS:
            colour = _NUMBERS[word]
        else:
            raise Unknown(definition)
    return (bits, colour, background)


def add(first: Style, then: Style) -> Style:
    """``first`` with ``then`` over it, as rich adds styles: the attributes
    of both, the colours of ``then`` where it has them."""
    return (
        first[0] | then[0],
        first[1] if then[1] is None else then[1],
        first[2] if then[2] is None else then[2],
    )


def background(style: Style) -> Style:
    """Only the background of ``style`` (a table's divider in a row of it)."""
    return (0, None, style[2])


@lru_cache(maxsize=256)
def codes(style: Style, colour: bool) -> str:
    """The SGR parameters of ``style`` ("1;32"), "" for none; without
    ``colour`` (NO_COLOR) only its attributes."""
    bits, fg, bg = style
    out = [str(code) for i, code in enumerate(_CODES) if bits & (1 << i)]
    if colour and fg is not None:
        out.append(str(30 + fg if fg < 8 else 90 + fg - 8))
    if colour and bg is not None:
        out.append(str(40 + bg if bg < 8 else 100 + bg - 8))
    return ";".join(out)


def paint(text: str, style: Style, colour: bool) -> str:
    """``text`` as rich writes a segment of ``style`` on a terminal that
    takes colours (``colour``: False under NO_COLOR)."""
    if not text or style == NONE:
        return text
    sgr = codes(style, colour)
    return f"\x1b[{sgr}m{text}\x1b[0m" if sgr else text
