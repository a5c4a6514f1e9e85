"""Conquest's content as lists for people: the scenarios with the
Reinforcement Table, and the army lists (``rk scenarios``, ``rk armies``,
the lobby's choices)."""

from __future__ import annotations

from typing import Any

from domain.kernel.surface import Report
from domain.kernel.surface.document import Column, Words, table

from .catalog import AUTO, NO
from .packs import starter_pack
from .vocab import RegimentClass


def scenarios(asked: Any) -> Report:
    """The scenarios of the starter pack, then the Reinforcement Table."""
    pack = starter_pack()
    rows = [
        {
            "id": sc.id,
            "name": sc.name,
            "rounds": sc.rounds,
            "depth": sc.depth,
            "score_from": sc.score_from,
            "vp_per_round": sc.vp_per_round,
            "vp_to_win": sc.vp_to_win,
        }
        for sc in pack.scenarios.values()
    ]
    lines: list[list[Words]] = [
        [
            sc.id,
            sc.name,
            str(sc.rounds),
            f'{sc.depth}"',
            str(sc.score_from),
            str(sc.vp_per_round),
            str(sc.vp_to_win or "—"),
        ]
        for sc in pack.scenarios.values()
    ]
    listed = table(("scenario", "name", "rounds", "depth", "VP from round", "VP a round", "VP to win"), lines)
    cells = {NO: "—", AUTO: "auto"}
    last = len(pack.reinforcement)
    by_round: list[list[Words]] = [
        [f"{i}+" if i == last else str(i), *(cells.get(v, f"≤ {v}") for v in row)]
        for i, row in enumerate(pack.reinforcement, start=1)
    ]
    reinforcement = table(
        ("round", *(k.value for k in RegimentClass)),
        by_round,
        title="Reinforcement Table (a D6 roll equal or under succeeds)",
    )
    return Report(rows, (listed, reinforcement))


def armies(asked: Any) -> Report:
    """The army lists of the starter pack, a table each."""
    pack = starter_pack()
    blocks = []
    for army in pack.armies.values():
        # The entry id is what content and logs name a Regiment by: never cut
        # it; the prose columns wrap between words instead (80 columns).
        columns = (
            Column("entry", wrap=False),
            Column("name", min_width=9),
            Column("kind", min_width=9),
            Column("stands", "right", False),
            Column("march", "right", False),
            Column("volley", "right", False),
            Column("draw events", min_width=10),
        )
        rows: list[list[Words]] = []
        for r in army.regiments:
            name = f"{r.name} ×{r.count}" if r.count > 1 else r.name  # how many the list holds
            rows.append(
                [
                    r.id,
                    name,
                    f"{r.type} {r.cls.value}",
                    str(r.stands),
                    f'{r.march}"/{r.depth}"',
                    f'{r.volley}"' if r.volley else "—",
                    ", ".join(r.draw_events) or "—",
                ]
            )
        for ch in army.characters:
            role = "Warlord" if ch.id == army.warlord else "Character"
            abilities = ", ".join(pack.abilities[a].name for a in ch.abilities)
            rows.append(
                [
                    ch.id,
                    f"{ch.name} ({role})",
                    ch.type,
                    "—",
                    "—",
                    "—",
                    ", ".join([*ch.draw_events, *([f"ability: {abilities}"] if abilities else [])]) or "—",
                ]
            )
        blocks.append(table(columns, rows, title=f"{army.id}: {army.name}"))
    return Report(list(pack.armies.values()), tuple(blocks))


def offers(pack: Any) -> dict[str, list[Any]]:
    """What the lobby offers for each setup field: scenarios and armies."""
    return {
        "scenario": [
            {
                "id": s.id,
                "name": s.name,
                "note": f'{s.rounds} rounds, {s.depth}" deep' + (f", {s.vp_to_win} VP to win" if s.vp_to_win else ""),
            }
            for s in pack.scenarios.values()
        ],
        "armies": [{"id": a.id, "name": a.name, "note": f"{len(a.regiments)} regiments"} for a in pack.armies.values()],
    }
