"""What a party may do between battles: the commands of a campaign
(imperative, frozen). Adventurers are named as players call them; the rules
find their streams."""

from __future__ import annotations

from typing import ClassVar

from domain.kernel.messages import Command
from domain.kernel.position.messages import StartFromPosition

from domain.betrayal.vocab import Difficulty


class StartCampaign(Command, frozen=True, kw_only=True):
    """Begin a campaign at a difficulty, with the dial at ``dial`` (facts:
    2, or 1 after the introductory quest)."""

    campaign_id: str
    difficulty: Difficulty = Difficulty.ADEPT
    dial: int = 2


class Recruit(Command, frozen=True, kw_only=True):
    """Create an adventurer of a race and class with its starting lines, and
    enlist it."""

    name: str
    race: str
    class_id: str
    lines: tuple[str, ...] = ()


class Enlist(Command, frozen=True, kw_only=True):
    """Bring an adventurer that exists (made for a battle) into the party,
    giving it a class if it has none."""

    name: str
    class_id: str = ""


class GainRewards(Command, frozen=True, kw_only=True):
    """Open the Reward Phase of a finished battle: ``xp`` is what it gave
    (REWARD-1); ``loot`` the item cards its caches gave, as (adventurer,
    item), each to the one who opened the cache (ITEM-1); ``discarded``
    the item cards given up in it (onto the item deck's pile, ITEM-9)."""

    battle_id: str
    xp: int
    loot: tuple[tuple[str, str], ...] = ()
    discarded: tuple[str, ...] = ()  # item cards the battle's party gave up in it (ITEM-9: the discard pile)

    # Added with the campaign's item deck: logs from before hold Reward Phases without it.
    __digest_skip_default__: ClassVar[frozenset[str]] = frozenset({"discarded"})


class Advance(Command, frozen=True, kw_only=True):
    """Buy an advancement with XP: ``what`` is health, stamina, magicka,
    cooldown, tenacity or a skill die id (ADVANCE-2 to ADVANCE-11)."""

    adventurer: str
    what: str
    amount: int = 1


class Untrain(Command, frozen=True, kw_only=True):
    """Take off a stat token (health, stamina, magicka), Magicka whole
    (magicka-line), or a skill die by its number (the Untrain step)."""

    adventurer: str
    what: str = ""
    uid: int = 0


class EndRewards(Command, frozen=True, kw_only=True):
    """Close the Reward Phase (ADVANCE-12 applies to each adventurer)."""


class TrainLine(Command, frozen=True, kw_only=True):
    """Visit a trainer: a new skill line (or Magicka again) on an empty round
    slot (ADVANCE-13, ADVANCE-14). ``row`` counts from 1; 0 takes the first
    empty slot."""

    adventurer: str
    line: str
    row: int = 0
    left: bool = True


class Rest(Command, frozen=True, kw_only=True):
    """End the day: Adventurers Rest. ``remove`` picks, per adventurer, the
    positions (from 1) of the cooldown dice to take off; ``discard`` the item
    each gives up where the difficulty asks one (Expert); ``trade`` the
    items handed over once they rested, as (giver, item, receiver)."""

    remove: tuple[tuple[str, tuple[int, ...]], ...] = ()
    discard: tuple[tuple[str, str], ...] = ()
    trade: tuple[tuple[str, str, str], ...] = ()

    # Added with trades: logs from before hold rests without it.
    __digest_skip_default__: ClassVar[frozenset[str]] = frozenset({"trade"})


class Promote(Command, frozen=True, kw_only=True):
    """Turn an adventurer's class sheet to its Master side, once its
    promotion requirement was met (ADVANCE-15, ADVANCE-16)."""

    adventurer: str


class EndSession(Command, frozen=True, kw_only=True):
    """Close the session: Tenacity to 0, pets and enchantments discarded."""


class ItemCommand(Command, frozen=True, kw_only=True):
    """What every item command names: whose item, and which."""

    adventurer: str
    item: str


class GainItem(ItemCommand, frozen=True, kw_only=True):
    """An item card into an adventurer's Pack (or a ready slot)."""

    ready: bool = False


class ReadyItem(ItemCommand, frozen=True, kw_only=True):
    """Move an item from the Pack to a ready slot (READY-4)."""


class StowItem(ItemCommand, frozen=True, kw_only=True):
    """Move an item from a ready slot to the Pack (READY-4)."""


class DiscardItem(ItemCommand, frozen=True, kw_only=True):
    """Give an item up."""


class UseItem(ItemCommand, frozen=True, kw_only=True):
    """Use a Potion or a Consumable outside battle (ITEM-7)."""


class ReplenishItem(ItemCommand, frozen=True, kw_only=True):
    """Turn an expended Potion upright at an alchemy station (EXPEND-3)."""


CampaignCommand = (
    StartCampaign
    | StartFromPosition
    | Recruit
    | Enlist
    | GainRewards
    | Advance
    | Untrain
    | EndRewards
    | TrainLine
    | Rest
    | Promote
    | EndSession
    | GainItem
    | ReadyItem
    | StowItem
    | DiscardItem
    | UseItem
    | ReplenishItem
)
