"""A typed msgspec mapper between envelopes and the library's stored events.

Each stored event's ``state`` is readable JSON (on purpose, for audit)::

    {"t": "2025-01-01T12:00:00Z", "c": "<command id>", "v": 2, "d": {...event fields}}

``v`` (the class version) is written only when it is above 1, as the
library's own mapper does. The ``topic`` column holds the event's stable
``TOPIC`` (or the state topic of a snapshot), never a Python path.

Decoding goes through one typed ``msgspec.json.Decoder`` per class, whose
body type names the event class for ``d`` and a timezone-aware datetime for
``t``: that is what keeps UUIDs, datetimes, enums, tuples and nested structs
typed (a bare msgspec JSON transcoder would hand back strings). Old versions
are upcast with the library's convention: static ``upcast_v1_v2(state)``,
``upcast_v2_v3(state)``… on the class, applied to the decoded dict in turn.
Decoding is ``domain.kernel.stores.decoding``'s (``EnvelopeDecoder``),
shared with the reads that do without the library.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any
from uuid import UUID

import msgspec
from eventsourcing.persistence import Cipher, Compressor, Mapper, StoredEvent, Transcoder

from domain.kernel.envelope import Envelope, SnapshotEnvelope, state_topic
from domain.kernel.stores.decoding import EnvelopeDecoder


class _Body(msgspec.Struct, kw_only=True, omit_defaults=True):
    """What is encoded; ``v`` is left out at its default of 1."""

    t: datetime
    c: str
    v: int = 1
    d: Any


_encoder = msgspec.json.Encoder()


class MsgspecMapper(EnvelopeDecoder, Mapper[UUID]):
    """Maps ``Envelope``/``SnapshotEnvelope`` to ``StoredEvent`` and back.

    The transcoder the library hands every mapper is accepted and ignored:
    msgspec does the encoding. A compressor and a cipher, when the
    application's environment configures them, are applied as the library's
    mapper applies them (compress, then encrypt).
    """

    def __init__(
        self,
        transcoder: Transcoder | None = None,
        compressor: Compressor | None = None,
        cipher: Cipher | None = None,
    ) -> None:
        super().__init__(transcoder=transcoder, compressor=compressor, cipher=cipher)  # type: ignore[arg-type]

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        """Encode an envelope (or snapshot envelope) as a ``StoredEvent``."""
        if type(domain_event) is Envelope and not self.compressor and not self.cipher:
            # The common case in one step: every command's events.
            event = domain_event.event
            cls = type(event)
            timestamp = domain_event.timestamp
            if cls.TOPIC and timestamp.tzinfo is timezone.utc:
                return StoredEvent(
                    originator_id=domain_event.originator_id,
                    originator_version=domain_event.originator_version,
                    topic=cls.TOPIC,
                    state=_encoder.encode(
                        _Body(t=timestamp, c=domain_event.command_id, v=getattr(cls, "class_version", 1), d=event)
                    ),
                )
        if isinstance(domain_event, Envelope):
            payload: msgspec.Struct = domain_event.event
            topic = type(payload).TOPIC  # type: ignore[attr-defined]
            if not topic:
                raise ValueError(f"{type(payload).__qualname__} has no TOPIC")
        elif isinstance(domain_event, SnapshotEnvelope):
            payload = domain_event.state
            try:
                topic = state_topic(type(payload))
            except KeyError:
                raise ValueError(
                    f"state class {type(payload).__qualname__} is not registered (use register_state)"
                ) from None
        else:
            raise TypeError(f"cannot store {type(domain_event).__qualname__}")
        timestamp = domain_event.timestamp
        if timestamp.utcoffset() is None:
            raise ValueError("an envelope's timestamp must be timezone-aware")
        if timestamp.tzinfo is not timezone.utc:
            timestamp = timestamp.astimezone(timezone.utc)
        data = _encoder.encode(
            _Body(
                t=timestamp,
                c=domain_event.command_id,
                v=getattr(type(payload), "class_version", 1),
                d=payload,
            )
        )
        if self.compressor:
            data = self.compressor.compress(data)
        if self.cipher:
            data = self.cipher.encrypt(data)
        return StoredEvent(
            originator_id=domain_event.originator_id,
            originator_version=domain_event.originator_version,
            topic=topic,
            state=data,
        )
