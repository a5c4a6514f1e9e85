"""Loading and validating a Betrayal content pack.

A pack is five TOML files (``CORE_FILES``), and optionally the three delve
files of ``delve_packs.py`` (tiles, delve cards, items, delve setups and
dungeons), all three or none. ``parse_pack`` turns their bytes into the
typed Structs of ``catalog.py`` and refuses anything malformed with a
``ContentError`` naming the file, the field path and the reason. It is pure;
``load_pack_dir`` and ``starter_pack`` do the reading.

``Pack.hash`` is the hash of the five core files only, so adding or changing
delve content never changes it (a clash log records it); ``Pack.delve_hash``
covers all eight files.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from importlib import resources
from os import PathLike
from pathlib import Path
from typing import Any

from domain.kernel.content import (
    REQUIRED as _REQUIRED,
    At as _At,
    choice as _choice,
    document as _document,
    flag as _flag,
    ident as _ident,
    integer as _integer,
    keyed as _keyed,
    list_of as _list_of,
    pack_hash,
    record as _record,
    records as _records,
    text as _text,
)
from domain.kernel.errors import ContentError
from domain.kernel.hexes import Hex, from_offset, path_lengths, to_offset

from .catalog import (
    Chip,
    Enemy,
    Face,
    MapHex,
    Pack,
    Race,
    Setup,
    SkillDie,
    SkillLine,
)
from .vocab import (
    BAG_LEVELS,
    LEVELS,
    AbilityType,
    Bag,
    BattleForm,
    Effect,
    EnemyKind,
    EnemySkill,
    Marker,
    Mode,
    Objective,
    Pool,
    Priority,
    Status,
)
from .delve_packs import DELVE_FILES, DiagramReader, delve_documents, parse_delve_files

CORE_FILES = ("pack.toml", "races.toml", "lines.toml", "enemies.toml", "setups.toml")
PACK_FILES = CORE_FILES + DELVE_FILES  # every file a pack may hold; the delve ones optional
COMBAT_DIE = "combat"  # every adventurer rolls this die; the rules look it up by id
FACES_PER_DIE = 6
ENTRANCE = "E"
OBSTACLE = "#"
MIN_ENTRANCE_HEXES = 4  # room for a full party on the Entrance (CLASH-8)

_AMOUNT = re.compile(r"[0-9]+")

# ---------------------------------------------------------------- public


def parse_pack(files: Mapping[str, bytes]) -> Pack:
    """Build a validated ``Pack`` from the raw bytes of its files, by name.

    Pure: no I/O, clock or randomness. Raises ``ContentError`` for a missing
    or unknown file (the three delve files come all together or not at all),
    a TOML syntax error, an unknown key, a wrong type or value, a dangling
    reference or a malformed setup map, tile or card.
    """
    docs = {name: _document(name, files) for name in CORE_FILES}
    extra = sorted(set(files) - set(PACK_FILES))
    if extra:
        expected = ", ".join(PACK_FILES)
        raise ContentError(extra[0], "(file)", f"not a pack file (expected {expected})")
    delve_docs = delve_documents(files)
    head = _pack_head(docs["pack.toml"])
    races = _races(docs["races.toml"])
    lines, dice = _lines_and_dice(docs["lines.toml"])
    enemies, chips = _enemies_and_chips(docs["enemies.toml"])
    setups = _setups(docs["setups.toml"], enemies)
    _check_default_lines(head["default_lines"], lines)
    delve: dict[str, Any] = {}
    if delve_docs is not None:
        delve = parse_delve_files(delve_docs, enemies, setups, DiagramReader(SETUP_FIELDS, parse_setup))
        delve["delve_hash"] = pack_hash(files)
    return Pack(
        id=head["id"],
        name=head["name"],
        version=head["version"],
        hash=pack_hash({name: files[name] for name in CORE_FILES}),
        races=races,
        lines=lines,
        dice=dice,
        enemies=enemies,
        chips=chips,
        setups=setups,
        default_lines=head["default_lines"],
        **delve,
    )


def load_pack_dir(path: str | PathLike[str]) -> Pack:
    """Read the pack files from a directory (the five core files, and the
    three delve files when there) and parse them."""
    folder = Path(path)
    files = {name: (folder / name).read_bytes() for name in PACK_FILES if (folder / name).is_file()}
    return parse_pack(files)


@functools.cache
def starter_pack() -> Pack:
    """The starter pack bundled in ``domain/betrayal/content``, delve files included."""
    content = resources.files("domain.betrayal.content")
    files = {name: content.joinpath(name).read_bytes() for name in PACK_FILES}
    return parse_pack(files)


# ---------------------------------------------------------------- pack.toml


def _pack_head(doc: dict[str, Any]) -> dict[str, Any]:
    fields = {
        "id": (_ident, _REQUIRED),
        "name": (_text, _REQUIRED),
        "version": (_text, _REQUIRED),
        "default_lines": (_list_of(_ident), ()),
    }
    return _record(doc, _At("pack.toml"), fields)


def _check_default_lines(default_lines: tuple[str, ...], lines: dict[str, SkillLine]) -> None:
    for i, line_id in enumerate(default_lines):
        at = _At("pack.toml", f"default_lines[{i}]")
        if line_id not in lines:
            at.fail(f"unknown skill line {line_id!r}")
        if not lines[line_id].starter:
            at.fail(f"skill line {line_id!r} is not a starter line")


# ---------------------------------------------------------------- races.toml

_RACE_FIELDS = {
    "id": (_ident, _REQUIRED),
    "name": (_text, _REQUIRED),
    "health": (_integer(1), _REQUIRED),
    "stamina": (_integer(0), _REQUIRED),
    "magicka": (_integer(0), _REQUIRED),
    "combat_dice": (_integer(0), _REQUIRED),
    "cooldown": (_integer(1), _REQUIRED),
    "ability": (_text, _REQUIRED),
}


def _races(doc: dict[str, Any]) -> dict[str, Race]:
    at = _At("races.toml")
    top = _record(doc, at, {"races": (lambda v, a: _records(v, a, _RACE_FIELDS), _REQUIRED)})
    return {row["id"]: Race(**row) for row in top["races"]}


# ---------------------------------------------------------------- lines.toml

_LINE_FIELDS = {
    "name": (_text, _REQUIRED),
    "pool": (_choice(Pool), _REQUIRED),
    "form": (_choice(BattleForm), None),  # omitted: no battle-form icon
    "starter": (_flag, False),
    "start_dice": (_list_of(_ident), ()),
}


def _faces(value: object, at: _At) -> tuple[Face, ...]:
    faces = _list_of(_face)(value, at)
    if len(faces) != FACES_PER_DIE:
        at.fail(f"a die has {FACES_PER_DIE} faces, got {len(faces)}")
    if not any(face.tenacity for face in faces):
        at.fail('a skill die needs at least one Tenacity face ("T")')
    return faces


_DIE_FIELDS = {
    "name": (_text, _REQUIRED),
    "line": (_ident, _REQUIRED),
    "level": (_integer(1), _REQUIRED),
    "faces": (_faces, _REQUIRED),
}


def _lines_and_dice(doc: dict[str, Any]) -> tuple[dict[str, SkillLine], dict[str, SkillDie]]:
    at = _At("lines.toml")
    top = _record(
        doc,
        at,
        {
            "lines": (lambda v, a: _keyed(v, a, _LINE_FIELDS), _REQUIRED),
            "dice": (lambda v, a: _keyed(v, a, _DIE_FIELDS), _REQUIRED),
        },
    )
    lines = {key: SkillLine(id=key, **row) for key, row in top["lines"].items()}
    dice = {key: _die(key, row, lines, at.key("dice").key(key)) for key, row in top["dice"].items()}
    for key, line in lines.items():
        _check_start_dice(line, dice, at.key("lines").key(key))
    if COMBAT_DIE not in dice:
        at.key("dice").fail(f"the Combat die every adventurer rolls (id {COMBAT_DIE!r}) is missing")
    return lines, dice


def _die(key: str, row: dict[str, Any], lines: dict[str, SkillLine], at: _At) -> SkillDie:
    line = lines.get(row["line"])
    if line is None:
        at.key("line").fail(f"unknown skill line {row['line']!r}")
    # pool and form are the line's: a die cannot disagree with its line
    return SkillDie(id=key, pool=line.pool, form=line.form, **row)


def _check_start_dice(line: SkillLine, dice: dict[str, SkillDie], at: _At) -> None:
    if line.starter and not line.start_dice:
        at.key("start_dice").fail("a starter line must name the dice a new adventurer starts with")
    for i, die_id in enumerate(line.start_dice):
        where = at.key("start_dice").index(i)
        if die_id not in dice:
            where.fail(f"unknown die {die_id!r}")
        if dice[die_id].line != line.id:
            where.fail(f"die {die_id!r} belongs to line {dice[die_id].line!r}, not {line.id!r}")


# ---------------------------------------------------------------- faces

# which ability codes make sense for each effect of an ability face
_ABILITIES_FOR = {
    Effect.DAMAGE: (AbilityType.INSTANT, AbilityType.DRAINED),
    Effect.TRUE_DAMAGE: (AbilityType.INSTANT, AbilityType.DRAINED),
    Effect.HEAL: (AbilityType.INSTANT, AbilityType.DRAINED),
    Effect.BONUS_HP: (AbilityType.INSTANT, AbilityType.DRAINED),
    Effect.BLOCK: (AbilityType.ACTIVE,),
    Effect.WARD: (AbilityType.TRACK,),
}
_WHY = {
    Effect.BLOCK: "block must be active (it waits in an active slot)",
    Effect.WARD: "ward must be track (it works from the cooldown track)",
}


def _face(value: object, at: _At) -> Face:
    """Parse one face: ``T``, ``-``, ``combat:N``, ``status:<status>`` or
    ``<ability>:<effect>:<N>``."""
    text = _text(value, at)
    if text == "T":
        return Face(tenacity=True)
    if text == "-":
        return Face(effect=Effect.BLANK)
    parts = text.split(":")
    if parts[0] == "combat" and len(parts) == 2:
        return Face(effect=Effect.COMBAT, amount=_amount(parts[1], text, at))
    if parts[0] == "status" and len(parts) == 2:
        return _status_face(parts[1], text, at)
    if len(parts) == 3:
        return _ability_face(*parts, text=text, at=at)
    at.fail(
        f"cannot read face {text!r} (expected T, -, combat:N, status:<status> "
        "or <ability>:<effect>:N)"
    )


def _status_face(name: str, text: str, at: _At) -> Face:
    try:
        status = Status(name)
    except ValueError:
        options = ", ".join(s.value for s in Status)
        at.fail(f"face {text!r}: unknown status {name!r} (expected one of: {options})")
    return Face(ability=AbilityType.STATUS, effect=Effect.STATUS, status=status)


def _ability_face(
    ability_text: str, effect_text: str, amount_text: str, *, text: str, at: _At
) -> Face:
    abilities = [a for a in AbilityType if a is not AbilityType.STATUS]
    if ability_text not in {a.value for a in abilities}:
        options = ", ".join(a.value for a in abilities)
        at.fail(f"face {text!r}: unknown ability {ability_text!r} (expected one of: {options})")
    if effect_text not in {e.value for e in _ABILITIES_FOR}:
        options = ", ".join(e.value for e in _ABILITIES_FOR)
        at.fail(f"face {text!r}: unknown effect {effect_text!r} (expected one of: {options})")
    ability, effect = AbilityType(ability_text), Effect(effect_text)
    if ability not in _ABILITIES_FOR[effect]:
        allowed = " or ".join(a.value for a in _ABILITIES_FOR[effect])
        at.fail(f"face {text!r}: " + _WHY.get(effect, f"{effect.value} must be {allowed}"))
    return Face(ability=ability, effect=effect, amount=_amount(amount_text, text, at))


def _amount(digits: str, text: str, at: _At) -> int:
    if not _AMOUNT.fullmatch(digits):
        at.fail(f"face {text!r}: amount {digits!r} is not a whole number")
    if int(digits) < 1:
        at.fail(f"face {text!r}: amount must be at least 1")
    return int(digits)


# ---------------------------------------------------------------- enemies.toml

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


def _enemies_and_chips(doc: dict[str, Any]) -> tuple[dict[str, Enemy], tuple[Chip, ...]]:
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
        at.fail(
            f"{enemy_id!r} is level {enemy.level}; "
            f"this side of a {bag.value} chip must be level {level}"
        )


# ---------------------------------------------------------------- setups.toml

BATTLE_OBJECTIVES = (Objective.CONQUER, Objective.ELIMINATE)  # clashes and dungeons


def _battle_objective(value: object, at: _At) -> Objective:
    objective = _choice(Objective)(value, at)
    if objective not in BATTLE_OBJECTIVES:
        at.fail(
            f"{objective.value} is a delve objective (OBJ-4, OBJ-8); "
            "a clash or dungeon is conquer or eliminate"
        )
    return objective


SETUP_FIELDS = {
    "name": (_text, _REQUIRED),
    "objective": (_battle_objective, _REQUIRED),
    "objective_units": (_list_of(_ident), ()),
    "rows": (_list_of(_text), _REQUIRED),
}
_MARKERS = {"c": Marker.COMMON_CACHE, "L": Marker.LEGENDARY_CACHE, "*": Marker.SPECIAL}


def _setups(doc: dict[str, Any], enemies: dict[str, Enemy]) -> dict[str, Setup]:
    at = _At("setups.toml")
    top = _record(doc, at, {"setups": (lambda v, a: _keyed(v, a, SETUP_FIELDS), _REQUIRED)})
    return {
        key: parse_setup(key, row, enemies, at.key("setups").key(key))
        for key, row in top["setups"].items()
    }


def parse_setup(
    key: str, row: dict[str, Any], enemies: dict[str, Enemy], at: _At, mode: Mode = Mode.CLASH
) -> Setup:
    """A clash or dungeon setup from its checked ``SETUP_FIELDS`` row (a
    dungeon's row has its ``encounter`` too): the diagram read and checked,
    the objective units checked against the enemies."""
    hexes = _parse_map(row["rows"], at.key("rows"), mode)
    _check_objective(row, hexes, enemies, at)
    return Setup(id=key, hexes=hexes, mode=mode, **row)


def _check_objective(
    row: dict[str, Any], hexes: tuple[MapHex, ...], enemies: dict[str, Enemy], at: _At
) -> None:
    units = row["objective_units"]
    for i, unit in enumerate(units):
        where = at.key("objective_units").index(i)
        if unit not in enemies:
            where.fail(f"unknown enemy {unit!r}")
        if not enemies[unit].quest:
            where.fail(f"{unit!r} is not a quest unit")
    if row["objective"] is not Objective.ELIMINATE:
        if units:
            objective = row["objective"].value
            at.key("objective_units").fail(
                f"only an eliminate setup names objective units, not {objective}"
            )
        return
    if not units:
        at.key("objective_units").fail("an eliminate setup must name its objective units (OBJ-3)")
    special = sum(1 for h in hexes if h.marker is Marker.SPECIAL)
    if special < len(units):
        need = len(units)
        at.key("rows").fail(
            f"{need} objective units need at least {need} special hexes (*), found {special}"
        )


def _parse_map(rows: tuple[str, ...], at: _At, mode: Mode = Mode.CLASH) -> tuple[MapHex, ...]:
    """Read a clash or dungeon diagram: rows of space-separated tokens in
    odd-r offset."""
    hexes: list[MapHex] = []
    numbered: set[int] = set()
    for r, text in enumerate(rows):
        for col, token in enumerate(text.split()):
            cell = _cell(token, col, r, at.index(r))
            if cell is None:
                continue
            if cell.number:
                if cell.number in numbered:
                    at.index(r).fail(f"column {col}: enemy hex {cell.number} is numbered twice")
                numbered.add(cell.number)
            hexes.append(cell)
    if not hexes:
        at.fail("the map has no hexes")
    _check_tiles(hexes, at, mode)
    _check_numbers(numbered, at, mode)
    _check_connected(hexes, at)
    return tuple(hexes)


def _cell(token: str, col: int, row: int, at: _At) -> MapHex | None:
    if token == ".":
        return None
    tile, mark = token[0], token[1:]
    if not (tile in (ENTRANCE, OBSTACLE) or "a" <= tile <= "z"):
        at.fail(f"column {col}: token {token!r} must start with E, # or a lowercase tile letter")
    where = from_offset(col, row)
    if tile == OBSTACLE:
        if mark:
            at.fail(f"column {col}: an obstacle hex cannot carry a marker ({token!r})")
        return MapHex(hex=where, tile=OBSTACLE, impassable=True)
    if not mark:
        return MapHex(hex=where, tile=tile)
    if mark in _MARKERS:
        return MapHex(hex=where, tile=tile, marker=_MARKERS[mark])
    if not _AMOUNT.fullmatch(mark) or mark.startswith("0"):
        at.fail(
            f"column {col}: unknown marker {mark!r} in {token!r} "
            "(expected a number from 1, c, L or *)"
        )
    if tile == ENTRANCE:
        at.fail(f"column {col}: enemy hex {mark} cannot be on the Entrance tile")
    return MapHex(hex=where, tile=tile, marker=Marker.ENEMY, number=int(mark))


_MAP_RULES = {Mode.CLASH: ("CLASH-1", "CLASH-7"), Mode.DUNGEON: ("DUNGEON-1", "DUNGEON-8a")}


def _check_tiles(hexes: list[MapHex], at: _At, mode: Mode) -> None:
    tiles = {h.tile for h in hexes if not h.impassable}
    if len(tiles) < 2:
        found, rule = len(tiles), _MAP_RULES[mode][0]
        at.fail(
            f"a {mode.value} map needs 2 or more tiles besides obstacles ({rule}), found {found}"
        )
    if ENTRANCE not in tiles:
        at.fail("the map has no Entrance tile (E)")
    free = sum(1 for h in hexes if h.tile == ENTRANCE and h.marker is Marker.NONE)
    if free < MIN_ENTRANCE_HEXES:
        need = MIN_ENTRANCE_HEXES
        at.fail(f"the Entrance tile needs at least {need} unmarked hexes, found {free}")


def _check_numbers(numbered: set[int], at: _At, mode: Mode) -> None:
    if not numbered:
        at.fail(f"the map has no numbered enemy hexes ({_MAP_RULES[mode][1]})")
    missing = sorted(set(range(1, len(numbered) + 1)) - set(numbered))
    if missing:
        last = len(numbered)
        at.fail(f"enemy hexes must be numbered 1..{last} without gaps; {missing[0]} is missing")


def _check_connected(hexes: list[MapHex], at: _At) -> None:
    open_hexes: set[Hex] = {h.hex for h in hexes if not h.impassable}
    start = min(open_hexes, key=lambda h: (h[1], h[0]))
    reached = path_lengths(start, open_hexes.__contains__)
    for h in hexes:
        if not h.impassable and h.hex not in reached:
            col, row = to_offset(h.hex)
            at.index(row).fail(f"column {col}: this hex cannot be reached from the rest of the map")
