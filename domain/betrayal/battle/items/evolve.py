"""How the item events of a battle change its state (ITEM-*, READY-*,
OVERTAX-*, EXPEND-1, the item types): ``evolve`` folds them through
``APPLY``. Like ``evolve`` it only assigns what the events say."""

from __future__ import annotations

from collections.abc import Callable

from msgspec.structs import replace

from .. import events as ev
from ..state import BattleState, Hero

ENCHANT_RULE = "ENCHANT-1"


def engage_mark(state: BattleState) -> int:
    """The engage under way, as round * 100 + its number in the turn."""
    return state.round * 100 + (state.turn.engages if state.turn is not None else 0)


def _without(items: tuple, item) -> tuple:
    """``items`` less one copy of ``item`` (all of it when absent)."""
    if item not in items:
        return items
    i = items.index(item)
    return items[:i] + items[i + 1 :]


def _change(state: BattleState, hero_id: str, change: Callable[[Hero], dict]) -> BattleState:
    heroes = tuple(replace(h, **change(h)) if h.id == hero_id else h for h in state.heroes)
    return replace(state, heroes=heroes)


def _out_of_ready(h: Hero, item: str) -> dict:
    """An item leaves its ready slot: it is no longer expended, braced or chipped there."""
    return dict(
        ready=_without(h.ready, item),
        expended=_without(h.expended, item),
        guarding=_without(h.guarding, item),
        braced=_without(h.braced, item),
        chips=tuple(c for c in h.chips if c[0] != item),
    )


def _wielded(s: BattleState, e: ev.WeaponWielded) -> BattleState:
    return _change(s, e.hero, lambda h: dict(wielding=e.item, wield_overtax=e.overtax))


def _used(s: BattleState, e: ev.GearUsed) -> BattleState:
    if not e.overtax:
        return s
    return _change(s, e.hero, lambda h: dict(braced=_without(h.braced, e.item)))


def _expended(s: BattleState, e: ev.GearExpended) -> BattleState:
    return _change(s, e.hero, lambda h: dict(expended=h.expended + (e.item,)))


def _discarded(s: BattleState, e: ev.GearDiscarded) -> BattleState:
    return _change(s, e.hero, lambda h: dict(_out_of_ready(h, e.item), discarded=h.discarded + (e.item,)))


def _stowed(s: BattleState, e: ev.GearStowed) -> BattleState:
    return _change(
        s,
        e.hero,
        lambda h: dict(
            _out_of_ready(h, e.item), stowed=h.stowed + (e.item,), packed=h.packed + (e.item,), opportunist=True
        ),
    )


def _readied(s: BattleState, e: ev.GearReadied) -> BattleState:
    return _change(
        s,
        e.hero,
        lambda h: dict(
            packed=_without(h.packed, e.item),
            ready=h.ready + (e.item,),
            readied=h.readied + (e.item,),
            opportunist=False,
        ),
    )


def _attached(s: BattleState, e: ev.GearAttached) -> BattleState:
    return _change(s, e.hero, lambda h: dict(_out_of_ready(h, e.item), attached=h.attached + ((e.item, e.on),)))


def _braced(s: BattleState, e: ev.GearBraced) -> BattleState:
    def change(h: Hero) -> dict:
        guarding = h.guarding if e.item in h.guarding else h.guarding + (e.item,)
        return dict(guarding=guarding, braced=h.braced + (e.item,) if e.overtax else h.braced)

    return _change(s, e.hero, change)


def _ward(s: BattleState, e: ev.WardRaised) -> BattleState:
    return _change(s, e.hero, lambda h: dict(item_ward=max(h.item_ward, e.amount)))


def _chipped(s: BattleState, e: ev.PetChipped) -> BattleState:
    return _change(s, e.hero, lambda h: dict(chips=tuple(c for c in h.chips if c[0] != e.item) + ((e.item, e.chips),)))


def _rerolled(s: BattleState, e: ev.DiceRerolled) -> BattleState:
    if not e.typed:
        s = replace(s, rng=e.counter + len(e.positions))
    if s.pending is not None:
        s = replace(s, pending=replace(s.pending, dice=e.dice))
    if e.rule == ENCHANT_RULE:  # an Enchantment's reroll is once per engage
        mark = engage_mark(s)
        s = _change(s, e.hero, lambda h: dict(enchanted_engage=mark))
    return s


def turn_started(s: BattleState, hero_id: str) -> BattleState:
    """An item ward lasts until its wearer's next turn starts."""
    if s.hero(hero_id).item_ward:
        return _change(s, hero_id, lambda h: dict(item_ward=0))
    return s


def engage_resolved(s: BattleState, hero_id: str) -> BattleState:
    """The weapon applied to an engage is put up once the engage is over."""
    if any(h.id == hero_id and h.wielding for h in s.heroes):
        return _change(s, hero_id, lambda h: dict(wielding="", wield_overtax=False))
    return s


APPLY: dict[type, Callable] = {
    ev.WeaponWielded: _wielded,
    ev.GearUsed: _used,
    ev.GearExpended: _expended,
    ev.GearDiscarded: _discarded,
    ev.GearStowed: _stowed,
    ev.GearReadied: _readied,
    ev.GearAttached: _attached,
    ev.GearBraced: _braced,
    ev.WardRaised: _ward,
    ev.PetChipped: _chipped,
    ev.DiceRerolled: _rerolled,
}
