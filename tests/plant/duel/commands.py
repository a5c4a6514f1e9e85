"""What duel players give: imperative, frozen, tagged by class name. Every
command but the setup is given by the player whose turn it is."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.kernel.messages import Command

from .vocab import MAX_WIDTH, MIN_WIDTH

Card = Literal["sun", "moon", "star"]


class StartDuel(Command, frozen=True, kw_only=True):
    """Set a duel up on a board ``width`` hexes wide (DUEL-1)."""

    battle_id: str
    width: Annotated[int, msgspec.Meta(ge=MIN_WIDTH, le=MAX_WIDTH)]
    seed: int


class Step(Command, frozen=True, kw_only=True):
    """Move your pawn to the adjacent free hex ``to`` (DUEL-3)."""

    to: tuple[int, int]


class Pledge(Command, frozen=True, kw_only=True):
    """Pledge ``card`` face down; your next strike reveals it (DUEL-4)."""

    card: Card


class Strike(Command, frozen=True, kw_only=True):
    """Strike the pawn next to yours (DUEL-5)."""


class Pass(Command, frozen=True, kw_only=True):
    """End your turn where you stand (DUEL-2)."""


DuelCommand = StartDuel | Step | Pledge | Strike | Pass
