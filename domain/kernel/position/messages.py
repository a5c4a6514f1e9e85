"""The command that starts a game from a position and the event that
records it (``domain.kernel.position``).

``StartFromPosition`` is one command for every ruleset: it carries the
position file's text as given, so the log keeps what the players wrote and
``verify`` re-reads and re-checks it. Each ruleset that takes positions
puts it in its command union and its ``setup_commands``, and declares its
own ``PositionTaken`` with its state type and a topic of its own (as it
does ``CommandUndone``), which its ``evolve`` applies by taking the state.
"""

from __future__ import annotations

from typing import Any

from domain.kernel.messages import Command, Event


class StartFromPosition(Command, frozen=True, kw_only=True):
    """Set a game up as a position file says it stands (``text``: the file)."""

    position: str

    @property
    def setup(self) -> str:
        """What the game index records as its setup."""
        return "position"


class PositionTaken(Event, frozen=True, kw_only=True):
    """A game was set up from a position: ``state`` is the game as it
    stands. A ruleset's subclass types ``state`` and names a TOPIC."""

    state: Any


def taken(_: Any, event: PositionTaken) -> Any:
    """``evolve`` of a ``PositionTaken``: the game is the state it carries."""
    return event.state
