"""Where output goes: rich renderables or JSON on stdout, errors on stderr
(as one line, or as a JSON object with ``--json``)."""

from __future__ import annotations

import os
import re
import sys
from functools import cache
from typing import Any

from .phrases import Phrases

MESSAGE = 400  # characters of an error message shown
_UNSEEN = object()  # the screen not looked at yet


class Output:
    """Printing for one command, in text or JSON mode."""

    def __init__(self, json: bool) -> None:
        self.json = json
        self._console = None
        self._screen: Any = _UNSEEN

    @staticmethod
    def _width() -> int | None:
        """The width the console is given: piped output gets 100 columns
        rather than rich's 80 (and no colour); a terminal's is measured."""
        return None if sys.stdout.isatty() else int(os.environ.get("COLUMNS", 100))

    @property
    def console(self):
        """A rich console on the current stdout (looked up when printing, so
        test runners that swap stdout see the output)."""
        if self._console is None:
            from rich.console import Console

            # No markup and no :emoji: codes anywhere: a name in a table cell
            # ("[link=...]") prints as typed, never as a style or a hyperlink.
            self._console = Console(highlight=False, markup=False, emoji=False, width=self._width(), soft_wrap=False)
        return self._console

    def print(self, *things: Any) -> None:
        """Print renderables or plain strings (no markup is interpreted; control
        characters in any text are shown escaped, never sent to the terminal).
        A plain string is prose: its long lines wrap between phrases
        (``Phrases``); rich text opts in by being wrapped in one. Prose that
        fits is written straight, as rich would write it (``cli.straight``)."""
        if self.json:
            return
        if all(isinstance(thing, str) for thing in things) and self._straight(things):
            return
        for thing in things:
            self.console.print(Escaped(Phrases(thing) if isinstance(thing, str) else thing))

    def document(self, blocks: Any) -> None:
        """Print a view's or a query's blocks (``domain.kernel.surface.document``):
        written straight when rich would write them as they are
        (``cli.straight``), else drawn by rich (``cli.document``)."""
        if self.json or self._straight(blocks):
            return
        from .document import renderables

        self.print(*renderables(blocks))

    def _straight(self, blocks: Any) -> bool:
        """Write ``blocks`` without rich, byte for byte as it would, if it
        can (the screen is known and everything fits); else write nothing."""
        if self._screen is _UNSEEN:
            from .screen import screen

            self._screen = None if self._console is not None else screen(self._width())
        if self._screen is None:
            return False
        from .straight import Cannot, each_block, render

        width = self._screen.width
        if width < 1:  # a terminal that says it has no columns: rich decides
            return False
        try:
            texts = [render(lines, self._screen.colour) for lines in each_block(blocks, width)]
        except Cannot:
            return False
        out = getattr(sys.stdout, "rich_proxied_file", sys.stdout)
        try:
            for text in texts:  # a write each, as rich prints each block: a reader sees them as they come
                out.write(text)
                out.flush()
        except BrokenPipeError:
            # As rich's console ends then (`rk status | head -1`): whatever
            # follows goes nowhere, and the command exits 1.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise SystemExit(1) from None
        return True

    def lines(self, lines: list[tuple[str, str]]) -> None:
        """Print lines already laid out to fit the console (``cli.tables.table_lines``),
        each in its rich style ("" for none), exactly as ``print`` prints
        them as one renderable, but written as one string: rich would split,
        measure and crop each line again. Left to rich where it does more
        than write text and style codes (a line too wide, a control
        character to escape, a legacy Windows console, a recording)."""
        if self.json:
            return
        console = self.console
        width = console.width
        if (
            console.legacy_windows
            or console.record
            or console.is_jupyter
            or console.quiet
            or any(
                not (text.isascii() and text.isprintable() and len(text) <= width)
                and (_control_in_line().search(text) is not None or _cells(text) > width)
                for text, _ in lines
            )
        ):
            from .tables import _Lines

            self.print(_Lines(lines))
            return
        system = console.color_system
        if system is None:
            text = "".join(f"{line}\n" for line, _ in lines)
        else:
            from rich.console import COLOR_SYSTEMS

            styles: dict[str, Any] = {}
            rendered = []
            for line, style in lines:
                if style:
                    if style not in styles:
                        found = console.get_style(style)
                        # NO_COLOR: rich keeps the style's attributes (bold, dim), not its colours
                        styles[style] = found.without_color if console.no_color else found
                    line = styles[style].render(line, color_system=COLOR_SYSTEMS[system])
                rendered.append(f"{line}\n")
            text = "".join(rendered)
        console.file.write(text)
        console.file.flush()

    def emit(self, data: Any) -> None:
        """Print ``data`` (Structs, dataclasses, enums, tuples...) as JSON."""
        sys.stdout.write(to_json(data) + "\n")
        sys.stdout.flush()

    def error(self, error: Exception) -> None:
        """One line on stderr: ``RULE-ID: reason`` for a rule, the message
        otherwise; a JSON object with ``--json``."""
        rule = getattr(error, "rule", None)
        if hasattr(error, "format_message"):  # a usage error of the command line itself
            message = error.format_message()
        else:
            message = getattr(error, "message", None) or str(error)
        message = printable(_labelled(" ".join(message.split())))
        if len(message) > MESSAGE:  # it may quote what was typed: 5,000 digits, say
            message = message[: MESSAGE - 1] + "…"
        if self.json:
            body: dict[str, Any] = {"error": type(error).__name__, "message": message}
            if rule:
                body["rule"] = rule
            for extra in ("line", "file", "field"):
                if hasattr(error, extra):
                    body[extra] = getattr(error, extra)
            sys.stderr.write(to_json(body, indent=0) + "\n")  # one line, as in text mode
        else:
            sys.stderr.write((f"{rule}: {message}" if rule else message) + "\n")
        sys.stderr.flush()


