"""Long output through a pager, as git does: only when stdout is a terminal
and the text is taller than it, with ``$PAGER`` (else ``less -FRX``).

Off with ``--no-pager``, for ``--json``, for a pipe or a file, and for an
empty ``$PAGER`` or ``cat``. A pager that cannot be started, or is quit
before the end, is no error: the text is written straight, or the rest
dropped.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

DEFAULT = "less -FRX"  # quit if one screen, keep colours, leave the text on screen
NOT_FOUND = 127  # the shell's exit status for a command it cannot find


def write(lines: list[str], *, page: bool = True) -> None:
    """Write ``lines`` to stdout, through the pager when ``page`` and it is
    wanted (see ``pager_command``)."""
    text = "\n".join(lines) + "\n" if lines else ""
    command = pager_command(len(lines)) if page else None
    if command is None or not _through(command, text):
        sys.stdout.write(text)
        sys.stdout.flush()


def pager_command(height: int) -> str | None:
    """The pager to show ``height`` lines with, or None to write them
    straight: stdout is no terminal, they fit on the screen, or no pager
    is set or found."""
    try:
        if not sys.stdout.isatty():
            return None
        rows = os.get_terminal_size(sys.stdout.fileno()).lines
    except (AttributeError, ValueError, OSError):  # a swapped or closed stdout
        return None
    if rows and height < rows:
        return None
    command = os.environ.get("PAGER")
    if command is None:
        return DEFAULT if shutil.which("less") else None
    return None if command.strip() in ("", "cat") else command


def _through(command: str, text: str) -> bool:
    """Send ``text`` to ``command``; False when it could not be started."""
    env = dict(os.environ)
    env.setdefault("LESS", "FRX")  # a $PAGER of plain `less` keeps the colours too
    sys.stdout.flush()
    try:
        pager = subprocess.Popen(command, shell=True, stdin=subprocess.PIPE, env=env)
    except OSError:
        return False
    try:
        pager.stdin.write(text.encode(sys.stdout.encoding or "utf-8", "replace"))
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
