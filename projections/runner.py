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
import zlib
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import quote

from domain.kernel.envelope import is_state_topic
from domain.kernel.read_model import Projection, handles

__all__ = ["Catchup", "Log", "Projection", "handles"]


class Log(Protocol):
    """What a catch-up reads: an application's store (``EventSourcedApp``),
    or a stand-in for it (``projections.views.StoreHead``) that makes the
    application only once there are rows to read."""

    def max_notification_id(self) -> int: ...

    @property
    def recorder(self) -> Any: ...  # the library's, whose rows a catch-up pages (``streams_order.stored_page``)

    @property
    def mapper(self) -> Any: ...  # the library's, which decodes each row as it is applied


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

    A file these projections made already is opened read-only, and for
    writing only once a catch-up has something to apply: most commands
    read views that are up to date, and a reader neither makes SQLite's
    WAL files again on opening nor checkpoints and removes them on closing,
    as the last writer to close does.
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
        self._handlers: list[tuple[str, dict[type, Callable]]] | None = None  # bound on the first event applied
        self._dispatch: dict[type, list[tuple[str, Callable]]] = {}
        self._lock = threading.RLock()
        reader = self._reader()
        self._writes = reader is None
        self.db = self._writer() if reader is None else reader

    def _connect(self, read_only: bool) -> sqlite3.Connection:
        # Autocommit mode (isolation_level=None): every transaction here is an
        # explicit BEGIN ... COMMIT, so nothing commits behind our back.
        if self.path is None:
            target = ":memory:"
        elif read_only:
            target = f"file:{quote(str(self.path.absolute()))}?mode=ro"
        else:
            target = str(self.path)
        return sqlite3.connect(
            target, uri=read_only, isolation_level=None, timeout=LOCK_TIMEOUT, check_same_thread=False
        )

    def _reader(self) -> sqlite3.Connection | None:
        """A read-only connection to the file, when these projections made
        it already; else None."""
        if self.path is None or not self.path.is_file():
            return None
        db = self._connect(read_only=True)
        try:
            if self._made(db):
                return db
        except sqlite3.Error:  # no tables yet, or a file SQLite cannot read as it is
            pass
        db.close()
        return None

    def _writer(self) -> sqlite3.Connection:
        """A connection that writes, to a database made for these projections."""
        path = self.path
        if path is not None:
            from domain.kernel.stores.store import create_private

            path.parent.mkdir(parents=True, exist_ok=True)
            create_private(path)  # 0600, as the store itself
        db = self._connect(read_only=False)
        if path is not None:
            # Views are derived data a rebuild restores, and WAL keeps them
            # consistent without a sync on every commit.
            db.execute("PRAGMA synchronous=NORMAL")
        if not self._made(db):
            if path is not None:
                # Readers (rk track in another terminal) do not block the writer.
                db.execute("PRAGMA journal_mode=WAL")
            self._create(db)
        return db

    def _writing(self) -> None:
        """Before a write: the read-only connection, if it is one, replaced
        by one that writes (under the lock)."""
        if not self._writes:
            self.db.close()
            self.db = self._writer()
            self._writes = True

    def _layout(self) -> int:
        """A number for the tables these projections make, by their names
        and statements (SQLite's ``user_version``, a signed 32-bit integer,
        not 0: the number of a database nothing made yet)."""
        text = "\n".join([_POSITIONS, *(f"{p.name}\n" + "\n".join(p.schema) for p in self.projections)])
        return zlib.crc32(text.encode()) & 0x7FFFFFFF or 1

    def _made(self, db: sqlite3.Connection) -> bool:
        """Whether ``db`` already holds what ``_create`` makes for these
        projections: made by the same statements (its ``user_version`` says
        so) and a position for every one. Every command that reads a view
        opens the database: two reads, rather than a write transaction of
        some thirty statements that change nothing. ``_create`` sets the
        number in the transaction that makes the rest, so once it is read
        the positions read after it are there."""
        if db.execute("PRAGMA user_version").fetchone()[0] != self._layout():
            return False
        known = {name for (name,) in db.execute("SELECT projection FROM positions")}
        return all(p.name in known for p in self.projections)

    def _create(self, db: sqlite3.Connection) -> None:
        with _transaction(db):
            db.execute(_POSITIONS)
            known = {name for (name,) in db.execute("SELECT projection FROM positions")}
            for p in self.projections:
                for ddl in p.schema:
                    db.execute(ddl)
                if p.name not in known:
                    # A new name over old tables (the same layout, other rows:
                    # new words, say): start them afresh, or the rebuild would
                    # read the old rows' state as it goes.
                    for table in p.tables:
                        db.execute(f"DELETE FROM {table}")
                    db.execute("INSERT INTO positions VALUES (?, 0)", (p.name,))
            db.execute(f"PRAGMA user_version = {self._layout()}")

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

    def behind(self, app: Log, only: Collection[str] | None = None) -> int:
        """About how many notifications a catch-up (of ``only``) would read
        (ids may have gaps): what a progress display counts to."""
        return max(app.max_notification_id() - self.position(only), 0)

    def catch_up(
        self,
        app: Log,
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
            if app.max_notification_id() < start:
                return applied  # nothing new: neither the library's application nor its rows are needed
            from domain.kernel.stores.streams_order import stored_page

            while True:
                rows = stored_page(app, start, self.page)
                page = [row for row in rows if upto is None or row.id <= upto]
                if not page:
                    return applied
                events = [row for row in page if not is_state_topic(row.topic)]
                if events:
                    self._writing()
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
        with _transaction(self.db):
            # Re-read inside the write lock: another process may have moved on.
            done = dict(self.db.execute("SELECT projection, notification_id FROM positions").fetchall())
            active = [p for p in self.projections if p.name in names]
            for p in active:
                p.page_begun(done.get(p.name, 0))
            # Each event type's handlers of the projections caught up here,
            # with where each stands, found once a page rather than per event.
            wanted: dict[type, list[tuple[int, Callable]]] = {}
            # A projection caught up alone may read a part of an event (``narrowed``).
            whole: dict[type, type] = {}  # the class each narrowed Struct stands for
            decoded = mapper.decoded(page) if len(active) != 1 else mapper.decoded(page, _narrower(active[0], whole))
            for row, envelope in zip(page, decoded):  # each decoded as it is applied
                nid = row.id
                kind = type(envelope.event)
                handlers = wanted.get(kind)
                if handlers is None:
                    handlers = wanted[kind] = [
                        (done.get(name, 0), handler)
                        for name, handler in self._handlers_of(whole.get(kind, kind))
                        if name in names
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
            if self._handlers is None:
                self._handlers = [(p.name, p.handlers()) for p in self.projections]
            for name, handlers in self._handlers:
                handler = next((handlers[t] for t in event_type.__mro__ if t in handlers), None)
                if handler is not None:
                    found.append((name, handler))
            self._dispatch[event_type] = found
        return found

    # -- reading and maintenance -----------------------------------------------

    @contextmanager
    def writing(self) -> Iterator[sqlite3.Connection]:
        """The database in one write transaction (rolled back if the block
        raises)."""
        with self._lock:
            self._writing()
            with _transaction(self.db):
                yield self.db

    @contextmanager
    def alone(self) -> Iterator[None]:
        """Nothing else runs on these views meanwhile (their lock, which
        catch-ups and reads take too): a catch-up and a read of what it
        built, with no other catch-up between them."""
        with self._lock:
            yield

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
        with self._lock:
            self._writing()
            self._reset()

    def _reset(self) -> None:
        with _transaction(self.db):
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


def _narrower(projection: Projection, whole: dict[type, type]) -> Callable[[type], type | None]:
    """``projection.narrowed``, each Struct it gives noted in ``whole`` with
    the class it stands for (whose handler it is given to)."""

    def narrowed(event_type: type) -> type | None:
        narrow = projection.narrowed(event_type)
        if narrow is not None:
            whole[narrow] = event_type
        return narrow

    return narrowed


@contextmanager
def _transaction(db: sqlite3.Connection) -> Iterator[None]:
    # IMMEDIATE takes the write lock at BEGIN, so two processes cannot
    # both read a position and then both apply the same page.
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")
