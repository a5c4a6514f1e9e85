"""The msgspec mapper: typed round trips, readable JSON, upcasting, errors."""

from __future__ import annotations

import enum
import json
from datetime import datetime, timedelta, timezone
from typing import Any
from uuid import UUID, uuid4

import msgspec
import pytest
from eventsourcing.persistence import Cipher, MapperDeserialisationError, StoredEvent
from hypothesis import given
from hypothesis import strategies as st

from domain.kernel.envelope import (
    Envelope,
    SnapshotEnvelope,
    register_state,
    state_class,
    state_topic,
)
from domain.kernel.stores.mapper import MsgspecMapper
from domain.kernel.messages import Event

WHEN = datetime(2025, 3, 1, 12, 30, 15, 123456, tzinfo=timezone.utc)


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


class Hex(msgspec.Struct, frozen=True):
    q: int
    r: int


class CounterStarted(Event, frozen=True, kw_only=True):
    TOPIC = "test.mapper.CounterStarted"
    counter_id: UUID
    started_at: datetime
    colour: Colour
    cells: tuple[Hex, ...]
    label: str | None = None
    faces: tuple[int, ...] = ()


class CounterBumped(Event, frozen=True, kw_only=True):
    TOPIC = "test.mapper.CounterBumped"
    by: int


class CounterRenamed(Event, frozen=True, kw_only=True):
    """Version 3: v1 stored ``title``; v2 renamed it ``name``; v3 added ``size``."""

    TOPIC = "test.mapper.CounterRenamed"
    class_version = 3
    name: str
    # A default, so a v2 body also validates as v3: the stored "v" must
    # still send it through the upcaster.
    size: int = -1

    @staticmethod
    def upcast_v1_v2(state: dict[str, Any]) -> None:
        state["name"] = state.pop("title")

    @staticmethod
    def upcast_v2_v3(state: dict[str, Any]) -> dict[str, Any]:
        # Returning a new dict is accepted as well as mutating in place.
        return {**state, "size": len(state["name"])}


class CounterState(msgspec.Struct, frozen=True, kw_only=True):
    total: int
    last: Hex | None = None


register_state("test.mapper.CounterState", CounterState)


def envelope(event: Event, *, version: int = 1, at: datetime = WHEN) -> Envelope:
    return Envelope(
        originator_id=uuid4(),
        originator_version=version,
        timestamp=at,
        command_id="cmd-1",
        event=event,
    )


def stored(topic: str, body: dict[str, Any], version: int = 4) -> StoredEvent:
    return StoredEvent(
        originator_id=uuid4(),
        originator_version=version,
        topic=topic,
        state=json.dumps(body).encode(),
    )


def started(**changes: Any) -> CounterStarted:
    fields: dict[str, Any] = dict(
        counter_id=uuid4(),
        started_at=WHEN - timedelta(days=1),
        colour=Colour.BLUE,
        cells=(Hex(0, 0), Hex(1, -1)),
        label=None,
        faces=(1, 6),
    )
    fields.update(changes)
    return CounterStarted(**fields)


@pytest.fixture
def mapper() -> MsgspecMapper:
    return MsgspecMapper()


def test_round_trip_keeps_types(mapper: MsgspecMapper) -> None:
    original = envelope(started())
    back = mapper.to_domain_event(mapper.to_stored_event(original))
    assert back == original
    assert type(back.event) is CounterStarted
    assert isinstance(back.originator_id, UUID)
    assert isinstance(back.event.counter_id, UUID)
    assert back.event.colour is Colour.BLUE
    assert back.event.cells == (Hex(0, 0), Hex(1, -1))
    assert type(back.event.cells) is tuple and type(back.event.cells[0]) is Hex
    assert back.event.label is None


def test_timestamps_come_back_timezone_aware(mapper: MsgspecMapper) -> None:
    back = mapper.to_domain_event(mapper.to_stored_event(envelope(started())))
    assert isinstance(back.timestamp, datetime)
    assert back.timestamp.tzinfo is not None
    assert back.timestamp == WHEN
    assert isinstance(back.event.started_at, datetime)
    assert back.event.started_at.utcoffset() == timedelta(0)


