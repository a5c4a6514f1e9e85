"""What a labyrinth position cannot hold (``Ruleset.check_position``),
first flaw first, each named by its field:

- each combatant's class or enemy kind, and its weapons, armor, skills and
  items, are the pack's;
- HP no more than its maximum (Max HP up raises it, BUFF-MAXHP-UP), TP
  from 0 to its maximum;
- two combatants of a side are never in one place (row and order);
- at most 6 a side (SCALE-1).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from domain.kernel.position.rules import Flaw

from .catalog import Pack
from .state import Combatant, LabyrinthState
from .stats import stats
from .vocab import Side

SIDE_MOST = 6  # SCALE-1


def flaws(state: LabyrinthState, pack: Pack) -> list[Flaw]:
    """Every flaw of the position, in the order a reader meets them."""
    return [*_content(state, pack), *_points(state, pack), *_places(state)]


def _content(state: LabyrinthState, pack: Pack) -> Iterator[Flaw]:
    for i, c in enumerate(state.combatants):
        known = {Side.PC: pack.classes.keys(), Side.ENEMY: pack.enemies.keys()}.get(
            c.side, pack.classes.keys() | pack.enemies.keys()
        )
        if c.kind not in known and not c.placer:
            yield Flaw(
                f"combatants[{i}].kind",
                f"{c.id}: no {'class' if c.side is Side.PC else 'enemy'} {c.kind!r} in pack {pack.id!r}",
            )
        for field, ids in (("weapon", set(pack.weapons)), ("other", set(pack.weapons)), ("armor", set(pack.armor))):
            value = getattr(c, field)
            if value and value not in ids:
                yield Flaw(f"combatants[{i}].{field}", f"{c.id}: no {field} {value!r} in pack {pack.id!r}")
        for field, names in (("skills", set(pack.skills)), ("items", set(pack.items))):
            for j, value in enumerate(getattr(c, field)):
                if value not in names:
                    yield Flaw(
                        f"combatants[{i}].{field}[{j}]", f"{c.id}: no {field[:-1]} {value!r} in pack {pack.id!r}"
                    )


def _points(state: LabyrinthState, pack: Pack) -> Iterator[Flaw]:
    for i, c in enumerate(state.combatants):
        most = _max_hp(c, state, pack)
        if c.hp > most:  # below 0 is what a blow past 0 leaves
            yield Flaw(f"combatants[{i}].hp", f"{c.id} has {c.hp} HP; it holds at most {most} (BUFF-MAXHP-UP)")
        if not 0 <= c.tp <= c.base.max_tp:
            yield Flaw(f"combatants[{i}].tp", f"{c.id} has {c.tp} TP; it holds 0 to {c.base.max_tp}")


def _max_hp(c: Combatant, state: LabyrinthState, pack: Pack) -> int:
    try:
        return stats(c, pack).max_hp
    except (KeyError, AttributeError, TypeError):  # content already refused above; judge by the sheet
        return c.base.max_hp


def _places(state: LabyrinthState) -> Iterator[Flaw]:
    seen: dict[tuple[bool, str, int], str] = {}
    for i, c in enumerate(state.combatants):
        if c.vanished or c.hp <= 0:
            continue
        place = (c.side is Side.ENEMY, c.row, c.order)  # PCs and allied NPCs share the party's rows
        if place in seen:
            yield Flaw(
                f"combatants[{i}].order", f"{c.id} stands in the {c.row} row at {c.order}, where {seen[place]} is"
            )
        seen.setdefault(place, c.id)
    sides = Counter("enemy" if c.side is Side.ENEMY else "party" for c in state.combatants if not c.placer)
    for side, count in sides.items():
        if count > SIDE_MOST:
            yield Flaw(
                "combatants", f"SCALE-1: {count} combatants on the {side} side; a battle is at most {SIDE_MOST} a side"
            )
