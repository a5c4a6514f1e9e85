"""Who a Conquest command is given for, at a table of seats (SEAT-1, ours).

Each player is a seat: ``a`` for the first army named at setup, ``b`` for
the second (their regiments are a1, a2... and b1, b2...). Every command
answers the decision the state awaits from ``state.turn``'s player, except
a surrender, which names its side.
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.kernel.ruleset import Seat

from .commands import OrderStack, Surrender
from .state import ConquestState

HIDDEN_CARD = "?"  # a card of another player's Command Stack, face down (CMD-2, CMD-4)

SIDE_KEYS = ("a", "b")


def seats(state: ConquestState) -> tuple[Seat, ...]:
    """The two players, by their armies."""
    return tuple(
        Seat(key=SIDE_KEYS[i], name=side.army or f"player {SIDE_KEYS[i]}") for i, side in enumerate(state.sides)
    )


def actor(state: ConquestState, command: Any) -> str | None:
    """The player ``command`` is given for."""
    side = command.side if isinstance(command, Surrender) else state.turn
    return SIDE_KEYS[side] if side in (0, 1) else None


def seen_by(state: ConquestState, seat: str | None) -> ConquestState:
    """The state as ``seat`` may see it: every other player's Command Stack
    face down, its cards counted but not named (CMD-2, CMD-4: a player may
    look through their own stack, never the opponent's)."""
    sides = tuple(
        side
        if SIDE_KEYS[i] == seat or not side.stack
        else msgspec.structs.replace(side, stack=(HIDDEN_CARD,) * len(side.stack))
        for i, side in enumerate(state.sides)
    )
    return msgspec.structs.replace(state, sides=sides)


def hides(command: Any) -> bool:
    """An ordered stack is its player's secret (CMD-2)."""
    return isinstance(command, OrderStack)
