"""Long narrated output (`rk log`, `rk audit`): one entry per event, a short
label column (its version) and a text that wraps under itself.

rich's Table measures and wraps every cell, which at 20,000 events costs
seconds; these lines are laid out here and written as one string, in
milliseconds. Styles are plain SGR codes, sent only where rich would style
(a terminal, or forced colour); control characters in the text are shown
escaped, as ``cli.output`` does for everything else.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import NamedTuple

from rich.cells import cell_len

from .output import printable
from .phrases import phrase_lines

PLAIN, BOLD, DIM, UNDONE = "", "1", "2", "2;9"  # SGR parameters: bold, dim, dim and struck through
MIN_ROOM = 20  # a text column narrower than this wraps past the screen's edge instead
WRAPS_KEPT = 4096  # the most wrapped texts one layout keeps (``layout_lines``)


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
    footer: str = "",
    right: bool = True,
) -> Iterator[str]:
    """``layout`` as the entries come, for a caller that knows the widest
    label (``wide``) beforehand: nothing is held but the line being made.
    An entry may be a plain tuple of an ``Entry``'s fields, in their order."""
    wide = max(wide, len(header[0]) if header else 0)
    if header:
        title = header[0].rjust(wide) if right else header[0].ljust(wide)
        yield _sgr(f"{title}   {header[1]}", DIM, styled)
    justify = str.rjust if right else str.ljust
    # A long log repeats its lines (the same die exhausted, the same command
    # typed again after an undo): each text too long for its room is wrapped
    # once a layout, at most ``WRAPS_KEPT`` of them held at a time.
    wrapped: dict[tuple[str, int], list[str]] = {}
    for label, text, style, mark, indent in entries:
        start = wide + 3 + indent  # label, space, mark, space, indent
        room = width - start
        if room < MIN_ROOM:
            room = MIN_ROOM
        text = printable(text)
        label = justify(label, wide)
        # Most lines fit as they are: no wrapping asked of them.
        if len(text) <= room and text.isascii():
            lines = [text]
        else:
            found = wrapped.get((text, room))
            if found is None:
                if len(wrapped) >= WRAPS_KEPT:
                    wrapped.clear()
                found = wrapped[text, room] = _wrap(text, room)
            lines = found
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
    if footer:
        yield _sgr(footer, DIM, styled)


def events(first: int, last: int) -> str:
    """Versions ``first`` to ``last`` as a player reads them: ``event 12``,
    ``events 12-13`` (the numbers `rk status --at` takes)."""
    return f"event {first}" if first == last else f"events {first}-{last}"


def _sgr(text: str, style: str, styled: bool) -> str:
    return f"\x1b[{style}m{text}\x1b[0m" if styled and style and text else text


def _width(text: str) -> int:
    return len(text) if text.isascii() else cell_len(text)


def _wrap(text: str, room: int) -> list[str]:
    """``text`` in lines of at most ``room`` cells, broken between phrases
    (``cli.phrases``); a word longer than a line is cut."""
    if _width(text) <= room:
        return [text]
    lines: list[str] = []
    for _, start, end in phrase_lines(text, room, hang=0):
        piece = text[start:end]
        while _width(piece) > room:  # one word wider than a line
            head, piece = _cut(piece, room)
            lines.append(head)
        lines.append(piece)
    return lines


def _cut(word: str, room: int) -> tuple[str, str]:
    """The first ``room`` cells of ``word`` (at least one character), and the rest."""
    if word.isascii():
        return word[: max(room, 1)], word[max(room, 1) :]
    used = 0
    for i, char in enumerate(word):
        used += cell_len(char)
        if used > room:
            return word[: max(i, 1)], word[max(i, 1) :]
    return word, ""
