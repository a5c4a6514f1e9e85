"""A labyrinth battle at the server's table: set up by the host with POST
/api/games, drawn as a "rows" board (each side's front and back rows of
combatants), and played by one seat per PC, each giving its own PC's
commands only (SEAT-1)."""

from __future__ import annotations

import pytest

from api_table import Table, refusal

PARTY = [
    {"class": "vanguard", "level": 1},
    {"class": "mender", "level": 2, "name": "Iris"},
    {"class": "tracker", "level": 1, "row": "back"},
]


def new_labyrinth(table: Table, name: str = "lab", **more) -> str:
    body = {"new": "labyrinth", "encounter": "mossy-hollow", "party": PARTY, "seed": 3, "name": name, **more}
    return table.create(body)["game"]


def test_a_labyrinth_battle_is_set_up_with_its_options_and_drawn_as_rows(table: Table):
    g = new_labyrinth(table, ambush="enemies", options={"default_buff_turns": 4, "reapply_raises_depth": False})
    state = table.get(f"/api/games/{g}/state")["state"]
    assert state["options"]["ambush"] == "enemy" and state["options"]["default_buff_turns"] == 4
    view = table.get(f"/api/games/{g}/table")
    board = view["board"]
    assert (board["kind"], board["turn"], board["phase"]) == ("rows", 1, "standby")
    assert board["awaited"] == ["p1", "p2", "p3"]
    party, enemies = board["sides"]
    assert (party["side"], enemies["side"]) == ("party", "enemies")
    assert [c["id"] for c in party["rows"]["front"]] == ["p1"]
    assert {c["id"] for c in party["rows"]["back"]} == {"p2", "p3"}
    iris = next(c for c in party["rows"]["back"] if c["id"] == "p2")
    assert iris["name"] == "Iris" and iris["hp"] == iris["max_hp"] > 0 and iris["fp"] == 1
    assert iris["ailments"] == [] and iris["binds"] == [] and iris["buffs"] == []
    assert iris["acting"] is False and iris["incapacitated"] is False
    assert [c["id"] for c in enemies["rows"]["back"]] == ["e4"] and enemies["rows"]["front"][0]["fp"] is None
    assert [s["key"] for s in view["seats"]] == ["p1", "p2", "p3"]


@pytest.mark.rule("SEAT-1")
def test_a_pcs_seat_gives_its_own_declaration_and_is_refused_another_pcs(table: Table):
    g = new_labyrinth(table)
    mine = [e for e in table.legal(g, table.seat(g, "p1")) if e["allowed"]]
    assert mine and {e["actor"] for e in mine} == {"p1"}
    before = table.written(g)
    refusal(table.command(g, {"type": "Pass", "actor": "p2"}, table.seat(g, "p1")), 403, "forbidden", "SEAT-1")
    assert table.written(g) == before
    table.done(g, {"type": "Pass", "actor": "p1"}, table.seat(g, "p1"))
    board = table.get(f"/api/games/{g}/table", table.seat(g, "p2"))["board"]
    assert board["awaited"] == ["p2", "p3"]
    assert next(c for c in board["sides"][0]["rows"]["front"] if c["id"] == "p1")["declared"] == "pass"


@pytest.mark.parametrize(
    "more, says",
    [
        ({"options": {"speed_of_light": 1}}, "no table option 'speed_of_light'"),
        ({"options": {"default_buff_turns": 0}}, "from 1 to 99"),
        ({"ambush": "nobody"}, "pcs or enemies"),
        ({"party": [{"class": "vanguard", "level": 0}]}, "level"),
        ({"party": [{"class": "vanguard", "row": "middle"}]}, "front or back"),
        ({"party": []}, "at least one PC"),
    ],
)
def test_a_malformed_labyrinth_setup_is_refused_and_writes_nothing(table: Table, more, says):
    body = {"new": "labyrinth", "encounter": "mossy-hollow", "party": PARTY, "seed": 3, "name": "lab", **more}
    r = table.client.post("/api/games", headers=table.host, json=body)
    assert says in refusal(r, 400, "malformed")["reason"]
    assert table.everything() == []


def _until_an_enemy_acts(table: Table, g: str) -> list[dict]:
    """Play the PCs' commands (passes first) as the host until the GM is
    asked for an Enemy's action; the legal commands then."""
    for _ in range(30):
        legal = table.legal(g)
        enemy = [e for e in legal if e["command"]["type"] == "EnemyAct"]
        if enemy:
            return legal
        pick = next((e for e in legal if e["command"]["type"] == "Pass"), legal[0])
        table.done(g, pick["command"])
    raise AssertionError("no Enemy's action came")


@pytest.mark.rule("SEAT-1")
def test_only_the_host_gives_the_gms_commands_for_the_enemies(table: Table):
    """#21 point 3: with the GM choosing the Enemies' actions, a PC's seat
    is offered none of them and is refused one; the host gives it."""
    g = new_labyrinth(table, gm_enemies=True)
    hosts = [e for e in _until_an_enemy_acts(table, g) if e["command"]["type"] == "EnemyAct"]
    assert hosts and all(e["allowed"] for e in hosts)
    for key in ("p1", "p2", "p3"):
        seen = [e for e in table.legal(g, table.seat(g, key)) if e["command"]["type"] == "EnemyAct"]
        assert seen and not any(e["allowed"] for e in seen), seen
    before = table.written(g)
    body = refusal(table.command(g, hosts[0]["command"], table.seat(g, "p1")), 403, "forbidden", "SEAT-1")
    assert "the host's" in body["reason"], body
    assert table.written(g) == before
    table.done(g, hosts[0]["command"])
