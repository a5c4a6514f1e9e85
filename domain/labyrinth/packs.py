"""Loading and validating a labyrinth content pack.

A pack is six TOML files: ``pack.toml`` (id, name, version), ``gear.toml``
(weapons, armour, items), ``skills.toml`` (every skill, of classes and
Enemies alike), ``classes.toml``, ``enemies.toml`` and ``encounters.toml``.
``parse_pack`` is pure and refuses anything malformed or inconsistent with a
``ContentError`` naming the file, the field path and the reason;
``starter_pack`` reads the bundled one.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from domain.kernel.content import (
    located,
    REQUIRED,
    At,
    choice,
    document,
    flag,
    ident,
    integer,
    keyed,
    list_of,
    pack_hash,
    record,
    table,
    text,
)
from domain.kernel import packages
from domain.kernel.errors import ContentError

from . import pack_skills
from .catalog import (
    Abilities,
    Armor,
    ClassSheet,
    Drop,
    Encounter,
    EncounterEnemy,
    EnemyKind,
    Item,
    Pack,
    Rare,
    Skill,
    Weapon,
)
from .vocab import PHYSICAL, SIDE_LIMIT, Attribute, Reach, Row

PACK_FILES = ("pack.toml", "gear.toml", "skills.toml", "classes.toml", "enemies.toml", "encounters.toml")


def parse_pack(files: Mapping[str, bytes]) -> Pack:
    """Build a validated ``Pack`` from the raw bytes of its files, by name."""
    with located(files):  # a refusal names the line of its field
        return _parse_pack(files)


def _parse_pack(files: Mapping[str, bytes]) -> Pack:
    extra = sorted(set(files) - set(PACK_FILES))
    if extra:
        raise ContentError(extra[0], "(file)", f"not a pack file (expected {', '.join(PACK_FILES)})")
    docs = {name: document(name, files) for name in PACK_FILES}
    head = record(
        docs["pack.toml"],
        At("pack.toml"),
        {
            "id": (ident, REQUIRED),
            "name": (text, REQUIRED),
            "version": (text, REQUIRED),
            "text": (text, ""),
        },
    )
    weapons, armor, items, tokens = _gear(docs["gear.toml"], At("gear.toml"))
    skills = pack_skills.skills(docs["skills.toml"], At("skills.toml"))
    for key, found in skills.items():
        tokens += pack_skills.token_refs(found.effects, At("skills.toml", f"skills.{key}.effects"))
    gear = {**weapons, **armor, **items}
    enemies = _enemies(docs["enemies.toml"], At("enemies.toml"), skills, gear)
    for at, kind in tokens:
        if kind not in enemies:
            at.fail(f"unknown Enemy kind {kind!r}")
        if not enemies[kind].token:
            at.fail(f"Enemy kind {kind!r} is not a token (it needs token = true)")
    classes = _classes(docs["classes.toml"], At("classes.toml"), skills, weapons, armor, items)
    encounters = _encounters(docs["encounters.toml"], At("encounters.toml"), enemies)
    return Pack(
        id=head["id"],
        name=head["name"],
        version=head["version"],
        hash=pack_hash(files),
        classes=classes,
        skills=skills,
        weapons=weapons,
        armor=armor,
        items=items,
        enemies=enemies,
        encounters=encounters,
    )


def starter_files() -> dict[str, bytes]:
    """The raw files of the bundled starter pack (to build variants in tests)."""
    content = packages.files("domain.labyrinth.content")
    return {name: content.joinpath(name).read_bytes() for name in PACK_FILES}


@functools.cache
def starter_pack() -> Pack:
    """The starter pack bundled in ``domain/labyrinth/content``."""
    return parse_pack(starter_files())


def _keyed_of(fields: Mapping[str, Any]):
    return lambda value, at: keyed(value, at, fields)


def _known(ids: tuple[str, ...], known: Mapping[str, object], what: str, at: At) -> None:
    for i, name in enumerate(ids):
        if name not in known:
            at.index(i).fail(f"unknown {what} {name!r}")


def _physical(value: object, at: At) -> Attribute:
    attribute = choice(Attribute)(value, at)
    if attribute not in PHYSICAL:
        # a Normal attack is a physical attack roll with this attribute (MAIN-3)
        at.fail(f"{value!r}: a Normal attack's attribute is cut, bash or stab")
    return attribute


# ---------------------------------------------------------------- gear.toml

_WEAPON = {
    "name": (text, REQUIRED),
    "attribute": (_physical, REQUIRED),
    "reach": (choice(Reach), REQUIRED),
    "patk": (integer(0, 30), 0),
    "eatk": (integer(0, 30), 0),
    "speed": (integer(-10, 10), 0),
}
_ARMOR = {"name": (text, REQUIRED), "defense": (integer(0, 30), REQUIRED), "speed": (integer(-10, 10), 0)}
_ITEM = {"name": (text, REQUIRED), "effects": (lambda v, a: v, REQUIRED), "text": (text, "")}


def _gear(doc: dict[str, Any], at: At) -> tuple[dict, dict, dict, list[tuple[At, str]]]:
    """Weapons, armour and items; their ids share one namespace because a
    drop table names any of them."""
    top = record(
        doc,
        at,
        {
            "weapons": (_keyed_of(_WEAPON), REQUIRED),
            "armor": (_keyed_of(_ARMOR), {}),
            "items": (_keyed_of(_ITEM), {}),
        },
    )
    seen: dict[str, str] = {}
    for section in ("weapons", "armor", "items"):
        for key in top[section]:
            if key in seen:
                at.key(section).key(key).fail(f"duplicate id {key!r} (already in {seen[key]})")
            seen[key] = section
    weapons = {k: Weapon(id=k, **row) for k, row in top["weapons"].items()}
    armor = {k: Armor(id=k, **row) for k, row in top["armor"].items()}
    items: dict[str, Item] = {}
    tokens: list[tuple[At, str]] = []
    for k, row in top["items"].items():
        where = at.key("items").key(k).key("effects")
        found = pack_skills.effects(row["effects"], where, what="item")
        tokens += pack_skills.token_refs(found, where)
        items[k] = Item(id=k, name=row["name"], effects=found, text=row["text"])
    return weapons, armor, items, tokens


# ---------------------------------------------------------------- classes.toml

_SCORE = integer(1, 99)
_ABILITIES = {name: (_SCORE, REQUIRED) for name in ("str", "tec", "vit", "agi", "luc")}
_GROWTH = {name: (integer(0, 10), 0) for name in ("str", "tec", "vit", "agi", "luc")}


def _learned(value: object, at: At) -> tuple[tuple[int, str], ...]:
    """A table skill id -> the level it is learned at, in level order."""
    found = table(value, at)
    rows = [(integer(1, 99)(level, at.key(key)), ident(key, at.key(key))) for key, level in found.items()]
    return tuple(sorted(rows, key=lambda row: row[0]))


_CLASS = {
    "name": (text, REQUIRED),
    "abilities": (lambda v, a: Abilities(**record(v, a, _ABILITIES)), REQUIRED),
    "growth": (lambda v, a: Abilities(**record(v, a, _GROWTH)), REQUIRED),
    "skills": (_learned, REQUIRED),
    "weapon": (ident, REQUIRED),
    "other": (ident, ""),
    "armor": (ident, ""),
    "items": (list_of(ident), ()),
    "row": (choice(Row), Row.FRONT),
}


def _classes(
    doc: dict[str, Any],
    at: At,
    skills: Mapping[str, Skill],
    weapons: Mapping[str, Weapon],
    armor: Mapping[str, Armor],
    items: Mapping[str, Item],
) -> dict[str, ClassSheet]:
    top = record(doc, at, {"classes": (_keyed_of(_CLASS), REQUIRED)})
    out = {}
    for key, row in top["classes"].items():
        where = at.key("classes").key(key)
        if not row["skills"]:
            where.key("skills").fail("a class needs at least one skill")
        for _, name in row["skills"]:
            if name not in skills:
                where.key("skills").key(name).fail(f"unknown skill {name!r}")
        for slot, known, what in (
            ("weapon", weapons, "weapon"),
            ("other", weapons, "weapon"),
            ("armor", armor, "armour"),
        ):
            if row[slot] and row[slot] not in known:
                where.key(slot).fail(f"unknown {what} {row[slot]!r}")
        _known(row["items"], items, "item", where.key("items"))
        out[key] = ClassSheet(id=key, **row)
    if not out:
        at.key("classes").fail("a pack needs at least one class")
    return out


# ---------------------------------------------------------------- enemies.toml


def _resist(value: object, at: At) -> dict[Attribute, int]:
    """Attribute -> resistance; a die above it deals 1, so 6 stops them all."""
    out = {}
    for key, amount in table(value, at).items():
        attribute = choice(Attribute)(key, at.key(key))
        if attribute is Attribute.NONE:
            at.key(key).fail("a non-elemental attack always meets resistance 0")
        out[attribute] = integer(0, 6)(amount, at.key(key))
    return out


def _weak(value: object, at: At) -> dict[Attribute, int]:
    """``weak = { fire = 1 }``: the Enemy's "Weakness" skills, attribute ->
    how far that resistance falls (1 to 6), applied only once some PC has
    Identified it (facts: Fills ENEMY-3)."""
    out = {}
    for key, amount in table(value, at).items():
        attribute = choice(Attribute)(key, at.key(key))
        if attribute is Attribute.NONE:
            at.key(key).fail("a non-elemental attack always meets resistance 0: no weakness to it")
        out[attribute] = integer(1, 6)(amount, at.key(key))
    return out


# ``rare = { hp = 3, hit = 1, evasion = 1, attack = 2, defense = 2, name = "..." }``:
# the kind's rare variant within the facts' bounds (section 8, "Rare Enemies"):
# [HP] x2 or x3, the GM's bonuses at most +1 hit and [Evasion], +2 attack and
# [Defense]; every key optional (no table: x2 [HP], no bonus).
def _rare_bound(low: int, high: int, what: str):
    def convert(value: object, at: At) -> int:
        found = integer(-999)(value, at)  # an integer at all; the bound is the facts'
        if not low <= found <= high:
            at.fail(f"{what}, from {low} to {high} (facts section 8, Rare Enemies); got {found}")
        return found

    return convert


_RARE = {
    "hp": (_rare_bound(2, 3, "a rare Enemy's [HP] is its sheet's times 2 or 3"), 2),
    "hit": (_rare_bound(0, 1, "the GM adds at most +1 to a rare Enemy's hit"), 0),
    "evasion": (_rare_bound(0, 1, "the GM adds at most +1 to a rare Enemy's [Evasion]"), 0),
    "attack": (_rare_bound(0, 2, "the GM adds at most +2 to a rare Enemy's attack"), 0),
    "defense": (_rare_bound(0, 2, "the GM adds at most +2 to a rare Enemy's [Defense]"), 0),
    "name": (text, ""),
}
_DROP = {"roll": (integer(2, 12), REQUIRED), "item": (ident, REQUIRED)}
_STAT = integer(0, 99)
_ENEMY = {
    "name": (text, REQUIRED),
    "level": (integer(1, 99), REQUIRED),
    "hp": (integer(1, 999), REQUIRED),
    "tp": (_STAT, 0),
    "speed": (_STAT, REQUIRED),
    "phit": (_STAT, REQUIRED),
    "ehit": (_STAT, 0),
    "evasion": (_STAT, REQUIRED),
    "patk": (_STAT, REQUIRED),
    "eatk": (_STAT, 0),
    "defense": (_STAT, 0),
    "sdef": (_STAT, 0),
    "satk": (_STAT, 0),
    "attribute": (_physical, Attribute.BASH),
    "reach": (choice(Reach), Reach.NEAR),
    "resist": (_resist, {}),
    "skills": (list_of(ident), ()),
    "drops": (list_of(lambda v, a: Drop(**record(v, a, _DROP))), ()),
    "rarity": (integer(2, 30), 10),
    "token": (flag, False),
    "weak": (_weak, {}),
    "rare": (lambda v, a: Rare(**record(v, a, _RARE)), Rare()),
}


def _enemies(
    doc: dict[str, Any], at: At, skills: Mapping[str, Skill], gear: Mapping[str, object]
) -> dict[str, EnemyKind]:
    top = record(doc, at, {"enemies": (_keyed_of(_ENEMY), REQUIRED)})
    out = {}
    for key, row in top["enemies"].items():
        where = at.key("enemies").key(key)
        _known(row["skills"], skills, "skill", where.key("skills"))
        pack_skills.enemy_fp_costs(row["skills"], skills, where.key("skills"))  # FUMBLE-2: no FP to pay
        _known(tuple(d.item for d in row["drops"]), gear, "weapon, armour or item", where.key("drops"))
        out[key] = EnemyKind(id=key, **row)
    if not out:
        at.key("enemies").fail("a pack needs at least one Enemy kind")
    return out


# ---------------------------------------------------------------- encounters.toml

_MEMBER = {
    "enemy": (ident, REQUIRED),
    "row": (choice(Row), Row.FRONT),
    "link": (ident, ""),
    "rare": (flag, False),
}  # rare = true: the kind's rare variant (facts section 8)
_ENCOUNTER = {
    "name": (text, REQUIRED),
    "text": (text, ""),
    "enemies": (list_of(lambda v, a: record(v, a, _MEMBER)), REQUIRED),
}


def _encounters(doc: dict[str, Any], at: At, enemies: Mapping[str, EnemyKind]) -> dict[str, Encounter]:
    top = record(doc, at, {"encounters": (_keyed_of(_ENCOUNTER), REQUIRED)})
    out = {}
    for key, row in top["encounters"].items():
        where = at.key("encounters").key(key).key("enemies")
        members = row["enemies"]
        if not members:
            where.fail("an encounter needs at least one Enemy")
        if len(members) > SIDE_LIMIT:
            where.fail(f"{len(members)} Enemies: a battle is at most {SIDE_LIMIT} against {SIDE_LIMIT}")
        links: dict[str, int] = {}
        for i, member in enumerate(members):
            kind = member["enemy"]
            if kind not in enemies:
                where.index(i).key("enemy").fail(f"unknown Enemy kind {kind!r}")
            if enemies[kind].token:
                where.index(i).key("enemy").fail(f"{kind!r} is a token: only a skill places it")
            if member["link"]:
                links[member["link"]] = links.get(member["link"], 0) + 1
        for i, member in enumerate(members):
            if member["link"] and links[member["link"]] < 2:
                # a link group acts together, so a group of one is a slip
                where.index(i).key("link").fail(f"link group {member['link']!r} has only one Enemy")
        out[key] = Encounter(
            id=key, name=row["name"], text=row["text"], enemies=tuple(EncounterEnemy(**m) for m in members)
        )
    if not out:
        at.key("encounters").fail("a pack needs at least one encounter")
    return out
