"""How the class ability events change a battle (``evolve.py`` takes these
into its table): they only assign what the events carry."""

from __future__ import annotations

from collections.abc import Callable

from msgspec.structs import replace

from .. import events as ev
from ..state import BattleState


def _hero(state: BattleState, hero_id: str, **changes) -> BattleState:
    heroes = tuple(replace(h, **changes) if h.id == hero_id else h for h in state.heroes)
    return replace(state, heroes=heroes)


def _began(s: BattleState, e: ev.ClassTurnBegan) -> BattleState:
    return _hero(s, e.hero, class_used=(), class_ward=0, class_engages=0)


def _used(s: BattleState, e: ev.ClassAbilityUsed) -> BattleState:
    h = s.hero(e.hero)
    used = h.class_used + (e.mark,) if e.mark else h.class_used
    armed = tuple(a for a in h.class_armed if a != e.ability)
    return _hero(s, e.hero, tenacity=e.tenacity, class_used=used, class_armed=armed)


def _armed(s: BattleState, e: ev.ClassAbilityArmed) -> BattleState:
    return _hero(s, e.hero, class_armed=s.hero(e.hero).class_armed + (e.ability,))


def _rerolled(s: BattleState, e: ev.ClassDiceRerolled) -> BattleState:
    if not e.typed:
        s = replace(s, rng=e.counter + len(e.positions))
    return replace(s, pending=replace(s.engage_waiting, dice=e.dice))


APPLY: dict[type, Callable] = {
    ev.ClassTurnBegan: _began,
    ev.ClassAbilityUsed: _used,
    ev.ClassAbilityArmed: _armed,
    ev.HeroFormChanged: lambda s, e: _hero(s, e.hero, form=e.form),
    ev.ClassGuardSet: lambda s, e: _hero(s, e.hero, class_ward=e.ward, class_block=e.block),
    ev.ClassDamagePrevented: lambda s, e: s,
    ev.ClassEngagesGranted: lambda s, e: _hero(s, e.hero, class_engages=e.engages),
    ev.ClassDiceRerolled: _rerolled,
    ev.PromotionProgressed: lambda s, e: _hero(
        s, e.hero, class_progress=e.progress, promotion=s.hero(e.hero).promotion or e.met
    ),
    ev.ClassSheetTurned: lambda s, e: _hero(s, e.hero, master=True),
}
