"""The game index as this process last read it, and whether it is still
the store's, without reading it again (issue 25).

A seat's every request checks that its game was not deleted (SEAT-4,
410): a read of the index, one round trip to the store per command. On
PostgreSQL the change feed's listener (``server.live``) hears every write
committed to the store at once (NOTIFY), with the database process that
made it. This process never deletes, restores or renames a game (`rk
delete`, `rk restore` and `rk rename` do, in a process of their own), so
an index a worker's application read stays good while everything heard
since came from this process's own workers' connections, and while this
process set no game up nor imported one (``moved``). It is held at most
``MAX_AGE`` seconds: a listener whose connection just dropped may not
know it yet. On SQLite, in memory, before the listener listens or while
it does not, the index is read each time, as before.

What that gives up: a delete committed in another process is seen once
its notification is heard, a fraction of a millisecond after its commit
on one machine, rather than by a request that began after the commit
returned; a write that races a delete that closely could be either side
of it anyway.
"""

from __future__ import annotations

import threading
import time
import weakref
from collections.abc import Callable
from typing import Any

from domain.kernel.battle_index import BattleIndex
from domain.kernel.games import GameApp

MAX_AGE = 1.0  # seconds an index read is trusted unread, even with nothing heard


class IndexWatch:
    """What was heard since each worker's application last read the index."""

    def __init__(self, max_age: float = MAX_AGE, clock: Callable[[], float] = time.monotonic) -> None:
        self.max_age = max_age
        self.clock = clock
        self._lock = threading.Lock()
        self._moves = 0  # writes heard from elsewhere, and this process's own changes of the index
        self._own: dict[int, int] = {}  # a worker thread -> the database process its connection talks to
        self._read: weakref.WeakKeyDictionary[GameApp, tuple[int, float]] = weakref.WeakKeyDictionary()
        self._listening: threading.Event | None = None

    @property
    def moves(self) -> int:
        """How many times the index may have moved since this process began
        (writes heard from elsewhere, and its own changes of the index)."""
        return self._moves

    def follow(self, listening: threading.Event) -> None:
        """Trust reads made while ``listening`` is set (the listener's)."""
        self._listening = listening

    def heard_from(self, pid: int | None) -> None:
        """A write was committed by database process ``pid`` (None: unknown,
        as after the listener reconnects: whatever it missed)."""
        with self._lock:
            if pid is None or pid not in self._own.values():
                self._moves += 1

    def moved(self) -> None:
        """This process changed the index (set a game up, imported one)."""
        with self._lock:
            self._moves += 1

    def writing(self, app: GameApp) -> None:
        """``app`` (this worker thread's) is about to write: its connection
        known first if it is not yet, so that its commit's notification,
        which may be heard before ``wrote``, is known as this process's own."""
        if threading.get_ident() not in self._own:
            self.wrote(app)

    def wrote(self, app: GameApp) -> None:
        """``app`` (this worker thread's) has just written: what it writes
        next is heard from the same database process."""
        pid = _backend_pid(app)
        with self._lock:
            if pid is None:
                self._own.pop(threading.get_ident(), None)
            else:
                self._own[threading.get_ident()] = pid

    def index(self, app: GameApp) -> BattleIndex:
        """``app``'s index, read again unless what it read is still the store's."""
        now = self.clock()
        listening = self._listening is not None and self._listening.is_set()
        with self._lock:
            moves = self._moves
            read = self._read.get(app)
        if listening and read is not None and read[0] == moves and now - read[1] < self.max_age:
            return app.index(refresh=False)
        index = app.index()
        if listening:  # counted before the read: a write heard during it makes it stale
            with self._lock:
                self._read[app] = (moves, now)
        return index


def _backend_pid(app: GameApp) -> int | None:
    """The database process of ``app``'s connection (PostgreSQL; None
    for any other store), asked of the driver, not the database."""
    datastore: Any = getattr(app.recorder, "datastore", None)
    if datastore is None or not hasattr(datastore, "get_connection"):
        return None
    with datastore.get_connection() as conn:
        info = getattr(conn, "info", None)  # psycopg's; an SQLite connection has none
        return int(info.backend_pid) if info is not None else None
