"""Who a duel command is given for, at a table of seats (SEAT-1), and what
each seat may see (SEAT-5): a pledged card is its player's secret until a
strike reveals it."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.kernel.ruleset import Seat

from .commands import Pledge
from .state import DuelState
from .vocab import HIDDEN, NAMES, SIDES


def seats(state: DuelState) -> tuple[Seat, ...]:
    """The two players, by their pawns."""
    return tuple(Seat(key=key, name=name) for key, name in zip(SIDES, NAMES))


def actor(state: DuelState, command: Any) -> str | None:
    """Every command is the side on turn's."""
    return SIDES[state.turn] if state is not None and not state.over else None


def seen_by(state: DuelState, seat: str | None) -> DuelState:
    """The state with every other seat's pledge face down."""
    pledges = tuple(card if not card or SIDES[i] == seat else HIDDEN for i, card in enumerate(state.pledges))
    return replace(state, pledges=pledges)


def hides(command: Any) -> bool:
    """A pledge says the card (DUEL-4)."""
    return isinstance(command, Pledge)
