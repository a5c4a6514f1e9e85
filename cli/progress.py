"""Progress for long work (a long log, a first audit, verify, import), on
stderr, so that stdout stays the answer.

Shown only when stderr is a terminal and the output is not ``--json``: a
pipe, a script or a test sees nothing. Work that ends quickly shows nothing
either (rich's display appears only after ``DELAY`` seconds).
"""

from __future__ import annotations

import sys
import time
from contextlib import contextmanager
from typing import Iterator, Protocol

DELAY = 0.4  # seconds of work before a progress bar appears


class Advance(Protocol):
    """Report ``n`` more units of work done (events, lines)."""

    def __call__(self, n: int = 1) -> None: ...


def _nothing(n: int = 1) -> None:
    return None


def wanted(json: bool) -> bool:
    """Whether a progress display would be seen: a terminal on stderr, not --json."""
    try:
        return not json and sys.stderr.isatty()
    except (AttributeError, ValueError):  # a closed or swapped stderr
        return False


@contextmanager
def progress(description: str, total: int | None, *, json: bool = False) -> Iterator[Advance]:
    """A context whose value is called as work is done::

        with progress("verifying", total=len(lines), json=s.json) as advance:
            for line in lines:
                ...
                advance()

    ``total`` None draws a spinner-like bar without an end. Nothing is shown
    for a pipe, for ``--json``, or when the work ends within ``DELAY`` seconds.
    """
    if not wanted(json):
        yield _nothing
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(file=sys.stderr),
        transient=True,
    )
    task = bar.add_task(description, total=total)
    started = time.monotonic()
    shown = False

    def advance(n: int = 1) -> None:
        nonlocal shown
        bar.advance(task, n)
        if not shown and time.monotonic() - started >= DELAY:
            bar.start()
            shown = True

    try:
        yield advance
    finally:
        if shown:
            bar.stop()
