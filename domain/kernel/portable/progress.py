"""How export, verify and import report their progress: a callback,
called with the number of lines done since its last call."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

PROGRESS_EVERY = 200  # lines between calls: often enough for a display, rarely enough to cost nothing

Progress = Callable[[int], None]
_Item = TypeVar("_Item")


def ticking(items: Iterable[_Item], progress: Progress | None) -> Iterator[_Item]:
    """``items``, calling ``progress(PROGRESS_EVERY)`` each time that many
    have been taken, and ``progress`` with the rest at the end."""
    if progress is None:
        yield from items
        return
    done = 0
    for item in items:
        yield item
        done += 1
        if done == PROGRESS_EVERY:
            progress(done)
            done = 0
    if done:
        progress(done)
