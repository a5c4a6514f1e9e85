"""The read models kept caught up by a process of their own
(`rk projections follow`).

A ``Follower`` catches every view up with the store's notification log
(``projections.views.catch_up``), then waits for more and catches up
again, until told to stop. On PostgreSQL it wakes when the store
NOTIFYs an insert (``domain.kernel.stores.pglisten``), with a slow poll as the
fallback; SQLite has no notifications, so it polls every ``POLL`` seconds
(one query for the position, one for the log after it).

Readers still catch up themselves before they read (a view is never
older than the log because no follower runs), but with one running they
find nothing left to do: the work is done off the request's path.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Callable
from typing import Any

from domain.kernel.stores.application import EventSourcedApp

from . import views

POLL = 0.5  # seconds between looks at the log without notifications (SQLite)
FALLBACK = 5.0  # seconds between looks at the log when notifications wake us (PostgreSQL)
LISTEN_WAIT = 5.0  # seconds the first catch-up waits for the listener (the poll covers a miss)

log = logging.getLogger("rulekeeper.projections")


class Follower:
    """Keeps ``app``'s views caught up until ``stop()``.

    ``run()`` blocks: call ``stop()`` from a signal handler or another
    thread. ``read`` counts the notifications read into the views so far.
    """

    def __init__(self, app: EventSourcedApp, poll: float = POLL, fallback: float = FALLBACK) -> None:
        self.app = app
        self.poll = poll
        self.fallback = fallback
        self.read = 0
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._listener: Any = None

    def catch_up(self, progress: Callable[[int], None] | None = None) -> int:
        """Bring every view up to the end of the log now; the notifications read."""
        counted = [0]

        def count(n: int) -> None:
            counted[0] += n
            if progress is not None:
                progress(n)

        views.catch_up(self.app, progress=count)
        self.read += counted[0]
        return counted[0]

    def run(self, ready: Callable[[int], None] | None = None) -> None:
        """Catch up, tell ``ready`` how many notifications that read, then
        follow the log until ``stop()``."""
        self._listen()
        try:
            if self._listener is not None:
                # Listen before the first catch-up, so no write falls between.
                self._listener.listening.wait(LISTEN_WAIT)
            first = self.catch_up()
            if ready is not None:
                ready(first)
            wait = self.fallback if self._listener is not None else self.poll
            while not self._stopping.is_set():
                self._wake.wait(wait)
                self._wake.clear()
                if self._stopping.is_set():
                    break
                self._catch_up_again()
        finally:
            if self._listener is not None:
                self._listener.stop()
                self._listener = None

    def stop(self) -> None:
        """Stop following (safe from a signal handler or another thread)."""
        self._stopping.set()
        self._wake.set()

    @property
    def position(self) -> int:
        """The notification id every view has reached."""
        return views.views_for(self.app).position()

    def _catch_up_again(self) -> None:
        try:
            self.catch_up()
        except (sqlite3.OperationalError, *_store_errors()) as e:  # type: ignore[misc]  # a tuple of classes
            # The store (or the views' file) is away or locked for a moment:
            # the next look tries again. A bug in a view still stops us.
            log.warning("cannot catch the views up now: %s", " ".join(str(e).split()) or type(e).__name__)

    def _listen(self) -> None:
        if self.app.env.get("PERSISTENCE_MODULE") != "eventsourcing.postgres":
            return
        from domain.kernel.stores.pglisten import Listener, listen_target

        target = listen_target(self.app)
        if target is not None:
            self._listener = Listener(*target, self._wake.set)
            self._listener.start()


def _store_errors() -> tuple[type[BaseException], ...]:
    from eventsourcing.persistence import PersistenceError

    return (PersistenceError,)