def _labelled(text: str) -> str:
    """Messages from the rules name hexes as axial pairs, ``hex (2, 3)``;
    people know them by label (``c4``)."""
    import re

    from domain.kernel.hexes import label

    def swap(m: "re.Match[str]") -> str:
        try:
            return f"hex {label((int(m[1]), int(m[2])))}"
        except ValueError:  # left of or above a1: no label, keep the pair
            return m[0]

    return re.sub(r"hex \((-?\d+), (-?\d+)\)", swap, text)


def to_json(data: Any, indent: int = 2) -> str:
    """Pretty JSON of anything msgspec can make builtins of (``indent=0``:
    all on one line)."""
    import msgspec

    encoded = msgspec.json.encode(msgspec.to_builtins(data))
    return (msgspec.json.format(encoded, indent=indent) if indent else encoded).decode()


# Control characters (C0, DEL, C1) and the invisible formatting ones that
# reorder or hide text (bidirectional overrides, zero-width spaces, BOM).
_INVISIBLE = "\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff"


# Compiled when first needed: a class of characters this far into Unicode
# takes ~8 M instructions to compile, and text of printable ASCII (or
# written straight, ``cli.straight``) never needs them.
@cache
def _control() -> re.Pattern[str]:
    return re.compile(f"[\\x00-\\x1f\\x7f-\\x9f{_INVISIBLE}]")


@cache
def _control_in_line() -> re.Pattern[str]:
    return re.compile(f"[\\x00-\\x09\\x0b-\\x1f\\x7f-\\x9f{_INVISIBLE}]")  # keeps line breaks


def _escape(m: re.Match[str]) -> str:
    code = ord(m.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _cells(text: str) -> int:
    """The cells ``text`` takes on a terminal."""
    from rich.cells import cell_len

    return cell_len(text)


def printable(text: str) -> str:
    """``text`` with control characters shown as ``\\xNN`` rather than sent
    to the terminal (a name from an imported log may hold escape codes)."""
    if text.isascii() and text.isprintable():  # the usual text: nothing to look for
        return text
    return _control().sub(_escape, text)


class Escaped:
    """A renderable printed with every control character in its text shown
    escaped: whatever a name holds, only rich's own styles reach the terminal
    as escape codes (they travel beside the text, in segments' styles)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def __rich_console__(self, console, options):
        from rich.segment import Segment

        for segment in console.render(self.inner, options):
            if segment.control is None and _control_in_line().search(segment.text):
                yield Segment(_control_in_line().sub(_escape, segment.text), segment.style)
            else:
                yield segment
