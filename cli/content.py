"""The content pack as players browse it before a battle: setups, races,
skill lines and their dice. Read from the pack alone; the store is not
opened."""

from __future__ import annotations

from rich import box
from rich.console import Group
from rich.table import Table
from rich.text import Text

from domain.betrayal.packs import starter_pack
from domain.kernel.hexes import to_offset

from domain.betrayal.names import face_text

from .phrases import Phrases
from .session import Session


def setups(s: Session) -> None:
    """Clash setups, then dungeon diagrams (`rk new clash` / `rk new dungeon --setup ID`)."""
    pack = starter_pack()
    rows = []
    for mode, setup in [("clash", x) for x in pack.setups.values()] + [("dungeon", x) for x in pack.dungeons.values()]:
        offsets = [to_offset(tuple(cell.hex)) for cell in setup.hexes]
        cols = max(c for c, _ in offsets) + 1
        height = max(r for _, r in offsets) + 1
        rows.append({
            "id": setup.id, "name": setup.name, "mode": mode, "objective": setup.objective.value,
            "objective_units": list(setup.objective_units),
            "columns": cols, "rows": height, "hexes": len(setup.hexes),
        })
    if s.json:
        s.out.emit(rows)
        return
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    # An id is typed: never cut; nor a unit's id in an objective (its column is as wide as the widest).
    units = max((len(u) + 2 for r in rows for u in r["objective_units"]), default=0)
    sizes = [f"{r['columns']}×{r['rows']}, {r['hexes']} hexes" for r in rows]
    widths = {"objective": units, "size": max(map(len, sizes), default=0)}
    for name in ("id", "name", "mode", "objective", "size"):
        table.add_column(name, no_wrap=name in ("id", "mode", "size"), width=widths.get(name))
    for r, size in zip(rows, sizes):
        objective = r["objective"] + (f" ({', '.join(r['objective_units'])})" if r["objective_units"] else "")
        table.add_row(r["id"], r["name"], r["mode"], objective, size)
    s.out.print(table)
    s.out.print("Start one: rk new clash --setup ID ..., rk new dungeon --setup ID ...; delves: rk delves.")


def delves(s: Session) -> None:
    """The delve encounters (`rk new delve --delve ID`): objective and skyshards required."""
    pack = starter_pack()
    rows = [{"id": d.id, "name": d.name, "objective": d.objective.value, "skyshards": d.skyshards, "text": d.text}
            for d in pack.delves.values()]
    if s.json:
        s.out.emit(rows)
        return
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("id", no_wrap=True)
    table.add_column("name", no_wrap=True)
    table.add_column("objective", no_wrap=True)
    table.add_column("skyshards", justify="right")
    rule = {"survey": "OBJ-4", "uncover": "OBJ-8"}
    for r in rows:
        objective = r["objective"] + (f" ({rule[r['objective']]})" if r["objective"] in rule else "")
        table.add_row(r["id"], r["name"], objective, str(r["skyshards"]))
    s.out.print(table)
    # The encounters' texts are paragraphs: under the table, not squeezed into a column.
    s.out.print(*(Phrases(Text(f"{r['id']}: ", style="bold") + Text(r["text"])) for r in rows))
    s.out.print("Start one: rk new delve --delve ID --party Name:race ... --xp N")


def races(s: Session) -> None:
    pack = starter_pack()
    if s.json:
        s.out.emit(list(pack.races.values()))
        return
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for name, justify in (("id", "left"), ("name", "left"), ("HP", "right"), ("Sta", "right"),
                          ("Mag", "right"), ("Combat dice", "right"), ("Cool", "right"),
                          ("ability", "left")):
        table.add_column(name, justify=justify)
    for r in pack.races.values():
        table.add_row(r.id, r.name, str(r.health), str(r.stamina), str(r.magicka),
                      str(r.combat_dice), str(r.cooldown), r.ability)
    s.out.print(table)
    s.out.print("New adventurers: --party Name:race[:line+line[:form]]; see `rk lines`.")


def lines(s: Session) -> None:
    pack = starter_pack()
    starters = [line for line in pack.lines.values() if line.starter]
    if s.json:
        s.out.emit([
            {"line": line, "dice": [pack.dice[d] for d in dict.fromkeys(line.start_dice)]}
            for line in starters
        ])
        return
    for line in starters:
        form = f"{line.form.value} form" if line.form else "any form"
        default = " · a default line" if line.id in pack.default_lines else ""
        title = f"{line.id} — {line.name} ({line.pool.value} dice, {form}){default}"
        s.out.print(_dice_table(title, [
            (pack.dice[d], line.start_dice.count(d)) for d in dict.fromkeys(line.start_dice)
        ], s.out.console.width))
    combat = pack.dice.get("combat")
    if combat:
        s.out.print(_dice_table("Combat dice: every adventurer rolls as many as the race sheet says", [(combat, 1)],
                                s.out.console.width))


def _dice_table(title: str, dice, width: int) -> Group:
    """Each die's faces, numbered 1 to 6 as rolled: three to a row, or two
    when three would not fit in ``width`` columns (a face is never cut)."""
    named = [(die.name + (f" ×{count}" if count > 1 else ""),
              [f"{i} {face_text(f)}" for i, f in enumerate(die.faces, start=1)]) for die, count in dice]
    pad = 4  # the padding of each column
    widest_name = max(len(name) for name, _ in named)
    widest_face = max(len(face) for _, faces in named for face in faces)
    per_row = 3 if widest_name + 3 * widest_face + 4 * pad <= width else 2
    table = Table(box=None, show_header=False, padding=(0, 2, 0, 2))
    table.add_column("die", style="bold", no_wrap=True)
    for _ in range(per_row):
        table.add_column(no_wrap=True)
    for name, faces in named:
        for start in range(0, len(faces), per_row):
            table.add_row(name if start == 0 else "", *faces[start:start + per_row])
    return Group(Phrases(Text(title, style="bold")), table)
