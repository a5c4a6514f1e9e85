"""Issue 25: where a phrase may end (``cli.phrases._PHRASE_GAP``) is found
by a pattern that starts each way with a space, so the search skips from
space to space instead of trying a lookbehind at every character. It must
find exactly what the pattern it replaced found, wherever the search starts."""

from __future__ import annotations

import random
import re

from cli.phrases import _PHRASE_GAP, phrase_lines

# The pattern before issue 25's third pass, kept as the reference.
BEFORE = re.compile(r"(?<=[,;:.?!]) +(?=\S)|(?<= [·—→]) +(?=\S)|(?<=\S) {2,}(?=\S)")

PIECES = ["a", "bb", "rk", "--x", "-3", " ", " ", "  ", "   ", ",", ";", ":", ".", "?", "!", "·", "—", "→"]
PIECES += ["`", "(", ")", "MOVE-1:", "UNDO:", "Tiles:", "é", "漢", "\t", "\n", "e1.."]


def _spans(pattern: re.Pattern[str], text: str, start: int) -> list[tuple[int, int]]:
    return [m.span() for m in pattern.finditer(text, start)]


def test_the_gaps_are_those_the_old_pattern_found() -> None:
    rnd = random.Random(25)
    for _ in range(20_000):
        text = "".join(rnd.choice(PIECES) for _ in range(rnd.randint(0, 24)))
        start = rnd.randint(0, len(text))
        assert _spans(_PHRASE_GAP, text, start) == _spans(BEFORE, text, start), repr(text)


def test_lines_still_break_between_phrases() -> None:
    text = "ENGAGE-3: Ysolda rolls #1 Cleave 3 (attack), #2 Guard 5 · Tarn waits  then moves a2 → a3; done."
    pieces = [text[a:b] for _, a, b in phrase_lines(text, 40, hang=2)]
    assert pieces == [
        "ENGAGE-3: Ysolda rolls #1 Cleave 3",
        "(attack), #2 Guard 5 · Tarn waits",
        "then moves a2 → a3; done.",
    ]
