"""``gear.toml`` of a Betrayal pack: every item's type and effect
(``[gear.<id>]``).

An item card of items.toml gets its entry under the same id, with only its
type and effect: its name, value and legendary mark stay in items.toml (so
the delve hash never moves) and repeating them here is refused. An item that
is not an item card of items.toml gives all of them.

Each type has its own fields: a Weapon's ``form`` and an Armor's ``trait``
(ARMOR-3), their ``overtax`` (OVERTAX-1), a Clothing's ``ability``: the id
of an ability in classes.toml's ``[[abilities]]`` (CLOTHING-1), a Pet's
``hp_limit`` (PET-2, PET-3), an Enchantment's ``attaches`` (ENCHANT-1).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.kernel.content import (
    REQUIRED as _REQUIRED,
    At as _At,
    choice as _choice,
    flag as _flag,
    ident as _ident,
    integer as _integer,
    keyed as _keyed,
    record as _record,
    text as _text,
)

from domain.betrayal.vocab import ArmorTrait, Attaches, BattleForm, ItemKind

from .catalog import ItemCard
from .catalog_campaign import ClassAbility, ClassSheet, Gear
from .classes import CLASS_ONLY_EFFECTS
from .classes import effect as _effect

_FIELDS = {
    "kind": (_choice(ItemKind), _REQUIRED),
    "name": (_text, None),
    "legendary": (_flag, None),
    "value": (_integer(1), None),
    "trait": (_choice(ArmorTrait), None),
    "form": (_choice(BattleForm), None),
    "effect": (_effect, None),
    "overtax": (_effect, None),
    "ability": (_ident, None),
    "hp_limit": (_integer(1), None),
    "attaches": (_choice(Attaches), None),
    "text": (_text, _REQUIRED),
}
# a field only these types have, and each of them must
_ONLY_FOR = {
    "trait": (ItemKind.ARMOR,),
    "form": (ItemKind.WEAPON,),
    "overtax": (ItemKind.WEAPON, ItemKind.ARMOR),
    "ability": (ItemKind.CLOTHING,),
    "hp_limit": (ItemKind.PET,),
    "attaches": (ItemKind.ENCHANTMENT,),
}
_CARD_FIELDS = ("name", "legendary", "value")  # an item card's, read from items.toml


def gear(
    doc: dict[str, Any],
    items: Mapping[str, ItemCard],
    sheets: Mapping[str, ClassSheet],
    granted: Mapping[str, ClassAbility],
) -> dict[str, Gear]:
    """Every item of the pack with its type and effect: one entry per item
    card of ``items`` and the items gear.toml adds. ``granted`` are the
    abilities a Clothing may name, ``sheets`` the class sheets (whose
    abilities it may not)."""
    at = _At("gear.toml")
    top = _record(doc, at, {"gear": (lambda v, a: _keyed(v, a, _FIELDS), _REQUIRED)})
    out = {key: _gear(key, row, items, sheets, granted, at.key("gear").key(key)) for key, row in top["gear"].items()}
    for key in items:
        if key not in out:
            at.key("gear").fail(f"item card {key!r} of items.toml has no entry (its type and effect)")
    return out


def _gear(
    key: str,
    row: dict[str, Any],
    items: Mapping[str, ItemCard],
    sheets: Mapping[str, ClassSheet],
    granted: Mapping[str, ClassAbility],
    at: _At,
) -> Gear:
    kind = row["kind"]
    for name, kinds in _ONLY_FOR.items():
        if row[name] is not None and kind not in kinds:
            only = " and ".join(k.value for k in kinds)
            at.key(name).fail(f"a {kind.value} has no {name} (only {only})")
        if row[name] is None and kind in kinds:
            at.key(name).fail(f"a {kind.value} needs its {name}")
    if kind is ItemKind.CLOTHING and row["effect"] is not None:
        at.key("effect").fail("a clothing's use is the class ability it grants (CLOTHING-1), not an effect")
    if kind is not ItemKind.CLOTHING and row["effect"] is None:
        at.key("effect").fail(f"a {kind.value} needs its effect")
    for name in ("effect", "overtax"):  # active-slot effects are class abilities' only (battle/abilities/classes.py)
        if row[name] is not None and row[name].kind in CLASS_ONLY_EFFECTS:
            at.key(name).key("kind").fail(
                f"an item cannot have a {row[name].kind.value} effect: only a class"
                " ability (or a Clothing's) places or removes active dice"
            )
    card = _card_fields(key, row, items, at)
    ability = _granted(row["ability"], sheets, granted, at.key("ability")) if row["ability"] else None
    return Gear(
        id=key,
        kind=kind,
        trait=row["trait"].value if row["trait"] else "",
        form=row["form"],
        effect=row["effect"],
        overtax=row["overtax"],
        ability=ability,
        hp_limit=row["hp_limit"] or 0,
        attaches=row["attaches"].value if row["attaches"] else "",
        text=row["text"],
        **card,
    )


def _card_fields(key: str, row: dict[str, Any], items: Mapping[str, ItemCard], at: _At) -> dict[str, Any]:
    """Name, legendary and value: an item card's from items.toml, else from the entry."""
    card = items.get(key)
    if card is not None:
        for name in _CARD_FIELDS:
            if row[name] is not None:
                at.key(name).fail(
                    f"item card {key!r} takes its {name} from items.toml; gear.toml gives only its type and effect"
                )
        return {"name": card.name, "legendary": card.legendary, "value": card.value}
    for name in ("name", "value"):
        if row[name] is None:
            at.key(name).fail(f"required key is missing (no item card {key!r} in items.toml gives it)")
    return {"name": row["name"], "legendary": bool(row["legendary"]), "value": row["value"]}


def _granted(
    ability_id: str,
    sheets: Mapping[str, ClassSheet],
    granted: Mapping[str, ClassAbility],
    at: _At,
) -> ClassAbility:
    if ability_id in granted:
        return granted[ability_id]
    for sheet in sheets.values():
        if any(ability.id == ability_id for ability in sheet.abilities):
            at.fail(
                f"ability {ability_id!r} is on class sheet {sheet.id!r}; a clothing grants an "
                "additional one (CLOTHING-1), listed in classes.toml's [[abilities]]"
            )
    known = ", ".join(sorted(granted)) or "none"
    at.fail(f"unknown ability {ability_id!r} (classes.toml's [[abilities]]: {known})")
