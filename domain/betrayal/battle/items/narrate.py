"""One readable line per item event (ITEM-*), for ``narrate``: the item by
its card's name, the rule the event cites first."""

from __future__ import annotations

from domain.betrayal.packs.catalog import Pack

from .. import events as ev

EVENTS = (
    ev.WeaponWielded,
    ev.GearUsed,
    ev.GearExpended,
    ev.GearDiscarded,
    ev.GearStowed,
    ev.GearReadied,
    ev.GearAttached,
    ev.GearBraced,
    ev.WardRaised,
    ev.PetChipped,
    ev.DiceRerolled,
)


def _item(pack: Pack, item: str) -> str:
    found = pack.gear.get(item)
    return found.name if found is not None else item


def text(e, who, pack: Pack) -> str:
    """The line for item event ``e``; ``who(unit)`` names a unit."""
    hero = who(e.hero)
    item = _item(pack, e.item) if hasattr(e, "item") else ""
    if isinstance(e, ev.WeaponWielded):
        body = f"{hero} wields {item}" + (", overtaxing it" if e.overtax else "")
    elif isinstance(e, ev.GearUsed):
        body = f"{hero} uses {item}" + (" with its Overtax" if e.overtax else "")
    elif isinstance(e, ev.GearExpended):
        body = f"{item} is expended (turned sideways)"
    elif isinstance(e, ev.GearDiscarded):
        body = f"{hero} discards {item}"
    elif isinstance(e, ev.GearStowed):
        body = f"{item} goes back to {hero}'s Pack instead of being discarded"
    elif isinstance(e, ev.GearReadied):
        body = f"{hero} moves {item} from the Pack to a ready slot"
    elif isinstance(e, ev.GearAttached):
        on = f"the Clash tile {e.on.partition(':')[2]}" if e.on.startswith("tile:") else who(e.on)
        body = f"{hero} attaches {item} to {on}; it leaves the inventory"
    elif isinstance(e, ev.GearBraced):
        body = (
            f"{hero} readies {item}'s Overtax for the next enemy engage"
            if e.overtax
            else f"{hero} puts {item} on guard against enemy engages"
        )
    elif isinstance(e, ev.WardRaised):
        body = f"{hero} prevents {e.amount} of each damage until its next turn"
    elif isinstance(e, ev.PetChipped):
        body = f"{item} takes an HP chip ({e.chips})"
    else:
        body = f"{hero} rerolls the dice at " + ", ".join(str(i + 1) for i in e.positions)
    return f"{e.rule}: {body}" if e.rule else body
