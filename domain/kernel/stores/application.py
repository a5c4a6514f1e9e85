"""The event-sourced application every ruleset's application stands on.

A ruleset subclasses ``EventSourcedApp``: it decides a command with its pure
rules, wraps the resulting events in ``Envelope``s and ``append``s them (all
streams a command touched, in one transaction); it rebuilds state with
``load`` and its own projector. The store is chosen by one setting
(``domain.kernel.stores.store``); events are encoded by ``MsgspecMapper``.

Two things of the library are deliberately side-stepped: its repository's
replay (its default loop runs a runtime protocol check per event, most of
the replay time: ``load`` reads the latest snapshot and the envelopes after
it and folds them with our projector, ``domain.kernel.stores.reads.replay``,
as a store read without the library is read) and its notification log
sections (``notification_log.select`` refuses more than 10 at a time, so
``notifications`` pages the recorder directly).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import islice
from pathlib import Path
from typing import Any, ClassVar, TypeVar, cast
from uuid import UUID

import msgspec
from eventsourcing.application import Application
from eventsourcing.domain import DomainEventProtocol
from eventsourcing.persistence import (
    EventStore,
    InfrastructureFactory,
    IntegrityError,
    Mapper,
    OperationalError,
    StoredEvent,
)
from eventsourcing.utils import Environment

from domain.kernel.envelope import (
    Envelope,
    SnapshotEnvelope,
    is_state_topic,
    register_state,
    utc_now,
)
from domain.kernel.errors import MOVED_ON, ConcurrencyError
from domain.kernel.stores import old_topics
from domain.kernel.stores.mapper import MsgspecMapper
from domain.kernel.stores.plain import event_rows_query
from domain.kernel.stores.reads import StreamReads, replay
from domain.kernel.messages import Event
from domain.kernel.stores.store import POSTGRES_BOUNDS, create_private, store_env

S = TypeVar("S")

old_topics.hand_over()  # the library is loaded now: the old module paths rulesets keep resolve

# Envelopes encoded at a time by ``append_batches`` (memory stays bounded).
ENCODE_CHUNK = 1000


class EnvelopeStore(EventStore[UUID], StreamReads):
    """The library's event store, also callable to list a stream's envelopes
    (``StreamReads``: ``app.events(stream_id)``, ``.page``, ``.last``).

    The library keeps its event store on ``Application.events``, so an
    application method of that name would be overwritten on every instance;
    making the store itself callable gives ``app.events(stream_id)`` while
    ``app.events.get``/``put`` keep working for the library.
    """

    def get(
        self,
        originator_id: UUID,
        *,
        gt: int | None = None,
        lte: int | None = None,
        desc: bool = False,
        limit: int | None = None,
    ) -> Iterator[DomainEventProtocol[UUID]]:
        """The library's ``get``: a stream's envelopes, as it gives them.
        Where the recorder gives a stream's rows as they are stored
        (``select_event_rows``: SQLite and PostgreSQL), each is decoded
        straight into its envelope (``MsgspecMapper.envelopes``), with no
        ``StoredEvent`` (nor ``sqlite3.Row``) made for it: a replay of 10,000
        events spent about a fifth of its time on those and on the per-row
        steps of ``to_domain_event``."""
        rows = getattr(self.recorder, "select_event_rows", None)
        if rows is None or not isinstance(self.mapper, MsgspecMapper):
            return super().get(originator_id, gt=gt, lte=lte, desc=desc, limit=limit)
        stream = originator_id if isinstance(originator_id, UUID) else UUID(originator_id)
        # Typed as the library types its own: what comes are Envelopes, as from it.
        return cast(
            Iterator[DomainEventProtocol[UUID]],
            self.mapper.envelopes(stream, rows(stream, gt=gt, lte=lte, desc=desc, limit=limit)),
        )


class EventSourcedApp(Application[UUID]):
    """Base of each ruleset's application: append, load, snapshot, read the log.

    ``store`` is a store setting (see ``domain.kernel.stores.store``; default: the
    ``RULEKEEPER_STORE`` environment variable); ``env`` adds or overrides
    library settings. Usable as a context manager; ``close()`` releases the
    database connections.

    The library's aggregate cache (``AGGREGATE_CACHE_MAXSIZE``) expects the
    loaded object to have a ``version``; leave it unset unless the states do.
    """

    # Snapshots live in a table of their own; the subclass decides when to
    # take one (every ``snapshot_every`` events is the suggested rhythm).
    is_snapshotting_enabled = True
    snapshot_every: ClassVar[int] = 150
    # Defaults below the process environment and ``env`` (library rule).
    env: ClassVar[dict[str, str]] = dict(POSTGRES_BOUNDS)

    events: EnvelopeStore
    snapshots: EventStore[UUID]

    def __init__(self, store: str | None = None, env: dict[str, str] | None = None, *, read_only: bool = False):
        merged = store_env(store, app_name=self.name, read_only=read_only)
        if env:
            merged.update(env)
        self.read_only = read_only
        dbname = merged.get("SQLITE_DBNAME", "")
        if (
            not read_only
            and merged.get("PERSISTENCE_MODULE") == "eventsourcing.sqlite"
            and dbname
            and not dbname.startswith("file:")
            and ":memory:" not in dbname
        ):
            path = Path(dbname)
            if path.exists() and not os.access(path, os.W_OK):
                raise OperationalError("this file can only be read here (a write needs a writable store)")
            folder = path.parent
            if folder.is_dir() and not os.access(folder, os.W_OK | os.X_OK):
                raise OperationalError(f"{folder} is not writable here (SQLite writes its journal beside the store)")
            create_private(path)
        super().__init__(env=merged)

    # -- library construction hooks -------------------------------------

    def construct_factory(self, env: Environment) -> InfrastructureFactory[Any]:
        """The library's factory; for PostgreSQL, ours (``domain.kernel.stores.pgstore``:
        bounded waits, safe concurrent start-up, no pipeline mode)."""
        if env.get("PERSISTENCE_MODULE") == "eventsourcing.postgres":
            from domain.kernel.stores.pgstore import Factory

            return Factory(env)
        return super().construct_factory(env)

    def construct_recorder(self) -> Any:  # the library's ApplicationRecorder
        """The library's recorder; on SQLite it makes each row's stream id a
        ``UUID`` once per run of rows of one stream, not once per row, and
        reads a stream's rows without their stream id, which it was given (a
        replay reads one stream: parsing 10,000 copies of one id cost a
        sixth of a rebuild). In memory it finds a stream's versions by
        its index instead of walking every version the stream has."""
        recorder: Any = super().construct_recorder()
        convert = getattr(recorder, "convert_originator_id", None)
        if type(recorder).__module__ == "eventsourcing.popo" and hasattr(recorder, "_stored_events_index"):
            recorder.select_events = _popo_select_events(recorder)
        if type(recorder).__module__ == "eventsourcing.sqlite" and convert is not None:
            recorder.convert_originator_id = _last_one_kept(convert)
            if hasattr(recorder, "datastore") and hasattr(recorder, "events_table_name"):
                recorder.select_events = _sqlite_select_events(recorder)
        return recorder

    def construct_mapper(self) -> Mapper[UUID]:
        """A ``MsgspecMapper`` with the environment's compressor and cipher, if any."""
        return MsgspecMapper(compressor=self.factory.compressor(), cipher=self.factory.cipher())

    def construct_event_store(self) -> EnvelopeStore:
        """The library's event store, made callable (see ``EnvelopeStore``)."""
        return EnvelopeStore(mapper=self.mapper, recorder=self.recorder)

    # -- writing -----------------------------------------------------------

    def append(self, envelopes: Sequence[Envelope]) -> int:
        """Save ``envelopes`` (of one or several streams) in one transaction.

        Returns the notification id of the last one (the current maximum when
        there are none). If another writer took any of the stream versions
        first, raises ``ConcurrencyError`` and nothing at all was written.
        Any number of envelopes: they are encoded and inserted in bounded
        batches, still in one transaction.
        """
        return self.append_batches([envelopes])

    def append_batches(self, batches: Iterable[Sequence[Envelope]]) -> int:
        """Save every batch of ``batches`` in ONE transaction: all or nothing.

        ``batches`` may be a generator: each batch is encoded and inserted,
        then dropped, so memory stays bounded however many there are.
        Returns the notification id of the last envelope (the current
        maximum when there are none); ``ConcurrencyError`` (nothing written)
        if another writer took any of the stream versions first, or if the
        batches repeat a version.
        """
        stored = self._stored_batches(batches)
        recorder: Any = self.recorder
        try:
            if hasattr(recorder, "insert_batches"):  # PostgreSQL (domain.kernel.stores.pgstore)
                last = recorder.insert_batches(stored)
            elif hasattr(recorder, "datastore"):  # SQLite
                last = self._insert_sqlite(stored)
            else:
                last = self._insert_popo(stored)
        except IntegrityError as e:
            # One transaction: a taken version rolls back every event of
            # every batch, in every stream.
            raise ConcurrencyError(MOVED_ON) from e
        return last if last is not None else self.max_notification_id()

    def _stored_batches(self, batches: Iterable[Sequence[Envelope]]) -> Iterator[list[StoredEvent]]:
        """The batches encoded, at most ``ENCODE_CHUNK`` envelopes at a time."""
        encode = self.mapper.to_stored_event
        for batch in batches:
            it = iter(batch)
            while chunk := list(islice(it, ENCODE_CHUNK)):
                yield [encode(e) for e in chunk]

    def _insert_sqlite(self, stored: Iterator[list[StoredEvent]]) -> int | None:
        recorder: Any = self.recorder
        last = None
        # The library's own transaction: BEGIN, then commit, or roll back on
        # any error (mapped to the library's errors, IntegrityError included).
        with recorder.datastore.transaction(commit=True) as cursor:
            for chunk in stored:
                ids = recorder._insert_events(cursor, chunk)
                if ids:
                    last = ids[-1]
        return last

    def _insert_popo(self, stored: Iterator[list[StoredEvent]]) -> int | None:
        recorder: Any = self.recorder
        table: list[StoredEvent] = recorder._stored_events
        index = recorder._stored_events_index
        last = None
        with recorder._database_lock:
            before = len(table)
            try:
                for chunk in stored:
                    ids = _popo_insert(table, index, chunk)
                    if ids:
                        last = ids[-1]
            except BaseException:
                # Undo the batches already in the table: all or nothing.
                for s in table[before:]:
                    index[str(s.originator_id)].pop(s.originator_version, None)
                del table[before:]
                raise
        if last is not None:
            recorder._notify_listeners()
        return last

    def save_snapshot(self, stream_id: UUID, version: int, state: msgspec.Struct, topic: str) -> None:
        """Store ``state`` as the state of ``stream_id`` after ``version``.

        ``topic`` names the state's class in the store (registered here if it
        is not yet; register it at import time too, so a fresh process can
        load snapshots before it saves one). Saving the same version twice
        keeps the first: replay is deterministic, so both are the same.
        """
        register_state(topic, type(state))
        if self.read_only:
            return  # a cache only: a read-only session goes without
        snapshot = SnapshotEnvelope(
            originator_id=stream_id,
            originator_version=version,
            timestamp=utc_now(),
            state=state,
        )
        try:
            self.snapshots.put([snapshot])
        except IntegrityError:
            pass

    # -- reading -----------------------------------------------------------

    def load(
        self,
        stream_id: UUID,
        project: Callable[[S | None, Iterable[Envelope | SnapshotEnvelope]], S | None],
        version: int | None = None,
    ) -> S:
        """Rebuild a stream's state with ``project``, at ``version`` or the latest.

        ``project(None, items)`` receives the latest snapshot at or before
        ``version`` (if any) followed by the envelopes after it, and returns
        the state, or None when there is nothing; then ``NotFound`` is raised.
        ``projector(evolve)`` makes such a function from an ``evolve``.
        """
        # The library's ``repository.get`` made the same reads, with the
        # locks of an aggregate cache none of ours configures; ``replay`` is
        # also how a store read without the library is read.
        snapshots = self.snapshots.get if self.snapshots is not None else None
        return cast(S, replay(snapshots, self.events.get, stream_id, project, version))

    def notifications(self, start: int = 1, limit: int = 500) -> Iterator[tuple[int, Envelope]]:
        """Every envelope from notification id ``start`` on, in append order.

        Yields ``(notification_id, envelope)`` across all streams, reading
        ``limit`` rows per query until the log is exhausted. Ids may have
        gaps (PostgreSQL sequences skip on rollback).
        """
        if limit < 1:
            raise ValueError("limit must be at least 1")
        next_id = start
        while True:
            page = self.recorder.select_notifications(start=next_id, limit=limit)
            for notification in page:
                if is_state_topic(notification.topic):
                    continue
                yield notification.id, self.mapper.to_domain_event(notification)  # type: ignore[misc]
            if len(page) < limit:
                return
            next_id = page[-1].id + 1

    def max_notification_id(self) -> int:
        """The id of the last envelope appended, 0 when the log is empty."""
        return self.recorder.max_notification_id() or 0


