"""What reading a store comes to, whoever opened it: a stream's envelopes
(``StreamReads``) and a state rebuilt from them (``replay``).

Shared by the library's application (``domain.kernel.stores.application``)
and the reads that open an SQLite store without the library
(``domain.kernel.stores.plain``), so a state is rebuilt one way only.
Imports nothing of the eventsourcing library.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from itertools import chain
from typing import Any, TypeVar, cast
from uuid import UUID

from domain.kernel.envelope import Envelope, SnapshotEnvelope
from domain.kernel.errors import NotFound

S = TypeVar("S")
Projector = Callable[[Any, Iterable[Envelope | SnapshotEnvelope]], Any]


class StreamReads:
    """A store's envelopes by stream: ``get`` as the library's event store
    gives them, and the reads made of it. Callable, so that an application
    reads ``app.events(stream_id)``."""

    def get(
        self,
        originator_id: UUID,
        *,
        gt: int | None = None,
        lte: int | None = None,
        desc: bool = False,
        limit: int | None = None,
    ) -> Iterator[Any]:
        """The stored envelopes of ``originator_id`` with gt < version <= lte,
        in version order (newest first when ``desc``), at most ``limit``."""
        raise NotImplementedError

    def __call__(self, stream_id: UUID, gt: int | None = None, lte: int | None = None) -> list[Envelope]:
        """The stored envelopes of ``stream_id`` with gt < version <= lte, in order."""
        return list(self.get(stream_id, gt=gt, lte=lte))

    def page(
        self, stream_id: UUID, *, lte: int | None = None, desc: bool = False, limit: int | None = None
    ) -> list[Envelope]:
        """At most ``limit`` envelopes of ``stream_id`` with version <= ``lte``,
        newest first when ``desc``."""
        return list(self.get(stream_id, lte=lte, desc=desc, limit=limit))

    def last(self, stream_id: UUID) -> Envelope | None:
        """The newest envelope of ``stream_id`` (one row read), or None."""
        for envelope in self.get(stream_id, desc=True, limit=1):
            return cast(Envelope, envelope)
        return None


def replay(
    snapshots: Callable[..., Iterable[Any]] | None,
    events: Callable[..., Iterable[Any]],
    stream_id: UUID,
    project: Projector,
    version: int | None = None,
) -> Any:
    """A stream's state now, or at ``version``: ``project(None, items)`` of
    the latest snapshot at or before ``version`` (read from ``snapshots``,
    a store's ``get``, when there is one) and the envelopes after it (from
    ``events``). ``NotFound`` when ``project`` makes nothing of them.

    This is what the library's ``Repository.get`` does with a projector of
    ours and no aggregate cache (none is configured here), without its
    locks, so that every store is read the same way."""
    found = list(snapshots(stream_id, desc=True, limit=1, lte=version)) if snapshots is not None else []
    after = found[0].originator_version if found else None
    state = project(None, chain(found, events(stream_id, gt=after, lte=version)))
    if state is None:
        at = "" if version is None else f" at version {version}"
        raise NotFound(f"no stream {stream_id}{at}")
    return state
