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
shared with the reads that do without the library; encoding is
``domain.kernel.stores.encoding``'s, shared with the writes that do
without it (the same bytes, whoever writes them).
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from eventsourcing.persistence import Cipher, Compressor, Mapper, StoredEvent, Transcoder

from domain.kernel.stores.decoding import EnvelopeDecoder
from domain.kernel.stores.encoding import encoded


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
        topic, data = encoded(domain_event)
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
