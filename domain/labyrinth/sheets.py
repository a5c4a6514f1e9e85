"""A PC's own sheet (issue #12): its abilities, equipment, skills and items,
instead of those its class has at its level in the pack.

A ``PcSheet`` rides inside ``StartLabyrinth`` (``Member.sheet``), so a log
replays without the file it came from. The class, level, name and row stay
on the ``Member``; the class still comes from the pack and gives what the
sheet leaves out. Derived stats come from the sheet's abilities by the
facts' formulas (Fills MAIN-2, ``stats.pc_base`` on ``as_class``): the
abilities written are the PC's at its level, so no class growth is added.

What a sheet may hold (checked by ``problem``):

- ``abilities``: STR TEC VIT AGI LUC, each a whole number from 1 to 99 (the
  bounds of a class's abilities in classes.toml);
- ``weapon``: a pack weapon; ``other``: a pack weapon or "" (an empty Other
  slot); ``armor``: pack armour or "" (none);
- ``skills``: skills on its class's list (classes.toml) learned at or below
  the PC's level, each once: a sheet chooses among what its class can have
  learned, as a player does, and cannot borrow another class's skills;
- ``items``: pack items, at most ``MAX_ITEMS``.

A field left None keeps the class's: its weapon, Other weapon and armour,
the skills it has learned by the PC's level, its starting items.
"""

from __future__ import annotations

from typing import NamedTuple

import msgspec
from msgspec.structs import replace

from .catalog import Abilities, ClassSheet, Pack

ABILITIES = ("str", "tec", "vit", "agi", "luc")
MIN_SCORE, MAX_SCORE = 1, 99  # as classes.toml bounds a class's abilities
MAX_ITEMS = 20  # a sanity bound on what a sheet carries into a battle
NO_GROWTH = Abilities(str=0, tec=0, vit=0, agi=0, luc=0)


class PcSheet(msgspec.Struct, frozen=True, kw_only=True):
    """A PC's own abilities and gear; None keeps its class's (see the module)."""

    abilities: Abilities
    weapon: str | None = None
    other: str | None = None
    armor: str | None = None
    skills: tuple[str, ...] | None = None
    items: tuple[str, ...] | None = None


class Outfit(NamedTuple):
    """What a PC carries into the battle."""

    weapon: str
    other: str
    armor: str
    skills: tuple[str, ...]
    items: tuple[str, ...]


def problem(cls: ClassSheet, level: int, sheet: PcSheet, pack: Pack) -> tuple[str, str] | None:
    """The first thing wrong with ``sheet`` for a PC of class ``cls`` at
    ``level``, as (field, reason), the field named as a sheet file writes
    it (``abilities.agi``, ``skills[2]``); None if nothing is."""
    for name in ABILITIES:
        value = getattr(sheet.abilities, name)
        if type(value) is not int or not MIN_SCORE <= value <= MAX_SCORE:
            return f"abilities.{name}", f"must be a whole number from {MIN_SCORE} to {MAX_SCORE}, got {value!r}"
    if sheet.weapon is not None and sheet.weapon not in pack.weapons:
        return "weapon", f"unknown weapon {sheet.weapon!r}"
    if sheet.other and sheet.other not in pack.weapons:
        return "other", f'unknown weapon {sheet.other!r} ("" leaves the Other slot empty)'
    if sheet.armor and sheet.armor not in pack.armor:
        return "armor", f'unknown armour {sheet.armor!r} ("" for none)'
    learned = {sid: at for at, sid in cls.skills}
    skills = sheet.skills or ()
    for i, sid in enumerate(skills):
        field = f"skills[{i}]"
        if sid not in pack.skills:
            return field, f"unknown skill {sid!r}"
        if sid not in learned:
            return field, f"{sid!r} is not a {cls.name} skill (its skills: {', '.join(learned)})"
        if learned[sid] > level:
            return field, f"a {cls.name} learns {sid!r} at level {learned[sid]}; this PC is level {level}"
        if sid in skills[:i]:
            return field, f"{sid!r} is listed twice"
    items = sheet.items or ()
    if len(items) > MAX_ITEMS:
        return "items", f"at most {MAX_ITEMS} items, got {len(items)}"
    for i, item in enumerate(items):
        if item not in pack.items:
            return f"items[{i}]", f"unknown item {item!r}"
    return None


def as_class(cls: ClassSheet, sheet: PcSheet | None) -> ClassSheet:
    """The class sheet the stats formulas read for this PC: its class, or,
    with a sheet, the class with the sheet's abilities at level 1 and no
    growth, which gives exactly the sheet's abilities at any level
    (``stats.abilities_at``, ``stats.pc_base``: facts, Fills MAIN-2)."""
    return cls if sheet is None else replace(cls, abilities=sheet.abilities, growth=NO_GROWTH)


def outfit(cls: ClassSheet, level: int, sheet: PcSheet | None) -> Outfit:
    """The PC's equipment, skills and items: the sheet's, the class's where it says nothing."""
    learned = tuple(sid for at, sid in cls.skills if at <= level)
    if sheet is None:
        return Outfit(cls.weapon, cls.other, cls.armor, learned, cls.items)
    pick = lambda mine, theirs: theirs if mine is None else mine  # noqa: E731
    return Outfit(
        pick(sheet.weapon, cls.weapon),
        pick(sheet.other, cls.other),
        pick(sheet.armor, cls.armor),
        pick(sheet.skills, learned),
        pick(sheet.items, cls.items),
    )
