"""Betrayal's read models as a table reads them: `rk track`, `rk pool`,
`rk skyshards`, `rk adventurers`, `rk xp` (the ruleset's queries). Each
reads the views through ``asked.read_models()`` (a database caught up with
the log, the adapter's) and answers its rows for ``--json`` and a document
for people."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.kernel.surface import Report
from domain.kernel.surface.document import Column, Lines, table

from . import queries


def track(asked: Any) -> Report:
    """Each adventurer's cooldown track, left to right: per adventurer (named
    on their first row) each die as the player knows it (``#5 Cinder
    Bolt``), its kind, the face shown (as rolled, 1 to 6) and what that face
    means; a status die shows its status. Hero and die ids are left to
    ``--json``."""
    with asked.read_models() as db:
        rows = queries.cooldown_track(db, asked.app, asked.game_id)
    if not rows:
        return Report(rows, (Lines(("(nothing yet)",)),))
    longest_word = max((len(w) for r in rows for w in _shows(r).split()), default=0)
    columns = (
        Column("adventurer", wrap=False),
        Column("position", "right", False),
        Column("die", wrap=False),
        Column("kind", wrap=False),
        Column("face", "right", False),
        Column("shows", min_width=longest_word),
    )
    cells, previous = [], None
    for r in rows:
        cells.append(
            [
                r.hero_name if r.hero != previous else "",
                str(r.position),
                f"#{r.uid} {r.die_name}" if r.kind == "skill" else "",
                r.kind.replace("-", " "),
                str(r.face + 1) if r.face >= 0 else "",
                _shows(r),
            ]
        )
        previous = r.hero
    return Report(rows, (table(columns, cells, edge=False),))


def _shows(row: Any) -> str:
    return row.shown or row.status


def pool(asked: Any) -> Report:
    """The enemy pool: one row per EP computed, enemy drawn and pool closed,
    with its rule; the note wraps between its terms. The RNG draw counter
    and the quest flag are left to ``--json``."""
    with asked.read_models() as db:
        rows = queries.enemy_pool(db, asked.app, asked.game_id)
    if not rows:
        return Report(rows, (Lines(("(nothing yet)",)),))
    cells_of = {  # header: (cell of one row, wraps)
        "tile": (lambda r: r.tile, False),
        "kind": (lambda r: r.kind if r.kind != "none" else "", False),
        "rule": (lambda r: r.rule, True),
        "#": (lambda r: str(r.number) if r.kind in ("draw", "quest") else "", False),
        "foe": (lambda r: r.foe, False),
        "hex": (lambda r: r.hex, False),
        "enemy": (lambda r: r.name or r.enemy, True),
        "level": (lambda r: str(r.level) if r.kind in ("draw", "quest") else "", False),
        "EP left": (_ep_left, False),
        "note": (_pool_note, True),
    }
    cells = {name: [cell(r) for r in rows] for name, (cell, _) in cells_of.items()}
    shown = [name for name in cells_of if any(cells[name])]
    columns = tuple(
        Column(
            name,
            "right" if name in ("#", "level", "EP left") else "left",
            wraps,
            max((len(w) for c in cells[name] for w in c.split()), default=0) if wraps else 0,
            terms=name == "note",
            grow=name == "note",
        )
        for name in shown
        for wraps in (cells_of[name][1],)
    )
    listed = table(columns, [[cells[name][i] for name in shown] for i in range(len(rows))], edge=False)
    return Report(rows, (msgspec.structs.replace(listed, dense=True),))


def _ep_left(row: Any) -> str:
    if row.kind in ("ep", "draw"):
        return str(row.ep_left)
    if row.kind in ("spent", "discarded"):
        return "0"
    return ""  # a quest unit is outside the EP (EP-8); no pool yet


def _pool_note(row: Any) -> str:
    if row.kind == "discarded" and row.discarded:
        return f"{row.discarded} EP discarded: {row.note}" if row.note else f"{row.discarded} EP discarded"
    return row.note


def skyshards(asked: Any) -> Report:
    """A delve's skyshards, one line per fact citing its rules: the skyshards
    required (SKYSHARD-3), each card drawn (SKYSHARD-1, SKYSHARD-8), each
    face-down shortage card (EXPLORATION-7a, SKYSHARD-4), each skyshard
    obtained and by whom (SKYSHARD-5, SKYSHARD-9), the totals, and what the
    objective still needs (OBJ-4, OBJ-8, RETREAT-5) or how the delve ended."""
    with asked.read_models() as db:
        rows = queries.skyshards(db, asked.app, asked.game_id)
    count = {r.kind: r.count for r in rows}
    said = Lines(
        (
            f"Skyshards of delve battle {asked.game_id}: gained {count.get('gained', 0)} of"
            f" {count.get('required', 0)}, drawn {count.get('drawn-total', 0)}",
        )
    )
    columns = (Column("", wrap=False), Column("n", "right", False), Column("rule", wrap=False), Column("what"))
    return Report(rows, (said, table(columns, [[r.kind, str(r.count), r.rule, r.note] for r in rows])))


def adventurers(asked: Any) -> Report:
    """Every adventurer of the store, oldest first: race, HP, the battles
    fought, the last one and how it ended, whether they can fight (one at
    0 HP cannot join a battle, HEALTH-5; one in a battle not ended cannot
    join another, BETWEEN-1)."""
    app = asked.app
    names = {e.battle_id: e.name for e in app.index().entries(deleted=True) if e.name != e.battle_id}
    with asked.read_models() as db:
        found = queries.adventurers(db)
    rows = [
        msgspec.structs.asdict(r)
        | {"last_name": names.get(r.last_battle, r.last_battle), "can_fight": r.hp > 0 and not r.fighting}
        for r in found
    ]
    if not rows:
        return Report(
            rows, (Lines(("No adventurers yet: `rk new clash --party Name:race ...` creates them (see `rk races`).",)),)
        )
    races = app.pack_of("betrayal").races
    cells = [
        [
            r["name"],
            races[r["race"]].name if r["race"] in races else r["race"],
            f"{r['hp']}/{r['max_hp']}",
            str(r["battles"]),
            f"{r['last_name']}: {r['last_outcome']}" if r["last_battle"] else "—",
            "yes"
            if r["can_fight"]
            else f"no: in {names.get(r['fighting'], r['fighting'])}"
            if r["fighting"]
            else "no: 0 HP",
        ]
        for r in rows
    ]
    columns = (
        Column("adventurer", wrap=False),
        Column("race", wrap=False),
        Column("HP", "right", False),
        Column("battles", "right", False),
        Column("last battle"),
        Column("can fight", wrap=False),
    )
    return Report(rows, (table(columns, cells, listing=True),))


def xp(asked: Any, name: str) -> Report:
    """The XP ledger of one adventurer: each XP gained (from which battle)
    and spent (on what), with the balance."""
    from domain.betrayal.battle.application import adventurer

    with asked.read_models() as db:
        lines = queries.xp_ledger(db, asked.app, name)
    data = [msgspec.to_builtins(line) for line in lines]
    if not lines:
        who = adventurer(asked.app, name).name
        return Report(data, (Lines((f"{who} has gained no XP yet (rk reward opens a Reward Phase).",)),))
    columns = (Column("rule", wrap=False), Column("what"), Column("XP", "right", False), Column("left", "right", False))
    cells = [[line.rule, line.what, f"{line.amount:+d}", str(line.balance)] for line in lines]
    return Report(data, (table(columns, cells, listing=True),))
