"""The campaign as a game of the kernel: its state, the events of its own
stream and its evolve. A campaign holds what is the party's rather than one
adventurer's: the difficulty, the session, the XP dial (EP-2), who is in the
party, and where the Reward Phase stands. Its commands
(``commands``) write each adventurer's own events to that
adventurer's stream in the same transaction, so the kernel's command log
gives undo, redo, export and verify across the Reward Phase and rest."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import ClassVar
from uuid import UUID

import msgspec
from msgspec.structs import replace

from domain.kernel import commandlog
from domain.kernel.messages import Event
from domain.kernel.position import messages as position

from domain.betrayal.adventurer.state import AdventurerState
from domain.betrayal.packs.catalog import Pack
from domain.betrayal.vocab import Difficulty

from .commands import CampaignCommand


class Member(msgspec.Struct, frozen=True, array_like=True):
    """A party member: its name and its adventurer stream."""

    name: str
    adventurer_id: str


class CampaignState(msgspec.Struct, frozen=True, kw_only=True):
    """Where a campaign stands. ``battle_id`` is the campaign's id (the
    kernel's name for a game's id); ``seed`` is 0: nothing is random here."""

    battle_id: str
    rules_version: str
    pack_id: str
    pack_hash: str
    seed: int = 0
    difficulty: Difficulty = Difficulty.ADEPT
    session: int = 1
    day: int = 1
    dial: int = 2  # the party's XP dial: all XP earned (facts: EP-2)
    party: tuple[Member, ...] = ()
    rewarded: tuple[str, ...] = ()  # battles whose Reward Phase was held (REWARD-1)
    reward: str = ""  # the battle whose Reward Phase is open, "" when none
    advanced: tuple[str, ...] = ()  # who has bought an advancement in the open phase (REWARD-2)
    items_out: tuple[str, ...] = ()  # item cards caches dealt from the item deck, not discarded yet (ITEM-9)
    item_discards: tuple[str, ...] = ()  # the item deck's discard pile (ITEM-9)

    # Added with the campaign's item deck: logs from before hold campaigns without them.
    __digest_skip_default__: ClassVar[frozenset[str]] = frozenset({"items_out", "item_discards"})

    def member(self, name: str) -> Member | None:
        """The party member called ``name`` (any case), or None."""
        key = name.strip().lower()
        return next((m for m in self.party if m.name.lower() == key), None)


@dataclass(frozen=True)
class CampaignContext:
    """What a campaign's rules read: the pack, the party's adventurers (by
    stream, as they stand), and how to find an adventurer's stream by name."""

    pack: Pack
    adventurers: Mapping[str, AdventurerState | None] = field(default_factory=dict)
    stream_of: Callable[[str], UUID] | None = None  # an adventurer's name -> its stream

    def stream(self, name: str) -> UUID:
        assert self.stream_of is not None, "a campaign's rules context knows its streams"
        return self.stream_of(name)


class CampaignEvent(Event, frozen=True, kw_only=True):
    """Base of the events of a campaign's own stream."""


class CampaignStarted(CampaignEvent, frozen=True, kw_only=True):
    """A new campaign, with its difficulty and the dial's start (facts: EP-2)."""

    TOPIC = "betrayal.CampaignStarted"
    campaign_id: str
    rules_version: str
    pack_id: str
    pack_hash: str
    difficulty: Difficulty
    session: int
    dial: int


class MemberEnlisted(CampaignEvent, frozen=True, kw_only=True):
    """An adventurer joined the party."""

    TOPIC = "betrayal.MemberEnlisted"
    name: str
    adventurer_id: str


class RewardsGained(CampaignEvent, frozen=True, kw_only=True):
    """REWARD-1: the Reward Phase of a finished battle opens; the dial rises
    by the XP gained (facts: CLEANUP-1 Reward Phase step 1)."""

    TOPIC = "betrayal.RewardsGained"
    battle_id: str
    xp: int


class AdvancementTaken(CampaignEvent, frozen=True, kw_only=True):
    """Someone bought an advancement in the open phase: the Untrain step is
    behind them (REWARD-2)."""

    TOPIC = "betrayal.AdvancementTaken"
    adventurer_id: str


