"""Parsing and validating a Betrayal content pack.

A pack is five TOML files (``CORE_FILES``), and optionally the three delve
files of ``delve.py`` (tiles, delve cards, items, delve setups and
dungeons), all three or none. ``parse_pack`` turns their bytes into the
typed Structs of ``catalog.py`` and refuses anything malformed with a
``ContentError`` naming the file, the field path and the reason. It is pure;
``load`` does the reading, and imports this module only to parse (a pack
read back from its cache loads no parser). This module reads
``pack.toml`` and ``races.toml``; each other file has a module of its own:
``dice`` (``lines.toml``), ``enemies`` (``enemies.toml``),
``setups`` (``setups.toml``).

The four campaign files of ``campaign.py`` (class sheets, gear, the
level-2 and level-3 dice, the campaign tables) are optional too, all four or
none, and need the delve files.

``Pack.hash`` is the hash of the five core files only, so adding or changing
delve content never changes it (a clash log records it); ``Pack.delve_hash``
covers the core and delve files, ``Pack.campaign_hash`` every file.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.kernel.content import (
    REQUIRED as _REQUIRED,
    At as _At,
    document as _document,
    ident as _ident,
    integer as _integer,
    list_of as _list_of,
    pack_hash,
    record as _record,
    records as _records,
    text as _text,
    located,
)
from domain.kernel.errors import ContentError

from .campaign import campaign_documents, parse_campaign_files
from .companions import companion_chips
from .catalog import Pack, Race, SkillLine
from .delve import DiagramReader, delve_documents, parse_delve_files
from .dice import lines_and_dice
from .enemies import enemies_and_chips
from .files import ALL_FILES, COMPANION_FILE, CORE_FILES, DELVE_FILES, EXTRA_FILES
from .setups import SETUP_FIELDS, clash_setups, parse_setup


# ---------------------------------------------------------------- public


def parse_pack(files: Mapping[str, bytes]) -> Pack:
    """Build a validated ``Pack`` from the raw bytes of its files, by name.

    Pure: no I/O, clock or randomness. Raises ``ContentError`` for a missing
    or unknown file (the three delve files come all together or not at all,
    so do the four campaign files, which need the delve files),
    a TOML syntax error, an unknown key, a wrong type or value, a dangling
    reference or a malformed setup map, tile or card.
    """
    with located(files):  # a refusal names the line of its field
        return _parse_pack(files)


def _parse_pack(files: Mapping[str, bytes]) -> Pack:
    docs = {name: _document(name, files) for name in CORE_FILES}
    extra = sorted(set(files) - set(ALL_FILES + EXTRA_FILES))
    if extra:
        expected = ", ".join(ALL_FILES)
        raise ContentError(extra[0], "(file)", f"not a pack file (expected {expected})")
    delve_docs = delve_documents(files)
    campaign_docs = campaign_documents(files)
    if campaign_docs is not None and delve_docs is None:
        raise ContentError(
            DELVE_FILES[0],
            "(file)",
            f"the campaign files name items and delves, so they need the delve files ({', '.join(DELVE_FILES)})",
        )
    head = _pack_head(docs["pack.toml"])
    races = _races(docs["races.toml"])
    lines, dice = lines_and_dice(docs["lines.toml"])
    enemies, chips = enemies_and_chips(docs["enemies.toml"])
    setups = clash_setups(docs["setups.toml"], enemies)
    _check_default_lines(head["default_lines"], lines)
    delve: dict[str, Any] = {}
    if delve_docs is not None:
        delve = parse_delve_files(delve_docs, enemies, setups, DiagramReader(SETUP_FIELDS, parse_setup))
        # the core and delve files only: battle logs record this hash
        delve["delve_hash"] = pack_hash({name: files[name] for name in CORE_FILES + DELVE_FILES})
    campaign: dict[str, Any] = {}
    if campaign_docs is not None:
        encounters = setups | delve["delves"] | delve["dungeons"]
        campaign = parse_campaign_files(
            campaign_docs, lines=lines, dice=dice, items=delve["items"], encounters=encounters
        )
        dice = dice | campaign.pop("training")
        # every file but the companions' (their numbers go into the battle's events)
        campaign["campaign_hash"] = pack_hash({n: b for n, b in files.items() if n != COMPANION_FILE})
    if COMPANION_FILE in files:
        campaign["companions"] = companion_chips(_document(COMPANION_FILE, files))
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
        **campaign,
    )


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
