"""The labyrinth's content as lists for people: the encounters with their
Enemies, and the classes with their skills (``rk encounters``, ``rk
labyrinth-classes``, the lobby's choices). Each table fits 80 columns: the
ids never wrap, the prose columns wrap between words."""

from __future__ import annotations

from collections import Counter
from typing import Any

import msgspec

from domain.kernel.surface import Report
from domain.kernel.surface.document import Column, Lines, Table

from .catalog import Pack
from .fp import cost_text
from .options import PASSIVES
from .packs import starter_pack
from .stats import pc_base, rare_name
from .vocab import Row

CLASSES_NOTE = (
    "HP/TP at level 1, before equipment; a skill that also costs FP shows its cost; "
    "`rk new labyrinth --party CLASS:LEVEL` sets the level."
)


def encounters(asked: Any) -> Report:
    """The encounters of the starter pack, with their Enemies: level, back
    row and link group, alike ones counted together."""
    pack = starter_pack()
    data = [{**msgspec.to_builtins(e), "id": key} for key, e in pack.encounters.items()]
    columns = (
        Column("encounter", wrap=False),
        Column("name", min_width=10),
        Column("Enemies (level; back row, link group)", min_width=24),
    )
    rows = [(key, e.name, ", ".join(_enemies(pack, e))) for key, e in pack.encounters.items()]
    return Report(data, (Table(columns, tuple(rows), edge=False),))


def _enemies(pack: Pack, encounter: Any) -> list[str]:
    out = []
    for (kind_id, row, link), n in Counter((x.enemy, x.row, x.link) for x in encounter.enemies).items():
        kind = pack.enemies.get(kind_id)
        what = (
            [f"lv {kind.level}" if kind else "?"]
            + (["back"] if row is Row.BACK else [])
            + ([f"link {link}"] if link else [])
        )
        out.append(f"{kind.name if kind else kind_id}{f' ×{n}' if n > 1 else ''} ({', '.join(what)})")
    return out


def classes(asked: Any) -> Report:
    """The classes of the starter pack: where they stand, HP and TP at
    level 1, equipment, and the skills learned by level, each that costs FP
    with its cost (FUMBLE-2)."""
    pack = starter_pack()
    data = [
        {
            **msgspec.to_builtins(c),
            "id": key,
            "skill_costs": {
                sid: {"tp": pack.skills[sid].tp, "fp": pack.skills[sid].fp} for _, sid in c.skills if sid in pack.skills
            },
        }
        for key, c in pack.classes.items()
    ]
    columns = (
        Column("class", wrap=False),
        Column("row", wrap=False),
        Column("HP/TP", wrap=False),
        Column("equipment", min_width=12),
        Column("skills (level: ids)", min_width=20),
    )
    rows = []
    for key, c in pack.classes.items():
        base = pc_base(c, 1)
        gear = [g for g in (c.weapon, c.other, c.armor) if g]
        gear += [f"{item} ×{n}" if n > 1 else item for item, n in Counter(c.items).items()]
        levels: dict[int, list[str]] = {}
        for level, sid in c.skills:
            found = pack.skills.get(sid)
            levels.setdefault(level, []).append(
                f"{sid} ({cost_text(found.tp, found.fp)})" if found and found.fp else sid
            )
        skills = "; ".join(f"{level}: {', '.join(ids)}" for level, ids in sorted(levels.items()))
        rows.append((f"{key}\n{c.name}", c.row.value, f"{base.max_hp}/{base.max_tp}", ", ".join(gear), skills))
    return Report(data, (Table(columns, tuple(rows), edge=False), Lines((CLASSES_NOTE,))))


def offers(pack: Pack) -> dict[str, Any]:
    """What the lobby offers for each setup field: encounters, classes and
    rows (for the party's and the allies' members), the ambushed sides, how
    passives are chosen, and, for each encounter, its Enemy slots that may
    be met rare (one the encounter always has rare is ``fixed``)."""
    classes = [{"id": c.id, "name": c.name, "note": f"{c.row.value} row"} for c in pack.classes.values()]
    rows = [{"id": r.value, "name": r.value} for r in Row]
    return {
        "encounter": [
            {"id": key, "name": e.name, "note": ", ".join(_enemies(pack, e))} for key, e in pack.encounters.items()
        ],
        "party": classes,
        "party.class": classes,
        "party.row": rows,
        "allies": classes,
        "allies.class": classes,
        "allies.row": rows,
        "ambush": [{"id": "pcs", "name": "the PCs are caught"}, {"id": "enemies", "name": "the Enemies are caught"}],
        "passives": [{"id": mode, "name": mode} for mode in PASSIVES],
        "rare": {"after": "encounter", "by": {key: _slots(pack, e) for key, e in pack.encounters.items()}},
    }


def _slots(pack: Pack, encounter: Any) -> list[dict[str, Any]]:
    """An encounter's Enemies e1, e2... named as the battle names them (A, B...
    for two of a kind), each with the name of its rare variant."""
    kinds = Counter(e.enemy for e in encounter.enemies)
    seen: Counter[str] = Counter()
    out = []
    for n, entry in enumerate(encounter.enemies, start=1):
        kind = pack.enemies.get(entry.enemy)
        seen[entry.enemy] += 1
        suffix = "" if kinds[entry.enemy] == 1 else f" {chr(ord('A') + seen[entry.enemy] - 1)}"
        rare = (rare_name(kind) if kind else entry.enemy) + suffix
        out.append(
            {
                "id": f"e{n}",
                "name": (kind.name if kind else entry.enemy) + suffix,
                "note": f"→ {rare}",
                "row": entry.row.value,
                **({"fixed": True} if entry.rare else {}),
            }
        )
    return out
