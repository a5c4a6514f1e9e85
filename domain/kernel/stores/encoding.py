"""Encoding envelopes as stored rows, without the eventsourcing library.

The encoding half of ``MsgspecMapper`` (``domain.kernel.stores.mapper``),
which the library's application uses, and of the writes that append to an
SQLite store without it (``domain.kernel.stores.plain_writes``): both
store the same bytes under the same topic, so a row does not say which
wrote it. The stored body is::

    {"t": "2025-01-01T12:00:00Z", "c": "<command id>", "v": 2, "d": {...event fields}}

``v`` (the class version) is written only when it is above 1, as the
library's own mapper does. The topic is the event's stable ``TOPIC``, or
the registered topic of a snapshot's state (``register_state``). A cipher
or a compressor, when configured, is the library's, applied by its mapper
after this encoding; a store read or written without the library has none.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

import msgspec

from domain.kernel.envelope import Envelope, SnapshotEnvelope, state_topic


class _Body(msgspec.Struct, kw_only=True, omit_defaults=True):
    """What is encoded; ``v`` is left out at its default of 1."""

    t: datetime
    c: str
    v: int = 1
    d: Any


_encoder = msgspec.json.Encoder()


def encoded(envelope: Any) -> tuple[str, bytes]:
    """The topic and stored body of an ``Envelope`` or ``SnapshotEnvelope``.
    ValueError for an event class without a ``TOPIC``, an unregistered state
    class or a naive timestamp; TypeError for anything else."""
    if type(envelope) is Envelope:
        # The common case in one step: every command's events.
        cls = type(envelope.event)
        timestamp = envelope.timestamp
        if cls.TOPIC and timestamp.tzinfo is timezone.utc:
            body = _Body(t=timestamp, c=envelope.command_id, v=getattr(cls, "class_version", 1), d=envelope.event)
            return cls.TOPIC, _encoder.encode(body)
    if isinstance(envelope, Envelope):
        payload: msgspec.Struct = envelope.event
        topic = type(payload).TOPIC  # type: ignore[attr-defined]
        if not topic:
            raise ValueError(f"{type(payload).__qualname__} has no TOPIC")
    elif isinstance(envelope, SnapshotEnvelope):
        payload = envelope.state
        try:
            topic = state_topic(type(payload))
        except KeyError:
            raise ValueError(
                f"state class {type(payload).__qualname__} is not registered (use register_state)"
            ) from None
    else:
        raise TypeError(f"cannot store {type(envelope).__qualname__}")
    timestamp = envelope.timestamp
    if timestamp.utcoffset() is None:
        raise ValueError("an envelope's timestamp must be timezone-aware")
    if timestamp.tzinfo is not timezone.utc:
        timestamp = timestamp.astimezone(timezone.utc)
    body = _Body(t=timestamp, c=envelope.command_id, v=getattr(type(payload), "class_version", 1), d=payload)
    return topic, _encoder.encode(body)
