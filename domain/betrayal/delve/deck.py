"""The decks a delve draws from: its delve deck (DELVE-2, CLEANUP-6) and,
for a campaign's party, the campaign's item deck (ITEM-9).

CLEANUP-6 tidies the delve cards after every battle: they are collected,
but any card marked "SP" is set aside, and only the rest is shuffled back
into the delve deck. So the deck a delve draws from never holds an SP
card: those wait, set aside, for the encounter or gazetteer that calls for
one (not in the source, and not in our content yet). The draw order needs
no shuffle here: each draw is a seeded pick from the cards left."""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

if TYPE_CHECKING:  # the struct travels in commands and events: no content loading for it
    from domain.betrayal.packs.catalog import Pack


class ItemDeck(msgspec.Struct, frozen=True, kw_only=True):
    """The item cards a campaign's party finds in caches (ITEM-9): those
    face down in the card tray, and the discard pile. Both last across the
    campaign; a delve is dealt them as they stand when it begins."""

    cards: tuple[str, ...] = ()
    discards: tuple[str, ...] = ()

    def of_kind(self, pack: Pack, legendary: bool) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The Common (or Legendary) deck and its discard pile."""
        return (
            tuple(i for i in self.cards if pack.items[i].legendary == legendary),
            tuple(i for i in self.discards if pack.items[i].legendary == legendary),
        )


def set_aside(pack: Pack) -> tuple[str, ...]:
    """The cards CLEANUP-6 keeps out of the delve deck: those marked SP."""
    return tuple(sorted(card_id for card_id, card in pack.cards.items() if card.sp))


def delve_deck(pack: Pack) -> tuple[str, ...]:
    """The delve deck: every delve card of the pack but those set aside."""
    aside = set(set_aside(pack))
    return tuple(sorted(card_id for card_id in pack.cards if card_id not in aside))
