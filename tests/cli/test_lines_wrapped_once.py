"""``cli.lines.layout_lines`` wraps each long text once a layout and lays
out its repeats from what it kept: the lines are those of each entry laid
out alone, however many texts it holds before it lets them go."""

import random

import pytest

from cli import lines
from cli.lines import BOLD, PLAIN, UNDONE, Entry, layout_lines

WORDS = ["Ysolda", "moves", "→", "b2;", "EXHAUST-1:", "`rk undo`", "(events 3-9)", "雪雪", "x" * 45, "·", "--battle"]


def _entries(seed: int, count: int) -> list[Entry]:
    rng = random.Random(seed)
    texts = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 30))) for _ in range(25)]
    return [
        Entry(str(n), rng.choice(texts), rng.choice((PLAIN, BOLD, UNDONE)), rng.choice(" ↶"), rng.choice((0, 2, 9)))
        for n in range(count)
    ]


@pytest.mark.parametrize("kept", [1, 3, lines.WRAPS_KEPT])
@pytest.mark.parametrize("width", [30, 40, 80, 200])
def test_repeated_texts_lay_out_as_each_entry_alone(monkeypatch, kept, width):
    monkeypatch.setattr(lines, "WRAPS_KEPT", kept)
    for seed in range(6):
        entries = _entries(seed, 300)
        for styled in (False, True):
            together = list(layout_lines(entries, width, styled, wide=3))
            alone = [line for e in entries for line in layout_lines([e], width, styled, wide=3)]
            assert together == alone
