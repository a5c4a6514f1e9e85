"""An SQLite store read without the eventsourcing library.

A command that only reads a game (`rk status`, `rk legal`, `rk log`) needs
three things of its store: a stream's envelopes, a state rebuilt from the
latest snapshot and the envelopes after it, and the store's settings
(``domain.kernel.stores.reads``). On an SQLite file the library gives them
through its application, whose import is about a tenth of such a command;
``PlainStore`` gives them by reading the library's tables as its recorders
read them (the same connection, pragma, statements and transactions,
so a store that cannot be read is refused in the same words) and decoding
with ``EnvelopeDecoder``, the decoding half of the library application's
mapper.

``plain_settings`` says when that holds: a store the library would open
as a plain SQLite file (or an empty store: a file not there yet), with no
cipher, no compressor and no recorder of another kind configured. Any
other store is read through the library (``domain.kernel.games``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from uuid import UUID

from domain.kernel.stores.decoding import EnvelopeDecoder
from domain.kernel.stores.reads import Projector, StreamReads, replay
from domain.kernel.stores.store import Settings

SQLITE = "eventsourcing.sqlite"
MEMORY = "eventsourcing.popo"
# What the library's SQLite recorders wait for a lock when the setting is empty.
DEFAULT_LOCK_TIMEOUT = 5
# Settings under which the library would read the store otherwise than here.
OTHERWISE = ("CIPHER_TOPIC", "CIPHER_KEY", "COMPRESSOR_TOPIC", "APPLICATION_RECORDER_TOPIC")
TRUE = ("y", "yes", "t", "true", "on", "1")  # the library's truth values (``strtobool``)
FALSE = ("n", "no", "f", "false", "off", "0")


def plain_settings(settings: Settings) -> tuple[str, int] | None:
    """The SQLite database name and lock timeout the library would open
    with these settings ("" for an empty store: nothing stored there yet),
    when it would read it as ``PlainStore`` reads it; None otherwise."""
    module = settings.get("PERSISTENCE_MODULE")
    if any(settings.get(key) for key in OTHERWISE):
        return None
    if module == MEMORY:
        return "", DEFAULT_LOCK_TIMEOUT
    if module != SQLITE or settings.get("ORIGINATOR_ID_TYPE", "uuid") != "uuid":
        return None
    name = settings.get("SQLITE_DBNAME") or ""
    if not name or ":memory:" in name or "mode=memory" in name:
        return None
    # Tables made when opened, snapshots left unread: not a read as here.
    if (settings.get("CREATE_TABLE", "yes") or "yes").lower() not in FALSE:
        return None
    if str(settings.get("IS_SNAPSHOTTING_ENABLED", "no")).lower() not in TRUE:
        return None
    timeout = (settings.get("SQLITE_LOCK_TIMEOUT") or "").strip()
    if not timeout:
        return name, DEFAULT_LOCK_TIMEOUT
    try:
        return name, int(timeout) or DEFAULT_LOCK_TIMEOUT
    except ValueError:
        return None  # the library says what is wrong with it


def event_rows_query(
    table: str, key: str, *, gt: int | None, lte: int | None, desc: bool, limit: int | None
) -> tuple[str, list[Any]]:
    """The SELECT of one stream's (version, topic, state) rows in ``table``
    with gt < version <= lte, oldest first (newest when ``desc``), at most
    ``limit``: the library's ``select_events`` statement, and its parameters."""
    statement = f"SELECT originator_version, topic, state FROM {table} WHERE originator_id=? "
    params: list[Any] = [key]
    if gt is not None:
        statement += "AND originator_version>? "
        params.append(gt)
    if lte is not None:
        statement += "AND originator_version<=? "
        params.append(lte)
    statement += "ORDER BY originator_version " + ("DESC " if desc else "ASC ")
    if limit is not None:
        statement += "LIMIT ? "
        params.append(limit)
    return statement, params


