"""What a read model is (a projection of the event log into tables of its
own), so that a ruleset can declare its read models in its package and
register them (``Ruleset.read_models``): the projection runner
(``projections.runner.Catchup``) keeps every registered one up to date.

A projection only reads the events it is given, never the clock nor the
application's state: deleting its tables and catching up from zero gives
the same rows.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any, ClassVar

from domain.kernel.envelope import Envelope

Handler = Callable[[Any, sqlite3.Connection, int, Envelope], None]


def handles(*event_types: type) -> Callable[[Handler], Handler]:
    """Mark a ``Projection`` method as the handler of ``event_types``.

    The method is called as ``method(db, notification_id, envelope)`` inside
    the page's transaction; it must only write with ``db`` and never commit.
    """

    def mark(method: Handler) -> Handler:
        method._handles = getattr(method, "_handles", ()) + event_types  # type: ignore[attr-defined]
        return method

    return mark


class Projection:
    """Base of a read model: a ``name``, its ``tables`` and DDL ``schema``,
    and handlers registered by event type with ``@handles``.

    ``name`` is the key of its row in ``positions``. ``tables`` are emptied by
    ``Catchup.reset``. A change of table layout must come with a new
    ``name`` (and new table names), so an old database rebuilds rather than
    mixing layouts; a new ``name`` alone rebuilds the same tables from empty
    (for new contents in the same layout).
    """

    name: ClassVar[str] = ""
    tables: ClassVar[tuple[str, ...]] = ()
    schema: ClassVar[tuple[str, ...]] = ()
    _handlers: ClassVar[dict[type, str]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        found: dict[type, str] = {}
        for klass in reversed(cls.__mro__):
            for attr, value in vars(klass).items():
                for event_type in getattr(value, "_handles", ()):
                    found[event_type] = attr
        cls._handlers = found

    def handlers(self) -> dict[type, Callable[[sqlite3.Connection, int, Envelope], None]]:
        """Bound handlers by event type."""
        return {t: getattr(self, attr) for t, attr in self._handlers.items()}

    def narrowed(self, event_type: type) -> type | None:
        """A Struct to give this projection's handler of ``event_type`` in
        its place, holding only the fields it reads (stored under the same
        names; the rest is skipped unread, which for a large event is most
        of its decoding), or None: the event whole. The runner gives it
        only when this projection is caught up alone, the handler
        registered for ``event_type`` is called with it, and an event the
        Struct cannot be read into is given whole."""
        return None

    def page_begun(self, position: int) -> None:
        """A page's transaction has begun (before its handlers are called),
        with this projection at ``position`` (the last notification id it
        applied, as committed; read in this transaction): what a projection
        kept from an earlier page (rows it had not yet written, a page that
        was rolled back) is forgotten here."""

    def page_ending(self, db: sqlite3.Connection) -> None:
        """A page's handlers are done and its transaction is about to
        commit: a projection that holds rows back to write them together
        writes them now, with ``db``."""
