"""Reading stored events back into envelopes, without the eventsourcing library.

The decoding half of ``MsgspecMapper`` (``domain.kernel.stores.mapper``),
which the library's application uses, and of the reads that open an SQLite
store without it (``domain.kernel.stores.plain``): a command that only reads
(`rk status`) need not import the library, whose import is about a tenth of
such a command. The stored body is ``{"t": ..., "c": ..., "v": ..., "d":
...}`` (see ``mapper``); a row is anything with the attributes of the
library's ``StoredEvent`` (``originator_id``, ``originator_version``,
``topic``, ``state``).

Errors are the library's ``MapperDeserialisationError``, imported when one
is raised: whatever reads a store sees the same error, whoever decoded.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from datetime import datetime
from typing import Annotated, Any, NamedTuple
from uuid import UUID

import msgspec

from domain.kernel.envelope import Envelope, SnapshotEnvelope, is_state_topic, state_class
from domain.kernel.messages import event_class
from domain.kernel.ruleset import load_for_topic

# Naive datetimes in the store are refused when read, not silently accepted.
UtcDatetime = Annotated[datetime, msgspec.Meta(tz=True)]


class _LooseBody(msgspec.Struct, kw_only=True):
    """What an old version decodes to before it is upcast."""

    t: UtcDatetime
    c: str
    v: int = 1
    d: dict[str, Any]


class _Header(msgspec.Struct):
    """What a stored event says of its command, its event left unread."""

    c: str


class StoredRow(NamedTuple):
    """A stored event as read from a store: the attributes of the library's
    ``StoredEvent`` that decoding reads."""

    originator_id: UUID
    originator_version: int
    topic: str
    state: bytes


_header_decoder = msgspec.json.Decoder(_Header)
_loose_decoder = msgspec.json.Decoder(_LooseBody)
_DECODERS: dict[type, msgspec.json.Decoder[Any]] = {}  # each event class's typed decoder (``_typed_decoder``)
_UNSEEN: Any = object()  # a topic ``EnvelopeDecoder.envelopes`` has not looked up yet
_SKIPPED: Any = object()  # a topic whose rows ``EnvelopeDecoder.envelopes`` leaves out


def _typed_decoder(cls: type) -> msgspec.json.Decoder[Any]:
    body = msgspec.defstruct(
        f"Stored{cls.__name__}",
        [("t", UtcDatetime), ("c", str), ("v", int, 1), ("d", cls)],
        kw_only=True,
    )
    return msgspec.json.Decoder(body)


def _plain(kind: tuple[msgspec.json.Decoder[Any], int], stream: UUID, version: int, data: bytes) -> Envelope | None:
    """The envelope of a row stored plain at its class's version (``kind``:
    the class's typed decoder and version), or None: the full path of
    ``EnvelopeDecoder.to_domain_event`` upcasts it or says what is wrong."""
    try:
        body = kind[0].decode(data)
    except Exception:  # noqa: BLE001 - the full path says what is wrong
        return None
    if body.v != kind[1]:
        return None
    return Envelope(originator_id=stream, originator_version=version, timestamp=body.t, command_id=body.c, event=body.d)


def deserialisation_error() -> type[ValueError]:
    """The library's ``MapperDeserialisationError`` (a ``ValueError``),
    imported only when a stored event cannot be read."""
    from eventsourcing.persistence import MapperDeserialisationError

    return MapperDeserialisationError


class EnvelopeDecoder:
    """Decodes stored events into ``Envelope``/``SnapshotEnvelope``.

    ``cipher`` and ``compressor`` (None here) are the library's, set by
    ``MsgspecMapper`` when the application's environment configures them:
    the stored bytes are deciphered, then decompressed, before decoding.
    """

    cipher: Any = None
    compressor: Any = None
    # Keyed by class, not topic, so a class re-registered under the same
    # topic (module reload) gets a decoder of its own; shared by every
    # decoder of the process (making one is a class definition: each new
    # application paid it again for every kind of event it read).
    _decoders: dict[type, msgspec.json.Decoder[Any]] = _DECODERS

    def to_domain_event(self, stored_event: Any) -> Any:
        """Decode a stored event into an ``Envelope`` or ``SnapshotEnvelope``.

        Raises the library's ``MapperDeserialisationError`` for an unknown
        topic or bytes that do not decode to the class.
        """
        topic = stored_event.topic
        is_snapshot = False
        if not self.cipher and not self.compressor:
            # The common case first, in one step: an event of this version, stored plain.
            kind = self._kind(topic)
            if kind is not None:
                originator_id = stored_event.originator_id
                stream = originator_id if isinstance(originator_id, UUID) else UUID(originator_id)
                found = _plain(kind, stream, stored_event.originator_version, stored_event.state)
                if found is not None:
                    return found
        try:
            cls: type = event_class(topic)
        except KeyError:
            if not is_state_topic(topic) and load_for_topic(topic):
                return self.to_domain_event(stored_event)
            if not is_state_topic(topic):
                reason = "no event or state class has this topic"
                raise self._error(stored_event, reason) from None
            cls = state_class(topic)
            is_snapshot = True
        try:
            t, c, payload = self._decode(cls, self._opened(stored_event.state))
        except Exception as e:  # noqa: BLE001 - any failure here is bad stored bytes
            if isinstance(e, deserialisation_error()):
                raise
            raise self._error(stored_event, str(e)) from e
        originator_id = stored_event.originator_id
        if not isinstance(originator_id, UUID):
            originator_id = UUID(originator_id)
        if is_snapshot:
            return SnapshotEnvelope(
                originator_id=originator_id,
                originator_version=stored_event.originator_version,
                timestamp=t,
                command_id=c,
                state=payload,
            )
        return Envelope(
            originator_id=originator_id,
            originator_version=stored_event.originator_version,
            timestamp=t,
            command_id=c,
            event=payload,
        )

    def envelopes(
        self,
        stream_id: UUID,
        rows: Iterable[tuple[int, str, bytes]],
        narrower: Callable[[type], type | None] | None = None,
        *,
        events_only: bool = False,
    ) -> Iterator[Any]:
        """``to_domain_event`` of each of a stream's stored rows, given as
        (version, topic, state): what a replay reads. Each row goes straight
        from its bytes to its ``Envelope`` (an event of its class's version,
        stored plain) with no stored event made for it and its class,
        decoder and version looked up once per topic; any other row (a
        snapshot, an older version, bytes that do not decode, a cipher or a
        compressor) is read by ``to_domain_event``, which upcasts it or says
        what is wrong. ``narrower`` as ``decoded`` takes it; ``events_only``:
        rows stored under a state's topic (snapshots) are left out."""
        plain = not self.cipher and not self.compressor
        kinds: dict[str, tuple[msgspec.json.Decoder[Any], int] | None] = {}
        for version, topic, data in rows:
            kind = kinds.get(topic, _UNSEEN)
            if kind is _UNSEEN:
                if events_only and is_state_topic(topic):
                    kind = kinds[topic] = _SKIPPED
                else:
                    kind = kinds[topic] = self._kind(topic, narrower) if plain else None
            if kind is _SKIPPED:
                continue
            if kind is not None:
                found = _plain(kind, stream_id, version, data)
                if found is not None:
                    yield found
                    continue
            yield self.to_domain_event(StoredRow(stream_id, version, topic, data))

    def decoded(self, rows: Iterable[Any], narrower: Callable[[type], type | None] | None = None) -> Iterator[Any]:
        """``to_domain_event`` of each stored row (anything with a
        ``StoredEvent``'s attributes, of any streams), as it is asked for:
        what a long read of the notification log decodes. Each topic's
        class, decoder and version are looked up once, as ``envelopes``
        does, not for every row. ``narrower(cls)``: a Struct an event of
        class ``cls`` is decoded into instead (a part of its fields, the
        rest skipped unread), or None; an event stored at another version
        than its class's, a cipher or a compressor, and bytes the narrower
        Struct does not read are decoded whole."""
        if self.cipher or self.compressor:
            yield from map(self.to_domain_event, rows)
            return
        kinds: dict[str, tuple[msgspec.json.Decoder[Any], int] | None] = {}
        for row in rows:
            topic = row.topic
            kind = kinds.get(topic, _UNSEEN)
            if kind is _UNSEEN:
                kind = kinds[topic] = self._kind(topic, narrower)
            if kind is not None:
                stream = row.originator_id
                found = _plain(
                    kind, stream if isinstance(stream, UUID) else UUID(stream), row.originator_version, row.state
                )
                if found is not None:
                    yield found
                    continue
            yield self.to_domain_event(row)

    def _kind(
        self, topic: str, narrower: Callable[[type], type | None] | None = None
    ) -> tuple[msgspec.json.Decoder[Any], int] | None:
        """The typed decoder (of ``narrower``'s Struct for the class, when it
        gives one) and class version of the event class stored under
        ``topic``; None when no event class has it (yet)."""
        try:
            cls = event_class(topic)
        except KeyError:
            return None
        narrow = None if narrower is None else narrower(cls)
        return self._decoder(cls if narrow is None else narrow), getattr(cls, "class_version", 1)

    def _decoder(self, cls: type) -> msgspec.json.Decoder[Any]:
        """The typed decoder of ``cls``'s stored body, made once per class."""
        decoder = self._decoders.get(cls)
        if decoder is None:
            decoder = self._decoders[cls] = _typed_decoder(cls)
        return decoder

    def command_id_of(self, stored_event: Any) -> str:
        """The id of the command that wrote ``stored_event``, its event left
        undecoded (a reader that needs only that skips the event's fields).
        Raises as ``to_domain_event`` does for bytes that do not decode."""
        return self.part_of(stored_event, _header_decoder).c

    def part_of(self, stored_event: Any, decoder: msgspec.json.Decoder[Any]) -> Any:
        """What ``decoder`` makes of ``stored_event``'s stored body (``t``,
        ``c``, ``v``, ``d``), deciphered and decompressed as configured: a
        reader that needs a field or two of an event decodes only those
        (a Struct's decoder skips the fields it does not name). Raises as
        ``to_domain_event`` does for bytes that do not decode."""
        try:
            return decoder.decode(self._opened(stored_event.state))
        except Exception as e:  # noqa: BLE001 - any failure here is bad stored bytes
            raise self._error(stored_event, str(e)) from e

    def _opened(self, data: bytes) -> bytes:
        """A stored body deciphered and decompressed as configured."""
        if self.cipher:
            data = self.cipher.decrypt(data)
        if self.compressor:
            data = self.compressor.decompress(data)
        return data

    def _decode(self, cls: type, data: bytes) -> tuple[datetime, str, Any]:
        class_version = getattr(cls, "class_version", 1)
        decoder = self._decoder(cls)
        # Fast path: one typed decode. An older version may fail to validate,
        # or validate by luck (a new field with a default); either way the
        # stored ``v`` decides, and the loose path below upcasts it.
        try:
            body = decoder.decode(data)
        except msgspec.ValidationError:
            pass
        else:
            if body.v == class_version:
                return body.t, body.c, body.d
        loose = _loose_decoder.decode(data)
        if loose.v > class_version:
            raise ValueError(
                f"stored class version {loose.v} is newer than {cls.__qualname__}.class_version {class_version}"
            )
        state = loose.d
        for v in range(loose.v, class_version):
            upcast = getattr(cls, f"upcast_v{v}_v{v + 1}")
            # The library's upcasters mutate the dict in place; returning a
            # new dict is accepted too.
            result = upcast(state)
            if result is not None:
                state = result
        return loose.t, loose.c, msgspec.convert(state, cls)

    @staticmethod
    def _error(stored_event: Any, reason: str) -> ValueError:
        return deserialisation_error()(
            f"cannot read stored event with topic {stored_event.topic!r},"
            f" originator_id {stored_event.originator_id}"
            f" and originator_version {stored_event.originator_version}: {reason}"
        )
