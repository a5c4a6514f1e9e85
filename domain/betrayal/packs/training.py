"""``training.toml`` of a Betrayal pack: the level-2 and level-3 skill dice
an adventurer can add (ADVANCE-6 to ADVANCE-8), written as lines.toml's
``[dice.<id>]`` entries, on lines of lines.toml."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.kernel.content import (
    REQUIRED as _REQUIRED,
    At as _At,
    ident as _ident,
    integer as _integer,
    keyed as _keyed,
    record as _record,
    text as _text,
)

from .catalog import SkillDie, SkillLine
from .dice import die_faces

TRAINED_LEVELS = (2, 3)

_DIE_FIELDS = {
    "name": (_text, _REQUIRED),
    "line": (_ident, _REQUIRED),
    "level": (_integer(*TRAINED_LEVELS), _REQUIRED),
    "faces": (die_faces, _REQUIRED),
}


def training_dice(
    doc: dict[str, Any], lines: Mapping[str, SkillLine], dice: Mapping[str, SkillDie]
) -> dict[str, SkillDie]:
    """The dice of ``training.toml``, checked against the ``lines`` and
    ``dice`` of lines.toml: a known line, a new id, and a level-2 die on any
    line that has a level-3 one (else ADVANCE-8 would never allow it)."""
    at = _At("training.toml")
    top = _record(doc, at, {"dice": (lambda v, a: _keyed(v, a, _DIE_FIELDS), _REQUIRED)})
    out: dict[str, SkillDie] = {}
    for key, row in top["dice"].items():
        where = at.key("dice").key(key)
        if key in dice:
            where.fail(f"die id {key!r} is already a die of lines.toml")
        line = lines.get(row["line"])
        if line is None:
            where.key("line").fail(f"unknown skill line {row['line']!r} (not in lines.toml)")
        # pool and form are the line's, as in lines.toml
        out[key] = SkillDie(id=key, pool=line.pool, form=line.form, **row)
    has_level_2 = {die.line for die in out.values() if die.level == 2}
    for key, die in out.items():
        if die.level == 3 and die.line not in has_level_2:
            at.key("dice").key(key).key("level").fail(
                f"line {die.line!r} has no level-2 die, so no adventurer could add this level-3 one (ADVANCE-8)"
            )
    return out
