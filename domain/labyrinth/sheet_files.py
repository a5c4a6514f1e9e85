"""Reading a PC sheet file's bytes into party members (issue #12). Pure:
the command line reads the file and hands its bytes here.

The format is TOML: either one PC as top-level keys, or several as
``[[pc]]`` tables. Each PC::

    class = "vanguard"        # required: a class of the pack
    level = 3                 # 1 to 99 (default 1)
    name = "Ada"              # default: the class's name
    row = "front"             # front or back (default: the class's row)
    abilities = { str = 16, tec = 7, vit = 13, agi = 12, luc = 9 }   # required: at this level
    weapon = "broadsword"     # these default to the class's (see sheets.py);
    other = ""                # "" leaves the Other slot empty,
    armor = "scale-coat"      # and "" means no armour
    skills = ["sundering-blow", "riposte"]   # the class's skills learned by this level
    items = ["sap-salve"]

Anything malformed is refused with a ``ContentError`` naming the file, the
line and the reason: a syntax error by ``content.document``; a wrong value
by the field path ``content.record`` and ``sheets.problem`` name, turned
into its line by ``toml_lines``.
"""

from __future__ import annotations

from typing import Any

from domain.kernel.content import (
    REQUIRED,
    At,
    choice,
    document,
    ident,
    integer,
    list_of,
    located,
    record,
    table,
    text,
)

from .catalog import Abilities, Pack
from .commands import Member
from .sheets import ABILITIES, MAX_SCORE, MIN_SCORE, PcSheet, problem
from .vocab import SIDE_LIMIT, Row

MAX_LEVEL = 99  # as `--party CLASS:LEVEL` takes it


def _slot(value: object, at: At) -> str:
    """A gear id, or "" for an empty slot."""
    return "" if value == "" else ident(value, at)


_ABILITY_FIELDS = {name: (integer(MIN_SCORE, MAX_SCORE), REQUIRED) for name in ABILITIES}
_SHEET = {
    "class": (ident, REQUIRED),
    "level": (integer(1, MAX_LEVEL), 1),
    "name": (text, ""),
    "row": (choice(Row), None),
    "abilities": (lambda v, a: Abilities(**record(v, a, _ABILITY_FIELDS)), REQUIRED),
    "weapon": (ident, None),
    "other": (_slot, None),
    "armor": (_slot, None),
    "skills": (list_of(ident), None),
    "items": (list_of(ident), None),
}


def parse_sheets(name: str, raw: bytes, pack: Pack) -> tuple[Member, ...]:
    """The party members a sheet file describes, in file order, each with
    its ``PcSheet``; ``name`` is how refusals call the file."""
    doc = document(name, {name: raw})  # a syntax error names its line here
    with located({name: raw}):  # and so does any other refusal
        return _members(doc, At(name), pack)


def _members(doc: dict[str, Any], at: At, pack: Pack) -> tuple[Member, ...]:
    if "pc" not in doc:
        return (_member(doc, at, pack),)
    top = record(doc, at, {"pc": (list_of(table), REQUIRED)})
    if not top["pc"]:
        at.key("pc").fail("no PC: write one [[pc]] table per PC")
    if len(top["pc"]) > SIDE_LIMIT:
        at.key("pc").fail(f"{len(top['pc'])} PCs: a side is at most {SIDE_LIMIT} (SCALE-1)")
    return tuple(_member(one, at.key("pc").index(i), pack) for i, one in enumerate(top["pc"]))


def _member(value: dict[str, Any], at: At, pack: Pack) -> Member:
    row = record(value, at, _SHEET)
    cls = pack.classes.get(row["class"])
    if cls is None:
        at.key("class").fail(f"no class {row['class']!r} in pack {pack.id} (the classes: {', '.join(pack.classes)})")
    sheet = PcSheet(
        abilities=row["abilities"],
        weapon=row["weapon"],
        other=row["other"],
        armor=row["armor"],
        skills=row["skills"],
        items=row["items"],
    )
    wrong = problem(cls, row["level"], sheet, pack)
    if wrong is not None:
        at.key(wrong[0]).fail(wrong[1])
    return Member(cls=cls.id, level=row["level"], name=row["name"], row=row["row"], sheet=sheet)
