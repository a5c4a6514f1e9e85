"""A few streams' events merged into append order, without reading the rest.

The notification log holds every event of the store in append order; a
game's portable log needs only its own streams' events, in that order.
Reading the whole notification log to pick them out costs what the store
costs (a small battle in a big store pays for all of it). So this module
asks the store for just those streams' rows, ordered by notification id,
a page at a time, with one query per store kind the application may use:

- ``eventsourcing.popo`` (memory): the recorder's own index of each
  stream's positions in its list of stored events;
- ``eventsourcing.sqlite``, or the same file read without the library
  (``domain.kernel.stores.plain``): ``rowid`` is the notification id;
- ``eventsourcing.postgres``: the ``notification_id`` column.

Any other recorder falls back on the whole notification log, filtered.
The recorders' attributes used here are the library's (9.5.x), not its
public API: each use is guarded, and the fallback keeps export working if
a release moves them.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, NamedTuple
from uuid import UUID

from domain.kernel.envelope import Envelope, is_state_topic
from domain.kernel.messages import event_class
from domain.kernel.stores.plain import SqliteRows

if TYPE_CHECKING:
    from eventsourcing.persistence import Notification

PAGE = 500


class Row(NamedTuple):
    """One stored event as the SQLite pages here read it: the attributes of
    the library's ``Notification`` that the mapper reads, as a tuple (made
    in about half the time of that frozen dataclass, once per event of a
    long log, twice for `rk log`)."""

    id: int
    originator_id: UUID
    originator_version: int
    topic: str
    state: bytes


def envelopes_in_append_order(
    app: Any,
    streams: Collection[UUID],
    page: int = PAGE,
    narrower: Callable[[type], type | None] | None = None,
) -> Iterator[Envelope]:
    """Every envelope of ``streams`` in ``app``'s store, in append order,
    read ``page`` rows at a time (memory does not grow with the streams).
    ``narrower``: what an event class is decoded into instead (a Struct
    leaving fields unread), as ``EnvelopeDecoder.decoded`` takes it."""
    streams = list(streams)
    if len(streams) == 1 and _is_sqlite(app.recorder):
        # One SQLite stream (`rk log` of a game without companions): its rows
        # go to the decoder as the query gives them, with no row made of each.
        stream = streams[0]
        yield from app.mapper.envelopes(stream, _sqlite_stream(app.recorder, stream, page), narrower, events_only=True)
        return
    rows = (n for n in _notifications(app, streams, page) if not is_state_topic(n.topic))
    yield from app.mapper.decoded(rows, narrower)


def headers_in_append_order(
    app: Any, streams: Collection[UUID], topics: Collection[str], page: int = PAGE
) -> Iterator[tuple[int, str, Envelope | None]]:
    """``(version, command id, envelope)`` for every event of ``streams`` in
    append order, as ``envelopes_in_append_order`` reads them, but with the
    envelope decoded only for an event stored under one of ``topics`` (None
    for the others, whose fields are not read: a first pass over a long log
    that looks for a few kinds of events need not decode the rest)."""
    mapper = app.mapper
    for notification in _notifications(app, list(streams), page):
        topic = notification.topic
        if is_state_topic(topic):
            continue
        if topic in topics or not _known(topic):  # an unknown topic: refused as the full read refuses it
            envelope = mapper.to_domain_event(notification)
            yield envelope.originator_version, envelope.command_id, envelope
        else:
            yield notification.originator_version, mapper.command_id_of(notification), None


def stored_page(app: Any, start: int, limit: int) -> Sequence[Notification | Row]:
    """The store's next ``limit`` stored events from notification id
    ``start`` on, every stream's, in append order and undecoded (the
    mapper's ``to_domain_event`` reads each): a reader that applies them one
    at a time (the read models' catch-up) decodes each as it comes, rather
    than holding a page of decoded events and the states they restore. On
    SQLite the rows are read as plain tuples, each stream's id made once."""
    recorder = app.recorder
    if _is_sqlite(recorder):
        return _sqlite_page(recorder, start, limit)
    return list(recorder.select_notifications(start=start, limit=limit))


def _sqlite_page(recorder: Any, start: int, limit: int) -> list[Row]:
    statement = (
        f"SELECT rowid, originator_id, originator_version, topic, state FROM {recorder.events_table_name}"
        " WHERE rowid >= ? ORDER BY rowid LIMIT ?"
    )
    with _reading(recorder) as c:
        c.execute(statement, [start, limit])
        rows = c.fetchall()
    ids: dict[str, UUID] = {}  # a page holds a few streams: each id is parsed once
    out = []
    for rowid, originator_id, version, topic, state in rows:  # by position: the SELECT's order
        stream = ids.get(originator_id)
        if stream is None:
            stream = ids[originator_id] = recorder.convert_originator_id(originator_id)
        out.append(Row(rowid, stream, version, topic, state))
    return out


def _known(topic: str) -> bool:
    try:
        event_class(topic)
    except KeyError:
        return False
    return True


def _notifications(app: Any, streams: list[UUID], page: int) -> Iterator[Notification | Row]:
    recorder = app.recorder
    module = type(recorder).__module__
    if module == "eventsourcing.popo" and hasattr(recorder, "_stored_events_index"):
        return _popo(recorder, streams)
    if _is_sqlite(recorder):
        return _sqlite(recorder, streams, page)
    if _is_postgres(recorder) and hasattr(recorder, "datastore"):
        return _postgres(recorder, streams, page)
    return _everything(recorder, streams, page)


def _is_sqlite(recorder: Any) -> bool:
    return isinstance(recorder, SqliteRows) or (
        type(recorder).__module__ == "eventsourcing.sqlite" and hasattr(recorder, "datastore")
    )


def _reading(recorder: Any) -> AbstractContextManager[Any]:
    """A read transaction's cursor on an SQLite recorder (the library's,
    or the file read without it)."""
    if isinstance(recorder, SqliteRows):
        return recorder.transaction()
    return recorder.datastore.transaction(commit=False)


def _is_postgres(recorder: Any) -> bool:
    # The kernel's own PostgreSQL recorder (domain.kernel.stores.pgstore) subclasses the library's.
    return any(c.__module__ == "eventsourcing.postgres" for c in type(recorder).__mro__)


def _popo(recorder: Any, streams: list[UUID]) -> Iterator[Notification]:
    from eventsourcing.persistence import Notification  # the library's store: imported already

    # The index maps stream -> {version: position in the list}; position + 1
    # is the notification id. Positions only (ints) are held, not events.
    with recorder._database_lock:
        positions = sorted(i for sid in streams for i in recorder._stored_events_index.get(str(sid), {}).values())
    for i in positions:
        s = recorder._stored_events[i]
        yield Notification(
            id=i + 1,
            originator_id=s.originator_id,
            originator_version=s.originator_version,
            topic=s.topic,
            state=s.state,
        )


def _sqlite(recorder: Any, streams: list[UUID], page: int) -> Iterator[Row]:
    if len(streams) == 1:
        return _sqlite_one(recorder, streams[0], page)
    return _sqlite_merged(recorder, streams, page)


def _sqlite_one(recorder: Any, stream: UUID, page: int, topic: str | None = None) -> Iterator[Row]:
    # One stream's append order is its version order: the primary key's
    # index gives each page in order, where ``ORDER BY rowid`` sorted the
    # whole stream again for every page. ``topic``: that topic's rows only.
    statement = (
        f"SELECT rowid, originator_version, topic, state FROM {recorder.events_table_name}"
        " WHERE originator_id = ? AND originator_version > ?"
        + (" AND topic = ?" if topic is not None else "")
        + " ORDER BY originator_version LIMIT ?"
    )
    after = 0
    while True:
        with _reading(recorder) as c:
            c.execute(statement, [stream.hex, after, *([topic] if topic is not None else []), page])
            rows = c.fetchall()
        for rowid, version, found, state in rows:  # by position: the SELECT's order
            yield Row(rowid, stream, version, found, state)
        if len(rows) < page:
            return
        after = rows[-1][1]


def _sqlite_stream(recorder: Any, stream: UUID, page: int) -> Iterator[tuple[int, str, bytes]]:
    """``(version, topic, state)`` of each of one stream's rows, in version
    order (its append order), ``page`` at a time: ``_sqlite_one``'s rows as
    the query gives them."""
    statement = (
        f"SELECT originator_version, topic, state FROM {recorder.events_table_name}"
        " WHERE originator_id = ? AND originator_version > ? ORDER BY originator_version LIMIT ?"
    )
    after = 0
    while True:
        with _reading(recorder) as c:
            c.execute(statement, [stream.hex, after, page])
            rows = c.fetchall()
        yield from rows
        if len(rows) < page:
            return
        after = rows[-1][0]


def _sqlite_merged(recorder: Any, streams: list[UUID], page: int) -> Iterator[Row]:
    table = recorder.events_table_name
    ids = [s.hex for s in streams]  # the library stores UUIDs as 32 hex digits
    marks = ",".join("?" * len(ids))
    statement = (
        f"SELECT rowid, originator_id, originator_version, topic, state FROM {table}"
        f" WHERE originator_id IN ({marks}) AND rowid > ? ORDER BY rowid LIMIT ?"
    )
    after = 0
    while True:
        with _reading(recorder) as c:
            c.execute(statement, [*ids, after, page])
            rows = c.fetchall()
        for rowid, originator_id, version, topic, state in rows:  # by position: the SELECT's order
            yield Row(rowid, recorder.convert_originator_id(originator_id), version, topic, state)
        if len(rows) < page:
            return
        after = rows[-1]["rowid"]


def _postgres(recorder: Any, streams: list[UUID], page: int) -> Iterator[Notification]:
    from eventsourcing.persistence import Notification
    from psycopg.sql import SQL, Identifier  # only ever reached with PostgreSQL configured

    datastore = recorder.datastore
    ids: list[Any] = streams if datastore.originator_id_type == "uuid" else [str(s) for s in streams]
    # One stream's append order is its version order, which the primary key
    # gives in order; several streams are merged by notification id.
    one = len(ids) == 1
    where, key, value = (
        ("originator_id = %s AND originator_version > %s ORDER BY originator_version", "originator_version", ids[0])
        if one
        else ("originator_id = ANY(%s) AND notification_id > %s ORDER BY notification_id", "notification_id", ids)
    )
    statement = SQL(
        "SELECT notification_id, originator_id, originator_version, topic, state FROM {schema}.{table}"
        " WHERE " + where + " LIMIT %s"
    ).format(schema=Identifier(datastore.schema), table=Identifier(recorder.events_table_name))
    after = 0
    while True:
        with datastore.get_connection() as conn, conn.cursor() as curs:
            curs.execute(statement, [value, after, page])
            rows = curs.fetchall()
        for row in rows:
            yield Notification(
                id=row["notification_id"],
                originator_id=row["originator_id"],
                originator_version=row["originator_version"],
                topic=row["topic"],
                state=bytes(row["state"]),
            )
        if len(rows) < page:
            return
        after = rows[-1][key]


def _everything(recorder: Any, streams: list[UUID], page: int) -> Iterator[Notification]:
    """The fallback: the whole notification log, filtered (slow in a big store)."""
    wanted = set(streams)
    start = 1
    while True:
        rows = recorder.select_notifications(start=start, limit=page)
        for n in rows:
            originator = n.originator_id if isinstance(n.originator_id, UUID) else UUID(str(n.originator_id))
            if originator in wanted:
                yield n
        if len(rows) < page:
            return
        start = rows[-1].id + 1
