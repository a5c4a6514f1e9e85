"""The bases of labyrinth events: every event is a ``LabyrinthEvent``; those
that roll D6 are ``Rolled`` (their ``faces`` from ``counter`` on), seeded
random choices are ``Picked``. ``evolve`` moves the RNG counter past them."""

from __future__ import annotations

from typing import ClassVar

from domain.kernel.messages import Event

# A subclass that lists its own late fields adds these to them (the digest reads the class's set only).
ROLLED_SKIP: frozenset[str] = frozenset({"typed"})


class LabyrinthEvent(Event, frozen=True, kw_only=True):
    """Base of events in a labyrinth battle stream."""


class Rolled(LabyrinthEvent, frozen=True, kw_only=True):
    """Base of events that roll D6: ``faces`` drawn from ``counter`` on, or
    (``typed``, the ``physical_dice`` option) read off real dice and typed
    by the table: then the counter does not move and nothing re-derives them."""

    faces: tuple[int, ...]
    counter: int
    typed: bool = False

    # Logs from before physical dice hold no ``typed``: left out when False.
    __digest_skip_default__: ClassVar[frozenset[str]] = ROLLED_SKIP


class Picked(LabyrinthEvent, frozen=True, kw_only=True):
    """Base of seeded random choices: ``chosen`` is among[draw(counter)]."""

    among: tuple[str, ...]
    chosen: str
    counter: int
