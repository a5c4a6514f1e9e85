"""The campaign's item deck (ITEM-9): the Common and Legendary item cards
and their discard piles last across the campaign. A delve of the party is
dealt the deck as it stands (``deck``); its caches' cards leave it at the
Reward Phase (``dealt``), and every deck card a party member gives up goes
onto the discard pile (``discarded``), wherever that happens. A deck that
ran out in a delve was refilled from its pile there; the campaign learns
it from a card of the pile among the loot (``dealt``).

A card given by `rk item gain` comes from outside the deck (a town, a
quest: not in the source); it goes onto the pile when given up, as every
item card of the deck does."""

from __future__ import annotations

from domain.kernel.messages import Event

from domain.betrayal.delve.deck import ItemDeck
from domain.betrayal.packs.catalog import Pack

from . import game as cp


def deck(pack: Pack, state: cp.CampaignState) -> ItemDeck:
    """The item deck a delve of the party is dealt: the pack's item cards
    neither out nor on the discard pile, and the pile."""
    away = set(state.items_out) | set(state.item_discards)
    return ItemDeck(cards=tuple(sorted(i for i in pack.items if i not in away)), discards=state.item_discards)


def dealt(pack: Pack, state: cp.CampaignState, cards: tuple[str, ...]) -> list[Event]:
    """A battle's caches gave ``cards``. One that lay on the discard pile
    shows the pile of its kind was shuffled back first (ITEM-9)."""
    cards = tuple(i for i in cards if i in pack.items)
    events: list[Event] = []
    for legendary in (False, True):
        pile = tuple(i for i in state.item_discards if pack.items[i].legendary == legendary)
        if any(i in pile for i in cards):
            events.append(cp.ItemPileShuffledBack(cards=pile))
    if cards:
        events.append(cp.ItemCardsDealt(cards=cards))
    return events


def discarded(pack: Pack, items: tuple[str, ...] | list[str]) -> list[Event]:
    """The item deck's cards among ``items`` go onto its discard pile."""
    cards = tuple(i for i in items if i in pack.items)
    return [cp.ItemCardsDiscarded(cards=cards)] if cards else []
