"""Damage items prevent of every instance (ENCHANT-1, OVERTAX-3): an
Armor's Overtax ward until its wearer's next turn, and Enchantments attached
to an adventurer or to the Clash tile it stands on. ``damage`` counts it
with the ward dice through ``hooks.WARD``."""

from __future__ import annotations

from domain.betrayal.vocab import EffectKind

from .. import hooks
from ..decision import Decision
from ..state import Hero


def tile_key(tile: str) -> str:
    """How an attachment to the Clash tile ``tile`` is written ("tile:A")."""
    return f"tile:{tile}"


def attached_to(d: Decision, hero: Hero) -> list[str]:
    """Items any adventurer attached to ``hero`` or to the tile it stands on."""
    tile = d.ctx.board.tile_of(hero.pos) if hero.pos is not None else None
    keys = {hero.id} | ({tile_key(tile)} if tile else set())
    return [item for h in d.state.heroes for item, on in h.attached if on in keys]


def gear_ward(d: Decision, hero: Hero) -> int:
    """Damage items prevent of each instance ``hero`` suffers."""
    total = hero.item_ward
    for item in attached_to(d, hero):
        card = d.ctx.pack.gear.get(item)
        if card is not None and card.effect is not None and card.effect.kind is EffectKind.WARD:
            total += card.effect.amount
    return total


hooks.WARD.register(hooks.Layer.ITEM, gear_ward)