def test_other_time_zones_are_stored_as_utc(mapper: MsgspecMapper) -> None:
    paris = WHEN.astimezone(timezone(timedelta(hours=1)))
    record = mapper.to_stored_event(envelope(CounterBumped(by=1), at=paris))
    assert json.loads(record.state)["t"] == "2025-03-01T12:30:15.123456Z"
    assert mapper.to_domain_event(record).timestamp == WHEN


def test_naive_timestamps_are_refused(mapper: MsgspecMapper) -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        mapper.to_stored_event(envelope(CounterBumped(by=1), at=WHEN.replace(tzinfo=None)))
    naive = stored(CounterBumped.TOPIC, {"t": "2025-03-01T12:30:15", "c": "x", "d": {"by": 1}})
    with pytest.raises(MapperDeserialisationError, match="timezone"):
        mapper.to_domain_event(naive)


def test_stored_state_is_readable_json(mapper: MsgspecMapper) -> None:
    original = envelope(CounterBumped(by=3), version=7)
    record = mapper.to_stored_event(original)
    assert record.topic == "test.mapper.CounterBumped"
    assert record.originator_id == original.originator_id
    assert record.originator_version == 7
    # "v" is written only above version 1, as the library does.
    assert json.loads(record.state) == {
        "t": "2025-03-01T12:30:15.123456Z",
        "c": "cmd-1",
        "d": {"by": 3},
    }
    renamed = mapper.to_stored_event(envelope(CounterRenamed(name="ab", size=2)))
    assert json.loads(renamed.state)["v"] == 3


def test_string_originator_ids_become_uuids(mapper: MsgspecMapper) -> None:
    record = mapper.to_stored_event(envelope(CounterBumped(by=1)))
    as_text = StoredEvent(
        originator_id=str(record.originator_id),
        originator_version=1,
        topic=record.topic,
        state=record.state,
    )
    assert mapper.to_domain_event(as_text).originator_id == record.originator_id


def test_upcasts_v1_through_v3(mapper: MsgspecMapper) -> None:
    v1 = stored(CounterRenamed.TOPIC, {"t": "2025-03-01T12:00:00Z", "c": "old", "d": {"title": "abc"}})
    back = mapper.to_domain_event(v1)
    assert back.event == CounterRenamed(name="abc", size=3)
    assert back.command_id == "old"
    assert back.timestamp == datetime(2025, 3, 1, 12, tzinfo=timezone.utc)
    assert back.originator_version == 4


def test_upcasts_a_version_that_validates_by_luck(mapper: MsgspecMapper) -> None:
    v2 = stored(CounterRenamed.TOPIC, {"t": "2025-03-01T12:00:00Z", "c": "x", "v": 2, "d": {"name": "abcd"}})
    assert mapper.to_domain_event(v2).event == CounterRenamed(name="abcd", size=4)


def test_current_version_takes_the_typed_path(mapper: MsgspecMapper) -> None:
    v3 = stored(CounterRenamed.TOPIC, {"t": "2025-03-01T12:00:00Z", "c": "x", "v": 3, "d": {"name": "ab", "size": 9}})
    assert mapper.to_domain_event(v3).event == CounterRenamed(name="ab", size=9)


def test_newer_stored_version_is_an_error(mapper: MsgspecMapper) -> None:
    v4 = stored(CounterRenamed.TOPIC, {"t": "2025-03-01T12:00:00Z", "c": "x", "v": 4, "d": {"name": "ab"}})
    with pytest.raises(MapperDeserialisationError, match="newer"):
        mapper.to_domain_event(v4)


def test_unknown_topic_is_a_deserialisation_error(mapper: MsgspecMapper) -> None:
    record = stored("test.mapper.NoSuchEvent", {"t": "2025-03-01T12:00:00Z", "c": "x", "d": {}}, version=12)
    with pytest.raises(MapperDeserialisationError) as caught:
        mapper.to_domain_event(record)
    message = str(caught.value)
    assert "test.mapper.NoSuchEvent" in message
    assert str(record.originator_id) in message
    assert "12" in message


