"""The bases of labyrinth events: every event is a ``LabyrinthEvent``; those
that roll D6 are ``Rolled`` (their ``faces`` from ``counter`` on), seeded
random choices are ``Picked``. ``evolve`` moves the RNG counter past them."""

from __future__ import annotations

from domain.kernel.messages import Event


class LabyrinthEvent(Event, frozen=True, kw_only=True):
    """Base of events in a labyrinth battle stream."""


class Rolled(LabyrinthEvent, frozen=True, kw_only=True):
    """Base of events that roll D6: ``faces`` drawn from ``counter`` on."""

    faces: tuple[int, ...]
    counter: int


class Picked(LabyrinthEvent, frozen=True, kw_only=True):
    """Base of seeded random choices: ``chosen`` is among[draw(counter)]."""

    among: tuple[str, ...]
    chosen: str
    counter: int
