"""An adventurer's items between battles: 4 ready slots and the Pack, at
most 8 in all (READY-1), moved freely outside combat (READY-4), used at
any time outside battle (ITEM-7). Each function checks the rules and
returns the event that records the outcome, or raises RuleViolation."""

from __future__ import annotations

from domain.kernel.errors import MalformedCommand, RuleViolation

from domain.betrayal.packs.catalog import Pack

from . import events as ae
from .state import AdventurerState

READY_SLOTS = 4
INVENTORY = 8


def gear(pack: Pack, item: str):
    """The item's card (its kind and effects); MalformedCommand if unknown."""
    found = pack.gear.get(item)
    if found is None:
        raise MalformedCommand(f"no item {item!r} (see `rk items`)")
    return found


def _held(state: AdventurerState, item: str) -> None:
    if item not in state.items:
        raise MalformedCommand(f"{state.name} holds no {item!r} (see `rk adventurer {state.name}`)")


def _ready_check(state: AdventurerState, item: str, pack: Pack) -> None:
    if len(state.ready) >= READY_SLOTS:
        raise RuleViolation("READY-1", f"{state.name}'s {READY_SLOTS} ready slots are full; stow one first")
    card = gear(pack, item)
    if str(card.kind) == "armor":
        for other in state.ready:
            worn = gear(pack, other)
            if str(worn.kind) == "armor" and worn.trait == card.trait:
                raise RuleViolation(
                    "ARMOR-3", f"{state.name} already has {worn.name} ready, armour of the {card.trait} trait"
                )


def gain(state: AdventurerState, item: str, pack: Pack, *, ready: bool = False) -> ae.ItemGained:
    """ITEM-1, ITEM-2, READY-1: a new item, into the Pack unless ``ready``."""
    gear(pack, item)
    if len(state.items) >= INVENTORY:
        raise RuleViolation(
            "READY-1",
            f"{state.name} holds {INVENTORY} items, the most there can be; discard one"
            " first (facts: keep the 8 you choose)",
        )
    if ready:
        _ready_check(state, item, pack)
    return ae.ItemGained(item=item, ready=ready)


def move(state: AdventurerState, item: str, pack: Pack, *, ready: bool) -> ae.ItemMoved:
    """READY-4: between the Pack and a ready slot; a readied Pet never goes
    back (PET-4)."""
    _held(state, item)
    if ready:
        if item not in state.packed:
            raise MalformedCommand(f"{item} is already in a ready slot")
        _ready_check(state, item, pack)
    else:
        if item not in state.ready:
            raise MalformedCommand(f"{item} is already in the Pack")
        if str(gear(pack, item).kind) == "pet":
            raise RuleViolation(
                "PET-4", f"{gear(pack, item).name} is a pet in a ready slot: it cannot go back to the Pack"
            )
    return ae.ItemMoved(item=item, ready=ready)


def discard(state: AdventurerState, item: str, why: str = "") -> ae.ItemDiscarded:
    """The card leaves the inventory."""
    _held(state, item)
    return ae.ItemDiscarded(item=item, why=why)


def use(state: AdventurerState, item: str, pack: Pack) -> ae.ItemUsed:
    """ITEM-7: a Potion or a Consumable used outside battle. A Potion is
    then expended (POTION-2, EXPEND-1), a Consumable discarded
    (CONSUMABLE-1). Other kinds act in battle (ITEM-3)."""
    _held(state, item)
    card = gear(pack, item)
    kind = str(card.kind)
    if kind not in ("potion", "consumable"):
        raise RuleViolation("ITEM-3", f"{card.name} is used in battle, at the timing its card gives")
    if item in state.expended:
        raise RuleViolation("EXPEND-1", f"{card.name} is expended until it is replenished (EXPEND-3)")
    effect = card.effect
    what = str(effect.kind) if effect is not None else ""
    healed = tenacity = 0
    recovered: tuple[int, ...] = ()
    if what == "heal":
        healed = max(0, min(effect.amount, state.max_hp - state.hp))
    elif what == "tenacity":
        top = pack.campaign.max_tenacity if pack.campaign else 10
        tenacity = max(0, min(effect.amount, top - state.tenacity))
    elif what == "recover":  # skill dice off the track, from its front (RECOVER-2)
        recovered = tuple(i for i, t in enumerate(state.track) if t.kind.value == "skill")[: effect.amount]
    else:
        raise RuleViolation("ITEM-3", f"{card.name} does its work in battle ({what or 'no effect'} lasts only there)")
    return ae.ItemUsed(
        item=item,
        healed=healed,
        tenacity=tenacity,
        recovered=recovered,
        expended=kind == "potion",
        discarded=kind == "consumable",
    )


def replenish(state: AdventurerState, item: str, pack: Pack) -> ae.ItemReplenished:
    """EXPEND-3: an expended Potion turned upright at an alchemy station
    (facts default: other expended items only by effects that say so)."""
    _held(state, item)
    card = gear(pack, item)
    if item not in state.expended:
        raise MalformedCommand(f"{card.name} is not expended")
    if str(card.kind) != "potion":
        raise RuleViolation("EXPEND-3", f"an alchemy station replenishes potions; {card.name} is a {card.kind}")
    return ae.ItemReplenished(item=item)
