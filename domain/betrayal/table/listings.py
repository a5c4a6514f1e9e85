"""The content pack as players browse it before a battle: setups, delves,
races, skill lines and their dice (``rk setups``, ``rk delves``, ``rk
races``, ``rk lines``). Read from the pack alone; the store is not opened.
Each answers the data ``--json`` gives and a document for a screen."""

from __future__ import annotations

from typing import Any

from domain.kernel.hexes import as_hex, to_offset
from domain.kernel.surface import Report
from domain.kernel.surface.document import Column, Lines, Table, Words, table

from domain.betrayal.battle.names import face_text
from domain.betrayal.packs.load import starter_pack

NARROW = 80  # columns: the screen a listing is laid out for, so that it fits any
OBJECTIVE_RULES = {"survey": "OBJ-4", "uncover": "OBJ-8"}


def setups(asked: Any) -> Report:
    """Clash setups, then dungeon diagrams (`rk new clash` / `rk new dungeon --setup ID`)."""
    pack = starter_pack()
    rows: list[dict[str, Any]] = []
    for mode, setup in [("clash", x) for x in pack.setups.values()] + [("dungeon", x) for x in pack.dungeons.values()]:
        offsets = [to_offset(as_hex(cell.hex)) for cell in setup.hexes]
        rows.append(
            {
                "id": setup.id,
                "name": setup.name,
                "mode": mode,
                "objective": setup.objective.value,
                "objective_units": list(setup.objective_units),
                "columns": max(c for c, _ in offsets) + 1,
                "rows": max(r for _, r in offsets) + 1,
                "hexes": len(setup.hexes),
            }
        )
    sizes = [f"{r['columns']}×{r['rows']}, {r['hexes']} hexes" for r in rows]
    # Ids are typed: never cut. An objective's units go one a line under it, so its column is no wider
    # than the longest id and the names wrap instead.
    columns = (
        Column("id", wrap=False),
        Column("name"),
        Column("mode", wrap=False),
        Column("objective", wrap=False),
        Column("size", wrap=False),
    )
    cells = [
        [r["id"], r["name"], r["mode"], _objective_units(r["objective"], r["objective_units"]), size]
        for r, size in zip(rows, sizes)
    ]
    listed = table(columns, cells, edge=False)
    hint = Lines(("Start one: rk new clash --setup ID ..., rk new dungeon --setup ID ...; delves: rk delves.",))
    return Report(rows, (listed, hint))


def _objective_units(objective: str, units: list[str]) -> str:
    """``eliminate`` and the units to eliminate under it, one a line:
    ``(ash-hierophant,`` ``bound-sentinel)``."""
    if not units:
        return objective
    return "\n".join(
        [objective, *(("(" if i == 0 else "") + u + ("," if i < len(units) - 1 else ")") for i, u in enumerate(units))]
    )


def delves(asked: Any) -> Report:
    """The delve encounters (`rk new delve --delve ID`): objective and skyshards required."""
    pack = starter_pack()
    rows: list[dict[str, Any]] = [
        {"id": d.id, "name": d.name, "objective": d.objective.value, "skyshards": d.skyshards, "text": d.text}
        for d in pack.delves.values()
    ]
    columns = (
        Column("id", wrap=False),
        Column("name", wrap=False),
        Column("objective", wrap=False),
        Column("skyshards", "right"),
    )
    listed = table(columns, [[r["id"], r["name"], _objective(r["objective"]), str(r["skyshards"])] for r in rows])
    # The encounters' texts are paragraphs: under the table, not squeezed into a column.
    texts = Lines(tuple(((f"{r['id']}: ", "strong"), (r["text"], "")) for r in rows))
    hint = Lines(("Start one: rk new delve --delve ID --party Name:race ... --xp N",))
    return Report(rows, (listed, texts, hint))


def _objective(objective: str) -> str:
    return objective + (f" ({OBJECTIVE_RULES[objective]})" if objective in OBJECTIVE_RULES else "")


def races(asked: Any) -> Report:
    """The races a new adventurer may be, with their starting stats."""
    pack = starter_pack()
    columns = tuple(
        Column(name, align)
        for name, align in (
            ("id", "left"),
            ("name", "left"),
            ("HP", "right"),
            ("Sta", "right"),
            ("Mag", "right"),
            ("Combat dice", "right"),
            ("Cool", "right"),
            ("ability", "left"),
        )
    )
    listed = table(
        columns,
        [
            [
                r.id,
                r.name,
                str(r.health),
                str(r.stamina),
                str(r.magicka),
                str(r.combat_dice),
                str(r.cooldown),
                r.ability,
            ]
            for r in pack.races.values()
        ],
    )
    hint = Lines(("New adventurers: --party Name:race[:line+line[:form]]; see `rk lines`.",))
    return Report(list(pack.races.values()), (listed, hint))