def projector(
    evolve: Callable[[S | None, Event], S],
) -> Callable[[S | None, Iterable[Envelope | SnapshotEnvelope]], S | None]:
    """A projector for ``load`` from a pure ``evolve(state, event) -> state``.

    A snapshot replaces the state; each envelope's event is evolved in.
    """

    def project(state: S | None, items: Iterable[Envelope | SnapshotEnvelope]) -> S | None:
        for item in items:
            if type(item) is Envelope:
                state = evolve(state, item.event)
            else:
                state = item.state  # type: ignore[union-attr,assignment]
        return state

    return project


def _last_one_kept(convert: Callable[[str], Any]) -> Callable[[str], Any]:
    """``convert`` that answers again without converting when given the
    same value as last time (the pair is replaced whole, so threads sharing
    the recorder never see one value with another's answer)."""
    last: list[tuple[Any, Any]] = [(None, None)]

    def converted(value: str) -> Any:
        given, answer = last[0]
        if value != given:
            answer = convert(value)
            last[0] = (value, answer)
        return answer

    return converted


def _sqlite_select_events(recorder: Any) -> Callable[..., list[StoredEvent]]:
    """The SQLite recorder's ``select_events`` (the library's, 9.5.x) that
    reads each row's version, topic and state only: every row of one
    stream has the id it was asked for. The rows themselves, as (version,
    topic, state), are the recorder's ``select_event_rows`` (set here too),
    which ``EnvelopeStore.get`` decodes without a ``StoredEvent`` per row."""
    table = recorder.events_table_name
    convert = recorder.convert_originator_id

    def select_event_rows(
        originator_id: UUID | str,
        *,
        gt: int | None = None,
        lte: int | None = None,
        desc: bool = False,
        limit: int | None = None,
    ) -> list[tuple[int, str, bytes]]:
        key = originator_id.hex if isinstance(originator_id, UUID) else originator_id
        statement, params = event_rows_query(table, key, gt=gt, lte=lte, desc=desc, limit=limit)
        with recorder.datastore.transaction(commit=False) as c:
            # Plain tuples: the library's connections make each row an
            # ``sqlite3.Row`` (read by name), which these rows are not.
            c.sqlite_cursor.row_factory = None
            c.execute(statement, params)
            return cast(list[tuple[int, str, bytes]], c.fetchall())

    def select_events(
        originator_id: UUID | str,
        *,
        gt: int | None = None,
        lte: int | None = None,
        desc: bool = False,
        limit: int | None = None,
    ) -> list[StoredEvent]:
        rows = select_event_rows(originator_id, gt=gt, lte=lte, desc=desc, limit=limit)
        # What the library makes of the id stored (the same text: it matched).
        stream = convert(originator_id.hex if isinstance(originator_id, UUID) else originator_id)
        return [
            StoredEvent(originator_id=stream, originator_version=version, topic=topic, state=state)
            for version, topic, state in rows
        ]

    recorder.select_event_rows = select_event_rows
    return select_events


