"""`rk projections follow`: keep the read models caught up in a process of
their own (``projections.follow``), until Ctrl-C or SIGTERM (exit 0), or,
with ``--once``, catch up and stop."""

from __future__ import annotations

import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from .progress import progress
from .session import Session


def follow(s: Session, once: bool = False) -> None:
    """Catch the views up, say how many events that read, and with
    ``once`` stop there; otherwise follow the log until a signal."""
    from projections import views
    from projections.follow import Follower

    app = s.app
    follower = Follower(app)
    if once:
        with progress("reading the log into the read models", total=views.behind(app), json=s.json) as advance:
            read = follower.catch_up(progress=advance)
        _said(
            s,
            {"read": read, "position": follower.position, "following": False},
            f"{read} events read into the read models (they are at notification {follower.position})",
        )
        return

    def ready(read: int) -> None:
        _said(
            s,
            {"read": read, "position": follower.position, "following": True},
            f"{read} events read into the read models (at notification {follower.position}); "
            "following the log, Ctrl-C stops",
        )

    with _stopped_by_signals(follower.stop):
        follower.run(ready)
    _said(
        s,
        {"read": follower.read, "position": follower.position, "following": False},
        f"stopped: {follower.read} events read in all (the views are at notification {follower.position})",
    )


def _said(s: Session, data: dict, text: str) -> None:
    if s.json:
        s.out.emit(data)
    else:
        s.out.print(text)
        sys.stdout.flush()  # a pipe (a supervisor's log) sees each line as it happens


@contextmanager
def _stopped_by_signals(stop) -> Iterator[None]:
    """SIGINT and SIGTERM call ``stop`` (a clean exit, status 0) while inside."""
    handler = lambda signum, frame: stop()  # noqa: E731
    before = {sig: signal.signal(sig, handler) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, old in before.items():
            signal.signal(sig, old)