class RewardPhaseEnded(CampaignEvent, frozen=True, kw_only=True):
    """REWARD-4: the Gain Advancements step closes (ADVANCE-12 applied)."""

    TOPIC = "betrayal.RewardPhaseEnded"
    battle_id: str


class DayEnded(CampaignEvent, frozen=True, kw_only=True):
    """REST-1: the End of Day: the adventurers rested."""

    TOPIC = "betrayal.DayEnded"
    day: int


class ItemCardsDealt(CampaignEvent, frozen=True, kw_only=True):
    """ITEM-9: item cards a battle's caches took from the campaign's item
    deck (ITEM-1), now in the party's hands."""

    TOPIC = "betrayal.ItemCardsDealt"
    cards: tuple[str, ...]


class ItemCardsDiscarded(CampaignEvent, frozen=True, kw_only=True):
    """ITEM-9: item cards of the item deck a party member gave up, onto its
    discard pile."""

    TOPIC = "betrayal.ItemCardsDiscarded"
    cards: tuple[str, ...]


class ItemPileShuffledBack(CampaignEvent, frozen=True, kw_only=True):
    """ITEM-9: the Common (or Legendary) item deck ran out in a battle, so
    its discard pile (``cards``) was shuffled and put back in the tray."""

    TOPIC = "betrayal.ItemPileShuffledBack"
    cards: tuple[str, ...]


class SessionEnded(CampaignEvent, frozen=True, kw_only=True):
    """The session is over; the next begins (SESSION-EP-3 reads its number)."""

    TOPIC = "betrayal.SessionEnded"
    session: int


class CampaignPositionTaken(position.PositionTaken, CampaignEvent, frozen=True, kw_only=True):
    """A campaign was set up from a position file: ``state`` as it stands."""

    TOPIC = "betrayal.CampaignPositionTaken"
    state: CampaignState


class CampaignIssued(commandlog.CommandIssued, CampaignEvent, frozen=True, kw_only=True):
    """A campaign command was accepted (the kernel's command log)."""

    TOPIC = "betrayal.CampaignIssued"
    command: CampaignCommand


class CampaignUndone(commandlog.CommandUndone, CampaignEvent, frozen=True, kw_only=True):
    """A campaign command was undone: the campaign is back to ``restored``."""

    TOPIC = "betrayal.CampaignUndone"
    restored: CampaignState


def evolve_campaign(state: CampaignState | None, event: Event) -> CampaignState:
    """The campaign after ``event``. Pure; never validates."""
    if isinstance(event, CampaignPositionTaken):
        return event.state
    if isinstance(event, CampaignStarted):
        return CampaignState(
            battle_id=event.campaign_id,
            rules_version=event.rules_version,
            pack_id=event.pack_id,
            pack_hash=event.pack_hash,
            difficulty=event.difficulty,
            session=event.session,
            dial=event.dial,
        )
    assert state is not None
    if isinstance(event, MemberEnlisted):
        return replace(state, party=state.party + (Member(event.name, event.adventurer_id),))
    if isinstance(event, RewardsGained):
        return replace(
            state,
            dial=state.dial + event.xp,
            reward=event.battle_id,
            advanced=(),
            rewarded=state.rewarded + (event.battle_id,),
        )
    if isinstance(event, AdvancementTaken):
        return replace(state, advanced=state.advanced + (event.adventurer_id,))
    if isinstance(event, RewardPhaseEnded):
        return replace(state, reward="", advanced=())
    if isinstance(event, DayEnded):
        return replace(state, day=event.day + 1)
    if isinstance(event, ItemCardsDealt):
        return replace(state, items_out=state.items_out + event.cards)
    if isinstance(event, ItemCardsDiscarded):
        return replace(
            state, items_out=_without(state.items_out, event.cards), item_discards=state.item_discards + event.cards
        )
    if isinstance(event, ItemPileShuffledBack):
        return replace(state, item_discards=_without(state.item_discards, event.cards))
    if isinstance(event, SessionEnded):
        return replace(state, session=event.session + 1)
    return state


def _without(cards: tuple[str, ...], gone: tuple[str, ...]) -> tuple[str, ...]:
    """``cards`` less one copy of each of ``gone``."""
    left = list(cards)
    for card in gone:
        if card in left:
            left.remove(card)
    return tuple(left)