def _popo_insert(table: list[StoredEvent], index: Any, stored: list[StoredEvent]) -> list[int]:
    """The in-memory recorder's ``_insert_events`` (the library's, 9.5.x),
    each stream's id made text once per batch rather than twice per event
    (a command's few events are all of one or two streams): IntegrityError,
    nothing inserted, when a version is taken or given twice."""
    keys: dict[Any, str] = {}
    new: set[tuple[str, int]] = set()
    for s in stored:
        key = keys.get(s.originator_id)
        if key is None:
            key = keys[s.originator_id] = str(s.originator_id)
        if s.originator_version in index[key] or (key, s.originator_version) in new:
            raise IntegrityError(f"Stored event already recorded: {s}")
        new.add((key, s.originator_version))
    ids = []
    for s in stored:
        table.append(s)
        ids.append(len(table))
        index[keys[s.originator_id]][s.originator_version] = ids[-1] - 1
    return ids


def _popo_select_events(recorder: Any) -> Callable[..., list[StoredEvent]]:
    """The in-memory recorder's ``select_events`` (the library's, 9.5.x)
    that looks up only the versions asked for: the library's walks every
    version of the stream to pick those after ``gt``, so reading what was
    appended since (each command does) cost as much as the whole stream.
    A stream's versions are kept in ascending order (each append is at the
    next version; a failed one is taken back), so its first and last bound
    the range to look up."""
    table = recorder._stored_events
    streams = recorder._stored_events_index

    def select_events(
        originator_id: UUID | str,
        *,
        gt: int | None = None,
        lte: int | None = None,
        desc: bool = False,
        limit: int | None = None,
    ) -> list[StoredEvent]:
        with recorder._database_lock:
            index = streams.get(str(originator_id))
            if not index:
                return []
            low, high = next(iter(index)), next(reversed(index))
            if gt is not None:
                low = max(low, gt + 1)
            if lte is not None:
                high = min(high, lte)
            versions = range(high, low - 1, -1) if desc else range(low, high + 1)
            found = []
            for version in versions:
                position = index.get(version)
                if position is not None:
                    found.append(table[position])
                    if len(found) == limit:
                        break
            return found

    return select_events
