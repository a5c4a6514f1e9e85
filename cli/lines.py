"""Long narrated output (`rk log`, `rk audit`): one entry per event, a short
label column (its version) and a text that wraps under itself.

rich's Table measures and wraps every cell, which at 20,000 events costs
seconds; these lines are laid out here and written as one string, in
milliseconds. Styles are plain SGR codes, sent only where rich would style
(a terminal, or forced colour); control characters in the text are shown
escaped, as ``cli.output`` does for everything else.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import NamedTuple

from rich.cells import cell_len

from .output import printable
from .phrases import phrase_lines

PLAIN, BOLD, DIM, UNDONE = "", "1", "2", "2;9"  # SGR parameters: bold, dim, dim and struck through
MIN_ROOM = 20  # a text column narrower than this wraps past the screen's edge instead
WRAPS_KEPT = 4096  # the most wrapped texts one layout keeps (``layout_lines``)
_SAME_BREAKS = str.maketrans("123456789", "000000000")  # texts that wrap alike: one key (``_spans``)
_ASCII_BREAKS = bytes.maketrans(b"123456789", b"000000000")  # the same, for text as UTF-8 bytes


class Entry(NamedTuple):
    """One event: ``label`` (its version), ``mark`` (one cell beside the
    label: ↶ for an undone command's event), ``text`` after ``indent``
    spaces, in ``style`` (``PLAIN``, ``BOLD``, ``DIM``, ``UNDONE``)."""

    label: str
    text: str
    style: str = PLAIN
    mark: str = " "
    indent: int = 0


def layout(
    entries: Iterable[Entry],
    width: int,
    styled: bool,
    *,
    header: tuple[str, str] | None = None,
    footer: str = "",
    right: bool = True,
) -> list[str]:
    """The lines of ``entries`` at ``width`` columns: labels in a column as
    wide as the widest (right-justified, or left with ``right=False``), each
    text wrapping under its own start. ``header``, the two columns' titles,
    heads them in a dim line; a dim ``footer`` line ends them."""
    entries = list(entries)
    wide = max([len(e.label) for e in entries] + [0])
    return list(layout_lines(entries, width, styled, header=header, footer=footer, right=right, wide=wide))


def layout_lines(
    entries: Iterable[tuple[str, str, str, str, int]],
    width: int,
    styled: bool,
    *,
    wide: int,
    header: tuple[str, str] | None = None,
    footer: str | Callable[[], str] = "",
    right: bool = True,
) -> Iterator[str]:
    """``layout`` as the entries come, for a caller that knows the widest
    label (``wide``) beforehand: nothing is held but the line being made.
    An entry may be a plain tuple of an ``Entry``'s fields, in their order;
    ``footer`` may be a function, asked for its line after the last entry."""
    wide = max(wide, len(header[0]) if header else 0)
    if header:
        title = header[0].rjust(wide) if right else header[0].ljust(wide)
        yield _sgr(f"{title}   {header[1]}", DIM, styled)
    justify = str.rjust if right else str.ljust
    # A long log repeats its lines, the same but for their numbers (the same
    # die exhausted, a command undone at another version): each text too
    # long for its room is wrapped once a layout for all those that differ
    # from it in their digits alone (``_SAME_BREAKS``), at most
    # ``WRAPS_KEPT`` of them held at a time.
    wrapped: dict[tuple[str, int], list[tuple[int, int]]] = {}
    rooms: dict[int, int] = {}  # each indent's room: a log has two or three indents
    for label, text, style, mark, indent in entries:
        room = rooms.get(indent, 0)
        if not room:
            room = rooms[indent] = max(width - (wide + 3 + indent), MIN_ROOM)  # label, space, mark, space, indent
        if not (text.isascii() and text.isprintable()):  # ``printable``'s own test, without its call
            text = printable(text)
        label = justify(label, wide)
        # Most lines fit as they are: no wrapping asked of them.
        if len(text) <= room and text.isascii():
            if not styled:
                yield f"{label} {mark} {' ' * indent}{text}" if indent else f"{label} {mark} {text}"
                continue
            lines = [text]
        else:
            key = (same_breaks(text), room)
            spans = wrapped.get(key)
            if spans is None:
                if len(wrapped) >= WRAPS_KEPT:
                    wrapped.clear()
                spans = wrapped[key] = _spans(text, room)
            lines = [text[a:b] for a, b in spans]
        start = wide + 3 + indent
        if not styled:
            yield f"{label} {mark} {' ' * indent}{lines[0]}" if indent else f"{label} {mark} {lines[0]}"
            if len(lines) > 1:
                pad = " " * start
                for more in lines[1:]:
                    yield pad + more
            continue
        yield f"{_sgr(label, DIM, styled)} {mark} {' ' * indent}{_sgr(lines[0], style, styled)}"
        pad = " " * start
        for more in lines[1:]:
            yield pad + _sgr(more, style, styled)
    if callable(footer):
        footer = footer()
    if footer:
        yield _sgr(footer, DIM, styled)


def same_breaks(text: str) -> str:
    """``text`` with the digits 1 to 9 made 0 (``_SAME_BREAKS``): what texts
    that wrap alike share. Translated as UTF-8 bytes, through a table
    (``str.translate`` looks each character up in a mapping: ~180 M
    instructions of the 20,000-event audit's first run); a character
    beyond ASCII is bytes of 0x80 and above there, which the table keeps."""
    return text.encode("utf-8", "surrogatepass").translate(_ASCII_BREAKS).decode("utf-8", "surrogatepass")


def events(first: int, last: int) -> str:
    """Versions ``first`` to ``last`` as a player reads them: ``event 12``,
    ``events 12-13`` (the numbers `rk status --at` takes)."""
    return f"event {first}" if first == last else f"events {first}-{last}"


def _sgr(text: str, style: str, styled: bool) -> str:
    return f"\x1b[{style}m{text}\x1b[0m" if styled and style and text else text


def _width(text: str) -> int:
    return len(text) if text.isascii() else cell_len(text)


def _spans(text: str, room: int) -> list[tuple[int, int]]:
    """``text`` in lines of at most ``room`` cells, broken between phrases
    (``cli.phrases``), a word longer than a line cut: each line's start and
    end in ``text``.

    The same for any text that differs from it in its ASCII digits alone
    (``_SAME_BREAKS``): a digit is one cell, a word's character, alike in
    every rule of ``cli.phrases`` (none names a digit of its own)."""
    if _width(text) <= room:
        return [(0, len(text))]
    spans: list[tuple[int, int]] = []
    for _, start, end in phrase_lines(text, room, hang=0):
        while _width(text[start:end]) > room:  # one word wider than a line
            cut = start + _cut(text[start:end], room)
            spans.append((start, cut))
            start = cut
        spans.append((start, end))
    return spans


def _cut(word: str, room: int) -> int:
    """How many characters of ``word`` its first ``room`` cells hold (at least one)."""
    if word.isascii():
        return max(room, 1)
    used = 0
    for i, char in enumerate(word):
        used += cell_len(char)
        if used > room:
            return max(i, 1)
    return len(word)
