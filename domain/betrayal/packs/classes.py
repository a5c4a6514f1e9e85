"""``classes.toml`` of a Betrayal pack: the class sheets (``[classes.<id>]``
with their ``[[classes.<id>.abilities]]``, the Innate one first, their
promotion ``requirement`` and the ``[[classes.<id>.master]]`` abilities of
the Master side) and the abilities items grant (``[[abilities]]``, named
by a Clothing in gear.toml).

Also the effect converter (``effect``) that gear.toml reuses: an inline
table ``{ kind = "damage", amount = 2 }`` or ``{ kind = "status", status =
"daze" }``.
"""

from __future__ import annotations

from typing import Any

from domain.kernel.content import (
    REQUIRED as _REQUIRED,
    At as _At,
    choice as _choice,
    ident as _ident,
    integer as _integer,
    keyed as _keyed,
    record as _record,
    records as _records,
    text as _text,
)

from domain.betrayal.vocab import AbilityTiming, BattleForm, EffectKind, Status, Trigger

from .catalog_campaign import AbilityEffect, ClassAbility, ClassSheet, Requirement, RequirementKind

MAX_ABILITY_COST = 5  # facts: class abilities cost 0-5 tenacity
MIN_MASTER_ABILITIES = 2  # our Master sides add at least two abilities (ADVANCE-15)

# The effects a battle can apply for each timing (battle/abilities/classes.py says
# how); an ability outside these is refused when the pack loads.
_K = EffectKind
INNATE_EFFECTS = frozenset({_K.WARD, _K.BLOCK, _K.HEAL, _K.TENACITY, _K.MOVE, _K.REROLL})
ENDURING_EFFECTS = frozenset(
    {_K.WARD, _K.BLOCK, _K.CLEANSE, _K.HEAL, _K.BONUS_HP, _K.RECOVER, _K.TENACITY, _K.REROLL, _K.MOVE}
)
ACTION_EFFECTS = frozenset(set(EffectKind) - {_K.EXTRA_DICE})  # extra dice: only items (not modelled here)
# Effects on the active slots (ACTIVE-5, ACTIVE-8): Actions only, used on your
# own turn when a full slot can be cleared first (ACTIVE-4); never an item's.
CLASS_ONLY_EFFECTS = frozenset({_K.FATIGUE_BLOCK, _K.HURL_BLOCK})
INTERRUPT_EFFECTS = {
    Trigger.DAMAGED: frozenset({_K.BLOCK, _K.WARD, _K.BONUS_HP}),
    Trigger.ALLY_DAMAGED: frozenset({_K.BLOCK, _K.WARD, _K.BONUS_HP}),
    Trigger.ENGAGED: frozenset({_K.DAMAGE, _K.TRUE_DAMAGE, _K.STATUS}),
    Trigger.ENEMY_DEFEATED: frozenset({_K.EXTRA_ENGAGE, _K.TENACITY, _K.HEAL, _K.BONUS_HP, _K.RECOVER, _K.CLEANSE}),
    Trigger.TURN_START: frozenset({_K.BONUS_HP, _K.HEAL, _K.CLEANSE, _K.RECOVER, _K.TENACITY, _K.WARD, _K.BLOCK}),
}

_EFFECT_FIELDS = {
    "kind": (_choice(EffectKind), _REQUIRED),
    "amount": (_integer(0), 0),
    "status": (_choice(Status), None),
}


def effect(value: object, at: _At) -> AbilityEffect:
    """An effect table: a ``status`` effect names its status and no amount;
    every other kind has an amount of at least 1 and no status."""
    row = _record(value, at, _EFFECT_FIELDS)
    if row["kind"] is EffectKind.STATUS:
        if row["status"] is None:
            at.key("status").fail("a status effect must name its status")
        if row["amount"]:
            at.key("amount").fail("a status effect has no amount")
    else:
        if row["status"] is not None:
            at.key("status").fail(f"only a status effect names a status, not {row['kind'].value}")
        if row["amount"] < 1:
            at.key("amount").fail(f"a {row['kind'].value} effect needs an amount of at least 1")
    return AbilityEffect(**row)


_ABILITY_FIELDS = {
    "id": (_ident, _REQUIRED),
    "name": (_text, _REQUIRED),
    "timing": (_choice(AbilityTiming), _REQUIRED),
    "cost": (_integer(0, MAX_ABILITY_COST), _REQUIRED),
    "form": (_choice(BattleForm), None),
    "effect": (effect, _REQUIRED),
    "trigger": (_choice(Trigger), None),
    "text": (_text, _REQUIRED),
}


