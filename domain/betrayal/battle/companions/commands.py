"""Commands of a companion's turn (ROUND-6; facts §2), and how a setup
names a companion. Each names the companion it is for: the party chooses
the order of the Companion Turns step by naming the next one."""

from __future__ import annotations

import msgspec

from domain.kernel.hexes import Hex
from domain.kernel.messages import Command


class Escort(msgspec.Struct, frozen=True, kw_only=True):
    """A companion a setup brings: its chip and the adventurer who controls
    it (by name or id; its seat at the table)."""

    chip: str
    controller: str


class CompanionMove(Command, frozen=True, kw_only=True):
    """Move ``companion`` up to its move (2 hexes) by a free route to ``to``
    (facts: ROUND-6, freely chosen); once per turn, before it engages. It
    starts the companion's turn when none is under way."""

    companion: str | None = None
    to: Hex


class CompanionEngage(Command, frozen=True, kw_only=True):
    """``companion`` engages ``targets`` (up to its target value, each in
    sight and range): its Combat value in enemy dice is rolled once and the
    total applied to each (facts: ROUND-6). Its turn ends after. With
    physical dice ``faces`` gives the face index of each die."""

    companion: str | None = None
    targets: tuple[str, ...]
    faces: tuple[int, ...] | None = None


class EndCompanionTurn(Command, frozen=True, kw_only=True):
    """End ``companion``'s turn (the one under way when None), or, naming
    one that has not acted, let it take its turn doing nothing."""

    companion: str | None = None
