"""Envelopes: what the event store holds around a bare rules event.

The rules produce bare ``Event`` structs; they know nothing of streams,
versions or clocks. The application wraps each one in an ``Envelope`` that
names its stream (``originator_id``), its position in that stream
(``originator_version``), when it was saved and the command that produced it.
That header is what the eventsourcing library needs (its
``DomainEventProtocol``), so envelopes go straight into ``Application.save``.

A ``SnapshotEnvelope`` carries a whole state instead of an event. State
classes are registered under a stable topic with ``register_state`` so the
mapper can store and find them, as event classes are by their ``TOPIC``.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timezone
from uuid import UUID

import msgspec

from domain.kernel.messages import Event, known_topics


class Envelope(msgspec.Struct, frozen=True, kw_only=True):
    """One stored event: a rules event with its stream header.

    ``timestamp`` is timezone-aware UTC; ``command_id`` groups the events of
    one command (the log records intent and outcome together).
    """

    originator_id: UUID
    originator_version: int
    timestamp: datetime
    command_id: str
    event: Event


class SnapshotEnvelope(msgspec.Struct, frozen=True, kw_only=True):
    """A stream's whole state at ``originator_version``, to shorten replay.

    ``state`` is a msgspec Struct whose class was registered with
    ``register_state``.
    """

    originator_id: UUID
    originator_version: int
    timestamp: datetime
    command_id: str = ""
    state: msgspec.Struct


def utc_now() -> datetime:
    """The current time, timezone-aware UTC (the envelope clock)."""
    return datetime.now(timezone.utc)


def wrap(
    stream_id: UUID,
    after_version: int,
    events: Iterable[Event],
    command_id: str,
    timestamp: datetime | None = None,
) -> list[Envelope]:
    """Envelope ``events`` as the next versions of ``stream_id``.

    The first gets ``after_version + 1``; all share one timestamp and
    ``command_id``, since they are the outcome of one command.
    """
    at = timestamp if timestamp is not None else utc_now()
    return [
        Envelope(
            originator_id=stream_id,
            originator_version=after_version + i,
            timestamp=at,
            command_id=command_id,
            event=event,
        )
        for i, event in enumerate(events, start=1)
    ]


# Two directions, so the mapper can go from a state's class to its topic when
# storing and from the topic back to the class when loading.
_STATE_CLASSES: dict[str, type[msgspec.Struct]] = {}
_STATE_TOPICS: dict[type[msgspec.Struct], str] = {}


def register_state(topic: str, cls: type) -> None:
    """Register ``cls`` (a msgspec Struct) as the snapshot state stored under ``topic``.

    Registering the same pair again is a no-op, and a class of the same
    qualified name may replace an earlier one (module reloads, test
    re-runs), as event topics allow. A topic already used by an event class,
    or by another state class, is refused: the mapper finds a class by topic
    alone, so topics must not collide.
    """
    if not topic:
        raise ValueError("a state topic must not be empty")
    if not (isinstance(cls, type) and issubclass(cls, msgspec.Struct)):
        raise TypeError(f"state class {cls!r} is not a msgspec Struct")
    if topic in known_topics():
        raise TypeError(f"topic {topic!r} is taken by an event class")
    other = _STATE_CLASSES.get(topic)
    if other is cls:
        return
    if other is not None:
        if other.__qualname__ != cls.__qualname__:
            raise TypeError(f"state topic {topic!r} is taken by {other.__qualname__}")
        del _STATE_TOPICS[other]
    taken = _STATE_TOPICS.get(cls)
    if taken is not None and taken != topic:
        raise TypeError(f"{cls.__qualname__} is already registered as {taken!r}")
    _STATE_CLASSES[topic] = cls
    _STATE_TOPICS[cls] = topic


def state_class(topic: str) -> type[msgspec.Struct]:
    """The state class registered under ``topic``; KeyError if there is none."""
    return _STATE_CLASSES[topic]


def state_topic(cls: type) -> str:
    """The topic ``cls`` was registered under; KeyError if it was not."""
    return _STATE_TOPICS[cls]


def is_state_topic(topic: str) -> bool:
    """Whether ``topic`` names a snapshot state rather than an event."""
    return topic in _STATE_CLASSES
