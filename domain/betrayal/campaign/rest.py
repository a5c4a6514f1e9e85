"""The End of Day's Adventurers Rest, one adventurer at a time, and the
trades that follow it (betrayal-facts "Fills CLEANUP-4c ...": heal, take
cooldown dice off, trade, move and discard items).

Our rule IDs for the facts (RULES-COVERAGE.md): REST-1 the rest heals and
takes dice off as the difficulty says, REST-2 where a rest costs an item
(Expert) an adventurer who keeps its items does not rest, and the others
still do, REST-3 at Expert both sides of a trade must have rested. The
facts of END-1c add that on Expert a party wiped out heals 1 HP at its
next rest without giving an item up."""

from __future__ import annotations

from dataclasses import dataclass

from domain.kernel.errors import MalformedCommand, RuleViolation
from domain.kernel.messages import Event

from domain.betrayal.adventurer import events as ae
from domain.betrayal.adventurer import inventory
from domain.betrayal.adventurer.state import AdventurerState
from domain.betrayal.packs.catalog import Pack


@dataclass(frozen=True)
class Terms:
    """What a rest gives at the campaign's difficulty (REST-1) and whether
    it costs an item (REST-2)."""

    difficulty: str
    heal: int = 1
    remove: int = 1
    costs_item: bool = False


def terms(pack: Pack, difficulty: str) -> Terms:
    """The pack's rest table for ``difficulty`` (facts: Apprentice 2 and 2,
    Adept 1 and 1, Expert 1 and 1 for an item); 1 and 1 without one."""
    rule = pack.campaign.rest.get(difficulty) if pack.campaign else None
    if rule is None:
        return Terms(difficulty)
    return Terms(difficulty, rule.heal, rule.remove, rule.discard_item)


def rest_one(
    a: AdventurerState, t: Terms, pack: Pack, discarded: str = "", chosen: tuple[int, ...] | None = None
) -> Event:
    """How ``a`` rests: ``discarded`` is the item it gives up ("" none),
    ``chosen`` the track positions (from 1) it takes off (None: the front)."""
    if discarded:
        inventory.discard(a, discarded)  # it must hold it
    if t.costs_item and not discarded:
        return _without_an_item(a, t, chosen)
    removed = _removed(a, t, chosen)
    bonus = 0
    if discarded:
        card = inventory.gear(pack, discarded)
        # CONSUMABLE-2: a consumable given up to rest may do its work first.
        if str(card.kind) == "consumable" and card.effect is not None and str(card.effect.kind) == "heal":
            bonus = card.effect.amount
    return ae.Rested(healed=max(0, min(t.heal + bonus, a.max_hp - a.hp)), removed=removed, discarded=discarded)


def _without_an_item(a: AdventurerState, t: Terms, chosen: tuple[int, ...] | None) -> Event:
    """REST-2: no item given up where a rest costs one. Each adventurer
    chooses for itself: one that keeps its items does not rest, and the
    others still do. END-1c (facts): after its party fell it heals all the
    same (the HP only: the dice need the rest an item pays for)."""
    if chosen:
        raise RuleViolation(
            "REST-2",
            f"at {t.difficulty} difficulty {a.name} takes cooldown dice off only by"
            f" giving an item up: name it (--discard {a.name}:ITEM)",
        )
    if a.wiped:
        return ae.Rested(healed=max(0, min(t.heal, a.max_hp - a.hp)))
    return ae.RestForgone(held=len(a.items))


def _removed(a: AdventurerState, t: Terms, chosen: tuple[int, ...] | None) -> tuple[int, ...]:
    """REST-1: the track positions (from 0) the rest takes off."""
    if chosen is None:
        return tuple(range(min(t.remove, len(a.track))))  # default: the front of the queue
    if len(chosen) > t.remove or len(set(chosen)) != len(chosen):
        raise RuleViolation(
            "REST-1", f"{a.name} may take {t.remove} different cooldown dice off at {t.difficulty} difficulty"
        )
    if any(not 1 <= p <= len(a.track) for p in chosen):
        raise MalformedCommand(f"{a.name}'s track holds {len(a.track)} dice: positions 1 to {len(a.track)}")
    return tuple(sorted(p - 1 for p in chosen))


def rested(event: Event) -> bool:
    """Whether the adventurer rested (REST-2: not when it kept its items)."""
    return isinstance(event, ae.Rested)


def trade(
    giver: AdventurerState, receiver: AdventurerState, item: str, pack: Pack, t: Terms, unrested: tuple[str, ...]
) -> tuple[ae.ItemGiven, ae.ItemReceived]:
    """A trade after the rest: ``item`` from ``giver`` into ``receiver``'s
    Pack. ``unrested`` names the party members who did not rest today."""
    if giver.adventurer_id == receiver.adventurer_id:
        raise MalformedCommand(f"{giver.name} cannot trade with itself")
    if t.costs_item:
        for side in (giver, receiver):
            if side.name in unrested:
                raise RuleViolation(
                    "REST-3",
                    f"at {t.difficulty} difficulty both sides of a trade must have"
                    f" rested, and {side.name} did not (REST-2: no item given up)",
                )
    inventory.discard(giver, item)  # it must hold it
    inventory.gain(receiver, item, pack)  # READY-1: room for it
    return (
        ae.ItemGiven(item=item, to=receiver.name),
        ae.ItemReceived(item=item, giver=giver.name, expended=item in giver.expended),
    )
