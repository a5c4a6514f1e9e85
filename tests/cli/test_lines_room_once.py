"""Issue 25, eighth pass: ``layout_lines`` finds each indent's room once a
layout, tests a text as ``printable`` does without calling it, and writes a
plain line that fits without making a list of it. The lines are those of
the layout before this pass (kept here as it was), over random entries:
labels, marks, indents, styles, texts short and long, with control
characters and wide characters, at widths from narrower than ``MIN_ROOM``
up, plain and styled."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator

import pytest

from cli import lines
from cli.lines import MIN_ROOM, WRAPS_KEPT, _SAME_BREAKS, _sgr, _spans, layout_lines
from cli.output import printable


def _before(
    entries: Iterable[tuple[str, str, str, str, int]],
    width: int,
    styled: bool,
    *,
    wide: int,
    header: tuple[str, str] | None = None,
    footer: str | Callable[[], str] = "",
    right: bool = True,
) -> Iterator[str]:
    """``layout_lines`` as it was before this pass."""
    wide = max(wide, len(header[0]) if header else 0)
    if header:
        title = header[0].rjust(wide) if right else header[0].ljust(wide)
        yield _sgr(f"{title}   {header[1]}", lines.DIM, styled)
    justify = str.rjust if right else str.ljust
    wrapped: dict[tuple[str, int], list[tuple[int, int]]] = {}
    for label, text, style, mark, indent in entries:
        start = wide + 3 + indent
        room = width - start
        if room < MIN_ROOM:
            room = MIN_ROOM
        text = printable(text)
        label = justify(label, wide)
        if len(text) <= room and text.isascii():
            shown = [text]
        else:
            key = (text.translate(_SAME_BREAKS), room)
            spans = wrapped.get(key)
            if spans is None:
                if len(wrapped) >= WRAPS_KEPT:
                    wrapped.clear()
                spans = wrapped[key] = _spans(text, room)
            shown = [text[a:b] for a, b in spans]
        if not styled:
            yield f"{label} {mark} {' ' * indent}{shown[0]}" if indent else f"{label} {mark} {shown[0]}"
            if len(shown) > 1:
                pad = " " * start
                for more in shown[1:]:
                    yield pad + more
            continue
        yield f"{_sgr(label, lines.DIM, styled)} {mark} {' ' * indent}{_sgr(shown[0], style, styled)}"
        pad = " " * start
        for more in shown[1:]:
            yield pad + _sgr(more, style, styled)
    if callable(footer):
        footer = footer()
    if footer:
        yield _sgr(footer, lines.DIM, styled)


WORDS = [
    "a1",
    "marches",
    '6"',
    "Ysolda",
    "gains",
    "1",
    "light",
    "fatigue",
    "ENGAGE-4:",
    "(events 12-13)",
    "é",
    "日本",
    "\x1b[31m",
    "tab\there",
    "—",
    "↶",
    "rk",
    "--force",
    "x" * 30,
    "reverted;",
]


def _entries(rnd: random.Random, n: int) -> list[tuple[str, str, str, str, int]]:
    out = []
    for _ in range(n):
        text = " ".join(rnd.choice(WORDS) for _ in range(rnd.randint(0, 25)))
        out.append(
            (
                str(rnd.randint(1, 20000)),
                text,
                rnd.choice([lines.PLAIN, lines.BOLD, lines.UNDONE]),
                rnd.choice([" ", "↶"]),
                rnd.choice([0, 2, 2, 4]),
            )
        )
    return out


@pytest.mark.parametrize("seed", range(6))
def test_the_lines_are_those_laid_out_before(seed: int) -> None:
    rnd = random.Random(seed)
    entries = _entries(rnd, 300)
    for width in (10, 25, 40, 80, 100, 200):
        for styled in (False, True):
            for right in (True, False):
                kw = dict(wide=rnd.randint(1, 6), header=("v", "what happened"), footer=lambda: "end", right=right)
                assert list(layout_lines(iter(entries), width, styled, **kw)) == list(
                    _before(iter(entries), width, styled, **kw)
                )
