"""``companions.toml`` of a Betrayal pack: the companion chips a setup may
bring (ROUND-6, CLASH-9, CLEANUP-3c; facts §2 "Fills ROUND-6").

The file is optional and stays out of every pack hash, so a pack that gains
companions still plays the logs written before; a battle with companions
records each chip's numbers in the event that brings it in, so the rules
never read a companion from the pack after setup."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

import msgspec

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

COMPANION_FILE = "companions.toml"
COMPANION_MOVE = 2  # facts §2: a companion moves up to 2 hexes on its turn


class CompanionSkill(StrEnum):
    """What a companion chip's skills may be (facts: its skills are
    mandatory); each one is applied by the rules on every turn it can."""

    BRUTAL = "brutal"  # +1 damage to each target when its roll deals any
    TRUE_STRIKE = "true-strike"  # its damage is true damage (facts: ENGAGE-8c 4)
    REGENERATE = "regenerate"  # heals 1 HP at the start of its turn, up to its chip HP


class CompanionChip(msgspec.Struct, frozen=True, kw_only=True):
    """A companion chip: its HP (facts: it starts each battle at full chip
    HP), its Combat value (enemy dice rolled once per engage), its range,
    its target value (how many units one engage may hit: facts, "in sight
    and range up to its target value"), its move and skills, and whether
    it is permanent (CLEANUP-3c)."""

    id: str
    name: str
    hp: int
    combat: int
    range: int
    targets: int = 1
    move: int = COMPANION_MOVE
    skills: tuple[CompanionSkill, ...] = ()
    permanent: bool = False


_FIELDS = {
    "id": (_ident, _REQUIRED),
    "name": (_text, _REQUIRED),
    "hp": (_integer(1, 20), _REQUIRED),
    "combat": (_integer(0, 6), _REQUIRED),
    "range": (_integer(1, 6), _REQUIRED),
    "targets": (_integer(1, 6), 1),
    # facts §2: up to 2 hexes; a chip may move less, never more
    "move": (_integer(0, COMPANION_MOVE), COMPANION_MOVE),
    "skills": (_list_of(_choice(CompanionSkill)), ()),
    "permanent": (_flag, False),
}


def companion_chips(doc: dict[str, Any]) -> dict[str, CompanionChip]:
    """The companion chips of ``companions.toml`` by id; a skill named twice
    is refused (one of each at a time, as statuses are)."""
    at = _At(COMPANION_FILE)
    top = _record(doc, at, {"companions": (lambda v, a: _records(v, a, _FIELDS), _REQUIRED)})
    out = {}
    for i, row in enumerate(top["companions"]):
        skills = row["skills"]
        if len(set(skills)) != len(skills):
            at.key("companions").index(i).key("skills").fail("a skill is named twice")
        out[row["id"]] = CompanionChip(**row)
    return out
