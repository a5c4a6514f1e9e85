"""Long output through a pager, as git does: only when stdout is a terminal
and the text is taller than it, with ``$PAGER`` (else ``less -FRX``).

Off with ``--no-pager``, for ``--json``, for a pipe or a file, and for an
empty ``$PAGER`` or ``cat``. A pager that cannot be started, or is quit
before the end, is no error: the text is written straight, or the rest
dropped.
"""

from __future__ import annotations

import itertools
import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterable

DEFAULT = "less -FRX"  # quit if one screen, keep colours, leave the text on screen
NOT_FOUND = 127  # the shell's exit status for a command it cannot find
BATCH = 256  # lines written at a time: as they come, without a call per line


def write(lines: list[str], *, page: bool = True) -> None:
    """Write ``lines`` to stdout, through the pager when ``page`` and it is
    wanted (see ``pager_command``)."""
    write_lines(lines, page=page)


def write_lines(lines: Iterable[str], *, page: bool = True) -> None:
    """Write ``lines`` as they come: straight to stdout, or, once more have
    come than the screen holds and a pager is wanted, through the pager
    (the first screenful is held until that is known)."""
    lines = iter(lines)
    held: list[str] = []
    rows = _terminal_rows() if page else None
    if rows is not None:
        for line in lines:
            held.append(line)
            if len(held) >= rows:
                break
        command = pager_command(len(held))
        if command is not None and _through(command, itertools.chain(held, lines)):
            return
    out = sys.stdout
    rest = itertools.chain(held, lines)
    while batch := list(itertools.islice(rest, BATCH)):  # a write a batch, not a line
        batch.append("")
        out.write("\n".join(batch))
    out.flush()


def _terminal_rows() -> int | None:
    """The screen's height when stdout is a terminal, else None."""
    try:
        if not sys.stdout.isatty():
            return None
        return os.get_terminal_size(sys.stdout.fileno()).lines
    except (AttributeError, ValueError, OSError):  # a swapped or closed stdout
        return None


def pager_command(height: int) -> str | None:
    """The pager to show ``height`` lines with, or None to write them
    straight: stdout is no terminal, they fit on the screen, or no pager
    is set or found."""
    rows = _terminal_rows()
    if rows is None or (rows and height < rows):
        return None
    command = os.environ.get("PAGER")
    if command is None:
        return DEFAULT if shutil.which("less") else None
    if command.strip() in ("", "cat"):
        return None
    # A pager that is not there is known before any line goes to it: the
    # lines come as they are made, and could not be written again after.
    try:
        program = shlex.split(command)[0]
    except (ValueError, IndexError):
        return None
    # ``NAME=value pager``: the shell sets a variable first; the pager is then not checked
    return command if shutil.which(program) or "=" in program else None


def _through(command: str, lines: Iterable[str]) -> bool:
    """Send ``lines`` to ``command``; False when it could not be started."""
    env = dict(os.environ)
    env.setdefault("LESS", "FRX")  # a $PAGER of plain `less` keeps the colours too
    sys.stdout.flush()
    try:
        pager = subprocess.Popen(command, shell=True, stdin=subprocess.PIPE, env=env)
    except OSError:
        return False
    assert pager.stdin is not None  # stdin=PIPE
    encoding = sys.stdout.encoding or "utf-8"
    try:
        for line in lines:
            pager.stdin.write((line + "\n").encode(encoding, "replace"))
    except BrokenPipeError:  # quit before the end
        pass
    try:
        pager.stdin.close()
    except BrokenPipeError:
        pass
    while True:
        try:
            # The shell answers 127 for a $PAGER it cannot find: nothing was shown.
            return pager.wait() != NOT_FOUND
        except KeyboardInterrupt:  # Ctrl-C belongs to the pager while it runs
            continue
