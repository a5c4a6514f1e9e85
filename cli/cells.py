"""Characters whose width on a terminal is known without rich's tables:
printable ASCII, and ranges of narrow printable characters (Latin,
punctuation, arrows, mathematical operators, box drawing, shapes) that
rich also counts as one cell each (``tests/cli/test_straight.py`` checks
every one against ``rich.cells``). Text of these alone is as wide as it
is long; for anything else rich is asked."""

from __future__ import annotations

import re

# One cell each, printable, and neither a space nor a mark rich would join.
NARROW = "\u00a1-\u00ac\u00ae-\u02ff\u2010-\u2027\u2030-\u205e\u2190-\u22ff\u2500-\u25fc"
# A character outside ASCII whose width only rich's tables tell.
UNSURE = re.compile(f"[^\\x00-\\x7f{NARROW}]")
# A character of a line that is not printable ASCII nor narrow (a control, a
# wide or zero-width character): such text is left to rich to lay out.
ODD = re.compile(f"[^\\x20-\\x7e{NARROW}]")


def plain_width(text: str) -> int | None:
    """The cells ``text`` (one line) takes, when each of its characters
    takes one: its length; else None."""
    if (text.isascii() and text.isprintable()) or ODD.search(text) is None:
        return len(text)
    return None
