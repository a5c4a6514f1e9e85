"""``companions.toml`` of a Betrayal pack: the companion chips a setup may
bring (ROUND-6, CLASH-9, CLEANUP-3c; facts §2 "Fills ROUND-6").

The file is optional and stays out of every pack hash, so a pack that gains
companions still plays the logs written before; a battle with companions
records each chip's numbers in the event that brings it in, so the rules
never read a companion from the pack after setup."""

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

from .catalog_companions import COMPANION_MOVE, CompanionChip, CompanionSkill
from .files import COMPANION_FILE

__all__ = ["COMPANION_FILE", "COMPANION_MOVE", "CompanionChip", "CompanionSkill", "companion_chips"]

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
