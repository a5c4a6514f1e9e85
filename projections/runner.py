"""A catch-up projector: read models kept in an SQLite database of their own.

The eventsourcing library's ``ProjectionRunner`` needs a recorder that can
``subscribe()``, which its SQLite recorder cannot, and the library does not
share one SQLite file between applications. So the views live in a separate
SQLite database and are brought up to date on demand: ``Catchup.catch_up(app)``
reads the application's notification log from the oldest position of its
projections, a page at a time, and for each page applies every projection's
handlers and moves every projection's position in ONE transaction. A crash
mid-page therefore rolls back the rows and the position together: the next
catch-up resumes after the last committed page, and rows never hold an event
twice. Because handlers only read the events they are given (never the clock,
never the application's current state), deleting the database and catching up
from zero gives identical rows.

On PostgreSQL the same projections could later be driven by the library's
``ProjectionRunner`` with a tracking recorder; today they use this runner on
every store (see ``projections.views.views_path_for``).
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from domain.kernel.stores.application import EventSourcedApp
from domain.kernel.envelope import is_state_topic
from domain.kernel.stores.streams_order import stored_page
from domain.kernel.read_model import Projection, handles

__all__ = ["Catchup", "Projection", "handles"]


# Notifications per transaction: large enough that commits are not the cost,
# small enough that a crash loses little work.
PAGE = 500

# Seconds a writer waits for another process's lock on the views database.
LOCK_TIMEOUT = 5.0

_POSITIONS = "CREATE TABLE IF NOT EXISTS positions ( projection TEXT PRIMARY KEY, notification_id INTEGER NOT NULL)"


class Catchup:
    """The views database and the projections kept in it.

    ``path`` is the SQLite file, created if missing; None means an in-memory
    database that lives as long as this object. Reads and catch-ups are
    serialised by a lock, so one ``Catchup`` can serve several threads.
    Several processes may share the file: each page's transaction takes the
    write lock first and re-reads the positions, so a page another process
    already applied is skipped.
    """

    def __init__(self, path: Path | None, projections: Sequence[Projection], page: int = PAGE):
        if page < 1:
            raise ValueError("page must be at least 1")
        self.path = path
        self.page = page
        self.projections = tuple(projections)
        names = [p.name for p in self.projections]
        if len(set(names)) != len(names) or not all(names):
            raise ValueError(f"projections need distinct non-empty names: {names}")
        self._handlers = [(p.name, p.handlers()) for p in self.projections]
        self._dispatch: dict[type, list[tuple[str, Callable]]] = {}
        self._lock = threading.RLock()
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
        # Autocommit mode (isolation_level=None): every transaction here is an
        # explicit BEGIN ... COMMIT, so nothing commits behind our back.
        if path is not None:
            from domain.kernel.stores.store import create_private

            create_private(path)  # 0600, as the store itself
        self.db = sqlite3.connect(
            ":memory:" if path is None else str(path),
            isolation_level=None,
            timeout=LOCK_TIMEOUT,
            check_same_thread=False,
        )
        if path is not None:
            # Readers (rk track in another terminal) do not block the writer.
            self.db.execute("PRAGMA journal_mode=WAL")
            # Views are derived data a rebuild restores, and WAL keeps them
            # consistent without a sync on every commit.
            self.db.execute("PRAGMA synchronous=NORMAL")
        self._create()

    def _create(self) -> None:
        with self._transaction():
            self.db.execute(_POSITIONS)
            known = {name for (name,) in self.db.execute("SELECT projection FROM positions")}
            for p in self.projections:
                for ddl in p.schema:
                    self.db.execute(ddl)
                if p.name not in known:
                    # A new name over old tables (the same layout, other rows:
                    # new words, say): start them afresh, or the rebuild would
                    # read the old rows' state as it goes.
                    for table in p.tables:
                        self.db.execute(f"DELETE FROM {table}")
                    self.db.execute("INSERT INTO positions VALUES (?, 0)", (p.name,))

    # -- positions -------------------------------------------------------------

    def positions(self) -> dict[str, int]:
        """Each projection's last applied notification id (0: none yet)."""
        with self._lock:
            rows = self.db.execute("SELECT projection, notification_id FROM positions")
            known = dict(rows.fetchall())
        return {p.name: known.get(p.name, 0) for p in self.projections}

    def position(self, only: Collection[str] | None = None) -> int:
        """The notification id every projection (of ``only``, by name, when
        given) has reached."""
        return min((n for name, n in self.positions().items() if only is None or name in only), default=0)

    # -- catching up -----------------------------------------------------------

    def behind(self, app: EventSourcedApp, only: Collection[str] | None = None) -> int:
        """About how many notifications a catch-up (of ``only``) would read
        (ids may have gaps): what a progress display counts to."""
        return max(app.max_notification_id() - self.position(only), 0)

    def catch_up(
        self,
        app: EventSourcedApp,
        upto: int | None = None,
        progress: Callable[[int], None] | None = None,
        only: Collection[str] | None = None,
    ) -> int:
        """Apply the notifications after the current positions, up to ``upto``
        (default: the end of the log); return how many envelopes were applied.
        ``progress(n)`` is told of each page's ``n`` notifications once applied.
        ``only``: the names of the projections to bring up (default: all); a
        read of one view need not wait for the others, which stay where they
        were until a catch-up of theirs.

        Each page is one transaction. If a handler raises, that page is
        rolled back (rows and positions) and the error propagates.
        """
        with self._lock:
            applied = 0
            names = frozenset(p.name for p in self.projections if only is None or p.name in only)
            start = self.position(names) + 1
            while True:
                rows = stored_page(app, start, self.page)
                page = [row for row in rows if upto is None or row.id <= upto]
                if not page:
                    return applied
                events = [row for row in page if not is_state_topic(row.topic)]
                if events:
                    applied += self._apply(app.mapper, events, names)
                if progress is not None:
                    progress(len(page))
                if len(rows) < self.page or (upto is not None and page[-1].id >= upto):
                    return applied
                start = rows[-1].id + 1

    def _apply(self, mapper: Any, page: list[Any], names: frozenset[str]) -> int:
        # Each stored event is decoded as it is applied, not the page's
        # together first: a page of undos holds the states they restore.
        applied = 0
        to_domain_event = mapper.to_domain_event
        with self._transaction():
            # Re-read inside the write lock: another process may have moved on.
            done = dict(self.db.execute("SELECT projection, notification_id FROM positions").fetchall())
            active = [p for p in self.projections if p.name in names]
            for p in active:
                p.page_begun()
            # Each event type's handlers of the projections caught up here,
            # with where each stands, found once a page rather than per event.
            wanted: dict[type, list[tuple[int, Callable]]] = {}
            for row in page:
                nid = row.id
                envelope = to_domain_event(row)
                kind = type(envelope.event)
                handlers = wanted.get(kind)
                if handlers is None:
                    handlers = wanted[kind] = [
                        (done.get(name, 0), handler) for name, handler in self._handlers_of(kind) if name in names
                    ]
                for position, handler in handlers:
                    if nid > position:
                        handler(self.db, nid, envelope)
                        applied += 1
            for p in active:
                p.page_ending(self.db)
            last = page[-1].id
            self.db.executemany(
                "UPDATE positions SET notification_id = ? WHERE projection = ? AND notification_id < ?",
                [(last, p.name, last) for p in self.projections if p.name in names],
            )
        return applied

    def _handlers_of(self, event_type: type) -> list[tuple[str, Callable]]:
        """Each projection's handler of ``event_type``: the one registered
        for the type itself or for its nearest base class (so a projection
        may follow every event of every ruleset with ``@handles(Event)``)."""
        found = self._dispatch.get(event_type)
        if found is None:
            found = []
            for name, handlers in self._handlers:
                handler = next((handlers[t] for t in event_type.__mro__ if t in handlers), None)
                if handler is not None:
                    found.append((name, handler))
            self._dispatch[event_type] = found
        return found

    # -- reading and maintenance -----------------------------------------------

    @contextmanager
    def reading(self) -> Iterator[sqlite3.Connection]:
        """The database for a consistent read (one read transaction)."""
        with self._lock:
            self.db.execute("BEGIN")
            try:
                yield self.db
            finally:
                self.db.execute("COMMIT")

    def reset(self) -> None:
        """Empty every projection's tables and positions: the next catch-up
        rebuilds from the first notification."""
        with self._lock, self._transaction():
            for p in self.projections:
                for table in p.tables:
                    self.db.execute(f"DELETE FROM {table}")
                self.db.execute("UPDATE positions SET notification_id = 0 WHERE projection = ?", (p.name,))

    def contents(self) -> dict[str, list[tuple]]:
        """Every row of every projection table, sorted (for comparing a
        database with a rebuild)."""
        with self.reading() as db:
            return {
                table: sorted(db.execute(f"SELECT * FROM {table}").fetchall())
                for p in self.projections
                for table in p.tables
            }

    def close(self) -> None:
        """Close the database (an in-memory one is gone after this)."""
        with self._lock:
            self.db.close()

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        # IMMEDIATE takes the write lock at BEGIN, so two processes cannot
        # both read a position and then both apply the same page.
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")
