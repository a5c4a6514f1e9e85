"""What a Betrayal position cannot hold (``Ruleset.check_position``): the
kernel has read every field by its type; this checks the battle against
its pack and its board, first flaw first, each named by its field.

- every content id is the pack's: races, skill dice, enemies, companion
  chips, classes;
- HP from 0 to its maximum (HEALTH-2), for adventurers, enemies and
  companions;
- every unit on the map, on a passable hex, one to a hex (MOVE-1);
- each of an adventurer's skill dice in one place: in its pool, on its
  cooldown track, in an active slot or on an enemy as a status (TRACK-1,
  ACTIVE-1, STATUS-1), never two;
- a delve's skyshards no more than it requires (SKYSHARD-3, SKYSHARD-9);
- each adventurer's stream (``adventurer_flaws``): its race and skill dice
  the pack's, its HP from 0 to its Health stat (HEALTH-2).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from domain.kernel.hexes import Hex, name
from domain.kernel.position.rules import Flaw

from domain.betrayal.adventurer.state import AdventurerState
from domain.betrayal.delve.aggregate import DelveState
from domain.betrayal.packs.catalog import Pack

from .companions.state import Ally
from .context import RulesContext, context_for
from .state import ActiveDie, BattleState, DieKind, Foe, Hero, TrackDie

Units = list[tuple[str, Sequence[Hero | Foe | Ally]]]  # each field of units, with its units


def flaws(state: BattleState, others: Sequence[Any], pack: Pack) -> list[Flaw]:
    """Every flaw of the position, in the order a reader meets them."""
    delve = next((o for o in others if isinstance(o.state, DelveState)), None)
    return [
        *_content(state, pack),
        *_health(state),
        *_places(state, _context(state, pack, delve)),
        *_dice(state),
        *_skyshards(delve),
        *adventurer_flaws(others, pack),
    ]


def adventurer_flaws(others: Sequence[Any], pack: Pack) -> list[Flaw]:
    """The flaws of the adventurers' streams a position holds (a battle's
    party, a campaign's)."""
    found = []
    for other in others:
        a = other.state
        if not isinstance(a, AdventurerState):
            continue
        stream = f"{other.kind}:{other.name}"
        if a.race not in pack.races:
            found.append(Flaw("race", f"no race {a.race!r} in pack {pack.id!r}", stream))
        found += [
            Flaw(f"dice[{i}]", f"no skill die {die!r} in pack {pack.id!r}", stream)
            for i, (_, die) in enumerate(a.dice)
            if die not in pack.dice
        ]
        if not 0 <= a.hp <= a.max_hp:
            found.append(Flaw("hp", f"HEALTH-2: {a.name} has {a.hp} HP; it holds 0 to {a.max_hp}", stream))
    return found


def _context(state: BattleState, pack: Pack, delve: Any) -> RulesContext:
    if delve is not None:
        return RulesContext(pack, state.setup, delve.state)
    return context_for(pack, state.setup)


def _content(state: BattleState, pack: Pack) -> Iterator[Flaw]:
    for i, h in enumerate(state.heroes):
        if h.race not in pack.races:
            yield Flaw(f"heroes[{i}].race", f"no race {h.race!r} in pack {pack.id!r}")
        if h.class_id and h.class_id not in pack.classes:
            yield Flaw(f"heroes[{i}].class_id", f"no class {h.class_id!r} in pack {pack.id!r}")
        for j, d in enumerate(h.dice):
            if d.die not in pack.dice:
                yield Flaw(f"heroes[{i}].dice[{j}].die", f"no skill die {d.die!r} in pack {pack.id!r}")
    for i, f in enumerate(state.foes):
        if f.enemy not in pack.enemies:
            yield Flaw(f"foes[{i}].enemy", f"no enemy {f.enemy!r} in pack {pack.id!r}")
    for i, a in enumerate(state.companions):
        if a.chip not in pack.companions:
            yield Flaw(f"companions[{i}].chip", f"no companion chip {a.chip!r} in pack {pack.id!r}")


def _health(state: BattleState) -> Iterator[Flaw]:
    units: Units = [("heroes", state.heroes), ("foes", state.foes), ("companions", state.companions)]
    for field, group in units:
        for i, unit in enumerate(group):
            if not 0 <= unit.hp <= unit.max_hp:
                yield Flaw(
                    f"{field}[{i}].hp",
                    f"HEALTH-2: {unit.name if hasattr(unit, 'name') else unit.id}"
                    f" has {unit.hp} HP; it holds 0 to {unit.max_hp}",
                )


def _places(state: BattleState, ctx: RulesContext) -> Iterator[Flaw]:
    board = ctx.board
    seen: dict[Hex, str] = {}
    units: Units = [("heroes", state.heroes), ("foes", state.foes), ("companions", state.companions)]
    for field, group in units:
        for i, unit in enumerate(group):
            if unit.pos is None or unit.defeated:
                continue
            where = f"{field}[{i}].pos"
            if not board.contains(unit.pos):
                yield Flaw(where, f"MOVE-1: {unit.id} is at {name(unit.pos)}, which is not on this map")
            elif not board.passable(unit.pos):
                yield Flaw(where, f"MOVE-1: {unit.id} is at {name(unit.pos)}, which is impassable")
            elif unit.pos in seen:
                yield Flaw(where, f"MOVE-1: {unit.id} is at {name(unit.pos)}, where {seen[unit.pos]} is")
            seen.setdefault(unit.pos, unit.id)


def _dice(state: BattleState) -> Iterator[Flaw]:
    marks = {(m.owner, m.uid) for f in state.foes for m in f.marks}
    for i, hero in enumerate(state.heroes):
        yield from _hero_dice(i, hero, marks)


def _hero_dice(i: int, hero: Hero, marks: set[tuple[str, int]]) -> Iterator[Flaw]:
    owned = {d.uid for d in hero.dice}
    if len(owned) != len(hero.dice):
        yield Flaw(f"heroes[{i}].dice", f"{hero.name} owns two dice of one uid")
    places: dict[int, str] = {uid: "on an enemy (STATUS-1)" for owner, uid in marks if owner == hero.id}
    slots: list[tuple[str, str, Sequence[TrackDie | ActiveDie]]] = [
        ("track", "on the cooldown track (TRACK-1)", hero.track),
        ("active", "in an active slot (ACTIVE-1)", hero.active),
    ]
    for field, place, dice in slots:
        for j, die in enumerate(dice):
            if die.kind is not DieKind.SKILL:
                continue
            where = f"heroes[{i}].{field}[{j}].uid"
            if die.uid not in owned:
                yield Flaw(where, f"{hero.name} owns no skill die {die.uid} (its dice are {sorted(owned)})")
            elif die.uid in places:
                yield Flaw(
                    where, f"{hero.name}'s die {die.uid} is {place} and {places[die.uid]}: a die is in one place"
                )
            places.setdefault(die.uid, place)


def _skyshards(delve: Any) -> Iterator[Flaw]:
    if delve is None:
        return
    state: DelveState = delve.state
    got = sum(s.count for s in state.obtained)
    if got > state.required:
        yield Flaw(
            "obtained",
            f"SKYSHARD-9: {got} skyshards obtained; the delve requires {state.required} and the excess is ignored",
            f"{delve.kind}:{delve.name}",
        )