@pytest.mark.parametrize(
    "state",
    [b"not json", b'{"t": "2025-03-01T12:00:00Z", "c": "x", "d": {"by": "three"}}', b"{}"],
)
def test_undecodable_bytes_are_a_deserialisation_error(mapper: MsgspecMapper, state: bytes) -> None:
    record = StoredEvent(originator_id=uuid4(), originator_version=2, topic=CounterBumped.TOPIC, state=state)
    with pytest.raises(MapperDeserialisationError, match="test.mapper.CounterBumped"):
        mapper.to_domain_event(record)


def test_event_without_topic_cannot_be_stored(mapper: MsgspecMapper) -> None:
    class Nameless(Event, frozen=True, kw_only=True):
        x: int

    with pytest.raises(ValueError, match="no TOPIC"):
        mapper.to_stored_event(envelope(Nameless(x=1)))


def test_snapshot_round_trip(mapper: MsgspecMapper) -> None:
    snapshot = SnapshotEnvelope(
        originator_id=uuid4(),
        originator_version=150,
        timestamp=WHEN,
        state=CounterState(total=42, last=Hex(2, -1)),
    )
    record = mapper.to_stored_event(snapshot)
    assert record.topic == "test.mapper.CounterState"
    back = mapper.to_domain_event(record)
    assert type(back) is SnapshotEnvelope
    assert back == snapshot


def test_unregistered_state_cannot_be_stored(mapper: MsgspecMapper) -> None:
    class Stray(msgspec.Struct):
        x: int

    snapshot = SnapshotEnvelope(originator_id=uuid4(), originator_version=1, timestamp=WHEN, state=Stray(1))
    with pytest.raises(ValueError, match="not registered"):
        mapper.to_stored_event(snapshot)


def test_register_state_refuses_collisions() -> None:
    class Other(msgspec.Struct):
        x: int

    register_state("test.mapper.CounterState", CounterState)  # the same pair again is fine
    assert state_class("test.mapper.CounterState") is CounterState
    assert state_topic(CounterState) == "test.mapper.CounterState"
    with pytest.raises(TypeError, match="taken"):
        register_state("test.mapper.CounterState", Other)
    with pytest.raises(TypeError, match="event class"):
        register_state(CounterBumped.TOPIC, Other)
    with pytest.raises(TypeError, match="already registered"):
        register_state("test.mapper.CounterState2", CounterState)
    with pytest.raises(TypeError, match="not a msgspec Struct"):
        register_state("test.mapper.Dict", dict)


class XorCipher(Cipher):
    """A stand-in cipher (the library's AES one needs pycryptodome)."""

    def __init__(self, environment: Any = None) -> None:
        pass

    def encrypt(self, plaintext: bytes) -> bytes:
        return bytes(b ^ 0x5A for b in plaintext)

    def decrypt(self, ciphertext: bytes) -> bytes:
        return bytes(b ^ 0x5A for b in ciphertext)


def test_compressor_and_cipher_are_applied() -> None:
    from eventsourcing.compressor import ZlibCompressor

    mapper = MsgspecMapper(compressor=ZlibCompressor(), cipher=XorCipher())
    original = envelope(started(label="secret"))
    record = mapper.to_stored_event(original)
    assert b"secret" not in record.state
    assert ZlibCompressor().decompress(XorCipher().decrypt(record.state)).startswith(b'{"t":')
    assert mapper.to_domain_event(record) == original


@given(
    by=st.integers(min_value=-(2**63), max_value=2**63 - 1),
    label=st.none() | st.text(),
    faces=st.lists(st.integers(min_value=1, max_value=20), max_size=6).map(tuple),
    colour=st.sampled_from(Colour),
    cells=st.lists(st.builds(Hex, st.integers(-50, 50), st.integers(-50, 50)), max_size=4).map(tuple),
    at=st.datetimes(timezones=st.just(timezone.utc)),
    command_id=st.text(),
)
def test_any_event_round_trips(
    by: int,
    label: str | None,
    faces: tuple[int, ...],
    colour: Colour,
    cells: tuple[Hex, ...],
    at: datetime,
    command_id: str,
) -> None:
    mapper = MsgspecMapper()
    for event in (CounterBumped(by=by), started(label=label, faces=faces, colour=colour, cells=cells, started_at=at)):
        original = Envelope(
            originator_id=uuid4(), originator_version=1, timestamp=at, command_id=command_id, event=event
        )
        assert mapper.to_domain_event(mapper.to_stored_event(original)) == original
