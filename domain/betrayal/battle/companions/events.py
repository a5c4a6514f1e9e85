"""Events of companion units (ROUND-6, ROUND-6a, CLASH-9, CLASH-9a and
their delve and dungeon twins; facts §2). Damage to a companion, its
healing and its defeat are the battle's own ``DamageDealt``, ``Healed``
and ``UnitDefeated``, naming it as their unit."""

from __future__ import annotations

from domain.kernel.hexes import Hex

from domain.betrayal.vocab import Status

from ..events import BattleEvent
from .state import Ally


class CompanionJoined(BattleEvent, frozen=True, kw_only=True):
    """A companion joined the party at setup under an adventurer's control,
    with its chip's numbers, off the map until placed (CLASH-9)."""

    TOPIC = "betrayal.CompanionJoined"
    companion: Ally
    rule: str


class CompanionPlaced(BattleEvent, frozen=True, kw_only=True):
    """A companion was placed on an empty Entrance hex: at setup (CLASH-9,
    DELVE-11, DUNGEON-10) or when its turn came (ROUND-6a)."""

    TOPIC = "betrayal.CompanionPlaced"
    companion: str
    hex: Hex
    rule: str


class CompanionWaits(BattleEvent, frozen=True, kw_only=True):
    """No empty Entrance hex: the companion waits beside the tile and may
    enter in a later round (CLASH-9a, DELVE-11a, DUNGEON-10a, ROUND-6a)."""

    TOPIC = "betrayal.CompanionWaits"
    companion: str
    rule: str


class CompanionTurnsBegan(BattleEvent, frozen=True, kw_only=True):
    """The Companion Turns step of the round: each companion still in the
    party will take its turn, in the order the party chooses (ROUND-6)."""

    TOPIC = "betrayal.CompanionTurnsBegan"
    rule: str = "ROUND-6"


class CompanionTurnStarted(BattleEvent, frozen=True, kw_only=True):
    """A companion's turn starts (facts: Start of Turn); ``start_positions``
    is every unit's hex then, for Stealth."""

    TOPIC = "betrayal.CompanionTurnStarted"
    companion: str
    start_positions: tuple[tuple[str, Hex], ...] = ()
    rule: str = "ROUND-6"


class CompanionMoved(BattleEvent, frozen=True, kw_only=True):
    """A companion moved along ``path`` (start excluded), at most its move."""

    TOPIC = "betrayal.CompanionMoved"
    companion: str
    path: tuple[Hex, ...]
    rule: str = "ROUND-6"


class CompanionEngaged(BattleEvent, frozen=True, kw_only=True):
    """A companion engaged ``targets``; its roll and the damage follow."""

    TOPIC = "betrayal.CompanionEngaged"
    companion: str
    targets: tuple[str, ...]
    rule: str = "ROUND-6"


class CompanionTurnEnded(BattleEvent, frozen=True, kw_only=True):
    """A companion's turn ended (facts: End of Turn)."""

    TOPIC = "betrayal.CompanionTurnEnded"
    companion: str
    rule: str = "ROUND-6"


class CompanionsWithdrew(BattleEvent, frozen=True, kw_only=True):
    """Every adventurer fell: the companions leave the map without being
    defeated (facts: ROUND-6, Defeat)."""

    TOPIC = "betrayal.CompanionsWithdrew"
    companions: tuple[str, ...]
    rule: str = "END-1c"


class CompanionStatusGained(BattleEvent, frozen=True, kw_only=True):
    """A status effect on a companion (RACE-WOOD-ELF: a Stealth die from
    Hunter's Eye; facts: a companion is a valid choice)."""

    TOPIC = "betrayal.CompanionStatusGained"
    companion: str
    status: Status
    rule: str


class CompanionStatusLost(BattleEvent, frozen=True, kw_only=True):
    """A status effect came off a companion (facts: STATUS-1, Stealth ends
    once it deals damage)."""

    TOPIC = "betrayal.CompanionStatusLost"
    companion: str
    status: Status
    rule: str


class CompanionCleanedUp(BattleEvent, frozen=True, kw_only=True):
    """End of battle: statuses off the companion and HP above its chip's
    gone (CLEANUP-3c for a permanent chip, STATUS-5 for any)."""

    TOPIC = "betrayal.CompanionCleanedUp"
    companion: str
    hp: int
    rule: str
