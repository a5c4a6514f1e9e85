"""A passive action chosen at the server's table (PASSIVE-1, PASSIVE-2;
SEAT-1): a labyrinth battle set up by the host asks each seat for its own
PC's passive actions; the board says whose passive is awaited, only that
seat is offered `React`, and its answer resumes the attack roll."""

from __future__ import annotations

import pytest

from api_table import Table, refusal

PARTY = [{"class": "vanguard", "level": 1}, {"class": "mender", "level": 2}]


def _asked(table: Table) -> tuple[str, dict]:
    """A battle played by its seats (each the last command it may give)
    until a passive is asked; its id and board."""
    for seed in range(1, 30):
        g = table.create(
            {"new": "labyrinth", "encounter": "mossy-hollow", "party": PARTY, "seed": seed, "name": f"lab{seed}"}
        )["game"]
        for _ in range(150):
            board = table.get(f"/api/games/{g}/table")["board"]
            if board["question"] or board["outcome"]:
                break
            seat = board["awaited"][0]
            mine = [e["command"] for e in table.legal(g, table.seat(g, seat)) if e["allowed"]]
            table.done(g, mine[-1], table.seat(g, seat))
        if board["question"]:
            return g, board
    pytest.fail("no seed asked a passive")


@pytest.mark.rule("PASSIVE-2")
@pytest.mark.rule("SEAT-1")
def test_the_seat_attacked_chooses_its_passive_at_the_table(table: Table) -> None:
    g, board = _asked(table)
    q = board["question"]
    assert board["awaited"] == [q["who"]] and q["skills"]
    other = "p2" if q["who"] == "p1" else "p1"
    assert not [e for e in table.legal(g, table.seat(g, other)) if e["allowed"]]
    offered = [e["command"] for e in table.legal(g, table.seat(g, q["who"])) if e["allowed"]]
    assert offered == [{"type": "React", "actor": q["who"], "skill": s} for s in q["skills"]] + [
        {"type": "React", "actor": q["who"], "skill": ""}
    ]
    before = table.written(g)
    refusal(table.command(g, {"type": "React", "actor": q["who"]}, table.seat(g, other)), 403, "forbidden", "SEAT-1")
    assert table.written(g) == before
    table.done(g, offered[0], table.seat(g, q["who"]))
    after = table.get(f"/api/games/{g}/table")["board"]
    assert after["question"] != q
