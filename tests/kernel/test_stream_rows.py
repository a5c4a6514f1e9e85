"""A stream read goes from its stored rows straight to envelopes
(``EnvelopeStore.get`` with the recorder's ``select_event_rows`` and
``MsgspecMapper.envelopes``): the same envelopes, upcasts and errors as the
library's path (``select_events``, then ``to_domain_event`` per stored event)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID, uuid4

import pytest
from eventsourcing.persistence import MapperDeserialisationError, StoredEvent

from domain.kernel.envelope import wrap
from domain.kernel.messages import Event
from domain.kernel.stores.application import EventSourcedApp
from domain.kernel.stores.mapper import MsgspecMapper


class TallyStarted(Event, frozen=True, kw_only=True):
    TOPIC = "test.rows.TallyStarted"
    start: int


class TallyNamed(Event, frozen=True, kw_only=True):
    """Version 2: version 1 stored ``title``."""

    TOPIC = "test.rows.TallyNamed"
    class_version = 2
    name: str

    @staticmethod
    def upcast_v1_v2(state: dict[str, Any]) -> None:
        state["name"] = state.pop("title")


class TallyApp(EventSourcedApp):
    """An application of one kind of stream, for these tests."""


@pytest.fixture(params=["sqlite", "postgresql"])
def app(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TallyApp]:
    if request.param == "sqlite":
        opened = TallyApp(f"sqlite:{tmp_path / 'tally.sqlite'}")
        yield opened
        opened.close()
        return
    from postgres_tables import drop_postgres_tables

    setting = request.getfixturevalue("postgres_store")
    cls = type(f"Tally{uuid4().hex[:12]}", (TallyApp,), {})
    opened = cls(setting)
    yield opened
    opened.close()
    drop_postgres_tables(setting, cls.name)


def _library_read(app: TallyApp, stream: UUID, **asked: Any) -> list[Any]:
    """What the library's event store makes of the same rows."""
    return [app.mapper.to_domain_event(s) for s in app.recorder.select_events(stream, **asked)]


def _insert_raw(app: TallyApp, stream: UUID, version: int, topic: str, body: dict[str, Any]) -> None:
    """A row as an older release (or a hand) stored it."""
    app.recorder.insert_events(
        [StoredEvent(originator_id=stream, originator_version=version, topic=topic, state=json.dumps(body).encode())]
    )


def test_a_stream_read_gives_the_envelopes_the_library_reads_from_the_same_rows(app: TallyApp) -> None:
    stream = uuid4()
    app.append(wrap(stream, 0, [TallyStarted(start=3), TallyNamed(name="first")], "c1"))
    app.append(wrap(stream, 2, [TallyStarted(start=4)] * 3, "c2"))
    for asked in ({}, {"gt": 2}, {"lte": 3}, {"gt": 1, "lte": 4}, {"desc": True, "limit": 2}, {"gt": 5}):
        mine = list(app.events.get(stream, **asked))
        assert mine == _library_read(app, stream, **asked), asked
    assert [e.originator_version for e in app.events(stream)] == [1, 2, 3, 4, 5]
    assert all(type(e.originator_id) is UUID for e in app.events(stream))


def test_an_older_version_in_a_stream_is_upcast_as_the_mapper_upcasts_it(app: TallyApp) -> None:
    stream = uuid4()
    app.append(wrap(stream, 0, [TallyStarted(start=1)], "c1"))
    _insert_raw(app, stream, 2, TallyNamed.TOPIC, {"t": "2025-03-01T12:00:00Z", "c": "c2", "d": {"title": "old"}})
    app.append(wrap(stream, 2, [TallyNamed(name="new")], "c3"))
    read = app.events(stream)
    assert [e.event for e in read] == [TallyStarted(start=1), TallyNamed(name="old"), TallyNamed(name="new")]
    assert read == _library_read(app, stream)


@pytest.mark.parametrize(
    ("topic", "body"),
    [
        ("test.rows.NoSuchEvent", {"t": "2025-03-01T12:00:00Z", "c": "c2", "d": {}}),
        (TallyStarted.TOPIC, {"t": "2025-03-01T12:00:00Z", "c": "c2", "d": {"start": "three"}}),
    ],
)
def test_a_row_that_does_not_decode_is_named_as_the_mapper_names_it(
    app: TallyApp, topic: str, body: dict[str, Any]
) -> None:
    stream = uuid4()
    app.append(wrap(stream, 0, [TallyStarted(start=1)], "c1"))
    _insert_raw(app, stream, 2, topic, body)
    with pytest.raises(MapperDeserialisationError) as mine:
        app.events(stream)
    with pytest.raises(MapperDeserialisationError) as theirs:
        _library_read(app, stream)
    assert str(mine.value) == str(theirs.value)
    assert topic in str(mine.value) and "originator_version 2" in str(mine.value)


def test_rows_under_a_cipher_and_a_compressor_are_read_as_the_mapper_reads_them() -> None:
    from eventsourcing.compressor import ZlibCompressor

    plain, packed = MsgspecMapper(), MsgspecMapper(compressor=ZlibCompressor())
    stream = uuid4()
    envelopes = wrap(stream, 0, [TallyStarted(start=2), TallyNamed(name="x")], "c1")
    rows = [(e.originator_version, *_topic_and_state(packed, e)) for e in envelopes]
    assert list(packed.envelopes(stream, rows)) == envelopes
    rows = [(e.originator_version, *_topic_and_state(plain, e)) for e in envelopes]
    assert list(plain.envelopes(stream, rows)) == envelopes


def _topic_and_state(mapper: MsgspecMapper, envelope: Any) -> tuple[str, bytes]:
    stored = mapper.to_stored_event(envelope)
    return stored.topic, stored.state
