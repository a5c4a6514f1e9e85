"""``lines.toml`` of a Betrayal pack: the skill lines and their dice, each
die's six faces read from their short notation (``T``, ``-``,
``combat:N``, ``status:<status>``, ``<ability>:<effect>:N``)."""

from __future__ import annotations

import re
from typing import Any

from domain.kernel.content import (
    REQUIRED as _REQUIRED,
    At as _At,
    choice as _choice,
    flag as _flag,
    ident as _ident,
    integer as _integer,
    keyed as _keyed,
    list_of as _list_of,
    record as _record,
    text as _text,
)

from domain.betrayal.vocab import AbilityType, BattleForm, Effect, Pool, Status

from .catalog import Face, SkillDie, SkillLine

COMBAT_DIE = "combat"  # every adventurer rolls this die; the rules look it up by id
FACES_PER_DIE = 6

_AMOUNT = re.compile(r"[0-9]+")

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


def die_faces(value: object, at: _At) -> tuple[Face, ...]:
    """A die's six faces in the short notation, with at least one Tenacity
    face (the converter of lines.toml, also for training.toml's dice)."""
    return _faces(value, at)


_DIE_FIELDS = {
    "name": (_text, _REQUIRED),
    "line": (_ident, _REQUIRED),
    "level": (_integer(1), _REQUIRED),
    "faces": (_faces, _REQUIRED),
}


def lines_and_dice(doc: dict[str, Any]) -> tuple[dict[str, SkillLine], dict[str, SkillDie]]:
    """The skill lines and dice of ``lines.toml``, checked against each
    other (a starter line's dice, the Combat die)."""
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
    at.fail(f"cannot read face {text!r} (expected T, -, combat:N, status:<status> or <ability>:<effect>:N)")


def _status_face(name: str, text: str, at: _At) -> Face:
    try:
        status = Status(name)
    except ValueError:
        options = ", ".join(s.value for s in Status)
        at.fail(f"face {text!r}: unknown status {name!r} (expected one of: {options})")
    return Face(ability=AbilityType.STATUS, effect=Effect.STATUS, status=status)


def _ability_face(ability_text: str, effect_text: str, amount_text: str, *, text: str, at: _At) -> Face:
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