def lines(asked: Any) -> Report:
    """The starting skill lines, each die's faces numbered 1 to 6 as rolled,
    then the Combat die every adventurer rolls."""
    pack = starter_pack()
    starters = [line for line in pack.lines.values() if line.starter]
    data = [{"line": line, "dice": [pack.dice[d] for d in dict.fromkeys(line.start_dice)]} for line in starters]
    blocks: list[Any] = []
    for line in starters:
        form = f"{line.form.value} form" if line.form else "any form"
        default = " · a default line" if line.id in pack.default_lines else ""
        title = f"{line.id} — {line.name} ({line.pool.value} dice, {form}){default}"
        blocks += _dice_table(title, [(pack.dice[d], line.start_dice.count(d)) for d in dict.fromkeys(line.start_dice)])
    combat = pack.dice.get("combat")
    if combat:
        blocks += _dice_table("Combat dice: every adventurer rolls as many as the race sheet says", [(combat, 1)])
    return Report(data, tuple(blocks))


def _dice_table(title: str, dice: list[tuple[Any, int]]) -> tuple[Lines, Table]:
    """Each die's faces, numbered 1 to 6 as rolled: three to a row, or two
    when three would not fit on a narrow screen (a face is never cut)."""
    named = [
        (
            die.name + (f" ×{count}" if count > 1 else ""),
            [f"{i} {face_text(f)}" for i, f in enumerate(die.faces, start=1)],
        )
        for die, count in dice
    ]
    pad = 3  # the space between two columns
    widest_name = max(len(name) for name, _ in named)
    widest_face = max(len(face) for _, faces in named for face in faces)
    per_row = 3 if widest_name + 3 * widest_face + 3 * pad <= NARROW else 2
    columns = (Column("die", wrap=False, tone="strong"), *(Column("", wrap=False) for _ in range(per_row)))
    rows: list[list[Words]] = []
    for name, faces in named:
        for start in range(0, len(faces), per_row):
            row: list[Words] = [name if start == 0 else "", *faces[start : start + per_row]]
            rows.append(row + [""] * (per_row + 1 - len(row)))
    listed = Table(columns, tuple(tuple(r) for r in rows), edge=False, heading=False)
    return Lines((title,), strong=True), listed


def offers(app: Any, kind: str) -> dict[str, Any]:
    """What the lobby offers for a setup's fields: the diagrams of a clash
    or a dungeon (``kind``), or the delve encounters; the races of a new
    party member and its battle forms."""
    pack = app.pack_of("betrayal")
    races = [
        {"id": r.id, "name": r.name, "note": f"HP {r.health}, {r.combat_dice} combat dice; {r.ability}"}
        for r in pack.races.values()
    ]
    found: dict[str, Any] = {"party.race": races}
    if kind == "delve":
        found["delve"] = [
            {"id": d.id, "name": d.name, "note": f"{_objective(d.objective.value)}, {d.skyshards} skyshards. {d.text}"}
            for d in pack.delves.values()
        ]
    else:
        diagrams = pack.setups if kind == "clash" else pack.dungeons
        found["setup"] = [
            {"id": x.id, "name": x.name, "note": f"objective {x.objective.value}, {len(x.hexes)} hexes"}
            for x in diagrams.values()
        ]
    return found


def companions(asked: Any) -> Report:
    """The companion chips a setup may bring (`--companion CHIP:ADVENTURER`),
    with their numbers (ROUND-6; facts §2)."""
    pack = starter_pack()
    columns = tuple(
        Column(name, align)
        for name, align in (
            ("id", "left"),
            ("name", "left"),
            ("HP", "right"),
            ("Combat", "right"),
            ("range", "right"),
            ("targets", "right"),
            ("move", "right"),
            ("skills", "left"),
            ("permanent", "left"),
        )
    )
    chips = list(pack.companions.values())
    listed = table(
        columns,
        [
            [
                k.id,
                k.name,
                str(k.hp),
                str(k.combat),
                str(k.range),
                str(k.targets),
                str(k.move),
                ", ".join(s.value for s in k.skills) or "-",
                "yes" if k.permanent else "no",
            ]
            for k in chips
        ],
    )
    hint = Lines(("A setup brings one with --companion CHIP:ADVENTURER, e.g. --companion fox:Ria.",))
    return Report(chips, (listed, hint))
