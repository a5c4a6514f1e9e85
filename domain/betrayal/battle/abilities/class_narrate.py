"""One readable line per class ability event (``narrate.py`` registers
them), citing the rule each carries."""

from __future__ import annotations

from collections.abc import Callable
from typing import get_args

from domain.betrayal.packs.catalog import Pack

from .. import events as ev

ClassEvent = (
    ev.ClassTurnBegan
    | ev.ClassAbilityUsed
    | ev.ClassAbilityArmed
    | ev.HeroFormChanged
    | ev.ClassGuardSet
    | ev.ClassDamagePrevented
    | ev.ClassEngagesGranted
    | ev.ClassDiceRerolled
    | ev.PromotionProgressed
    | ev.ClassSheetTurned
)  # each cites the rule it applies
EVENTS: tuple[type, ...] = get_args(ClassEvent)


def ability_name(pack: Pack, ability_id: str) -> str:
    """An ability's name from the pack (sheets, Master sides, Clothing)."""
    for sheet in pack.classes.values():
        for ability in (*sheet.abilities, *sheet.master):
            if ability.id == ability_id:
                return ability.name
    for item in pack.gear.values():
        if item.ability is not None and item.ability.id == ability_id:
            return item.ability.name
    return ability_id


def text(e: ClassEvent, who: Callable[[str], str], pack: Pack) -> str:
    """``CLASS-1: Brelyna uses Flare (2 tenacity, 1 left)`` and the like."""
    return f"{e.rule}: {_body(e, who, pack)}"


def _body(e, who, pack) -> str:
    if isinstance(e, ev.ClassTurnBegan):
        return f"{who(e.hero)}'s class abilities are ready again for a new turn"
    if isinstance(e, ev.ClassAbilityUsed):
        cost = f" ({e.spent} tenacity, {e.tenacity} left)" if e.spent else ""
        return f"{who(e.hero)} uses {ability_name(pack, e.ability)}{cost}"
    if isinstance(e, ev.ClassAbilityArmed):
        return f"{who(e.hero)} readies {ability_name(pack, e.ability)} for its trigger"
    if isinstance(e, ev.HeroFormChanged):
        return f"{who(e.hero)} changes to the {e.form.value} form"
    if isinstance(e, ev.ClassGuardSet):
        return f"{who(e.hero)} is guarded: ward {e.ward} until its next turn, block {e.block} of the next damage"
    if isinstance(e, ev.ClassDamagePrevented):
        name = {"ward": "its ward", "block": "its block"}.get(e.ability) or ability_name(pack, e.ability)
        on = "" if e.target == e.hero else f" to {who(e.target)}"
        return f"{who(e.hero)}'s {name} prevents {e.amount} damage{on}"
    if isinstance(e, ev.ClassEngagesGranted):
        return f"{who(e.hero)} has {e.engages} extra Engage action{'s' if e.engages != 1 else ''} left this turn"
    if isinstance(e, ev.ClassDiceRerolled):
        return f"{who(e.hero)} rerolls the dice at {', '.join(str(i + 1) for i in e.positions)}"
    if isinstance(e, ev.ClassSheetTurned):
        return f"{who(e.hero)} turns the {e.class_id} sheet to its Master side"
    if isinstance(e, ev.PromotionProgressed):
        met = ": the promotion requirement is met" if e.met else ""
        return f"{who(e.hero)} counts {e.progress} toward its promotion{met}"
    return type(e).__name__
