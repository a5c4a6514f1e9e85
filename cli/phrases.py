"""Prose that wraps between its phrases, never inside one.

rich wraps a long line at whatever space comes last before the edge, so at
80 columns a header splits "party" from the names it introduces, and a hint
splits ``--battle`` from the battle. ``Phrases`` (a renderable) and
``phrase_lines`` (for text laid out by hand, as ``cli.lines`` does) break a
line that does not fit where a reader pauses, from the most readable cut to
the least:

1. between phrases: after a clause's punctuation (", " "; " ": " ". "),
   after a separator (" · ", " — ", " → "), or in a run of two or more
   spaces (which sets apart the items of a legend or a list);
2. in a phrase too long for a line, between its words, but never after an
   option (``--battle ID`` stays whole) and, inside a command (``rk`` to
   the phrase's end), only before one of its options;
3. between any words, when nothing else makes a line fit.

The first two never cut inside `backquotes` or parentheses, nor after a
label: a phrase's first word ending in a colon ("Tiles:"), a rule's ID
("EXPLORATION-6:") or a word in capitals ("UNDO:"). The lines a line
continues on are indented by ``hang`` more than its own indent; a line that
fits is left as it is.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from typing import TYPE_CHECKING

from .cells import unsure

if TYPE_CHECKING:
    from rich.text import Text

# Where a phrase may end: spaces after a clause's mark (if _closes says the
# word it ends is one), after a separator, or a run of two or more. Each way starts
# with a space and looks behind it, so the search skips from space to space
# (the same matches as "(?<=[,;:.?!]) +(?=\S)|(?<= [·—→]) +(?=\S)|(?<=\S) {2,}(?=\S)",
# whose lookbehind first was tried at every character, in four times the time).
_PHRASE_GAP = re.compile(r" (?<=[,;:.?!] ) *(?=\S)| (?<= [·—→] ) *(?=\S)|  (?<=\S  ) *(?=\S)")
_SHIELDS = re.compile(r"[`()]")
_WORD_AND_GAP = re.compile(r"(\S+)( +)(?=\S)")  # a word and the spaces before the next
_RULE_ID = re.compile(r"[A-Z]+(?:-\d+\w*)?:")  # "MOVE-1:", "UNDO:"
_NON_ASCII = re.compile(r"[^\x00-\x7f]")

Span = tuple[int, int]


class Phrases:
    """A rich renderable: ``text`` (plain or rich, its styles kept) with
    each line longer than the width it is given broken between phrases;
    the lines a line goes on onto are indented by ``hang`` more than it."""

    def __init__(self, text: str | Text, hang: int = 2) -> None:
        self.text = text
        self.hang = hang

    def __rich_console__(self, console, options):
        yield self.wrapped(options.max_width)

    def wrapped(self, width: int) -> Text:
        """The text with its line breaks for ``width`` columns."""
        from rich.text import Text

        text = Text(self.text) if isinstance(self.text, str) else self.text.copy()
        out = Text(end=text.end, style=text.style, justify=text.justify, overflow=text.overflow)
        for i, line in enumerate(text.split("\n", allow_blank=True)):
            if i:
                out.append("\n")
            for j, (indent, start, end) in enumerate(phrase_lines(line.plain, width, self.hang)):
                if j:
                    out.append("\n")
                out.append(" " * indent)
                out.append_text(line[start:end])
        return out


def phrase_lines(line: str, width: int, hang: int = 2) -> list[tuple[int, int, int]]:
    """How one line of prose wraps at ``width``: for each line it makes,
    the spaces before it and the span of ``line`` it shows.

    >>> text = "see it: rk log --battle b1, rk verify --battle b1"
    >>> [text[a:b] for _, a, b in phrase_lines(text, 30)]
    ['see it: rk log --battle b1,', 'rk verify --battle b1']
    """
    size = _sizer(line)
    if size(0, len(line)) <= width:
        return [(0, 0, len(line))]
    indent = len(line) - len(line.lstrip(" "))
    first, room = width - indent, max(width - indent - hang, 20)  # a narrow screen folds instead
    shielded = _shielded(line)
    tokens: list[Span] = []
    for a, b in _phrases(line, indent, shielded):
        if size(a, b) <= room:
            tokens.append((a, b))
            continue
        for c, d in _words(line, a, b, shielded, careful=True):  # a phrase wider than a line
            tokens += [(c, d)] if size(c, d) <= room else _words(line, c, d, shielded, careful=False)
    lines: list[tuple[int, int, int]] = []
    begin, end = tokens[0]
    for start, stop in tokens[1:]:
        if size(begin, stop) > (room if lines else first):
            lines.append((indent + hang if lines else indent, begin, end))
            begin = start
        end = stop
    lines.append((indent + hang if lines else indent, begin, end))
    return lines


def _phrases(line: str, start: int, shielded: Callable[[int], bool]) -> list[Span]:
    """The phrases of ``line`` from ``start``: cut after a clause's mark, at
    a separator or a run of spaces, but not in `backquotes` or parentheses
    nor after a label."""
    pieces, begin = [], start
    for m in _PHRASE_GAP.finditer(line, start):
        at, after = m.span()
        mark = line[at - 1]
        # A symbol of its own ("?" in a legend), not a clause's end: the mark
        # is a word alone (from ``begin``), or what it follows closes nothing.
        if after - at == 1 and mark in ",;:.?!" and not (at - 2 >= begin and _closes(line[at - 2])):
            continue
        if shielded(at) or (mark == ":" and _labels(line, begin, at)):
            continue
        pieces.append((begin, at))
        begin = after
    pieces.append((begin, len(line)))
    return pieces


def _closes(char: str) -> bool:
    """Whether a mark right after ``char``, in the same word, ends a clause
    (``c4,`` ``(RULE-1):``), not a symbol of its own (``e1..``)."""
    return char.isalnum() or char in ")]'\"`"


def _labels(line: str, start: int, at: int) -> bool:
    """Whether the word ending with a colon at ``at`` labels what follows
    it: a phrase's first word ("Tiles:"), or a rule's ID or a word in
    capitals anywhere ("[delve:x] EXPLORATION-3b:", "UNDO:")."""
    word_start = _word_start(line, start, at)
    return word_start == start or _RULE_ID.fullmatch(line, word_start, at) is not None


def _word_start(line: str, start: int, at: int) -> int:
    """Where the word of ``line`` ending at ``at`` starts (not before ``start``)."""
    return max(line.rfind(" ", start, at) + 1, start)


def _words(line: str, start: int, end: int, shielded: Callable[[int], bool], careful: bool) -> list[Span]:
    """The words of ``line[start:end]``, one phrase, as pieces: all of them
    apart, or (``careful``) kept together where a cut would mislead: in
    `backquotes` or parentheses, after an option (``--battle ID``), and in
    a command (``rk ...``) but before one of its options."""
    pieces, begin, command = [], start, False
    for m in _WORD_AND_GAP.finditer(line, start, end):
        word, at, resume = m.group(1), m.end(1), m.end()
        command = command or word == "rk"
        if careful and (word[0] == "-" or (command and line[resume] != "-") or shielded(at)):
            continue
        pieces.append((begin, at))
        begin = resume
    pieces.append((begin, end))
    return pieces


def _shielded(line: str) -> Callable[[int], bool]:
    """Whether a position of ``line`` is inside `backquotes` or parentheses."""
    marks, states = [-1], [False]
    ticks = depth = 0
    for m in _SHIELDS.finditer(line):
        if m.group() == "`":
            ticks ^= 1
        else:
            depth += 1 if m.group() == "(" else -1
        marks.append(m.start())
        states.append(bool(ticks) or depth > 0)
    if len(marks) == 1:
        return lambda at: False
    return lambda at: states[bisect_right(marks, at - 1) - 1]


def _sizer(line: str) -> Callable[[int, int], int]:
    """The cells ``line[a:b]`` takes on a terminal, as a function of a, b
    (a character a cell, but for the wide and the zero-width ones)."""
    if not unsure(line):  # a character a cell (``cli.cells``)
        return lambda a, b: b - a
    from rich.cells import get_character_cell_size

    extra = {m.start(): more for m in _NON_ASCII.finditer(line) if (more := get_character_cell_size(m.group()) - 1)}
    if not extra:
        return lambda a, b: b - a
    from itertools import accumulate

    sums = list(accumulate((1 + extra.get(i, 0) for i in range(len(line))), initial=0))
    return lambda a, b: sums[b] - sums[a]
