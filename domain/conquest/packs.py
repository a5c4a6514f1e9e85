"""Loading and validating a Conquest content pack.

A pack is two TOML files: ``pack.toml`` (id, the Reinforcement Table,
scenarios, Supremacy Abilities, draw events) and ``armies.toml`` (army
lists). ``parse_pack`` is pure and refuses anything malformed with a
``ContentError`` naming the file, the field path and the reason;
``starter_pack`` reads the bundled one.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from domain.kernel.content import (
    REQUIRED as _REQUIRED,
    At as _At,
    choice as _choice,
    document as _document,
    ident as _ident,
    integer as _integer,
    keyed as _keyed,
    list_of,
    pack_hash,
    record as _record,
    text as _text,
    located,
)
from domain.kernel import packages
from domain.kernel.errors import ContentError

from .catalog import AUTO, NO, Ability, Army, CharacterEntry, DrawEvent, Pack, RegimentEntry, Scenario
from .vocab import DIE, AbilityEffect, AbilityKind, Action, DrawEffect, RegimentClass

PACK_FILES = ("pack.toml", "armies.toml")


def parse_pack(files: Mapping[str, bytes]) -> Pack:
    """Build a validated ``Pack`` from the raw bytes of its files, by name."""
    with located(files):  # a refusal names the line of its field
        return _parse_pack(files)


def _parse_pack(files: Mapping[str, bytes]) -> Pack:
    extra = sorted(set(files) - set(PACK_FILES))
    if extra:
        raise ContentError(extra[0], "(file)", f"not a pack file (expected {', '.join(PACK_FILES)})")
    head_doc, army_doc = (_document(name, files) for name in PACK_FILES)
    head = _record(
        head_doc,
        _At("pack.toml"),
        {
            "id": (_ident, _REQUIRED),
            "name": (_text, _REQUIRED),
            "version": (_text, _REQUIRED),
            "reinforcement": (_table_rows, _REQUIRED),
            "scenarios": (lambda v, a: _keyed(v, a, _SCENARIO), _REQUIRED),
            "abilities": (lambda v, a: _keyed(v, a, _ABILITY), {}),
            "draw_events": (lambda v, a: _keyed(v, a, _DRAW_EVENT), {}),
        },
    )
    abilities = {k: Ability(id=k, **row) for k, row in head["abilities"].items()}
    for k, ability in abilities.items():
        if ability.kind is AbilityKind.ACTIVATED and ability.effect is not AbilityEffect.MARCH_BONUS:
            # declared in the Supremacy Phase, after the rolls it would change
            _At("pack.toml", f"abilities.{k}.effect").fail("an activated ability can only be a march-bonus")
    events = {k: DrawEvent(id=k, **row) for k, row in head["draw_events"].items()}
    scenarios = {k: _scenario(k, row, _At("pack.toml", f"scenarios.{k}")) for k, row in head["scenarios"].items()}
    if not scenarios:
        _At("pack.toml", "scenarios").fail("a pack needs at least one scenario")
    at = _At("armies.toml")
    top = _record(army_doc, at, {"armies": (lambda v, a: _keyed(v, a, _ARMY), _REQUIRED)})
    armies = {k: _army(k, row, abilities, events, at.key("armies").key(k)) for k, row in top["armies"].items()}
    if len(armies) < 2:
        at.key("armies").fail("a pack needs at least two armies")
    return Pack(
        id=head["id"],
        name=head["name"],
        version=head["version"],
        hash=pack_hash(files),
        reinforcement=head["reinforcement"],
        abilities=abilities,
        draw_events=events,
        armies=armies,
        scenarios=scenarios,
    )


def starter_files() -> dict[str, bytes]:
    """The raw files of the bundled starter pack (to build variants in tests)."""
    content = packages.files("domain.conquest.content")
    return {name: content.joinpath(name).read_bytes() for name in PACK_FILES}


@functools.cache
def starter_pack() -> Pack:
    """The starter pack bundled in ``domain/conquest/content``."""
    return parse_pack(starter_files())


_ids = list_of(_ident)


# ---------------------------------------------------------------- pack.toml

_CELL = 'a cell is "no", "auto" or the highest roll that succeeds (1 to 5)'


def _cell(value: object, at: _At) -> int:
    if value == "no":
        return NO
    if value == "auto":
        return AUTO
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value < DIE:
        at.fail(f"{value!r}: {_CELL}")
    return value


def _table_rows(value: object, at: _At) -> tuple[tuple[int, int, int], ...]:
    """The Reinforcement Table (REINF-9): one row per Round, a cell per Class."""
    if not isinstance(value, list) or not value:
        at.fail("expected an array of rows, one per Round")
    rows: list[tuple[int, int, int]] = []
    for r, row in enumerate(value):
        where = at.index(r)
        if not isinstance(row, list) or len(row) != len(RegimentClass):
            where.fail(f"a row has {len(RegimentClass)} cells (light, medium, heavy)")
        light, medium, heavy = (_cell(c, where.index(i)) for i, c in enumerate(row))
        rows.append((light, medium, heavy))
    # a game must end with every Regiment able to arrive: the last row holds
    # for later Rounds, so it must let every Class in
    if NO in rows[-1]:
        at.index(len(rows) - 1).fail('the last row holds for every later Round, so no cell may be "no"')
    for r in range(1, len(rows)):
        for i in range(len(RegimentClass)):
            if rows[r - 1][i] == AUTO and rows[r][i] != AUTO:
                at.index(r).index(i).fail("once a Class arrives automatically it stays automatic")
    return tuple(rows)


_SCENARIO = {
    "name": (_text, _REQUIRED),
    "rounds": (_integer(1, 50), 10),
    "depth": (_integer(12, 120), 48),
    "score_from": (_integer(1), 2),
    "vp_per_round": (_integer(0, 10), 3),
    "vp_to_win": (_integer(0), 0),
}
_ABILITY = {
    "name": (_text, _REQUIRED),
    "kind": (_choice(AbilityKind), _REQUIRED),
    "effect": (_choice(AbilityEffect), _REQUIRED),
    "amount": (_integer(1, 6), _REQUIRED),
    "text": (_text, ""),
}
_DRAW_EVENT = {
    "name": (_text, _REQUIRED),
    "effect": (_choice(DrawEffect), _REQUIRED),
    "action": (_choice(Action), Action.MARCH),
}


def _scenario(key: str, row: dict[str, Any], at: _At) -> Scenario:
    if row["score_from"] > row["rounds"]:
        at.key("score_from").fail(f"round {row['score_from']} is after the last round {row['rounds']}")
    return Scenario(id=key, **row)


# ---------------------------------------------------------------- armies.toml

_REGIMENT = {
    "name": (_text, _REQUIRED),
    "type": (_ident, _REQUIRED),
    "class": (_choice(RegimentClass), _REQUIRED),
    "stands": (_integer(1, 12), _REQUIRED),
    "march": (_integer(1, 12), _REQUIRED),
    "depth": (_integer(1, 12), _REQUIRED),
    "volley": (_integer(0, 36), 0),
    "count": (_integer(1, 4), 1),
    "draw_events": (_ids, ()),
}
_CHARACTER = {
    "name": (_text, _REQUIRED),
    "type": (_ident, _REQUIRED),
    "abilities": (_ids, ()),
    "draw_events": (_ids, ()),
}
_ARMY = {
    "name": (_text, _REQUIRED),
    "warlord": (_ident, _REQUIRED),
    "regiments": (lambda v, a: _keyed(v, a, _REGIMENT), _REQUIRED),
    "characters": (lambda v, a: _keyed(v, a, _CHARACTER), _REQUIRED),
}


def _army(key: str, row: dict[str, Any], abilities: dict[str, Ability], events: dict[str, DrawEvent], at: _At) -> Army:
    regiments = []
    for k, r in row["regiments"].items():
        where = at.key("regiments").key(k)
        if r["depth"] > r["march"]:
            # one full March must be able to bring every stand on (ARRIVE-3)
            where.key("depth").fail(f"depth {r['depth']} exceeds the March value {r['march']}")
        _known(r["draw_events"], events, "draw event", where.key("draw_events"))
        regiments.append(RegimentEntry(id=k, cls=r.pop("class"), **r))
    if not regiments:
        at.key("regiments").fail("an army needs at least one Regiment")
    characters = []
    for k, c in row["characters"].items():
        where = at.key("characters").key(k)
        if k in row["regiments"]:
            where.fail(f"{k!r} is already a Regiment's entry name")
        _known(c["abilities"], abilities, "Supremacy Ability", where.key("abilities"))
        _known(c["draw_events"], events, "draw event", where.key("draw_events"))
        characters.append(CharacterEntry(id=k, **c))
    if row["warlord"] not in row["characters"]:
        at.key("warlord").fail(f"{row['warlord']!r} is not one of this army's Characters (SUP-5)")
    return Army(
        id=key, name=row["name"], warlord=row["warlord"], regiments=tuple(regiments), characters=tuple(characters)
    )


def _known(ids: tuple[str, ...], known: Mapping[str, object], what: str, at: _At) -> None:
    for i, name in enumerate(ids):
        if name not in known:
            at.index(i).fail(f"unknown {what} {name!r}")