def _ability(row: dict[str, Any], at: _At) -> ClassAbility:
    timing, trigger = row["timing"], row.pop("trigger")
    if timing is AbilityTiming.INTERRUPT and trigger is None:
        at.key("trigger").fail("an Interrupt ability must name its trigger (CLASS-4)")
    if timing is not AbilityTiming.INTERRUPT and trigger is not None:
        at.key("trigger").fail(f"only an Interrupt ability has a trigger, not an {timing.value} one")
    if timing is AbilityTiming.INNATE and row["cost"]:
        at.key("cost").fail("an Innate ability is free (facts: CLASS-2a), so its cost is 0")
    if timing is AbilityTiming.ENDURING and not row["cost"]:
        at.key("cost").fail("an Enduring ability needs a tenacity of at least 1 to be on (CLASS-3)")
    kind = row["effect"].kind
    allowed = (
        INTERRUPT_EFFECTS[trigger]
        if timing is AbilityTiming.INTERRUPT
        else {
            AbilityTiming.INNATE: INNATE_EFFECTS,
            AbilityTiming.ENDURING: ENDURING_EFFECTS,
            AbilityTiming.ACTION: ACTION_EFFECTS,
        }[timing]
    )
    if kind not in allowed:
        when = f"an Interrupt on {trigger.value}" if trigger else f"an {timing.value.capitalize()} ability"
        at.key("effect").key("kind").fail(
            f"{when} cannot have a {kind.value} effect; choose one of {', '.join(sorted(k.value for k in allowed))}"
        )
    return ClassAbility(trigger=trigger.value if trigger else "", **row)


def _abilities(value: object, at: _At) -> tuple[ClassAbility, ...]:
    rows = _records(value, at, _ABILITY_FIELDS)
    return tuple(_ability(row, at.index(i)) for i, row in enumerate(rows))


_REQUIREMENT_FIELDS = {
    "kind": (_choice(RequirementKind), _REQUIRED),
    "amount": (_integer(1), _REQUIRED),
}


def _requirement(value: object, at: _At) -> Requirement:
    """``{ kind = "prevent-damage", amount = 10 }``: what a battle counts
    toward the promotion (ADVANCE-15)."""
    return Requirement(**_record(value, at, _REQUIREMENT_FIELDS))


_CLASS_FIELDS = {
    "name": (_text, _REQUIRED),
    "text": (_text, _REQUIRED),
    "promotion": (_text, _REQUIRED),
    "requirement": (_requirement, _REQUIRED),
    "abilities": (_abilities, _REQUIRED),
    "master": (_abilities, _REQUIRED),
}


def _sheet(key: str, row: dict[str, Any], at: _At) -> ClassSheet:
    abilities = row["abilities"]
    if not abilities or abilities[0].timing is not AbilityTiming.INNATE:
        at.key("abilities").index(0).key("timing").fail(
            "a class sheet's first (top) ability is its Innate one (facts: CLASS-2a)"
        )
    for i, ability in enumerate(abilities[1:], start=1):
        if ability.timing is AbilityTiming.INNATE:
            at.key("abilities").index(i).key("timing").fail(
                "a class sheet has one Innate ability, its first (facts: CLASS-2a)"
            )
    if len(row["master"]) < MIN_MASTER_ABILITIES:
        at.key("master").fail(f"a Master side adds at least {MIN_MASTER_ABILITIES} abilities (ADVANCE-15)")
    for i, ability in enumerate(row["master"]):
        if ability.timing is AbilityTiming.INNATE:
            at.key("master").index(i).key("timing").fail(
                "the Innate ability is the Novice side's top one (facts: CLASS-2a), not a Master one"
            )
    return ClassSheet(id=key, **row)


def classes_and_granted(
    doc: dict[str, Any],
) -> tuple[dict[str, ClassSheet], dict[str, ClassAbility]]:
    """The class sheets of ``classes.toml`` and the abilities items grant,
    by id; an ability id is unique across both."""
    at = _At("classes.toml")
    top = _record(
        doc,
        at,
        {
            "classes": (lambda v, a: _keyed(v, a, _CLASS_FIELDS), _REQUIRED),
            "abilities": (_abilities, ()),
        },
    )
    if not top["classes"]:
        at.key("classes").fail("a campaign needs at least one class sheet")
    sheets = {key: _sheet(key, row, at.key("classes").key(key)) for key, row in top["classes"].items()}
    seen: dict[str, str] = {}
    for sheet in sheets.values():
        sides = [("abilities", i, a) for i, a in enumerate(sheet.abilities)]
        sides += [("master", i, a) for i, a in enumerate(sheet.master)]
        for side, i, ability in sides:
            where = at.key("classes").key(sheet.id).key(side).index(i).key("id")
            if ability.id in seen:
                where.fail(f"ability id {ability.id!r} is already used by {seen[ability.id]}")
            seen[ability.id] = f"class {sheet.id!r}"
    granted: dict[str, ClassAbility] = {}
    for i, ability in enumerate(top["abilities"]):
        where = at.key("abilities").index(i)
        if ability.id in seen:
            where.key("id").fail(f"ability id {ability.id!r} is already used by {seen[ability.id]}")
        if ability.timing is AbilityTiming.INNATE:
            where.key("timing").fail(
                "an ability an item grants is not Innate (the Innate one is a class sheet's top ability)"
            )
        granted[ability.id] = ability
    return sheets, granted
