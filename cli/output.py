"""Where output goes: rich renderables or JSON on stdout, errors on stderr
(as one line, or as a JSON object with ``--json``)."""

from __future__ import annotations

import re

import os
import sys
from typing import Any


class Output:
    """Printing for one command, in text or JSON mode."""

    def __init__(self, json: bool) -> None:
        self.json = json
        self._console = None

    @property
    def console(self):
        """A rich console on the current stdout (looked up when printing, so
        test runners that swap stdout see the output)."""
        if self._console is None:
            from rich.console import Console

            # Piped output gets 100 columns rather than rich's 80, and no colour.
            width = None if sys.stdout.isatty() else int(os.environ.get("COLUMNS", 100))
            self._console = Console(highlight=False, width=width, soft_wrap=False)
        return self._console

    def print(self, *things: Any) -> None:
        """Print renderables or plain strings (no markup is interpreted)."""
        if self.json:
            return
        for thing in things:
            if isinstance(thing, str):
                self.console.print(thing, markup=False)
            else:
                self.console.print(thing)

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
        message = _labelled(" ".join(message.split()))
        if self.json:
            body: dict[str, Any] = {"error": type(error).__name__, "message": message}
            if rule:
                body["rule"] = rule
            for extra in ("line", "file", "field"):
                if hasattr(error, extra):
                    body[extra] = getattr(error, extra)
            sys.stderr.write(to_json(body) + "\n")
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


def to_json(data: Any) -> str:
    """Pretty JSON of anything msgspec can make builtins of."""
    import msgspec

    return msgspec.json.format(msgspec.json.encode(msgspec.to_builtins(data)), indent=2).decode()


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def printable(text: str) -> str:
    """``text`` with control characters shown as ``\\xNN`` rather than sent
    to the terminal (a name from an imported log may hold escape codes)."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)