class SqliteRows:
    """An SQLite store's tables, read as the library's SQLite recorders read
    them: one connection, opened on the first read (``uri``, autocommit, the
    lock timeout), WAL asked for as the library asks, each read in a
    transaction of its own (``BEGIN``, then rolled back; a write's is
    committed). Rows come as
    ``sqlite3.Row``, as from the library's connections, except a stream's
    (``select_event_rows``: plain tuples). ``name`` "": an empty store."""

    events_table_name = "stored_events"

    def __init__(self, name: str, lock_timeout: int) -> None:
        self.name = name
        self.lock_timeout = lock_timeout
        self._connection: sqlite3.Connection | None = None

    def _connect(self) -> sqlite3.Connection:
        if not self.name:
            # Nothing stored yet: the library reads an empty store in memory.
            empty = sqlite3.connect(":memory:", isolation_level=None)
            for table in ("stored_events", "stored_snapshots"):
                empty.execute(
                    f"CREATE TABLE {table} (originator_id TEXT, originator_version INTEGER, topic TEXT, state BLOB)"
                )
            empty.row_factory = sqlite3.Row
            return empty
        connection = sqlite3.connect(
            database=self.name,
            uri=True,
            check_same_thread=False,
            isolation_level=None,
            cached_statements=True,
            timeout=self.lock_timeout,
        )
        try:
            mode = connection.execute("PRAGMA journal_mode;").fetchone()[0]
            if mode.lower() != "wal":
                connection.execute("PRAGMA journal_mode=WAL;")
        except BaseException:
            connection.close()
            raise
        connection.row_factory = sqlite3.Row
        return connection

    @contextmanager
    def transaction(self, commit: bool = False) -> Iterator[sqlite3.Cursor]:
        """A cursor in a transaction of its own, as the library's
        (``BEGIN``): rolled back when it ends, or, with ``commit`` (a
        write: ``domain.kernel.stores.plain_writes``), committed when it
        ends without an error and rolled back when it raises."""
        if self._connection is None:
            self._connection = self._connect()
        cursor = self._connection.cursor()
        try:
            cursor.execute("BEGIN")
            done = False
            try:
                yield cursor
                done = commit
            finally:
                if done:
                    self._connection.commit()
                else:
                    self._connection.rollback()
        finally:
            cursor.close()

    def select_event_rows(
        self,
        originator_id: UUID,
        *,
        gt: int | None = None,
        lte: int | None = None,
        desc: bool = False,
        limit: int | None = None,
        table: str = "stored_events",
    ) -> list[tuple[int, str, bytes]]:
        """A stream's rows, as (version, topic, state), in version order
        (newest first when ``desc``), at most ``limit``: the statement of
        the library's ``select_events``."""
        statement, params = event_rows_query(table, originator_id.hex, gt=gt, lte=lte, desc=desc, limit=limit)
        with self.transaction() as c:
            c.row_factory = None
            c.execute(statement, params)
            return c.fetchall()

    @staticmethod
    def convert_originator_id(originator_id: str) -> UUID:
        """A stored stream id (32 hex digits) as a ``UUID``."""
        return UUID(originator_id)

    def close(self) -> None:
        """Close the connection, if one was opened."""
        if self._connection is not None:
            self._connection.close()
            self._connection = None


class TableReads(StreamReads):
    """One table's envelopes by stream (the events', or the snapshots')."""

    def __init__(self, rows: SqliteRows, decoder: EnvelopeDecoder, table: str) -> None:
        self.rows = rows
        self.decoder = decoder
        self.table = table

    def get(
        self,
        originator_id: UUID,
        *,
        gt: int | None = None,
        lte: int | None = None,
        desc: bool = False,
        limit: int | None = None,
    ) -> Iterator[Any]:
        """The stored envelopes of ``originator_id`` (see ``StreamReads.get``)."""
        found = self.rows.select_event_rows(originator_id, gt=gt, lte=lte, desc=desc, limit=limit, table=self.table)
        return self.decoder.envelopes(originator_id, found)


class PlainStore:
    """The reading half of ``EventSourcedApp`` on an SQLite store, without
    the library: ``events``, ``load``, ``mapper`` (its decoding),
    ``recorder`` (the tables, as ``streams_order`` reads them) and ``env``
    (the settings). ``plain_settings`` gives ``name`` and ``lock_timeout``."""

    read_only = True

    def __init__(self, settings: Settings, name: str, lock_timeout: int) -> None:
        self.env = settings
        self.recorder = SqliteRows(name, lock_timeout)
        self.mapper = EnvelopeDecoder()
        self.events = TableReads(self.recorder, self.mapper, "stored_events")
        self.snapshots = TableReads(self.recorder, self.mapper, "stored_snapshots")

    def load(self, stream_id: UUID, project: Projector, version: int | None = None) -> Any:
        """A stream's state, as ``EventSourcedApp.load`` rebuilds it."""
        return replay(self.snapshots.get, self.events.get, stream_id, project, version)

    def close(self) -> None:
        """Release the database connection."""
        self.recorder.close()
