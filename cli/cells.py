"""Characters whose width on a terminal is known without rich's tables:
printable ASCII, and ranges of narrow printable characters (Latin,
punctuation, arrows, mathematical operators, box drawing, shapes) that
rich also counts as one cell each (``tests/cli/test_straight.py`` checks
every one against ``rich.cells``). Text of these alone is as wide as it
is long; for anything else rich is asked."""

from __future__ import annotations

from functools import lru_cache

# One cell each, printable, and neither a space nor a mark rich would join.
NARROW = (
    ("\u00a1", "\u00ac"),
    ("\u00ae", "\u02ff"),
    ("\u2010", "\u2027"),
    ("\u2030", "\u205e"),
    ("\u2190", "\u22ff"),
    ("\u2500", "\u25fc"),
)


@lru_cache(maxsize=512)
def narrow(char: str) -> bool:
    """Whether ``char``, outside ASCII, is one of the narrow characters."""
    return any(low <= char <= high for low, high in NARROW)


def unsure(text: str) -> bool:
    """Whether ``text`` holds a character outside ASCII whose width only
    rich's tables tell (a wide or zero-width one, say)."""
    return not text.isascii() and any(char > "\x7f" and not narrow(char) for char in set(text))


def odd(text: str) -> bool:
    """Whether ``text`` holds anything but printable ASCII and narrow
    characters (a control, a wide or zero-width character, a line break):
    such text is left to rich to lay out."""
    if text.isascii():
        return not text.isprintable()
    return any(not ("\x20" <= char <= "\x7e" or narrow(char)) for char in set(text))
