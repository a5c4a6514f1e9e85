"""What rich's console would make of stdout, found without importing rich:
its width, and whether it writes colours (and, under NO_COLOR, only
attributes). ``Output`` writes straight (``cli.straight``) only when this
is certain; anything unusual (Windows, a notebook, a dumb terminal, a
non-UTF encoding, a width of nothing) answers None and rich decides, as
before. ``tests/cli/test_straight.py`` compares the answers with rich's
``Console`` over the environment variables it reads."""

from __future__ import annotations

import builtins
import os
import sys


class Screen:
    """How a document is written: ``width`` cells; ``colour`` None (no
    escape codes at all), True, or False (NO_COLOR: attributes only).
    A terminal's width that nothing sets is measured at each print, as
    rich measures it (``measured``)."""

    __slots__ = ("_width", "colour", "measured")

    def __init__(self, width: int, colour: bool | None, measured: bool = False) -> None:
        self._width = width
        self.colour = colour
        self.measured = measured

    @property
    def width(self) -> int:
        """The cells a line may take now."""
        return _measured() if self.measured else self._width


def screen(width: int | None, environ: os._Environ[str] | dict[str, str] | None = None) -> Screen | None:
    """The screen of a rich ``Console(width=width)`` on ``sys.stdout``
    (``cli.output.Output`` makes it so), or None when only rich can tell."""
    env = os.environ if environ is None else environ
    out = getattr(sys.stdout, "rich_proxied_file", sys.stdout)
    if sys.platform == "win32" or out is None or hasattr(builtins, "get_ipython"):
        return None  # legacy consoles and notebooks: rich's own ways
    if getattr(sys.stdin, "__module__", "").startswith("idlelib"):
        return None
    if not (getattr(out, "encoding", "utf-8") or "utf-8").lower().startswith("utf"):
        return None  # rich draws boxes in ASCII there
    terminal = _terminal(out, env)
    if terminal and env.get("TERM", "").lower() in ("dumb", "unknown"):
        return None
    measured = False
    if width is None:
        columns = env.get("COLUMNS")
        if columns is not None and columns.isdigit():
            width = int(columns)
        else:
            width, measured = _measured(), True
    if width < 1:
        return None
    return Screen(width, None if not terminal else env.get("NO_COLOR", "") == "", measured)


def _terminal(out: object, env: os._Environ[str] | dict[str, str]) -> bool:
    """Whether rich takes stdout for a terminal (its escape codes welcome)."""
    compatible = env.get("TTY_COMPATIBLE", "")
    if compatible in ("0", "1"):
        return compatible == "1"
    force = env.get("FORCE_COLOR")
    if force is not None:
        return force != ""
    isatty = getattr(out, "isatty", None)
    try:
        return False if isatty is None else bool(isatty())
    except ValueError:
        return False


def _measured() -> int:
    """The width of the terminal, as rich measures it when nothing sets it."""
    width = None
    for fd in (0, 1, 2):
        try:
            width, _ = os.get_terminal_size(fd)
        except (AttributeError, ValueError, OSError):
            continue
        break
    return width or 80
