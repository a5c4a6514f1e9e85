"""The delve deck a delve begins with (DELVE-2, CLEANUP-6).

CLEANUP-6 tidies the delve cards after every battle: they are collected,
but any card marked "SP" is set aside, and only the rest is shuffled back
into the delve deck. So the deck a delve draws from never holds an SP
card: those wait, set aside, for the encounter or gazetteer that calls for
one (not in the source, and not in our content yet). The draw order needs
no shuffle here: each draw is a seeded pick from the cards left."""

from __future__ import annotations

from domain.betrayal.packs.catalog import Pack


def set_aside(pack: Pack) -> tuple[str, ...]:
    """The cards CLEANUP-6 keeps out of the delve deck: those marked SP."""
    return tuple(sorted(card_id for card_id, card in pack.cards.items() if card.sp))


def delve_deck(pack: Pack) -> tuple[str, ...]:
    """The delve deck: every delve card of the pack but those set aside."""
    aside = set(set_aside(pack))
    return tuple(sorted(card_id for card_id in pack.cards if card_id not in aside))
