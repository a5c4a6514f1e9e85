"""``enemies.toml`` of a Betrayal pack: the enemies and the chips that go
into the bags, each side of a chip the level its bag holds (ENEMY-2)."""

from __future__ import annotations

from typing import Any

from domain.kernel.content import (
    REQUIRED as _REQUIRED,
    At as _At,
    choice as _choice,
    flag as _flag,
    ident as _ident,
    integer as _integer,
    list_of as _list_of,
    record as _record,
    records as _records,
    text as _text,
)

from domain.betrayal.vocab import BAG_LEVELS, LEVELS, Bag, EnemyKind, EnemySkill, Priority

from .catalog import Chip, Enemy

_ENEMY_FIELDS = {
    "id": (_ident, _REQUIRED),
    "name": (_text, _REQUIRED),
    "level": (_integer(1, allowed=LEVELS), _REQUIRED),
    "kind": (_choice(EnemyKind), _REQUIRED),
    "hp": (_integer(1), _REQUIRED),
    "defense": (_integer(0), _REQUIRED),
    "range": (_integer(1), _REQUIRED),
    "combat": (_integer(0), _REQUIRED),
    "targets": (_integer(0), _REQUIRED),  # 0 means all
    "priority": (_choice(Priority), _REQUIRED),
    "skill": (_choice(EnemySkill), None),
    "quest": (_flag, False),
}
_CHIP_FIELDS = {
    "bag": (_choice(Bag), _REQUIRED),
    "front": (_ident, _REQUIRED),
    "back": (_ident, None),
}


def enemies_and_chips(doc: dict[str, Any]) -> tuple[dict[str, Enemy], tuple[Chip, ...]]:
    """The enemies and bag chips of ``enemies.toml``, every chip side an
    enemy of its bag's level."""
    at = _At("enemies.toml")
    top = _record(
        doc,
        at,
        {
            "enemies": (lambda v, a: _records(v, a, _ENEMY_FIELDS), _REQUIRED),
            "chips": (_list_of(lambda v, a: _record(v, a, _CHIP_FIELDS)), _REQUIRED),
        },
    )
    enemies = {row["id"]: Enemy(**row) for row in top["enemies"]}
    chips = tuple(Chip(**row) for row in top["chips"])
    for i, chip in enumerate(chips):
        _check_chip(chip, enemies, at.key("chips").index(i))
    return enemies, chips


def _check_chip(chip: Chip, enemies: dict[str, Enemy], at: _At) -> None:
    front_level, back_level = BAG_LEVELS[chip.bag]
    _check_side(chip.front, front_level, chip.bag, enemies, at.key("front"))
    if chip.back is not None:
        _check_side(chip.back, back_level, chip.bag, enemies, at.key("back"))


def _check_side(enemy_id: str, level: int, bag: Bag, enemies: dict[str, Enemy], at: _At) -> None:
    enemy = enemies.get(enemy_id)
    if enemy is None:
        at.fail(f"unknown enemy {enemy_id!r}")
    if enemy.quest:
        at.fail(f"{enemy_id!r} is a quest unit; quest units never go into a bag (ENEMY-2)")
    if enemy.level != level:
        at.fail(f"{enemy_id!r} is level {enemy.level}; this side of a {bag.value} chip must be level {level}")
