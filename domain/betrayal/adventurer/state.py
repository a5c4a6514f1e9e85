"""What an adventurer carries between battles, and the base of the events
of its stream. The battle-side events live in ``adventurer``, the campaign
ones (rewards, advancements, items, rest) in ``events``."""

from __future__ import annotations

from typing import ClassVar

import msgspec

from domain.kernel.messages import Event

from domain.betrayal.battle.state import TrackDie


class MatRow(msgspec.Struct, frozen=True, array_like=True):
    """One attribute row of the adventurer mat (ADVANCE-2 to ADVANCE-4): the
    attribute whose round token sits at each end ("" for an empty round
    slot). An attribute is "health", "stamina", "magicka", "combat" or a
    skill line id; the row's square slots fill from each end toward the
    middle."""

    left: str = ""
    right: str = ""


class AdventurerState(msgspec.Struct, frozen=True, kw_only=True):
    """What an adventurer carries from battle to battle.

    The fields after ``battles`` came with the campaign (classes, XP, the
    mat, items); an adventurer made for a battle alone leaves them at their
    defaults, and ``mat`` empty means the pack's starting layout."""

    adventurer_id: str
    name: str
    race: str
    lines: tuple[str, ...]
    dice: tuple[tuple[int, str], ...]  # (uid, die id)
    hp: int
    max_hp: int
    stamina: int
    magicka: int
    cooldown: int
    tenacity: int = 0
    track: tuple[TrackDie, ...] = ()  # carried over (CLEANUP-4c, TRACK-7)
    battles: tuple[str, ...] = ()
    campaign: str = ""  # the campaign it was recruited into or joined
    class_id: str = ""  # its class sheet (CLASS-1)
    master: bool = False  # promoted: the sheet's Master side is up (ADVANCE-15)
    promotable: bool = False  # the promotion requirement was met in a battle (ADVANCE-16)
    xp: int = 0  # unspent XP (ADVANCE-1)
    earned: int = 0  # all XP ever gained
    mat: tuple[MatRow, ...] = ()
    ready: tuple[str, ...] = ()  # item ids in the 4 ready slots (READY-1)
    packed: tuple[str, ...] = ()  # item ids in the Pack (READY-1)
    expended: tuple[str, ...] = ()  # item ids turned sideways (EXPEND-1)
    enchantments: tuple[str, ...] = ()  # Enchantments attached in a battle, gone at the session's end (ENCHANT-3)
    rewarded: tuple[str, ...] = ()  # battles whose rewards it gained (REWARD-1)
    fighting: str = ""  # the battle it is in, not ended yet (BETWEEN-1): "" between battles
    wiped: str = ""  # the battle in which its whole party fell (END-1c), until the next rest
    companions: tuple[str, ...] = ()  # permanent companion chips it controls, kept between battles (CLEANUP-3c)

    # Logs written before the campaign hold adventurers without these fields:
    # left out at their defaults, old logs import and digest as they did.
    __digest_skip_default__: ClassVar[frozenset[str]] = frozenset(
        {
            "campaign",
            "class_id",
            "master",
            "promotable",
            "xp",
            "earned",
            "mat",
            "ready",
            "packed",
            "expended",
            "enchantments",
            "rewarded",
            "fighting",
            "wiped",
            "companions",
        }
    )

    @property
    def items(self) -> tuple[str, ...]:
        """Every item it holds, ready slots first (ITEM-2: each takes a space)."""
        return self.ready + self.packed


class AdventurerEvent(Event, frozen=True, kw_only=True):
    """Base of events in an adventurer stream."""
