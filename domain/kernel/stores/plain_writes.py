"""An SQLite store written without the eventsourcing library.

A command that writes a game (`rk move`) needs, besides the reads of
``PlainStore``, two writes: a command's envelopes of one or several
streams appended in one transaction, and a snapshot. On an SQLite file the
library gives them through its application, whose import is about a
seventh of such a command; ``PlainWriter`` writes the library's own rows
with the library's own statements and transaction (eventsourcing 9.5.x,
``eventsourcing.sqlite``):

- events: ``BEGIN`` (deferred, as the library's), then ``INSERT INTO
  stored_events VALUES (?,?,?,?)`` row by row, each row's notification id
  its ``lastrowid``, then ``COMMIT``; any error rolls everything back. A
  (stream, version) taken already fails the table's primary key
  (``sqlite3.IntegrityError``): the library's application says "moved on"
  (``ConcurrencyError``, ``MOVED_ON``), and so does this;
- snapshots: the same transaction around ``INSERT INTO stored_snapshots
  VALUES (?,?,?,?)``; a snapshot of a version stored already is kept, the
  second one dropped (``EventSourcedApp.save_snapshot``);
- the lock timeout, the connection (``uri``, autocommit) and its WAL
  pragma are ``SqliteRows``', which opens it as the library's recorders do.

Rows are encoded by ``domain.kernel.stores.encoding``, as the library's
application encodes them (``MsgspecMapper``), so a row does not say which
wrote it. The library stays the owner of the schema: ``PlainWriter`` writes
only to tables it made (``has_tables``; ``domain.kernel.open_writes`` goes
through the library otherwise), never creates one.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any
from uuid import UUID

import msgspec

from domain.kernel.envelope import Envelope, SnapshotEnvelope, register_state, utc_now
from domain.kernel.errors import MOVED_ON, ConcurrencyError
from domain.kernel.stores.encoding import encoded
from domain.kernel.stores.plain import PlainStore

EVENTS = "stored_events"
SNAPSHOTS = "stored_snapshots"
# The library's statements (``SQLiteAggregateRecorder``, ``SQLiteApplicationRecorder``).
INSERT_EVENT = f"INSERT INTO {EVENTS} VALUES (?,?,?,?)"
INSERT_SNAPSHOT = f"INSERT INTO {SNAPSHOTS} VALUES (?,?,?,?)"
MAX_NOTIFICATION_ID = f"SELECT MAX(rowid) FROM {EVENTS}"


class PlainWriter(PlainStore):
    """``PlainStore`` that also writes: the writing half of
    ``EventSourcedApp`` on an SQLite store whose tables exist, without the
    library (``append``, ``save_snapshot``, ``max_notification_id``)."""

    read_only = False

    def has_tables(self) -> bool:
        """Whether the store holds the library's events and snapshots
        tables (a store without them is the library's to make)."""
        with self.recorder.transaction() as c:
            c.execute(
                "SELECT COUNT(*) FROM sqlite_master WHERE type='table' AND name IN (?, ?)",
                (EVENTS, SNAPSHOTS),
            )
            return bool(c.fetchone()[0] == 2)

    def append(self, envelopes: Sequence[Envelope]) -> int:
        """Save ``envelopes`` (of one or several streams) in one transaction,
        as ``EventSourcedApp.append`` does: the notification id of the last
        one (the current maximum when there are none); if another writer
        took any of the stream versions first (or they repeat one),
        ``ConcurrencyError`` and nothing at all was written."""
        rows = [_row(e) for e in envelopes]
        if not rows:
            return self.max_notification_id()
        last = 0
        try:
            with self.recorder.transaction(commit=True) as c:
                for row in rows:
                    c.execute(INSERT_EVENT, row)
                    last = c.lastrowid or 0
        except sqlite3.IntegrityError as e:
            # One transaction: a taken version rolls back every event of every stream.
            raise ConcurrencyError(MOVED_ON) from e
        return last

    def save_snapshot(self, stream_id: UUID, version: int, state: msgspec.Struct, topic: str) -> None:
        """Store ``state`` as the state of ``stream_id`` after ``version``,
        as ``EventSourcedApp.save_snapshot`` does (the first one saved at a
        version is kept)."""
        register_state(topic, type(state))
        snapshot = SnapshotEnvelope(
            originator_id=stream_id, originator_version=version, timestamp=utc_now(), state=state
        )
        try:
            with self.recorder.transaction(commit=True) as c:
                c.executemany(INSERT_SNAPSHOT, [_row(snapshot)])
        except sqlite3.IntegrityError:
            pass

    def max_notification_id(self) -> int:
        """The id of the last envelope appended, 0 when the log is empty."""
        with self.recorder.transaction() as c:
            c.execute(MAX_NOTIFICATION_ID)
            return int(c.fetchone()[0] or 0)


def _row(envelope: Any) -> tuple[str, int, str, bytes]:
    """An envelope's row, as the library's recorder inserts it (the stream id as 32 hex digits)."""
    topic, data = encoded(envelope)
    return envelope.originator_id.hex, envelope.originator_version, topic, data
