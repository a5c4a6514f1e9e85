"""The values of Betrayal's open commands in the players' words (issue 24):
a rolled die by its name and the face it shows (``#1 Combat: 5 (combat
1)``, as the roll's table prints it), an enemy by its name and hex
(``Road Lookout, e1``), an item by its card's name, a class ability by its
name, an active slot by the die in it, a Defend's answers as what they do.

Only what the table already shows is named: the dice rolled and waiting
(ENGAGE-8), the adventurers' ready items and active dice, the enemies on
the map; nothing a draw or a roll has not revealed yet.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.kernel.surface import open as op

from domain.betrayal.battle.abilities.classes import abilities
from domain.betrayal.battle.abilities.race import NAMES
from domain.betrayal.battle.context import RulesContext
from domain.betrayal.battle.names import active_die, die_name, enemy_name, rolled_face, unit_name, where
from domain.betrayal.battle.state import BattleState, Hero

# The parameters naming dice of the roll waiting to be resolved, by position
# (a resolve's --skip; a reroll's --dice), per verb.
ROLLED = {"resolve": ("skip",), "use-item": ("dice",), "ability": ("dice",)}

# What none at all of a list does, where none differs from leaving it out (a Defend's: COMBAT-4, ARMOR-2).
NONE = {"blocks": "block with no active die", "gear": "use no Armor or Pet", "overtax": "trigger no Overtax"}


def labelled(state: BattleState | None, ctx: RulesContext, verb: str, opens: list[Any]) -> list[Any]:
    """``opens`` of ``verb`` with their values in the players' words."""
    if state is None:
        return opens
    return op.labelled(opens, _label(state, ctx, verb))


def _label(state: BattleState, ctx: RulesContext, verb: str) -> Callable[[str, Any], str]:
    pack = ctx.pack
    rolled = ROLLED.get(verb, ())
    hero = _acting(state)

    def unit(uid: str) -> str:
        for foe in state.foes:
            if foe.id == uid:
                return f"{enemy_name(pack, foe)}, {where(foe.pos)}"  # the id is the word beside it
        name = unit_name(state, pack, uid)
        return "" if name == uid else name

    def item(item_id: str) -> str:
        card = pack.gear.get(item_id)
        return card.name if card is not None else ""

    def die(position: int) -> str:
        waiting = state.pending
        if waiting is None or not 0 <= position < len(waiting.dice):
            return ""
        r = waiting.dice[position]
        return f"{die_name(pack, state.hero(waiting.hero), r.uid)}: {rolled_face(pack, r.die, r.face)}"

    def slot(position: int) -> str:
        if hero is None or not 0 <= position < len(hero.active):
            return ""
        return f"slot {position + 1}: {active_die(pack, hero, hero.active[position])}"

    def ability(ability_id: str) -> str:
        found = next((a for a in abilities(pack, hero) if a.id == ability_id), None) if hero is not None else None
        return found.name if found is not None else ""

    def each(one: Callable[[Any], str], v: Any, none: str) -> str:
        """A list of values named one by one; none at all in words."""
        if not isinstance(v, (list, tuple)):
            return one(v)
        if not v:
            return none
        names = [one(x) for x in v]
        return "; ".join(names) if all(names) else ""

    def label(name: str, v: Any) -> str:
        if name in rolled:
            return each(die, v, "none")
        if name == "dice" and verb == "race-ability" and hero is not None:  # a Dark Elf's track dice, by uid
            return each(lambda uid: die_name(pack, hero, uid), v, "")
        if name in ("target", "targets", "companion", "hero") and isinstance(v, (str, list, tuple)):
            return each(unit, v, "none")
        if name in ("weapon", "item", "gear", "overtax") and isinstance(v, (str, list, tuple)):
            return each(item, v, NONE.get(name, ""))
        if name == "ability" and isinstance(v, str):
            return ability(v)
        if name in ("blocks", "slot") and isinstance(v, (int, list, tuple)) and not isinstance(v, bool):
            return each(slot, v, NONE.get(name, ""))
        if name == "race" and v is True and hero is not None:
            return f"{NAMES.get(hero.race, hero.race)} on the damage left"
        return ""

    return label


def _acting(state: BattleState) -> Hero | None:
    """The adventurer whose choice it is: the one defending, the one whose
    dice wait, or the one whose turn it is."""
    if state.defense is not None:
        d = state.defense
        return state.hero(d.targets[d.index])
    if state.pending is not None:
        return state.hero(state.pending.hero)
    if state.turn is not None:
        return state.hero(state.turn.hero)
    return None
