"""What happened in a duel, past tense, carrying its consequences so that
``evolve`` only assigns. Each has a stable ``TOPIC``."""

from __future__ import annotations

from domain.kernel import commandlog
from domain.kernel.messages import Event

from .commands import DuelCommand
from .state import DuelState, Hex


class DuelEvent(Event, frozen=True, kw_only=True):
    """Base of the events of a duel's stream."""


class CommandIssued(commandlog.CommandIssued, DuelEvent, frozen=True, kw_only=True):
    """A command was accepted (the kernel's command log, typed with the duel's commands)."""

    TOPIC = "duel.CommandIssued"
    command: DuelCommand


class CommandUndone(commandlog.CommandUndone, DuelEvent, frozen=True, kw_only=True):
    """A command was undone: the duel is back to ``restored``."""

    TOPIC = "duel.CommandUndone"
    restored: DuelState


class DuelStarted(DuelEvent, frozen=True, kw_only=True):
    """A duel was set up: both pawns on their home hexes (DUEL-1)."""

    TOPIC = "duel.DuelStarted"
    battle_id: str
    rules_version: str
    pack_id: str
    pack_hash: str
    seed: int
    width: int
    pawns: tuple[Hex, Hex]


class PawnStepped(DuelEvent, frozen=True, kw_only=True):
    """A pawn stepped to a neighbouring hex (DUEL-3)."""

    TOPIC = "duel.PawnStepped"
    side: int
    to: Hex


class CardPledged(DuelEvent, frozen=True, kw_only=True):
    """A card was pledged face down (DUEL-4)."""

    TOPIC = "duel.CardPledged"
    side: int
    card: str


class StrikeRolled(DuelEvent, frozen=True, kw_only=True):
    """A strike: the die's face at ``counter``, the pledge it revealed and
    its bonus, the total and whether it hit (DUEL-5)."""

    TOPIC = "duel.StrikeRolled"
    side: int
    face: int
    counter: int
    card: str
    bonus: int
    total: int
    hit: bool


class TurnPassed(DuelEvent, frozen=True, kw_only=True):
    """The other side is to act, in ``round`` (DUEL-2)."""

    TOPIC = "duel.TurnPassed"
    turn: int
    round: int


class DuelEnded(DuelEvent, frozen=True, kw_only=True):
    """The duel is over: ``winner`` 0 or 1, -1 for a draw (DUEL-6)."""

    TOPIC = "duel.DuelEnded"
    winner: int
    reason: str
