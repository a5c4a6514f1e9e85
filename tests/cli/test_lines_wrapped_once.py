"""``cli.lines.layout_lines`` wraps each long text once a layout for all
the texts that differ from it in their digits alone, and lays out the
others from what it kept (issue 25, eighth pass): the lines are those of
each entry laid out alone, however many texts it holds, and each text
breaks where the wrapping before this pass broke it."""

from __future__ import annotations

import random

import pytest
from rich.cells import cell_len

from cli import lines
from cli.lines import BOLD, PLAIN, UNDONE, Entry, layout_lines
from cli.phrases import phrase_lines

WORDS = [
    "Ysolda", "moves", "→", "b2;", "EXHAUST-1:", "`rk undo`", "(events 3-9)", "雪雪", "x" * 45, "·", "--battle",
    "(undone at v1234)", "v7,", "round 12.", "12345678901234567890123456789", "rk", "move", "a9", "(", ")", "UNDO-2:",
]  # fmt: skip


def _text(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 30)))


def _old_wrap(text: str, room: int) -> list[str]:
    """The wrapping before this pass, word for word (the reference)."""
    if lines._width(text) <= room:
        return [text]
    out: list[str] = []
    for _, start, end in phrase_lines(text, room, hang=0):
        piece = text[start:end]
        while lines._width(piece) > room:
            head, piece = _old_cut(piece, room)
            out.append(head)
        out.append(piece)
    return out


def _old_cut(word: str, room: int) -> tuple[str, str]:
    if word.isascii():
        return word[: max(room, 1)], word[max(room, 1) :]
    used = 0
    for i, char in enumerate(word):
        used += cell_len(char)
        if used > room:
            return word[: max(i, 1)], word[max(i, 1) :]
    return word, ""


def _entries(seed: int, count: int) -> list[Entry]:
    rng = random.Random(seed)
    texts = [_text(rng) for _ in range(25)]
    return [
        Entry(
            str(n),
            rng.choice(texts).translate(str.maketrans("0123456789", "".join(rng.sample("0123456789", 10)))),
            rng.choice((PLAIN, BOLD, UNDONE)),
            rng.choice(" ↶"),
            rng.choice((0, 2, 9)),
        )
        for n in range(count)
    ]


@pytest.mark.parametrize("room", [1, 5, 20, 33, 60, 91, 200])
def test_each_text_breaks_where_the_wrapping_before_broke_it_whatever_its_digits(room):
    rng = random.Random(room)
    for _ in range(400):
        text = _text(rng)
        expected = _old_wrap(text, room)
        assert [text[a:b] for a, b in lines._spans(text, room)] == expected
        digits = text.translate(str.maketrans("0123456789", "".join(rng.choices("0123456789", k=10))))
        assert lines._spans(digits, room) == lines._spans(text, room)  # what the kept breaks rely on


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


def test_the_key_of_texts_that_wrap_alike_is_the_text_with_its_digits_made_0():
    """``same_breaks`` translates a text as UTF-8 bytes: the same key as
    ``str.translate`` gives, for ASCII texts and others."""
    rng = random.Random(11)
    texts = [_text(rng) for _ in range(500)] + ["", "0123456789", "٣ ¹ ① 9", "é1", "\x00 7\x7f", "\ud800 5 \udfff"]
    for text in texts:
        assert lines.same_breaks(text) == text.translate(str.maketrans("123456789", "000000000"))
