"""The server's API answers, endpoint by endpoint, on SQLite and on
PostgreSQL: what each success answer holds, not only its status."""

from __future__ import annotations

import time
from typing import Any

import msgspec
import pytest

from api_table import ARMIES, PARTY, Table, bearer
from domain.kernel.portable.chain import link
from server import app as server_app
from server.app import ENDPOINTS, open_app

# Which test checks the success answer of each endpoint (``ENDPOINTS``'s
# names): a new endpoint without one fails the last test of this module.
COVERS: dict[str, str] = {}
COVERS["listChoices"] = "test_lobby_choices.py"  # its success answer is tested there
COVERS["disputeLog"] = "test_dispute.py"  # its success answers are tested there


def covers(*names: str):
    """Record that the decorated test checks the success answer of ``names``."""

    def mark(fn):
        for name in names:
            COVERS[name] = fn.__name__
        return fn

    return mark


def hero(state: dict[str, Any], hero_id: str) -> dict[str, Any]:
    return next(h for h in state["heroes"] if h["id"] == hero_id)


@covers("whoami")
def test_whoami_names_the_host_a_seat_with_its_name_and_a_spectator(table: Table):
    g = table.new_clash()
    assert table.get("/api/whoami") == {"role": "host", "game": None, "seat": None, "seat_name": None}
    assert table.get("/api/whoami", game=g)["role"] == "host"
    assert table.get("/api/whoami", table.seat(g, "tarn"), game=g) == {
        "role": "seat",
        "game": g,
        "seat": "tarn",
        "seat_name": "Tarn",
    }
    assert table.get("/api/whoami", table.spectator(g), game=g) == {
        "role": "spectator",
        "game": g,
        "seat": None,
        "seat_name": None,
    }


@covers("listGames")
def test_the_host_lists_every_game_and_all_lists_the_deleted_ones_too(table: Table):
    clash, battle = table.new_clash("c1"), table.new_conquest("q1")
    listed = table.get("/api/games")
    assert [(s["id"], s["ruleset"], s["deleted"]) for s in listed] == [
        (clash, "betrayal", False),
        (battle, "conquest", False),
    ]
    assert listed[0]["setup"] == "waystone-crossing" and listed[0]["who"] == "Ria, Tarn"
    open_app(table.app).delete_battle(clash)
    assert [s["id"] for s in table.get("/api/games")] == [battle]
    everything = {s["id"]: s["deleted"] for s in table.get("/api/games", all=1)}
    assert everything == {clash: True, battle: False}


@covers("createGame")
@pytest.mark.parametrize(
    "body, ruleset, setup, who",
    [
        ({"new": "clash", "setup": "waystone-crossing"}, "betrayal", "waystone-crossing", "Ria, Tarn"),
        ({"new": "dungeon", "setup": "sentinel-vault"}, "betrayal", "sentinel-vault", "Ria, Tarn"),
        ({"new": "delve", "delve": "whispering-barrow"}, "betrayal", "whispering-barrow", "Ria, Tarn"),
        (
            {"new": "conquest", "scenario": "border-clash", "armies": ARMIES},
            "conquest",
            "border-clash",
            "saltmarch v cinderpact",
        ),
    ],
    ids=["clash", "dungeon", "delve", "conquest"],
)
def test_the_host_sets_up_a_game_of_each_kind(table: Table, body, ruleset, setup, who):
    party = {"party": PARTY} if ruleset == "betrayal" else {}
    made = table.create({**body, **party, "seed": 3, "name": "new-1"})
    assert made["game"] == "new-1" and made["command_id"] == "c1" and made["version"] > 1
    assert "rk new" in made["narrated"][0]
    summary = made["summary"]
    assert (summary["id"], summary["ruleset"], summary["setup"], summary["who"], summary["round"]) == (
        "new-1",
        ruleset,
        setup,
        who,
        1,
    )
    assert summary["version"] == made["version"] and not summary["over"]
    assert [s["id"] for s in table.get("/api/games")] == ["new-1"]


def test_a_game_set_up_without_a_name_is_named_after_its_setup(table: Table):
    made = table.create({"new": "clash", "setup": "waystone-crossing", "party": PARTY[:1]})
    assert made["game"] == "waystone-1" and made["summary"]["who"] == "Ria"


@covers("getGame")
def test_a_game_says_where_it_stands_by_id_or_by_name(table: Table):
    g = table.new_clash()
    summary = table.get(f"/api/games/{g}")
    assert summary == {
        "id": g,
        "name": g,
        "ruleset": "betrayal",
        "title": summary["title"],
        "setup": "waystone-crossing",
        "version": summary["version"],
        "round": 1,
        "where": "an adventurer's turn",
        "who": "Ria, Tarn",
        "over": False,
        "deleted": False,
    }
    assert "Betrayal" in summary["title"]
    open_app(table.app).rename_battle(g, "friday")
    assert table.get("/api/games/friday")["id"] == g and table.get(f"/api/games/{g}")["name"] == "friday"


@covers("getSeats")
def test_the_host_sees_every_seats_link_and_each_link_is_that_seats_pass(table: Table):
    g = table.new_clash()
    seats = table.get(f"/api/games/{g}/seats")
    assert [(s["key"], s["name"]) for s in seats["seats"]] == [("ria", "Ria"), ("tarn", "Tarn")]
    for s in seats["seats"]:
        assert s["link"].startswith(f"http://testserver/table/{g}#token=")
        token = s["link"].split("token=")[1]
        assert table.get("/api/whoami", bearer(token), game=g)["seat"] == s["key"]
    spectator = seats["spectator"].split("token=")[1]
    assert table.get("/api/whoami", bearer(spectator), game=g)["role"] == "spectator"
    assert seats["host"].split("token=")[1] == table.keyring.host()


def test_a_seat_and_a_spectator_see_the_seats_but_no_link(table: Table):
    g = table.new_conquest()
    for headers in (table.seat(g, "a"), table.spectator(g)):
        seats = table.get(f"/api/games/{g}/seats", headers)
        assert [(s["key"], s["name"], s["link"]) for s in seats["seats"]] == [
            ("a", "saltmarch", None),
            ("b", "cinderpact", None),
        ]
        assert seats["spectator"] is None and seats["host"] is None


@covers("getState")
def test_the_state_is_the_games_now_and_at_any_earlier_version(table: Table):
    g = table.new_clash()
    set_up = table.get(f"/api/games/{g}/state")
    assert set_up["game"] == g and set_up["can_undo"] is False and set_up["can_redo"] is False
    assert hero(set_up["state"], "ria")["pos"] == [0, 0]
    table.done(g, {"type": "Move", "to": [0, 1]})
    now = table.get(f"/api/games/{g}/state")
    assert hero(now["state"], "ria")["pos"] == [0, 1] and now["can_undo"] is True
    assert now["version"] > set_up["version"]
    then = table.get(f"/api/games/{g}/state", at=set_up["version"])
    assert then["version"] == set_up["version"] and then["state"] == set_up["state"]


@covers("getLegal")
@pytest.mark.rule("SEAT-1", "SEAT-3")
def test_legal_commands_are_marked_allowed_for_the_seat_whose_turn_it_is(table: Table):
    g = table.new_clash()
    by_host = table.legal(g)
    assert by_host and all(entry["allowed"] for entry in by_host)
    keys = ("label", "command", "actor", "allowed", "verb", "at", "open")
    assert {
        "label": "rk move a2",
        "command": {"type": "Move", "to": [0, 1]},
        "actor": "ria",
        "allowed": True,
        "verb": "move",
        "at": [0, 1],
        "open": False,
    } in [{k: e[k] for k in keys} for e in by_host]  # a click on a2 gives it
    assert {entry["actor"] for entry in by_host} == {"ria"}
    ria, tarn, spectator = (
        table.legal(g, h) for h in (table.seat(g, "ria"), table.seat(g, "tarn"), table.spectator(g))
    )
    assert [e["command"] for e in ria] == [e["command"] for e in by_host] == [e["command"] for e in tarn]
    assert all(e["allowed"] for e in ria)
    assert not any(e["allowed"] for e in tarn) and not any(e["allowed"] for e in spectator)


@pytest.mark.rule("SEAT-1")
def test_a_command_of_the_whole_table_is_allowed_to_every_seat(table: Table):
    g = table.new_clash()
    for _ in range(2):
        table.done(g, {"type": "EndTurn"})
    for _ in range(10):  # the enemies' turns, if they wait for anything
        waiting = [e["command"] for e in table.legal(g) if e["command"]["type"] in ("EndTurn", "RollEnemyDice")]
        if not waiting:
            break
        table.done(g, waiting[0])
    table_commands = [e for e in table.legal(g, table.seat(g, "tarn")) if e["actor"] is None]
    assert {"type": "NextRound"} in [e["command"] for e in table_commands]
    assert all(e["allowed"] for e in table_commands)


@covers("getLog")
def test_the_log_is_narrated_event_by_event_after_since_and_the_newest_limit(table: Table):
    g = table.new_clash()
    table.done(g, {"type": "Move", "to": [0, 1]})
    version = table.version(g)
    whole = table.get(f"/api/games/{g}/log", limit=0)
    assert [e["version"] for e in whole] == list(range(1, version + 1))
    assert whole[0]["command"] is True and whole[0]["text"].startswith("rk new clash")
    assert [e["text"] for e in whole[-2:]] == ["rk move a2", "MOVE-1: Ria moves a1 → a2"]
    assert table.get(f"/api/games/{g}/log") == whole  # fewer than the default tail
    assert table.get(f"/api/games/{g}/log", since=version - 2) == whole[-2:]
    assert table.get(f"/api/games/{g}/log", limit=3) == whole[-3:]
    assert table.get(f"/api/games/{g}/log", since=version) == []
    table.client.post(f"/api/games/{g}/undo", headers=table.host, json={})
    after = table.get(f"/api/games/{g}/log", since=version)
    assert len(after) == 1 and after[0]["text"].startswith("UNDO-1")
    assert [e["undone"] for e in table.get(f"/api/games/{g}/log", since=version - 2)] == [True, True, False]


@covers("getTable")
def test_the_table_view_holds_the_board_seats_log_and_this_seats_controls(table: Table):
    g = table.new_clash()
    view = table.get(f"/api/games/{g}/table", table.seat(g, "ria"))
    assert view["game"] == g and view["ruleset"] == "betrayal" and view["version"] == table.version(g)
    assert view["me"] == {"role": "seat", "game": g, "seat": "ria", "seat_name": "Ria"}
    assert [s["key"] for s in view["seats"]] == ["ria", "tarn"]
    board = view["board"]
    assert board["kind"] == "hexes" and board["turn"] == "ria" and board["round"] == 1
    assert {"q": 0, "r": 0, "label": "a1"}.items() <= board["hexes"][0].items()
    assert view["log"] and view["legal"]
    assert view["can_undo"] is False
    battle = table.new_conquest()
    regiments = table.get(f"/api/games/{battle}/table", table.spectator(battle))["board"]
    assert regiments["kind"] == "regiments" and [s["army"] for s in regiments["sides"]] == ARMIES


def test_the_table_view_is_drawn_at_every_version_whatever_its_logs_window_starts_on(table: Table):
    """The log's tail (its last LOG_SHOWN events) may start on any version,
    the setup's first event too, before there is a game to narrate from."""
    from server.table_view import LOG_SHOWN

    g = table.new_clash()
    ria = table.seat(g, "ria")
    n = 0
    while table.version(g) <= LOG_SHOWN + 2:  # past the window's start on each of the setup's first events
        if n % 2 == 0:
            table.done(g, {"type": "Move", "to": [0, 1]}, ria)
        else:
            assert table.client.post(f"/api/games/{g}/undo", headers=ria, json={}).status_code == 200
        n += 1
        view = table.get(f"/api/games/{g}/table", table.seat(g, "tarn"))
        assert view["version"] == table.version(g) and len(view["log"]) == min(LOG_SHOWN, view["version"])


@covers("giveCommand")
def test_a_command_is_decided_saved_and_narrated(table: Table):
    g = table.new_clash()
    before = table.version(g)
    done = table.done(g, {"type": "Move", "to": [0, 1]}, table.seat(g, "ria"))
    assert done["game"] == g and done["narrated"] == ["rk move a2", "MOVE-1: Ria moves a1 → a2"]
    assert done["version"] == before + 2 == done["summary"]["version"] == table.version(g)
    assert done["command_id"] == f"c{before + 1}"
    assert hero(table.get(f"/api/games/{g}/state")["state"], "ria")["pos"] == [0, 1]


def test_a_command_with_the_version_the_client_saw_is_saved(table: Table):
    g = table.new_conquest()
    version = table.version(g)
    r = table.command(g, {"type": "ChooseArrival", "regiment": "a1"}, table.seat(g, "a"), version=version)
    assert r.status_code == 200, r.text
    assert r.json()["version"] > version


@covers("undo", "redo")
@pytest.mark.rule("SEAT-2")
def test_undo_takes_the_last_command_back_and_redo_gives_it_again(table: Table):
    g = table.new_clash()
    start = table.get(f"/api/games/{g}/state")
    table.done(g, {"type": "Move", "to": [0, 1]})
    moved = table.get(f"/api/games/{g}/state")
    undone = table.client.post(f"/api/games/{g}/undo", headers=table.seat(g, "ria"), json={})
    assert undone.status_code == 200, undone.text
    assert undone.json()["narrated"] == ["UNDO-1: rk move a2 is reverted; back to round 1"]
    back = table.get(f"/api/games/{g}/state")
    assert back["state"] == start["state"] and back["can_redo"] and not back["can_undo"]
    redone = table.client.post(f"/api/games/{g}/redo", headers=table.seat(g, "ria"), json={"version": back["version"]})
    assert redone.status_code == 200, redone.text
    assert any("Ria moves a1 → a2" in line for line in redone.json()["narrated"])
    again = table.get(f"/api/games/{g}/state")
    assert again["state"] == moved["state"] and again["can_undo"] and not again["can_redo"]


@pytest.mark.rule("UNDO-2")
def test_the_host_forces_an_undo_past_revealed_dice(table: Table):
    g = table.new_conquest()
    start = table.get(f"/api/games/{g}/state")["state"]
    table.done(g, {"type": "ChooseArrival", "regiment": "a1"})
    forced = table.client.post(f"/api/games/{g}/undo", headers=table.host, json={"force": True})
    assert forced.status_code == 200, forced.text
    assert forced.json()["narrated"] == [
        "UNDO-2: rk choose-arrival a1 is reverted with force, past the dice or draw it revealed; back to round 1"
    ]
    assert table.get(f"/api/games/{g}/state")["state"] == start


@covers("exportLog", "importLog")
def test_a_log_exported_and_imported_into_a_fresh_store_is_the_same_game(table: Table, other_table: Table):
    g = table.new_clash()
    table.done(g, {"type": "Move", "to": [0, 1]})
    r = table.client.get(f"/api/games/{g}/export", headers=table.host)
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/x-ndjson")
    assert r.headers["content-disposition"] == f'attachment; filename="{g}.jsonl"'
    lines = [msgspec.json.decode(line) for line in r.content.splitlines()]
    assert lines[0]["battle_id"] == g and lines[0]["ruleset"] == "betrayal" and lines[-1]["end"] is True
    imported = other_table.client.post(
        "/api/import", headers={**other_table.host, "content-type": "application/x-ndjson"}, content=r.content
    )
    assert imported.status_code == 201, imported.text
    assert imported.json()["game"] == g and imported.json()["summary"]["version"] == table.version(g)
    assert other_table.get(f"/api/games/{g}/state") == table.get(f"/api/games/{g}/state")
    again = other_table.client.get(f"/api/games/{g}/export", headers=other_table.host).content
    assert msgspec.json.decode(again.splitlines()[-1])["final_state_digest"] == lines[-1]["final_state_digest"]
    assert again == r.content  # export, then import: the identity


@covers("verifyGame")
def test_a_stored_game_verifies_against_todays_rules(table: Table):
    g = table.new_conquest()
    table.done(g, {"type": "ChooseArrival", "regiment": "a1"})
    answer = table.get(f"/api/games/{g}/verify")
    assert answer["ok"] is True and answer["divergence"] is None and answer["commands"] == 2
    assert answer["summary"].startswith("ok:") and answer["lines"] > 3


def _exported(table: Table) -> tuple[str, bytes]:
    g = table.new_clash()
    table.done(g, {"type": "Move", "to": [0, 1]})
    return g, table.client.get(f"/api/games/{g}/export", headers=table.host).content


def _verified(table: Table, data: bytes) -> dict[str, Any]:
    r = table.client.post("/api/verify", headers={**table.host, "content-type": "application/x-ndjson"}, content=data)
    assert r.status_code == 200, r.text
    return r.json()


@covers("verifyLog")
def test_a_posted_log_verifies_and_writes_nothing(table: Table):
    g, data = _exported(table)
    before = table.written(g)
    answer = _verified(table, data)
    assert answer["ok"] is True and answer["divergence"] is None and answer["commands"] == 2
    assert answer["lines"] == len(data.splitlines())
    assert table.written(g) == before


def test_a_posted_log_with_an_edited_line_fails_at_that_line(table: Table):
    _, data = _exported(table)
    edited = data.replace(b'"path":[[0,1]]', b'"path":[[1,1]]')
    assert edited != data
    line = next(n for n, text in enumerate(edited.splitlines(), 1) if b'"path":[[1,1]]' in text)
    answer = _verified(table, edited)
    assert answer["ok"] is False and answer["divergence"]["line"] == line
    assert answer["divergence"]["rule"] == "CHAIN"


def test_a_posted_log_edited_and_chained_again_diverges_where_the_rules_disagree(table: Table):
    _, data = _exported(table)
    lines = [msgspec.json.decode(text) for text in data.splitlines()]
    forged = next(n for n, obj in enumerate(lines) if obj.get("type") == "betrayal.HeroMoved")
    lines[forged]["data"]["path"] = [[1, 1]]
    previous = ""
    for obj in lines:  # a forger who knows the chain: every hash made good again
        if obj.get("end"):
            obj["last_hash"] = previous
        obj["hash"] = previous = link(previous, obj)
    answer = _verified(table, b"\n".join(msgspec.json.encode(obj) for obj in lines) + b"\n")
    assert answer["ok"] is False and answer["divergence"]["line"] == forged + 1
    assert answer["divergence"]["rule"] != "CHAIN" and answer["divergence"]["command"]


@covers("openapi")
def test_the_openapi_document_lists_every_endpoint_and_its_refusals(table: Table):
    doc = table.get("/api/openapi.json", headers={})
    assert doc["openapi"].startswith("3.1") and doc["info"]["title"] == "rulekeeper"
    assert {(path, method) for path, ops in doc["paths"].items() for method in ops} == {
        (e.path, e.method.lower()) for e in ENDPOINTS
    }
    schemas = doc["components"]["schemas"]
    assert "Refusal" in schemas and doc["components"]["securitySchemes"]["token"]["scheme"] == "bearer"
    refusal = {"$ref": "#/components/schemas/Refusal"}
    for e in ENDPOINTS:
        op = doc["paths"][e.path][e.method.lower()]
        assert op["operationId"] == e.name and op["summary"]
        assert {"200", "201"} & set(op["responses"])
        for status in e.refusals:
            assert op["responses"][str(status)]["content"]["application/json"]["schema"] == refusal
        assert ("security" in op) == e.needs_token
    for ref in _refs(doc):
        assert ref.startswith("#/components/schemas/") and ref.rsplit("/", 1)[1] in schemas


def _refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        return [v for k, v in node.items() if k == "$ref"] + [r for v in node.values() for r in _refs(v)]
    if isinstance(node, list):
        return [r for v in node for r in _refs(v)]
    return []


def _next_version(lines, deadline: float) -> int | None:
    """The version of the next `version` event of an SSE line stream."""
    event = None
    for line in lines:
        if line.startswith("event: "):
            event = line[len("event: ") :]
        elif line.startswith("data: ") and event == "version":
            return msgspec.json.decode(line[len("data: ") :])["version"]
        if time.monotonic() > deadline:
            return None
    return None


@covers("liveFeed")
def test_the_live_feed_tells_a_viewer_each_version_the_game_reaches(table: Table, monkeypatch):
    monkeypatch.setattr(server_app, "KEEPALIVE", 0.2)  # a comment every 0.2 s: a read never waits long
    g = table.new_clash()
    start = table.version(g)
    with table.client.stream("GET", f"/api/games/{g}/live", headers=table.spectator(g)) as feed:
        assert feed.status_code == 200 and feed.headers["content-type"].startswith("text/event-stream")
        lines = feed.iter_lines()
        assert _next_version(lines, time.monotonic() + 10) == start
        moved = table.done(g, {"type": "Move", "to": [0, 1]})["version"]
        assert _next_version(lines, time.monotonic() + 10) == moved


def test_every_endpoint_has_a_test_of_its_success_answer():
    assert set(COVERS) == {e.name for e in ENDPOINTS}


@pytest.mark.rule("MOVE-3", "TURN-6")
def test_legal_says_what_each_command_gives_up_with_its_rule(table: Table):
    """Issue 24: a second Move gives up the Engage (MOVE-3), an Engage the
    second Move, ending the turn what is left (TURN-6); the label leaves
    it to the table to show; a first Move gives up nothing."""
    g = table.new_clash()
    notes = {e["example"]: e["gives_up"] for e in table.legal(g)}
    assert notes["rk move b2"] == []
    assert notes["rk end-turn"] == [{"what": "your unused Move, Engage", "rule": "TURN-6"}]
    engage = next(e for e in table.legal(g) if e["verb"] == "engage")
    assert engage["gives_up"] == [{"what": "a second Move this turn", "rule": "MOVE-3"}]
    assert all("gives up" not in e["label"] for e in table.legal(g))
    table.done(g, {"type": "Move", "to": [1, 1]})
    second = next(e for e in table.legal(g) if e["verb"] == "move")
    assert second["gives_up"] == [{"what": "your Engage this turn (a second Move)", "rule": "MOVE-3"}]


@covers("getLegal")
@pytest.mark.rule("ENGAGE-7a", "ENGAGE-7b")
def test_legal_gives_open_commands_and_a_line_built_from_their_domains_is_given(table: Table):
    """Issue 20: an engage is open (form, target, any of the free dice the
    form allows, at most the stats' worth); a line built from its domains
    is posted as it is, and the rules refuse what they refuse."""
    g = table.new_clash()
    table.done(g, {"type": "Move", "to": [1, 1]})  # b2, next to e1
    engages = [e for e in table.legal(g) if e["verb"] == "engage"]
    assert engages and all(e["open"] for e in engages if any(not p["fixed"] for p in e["params"]))
    heavy = next(
        e
        for e in engages
        if any(p["name"] == "form" and any(v["word"] == "heavy" for v in p["values"]) for p in e["params"])
    )
    dice = next(p for p in heavy["params"] if p["name"] == "dice")
    assert (dice["how"], dice["low"], dice["option"]) == ("some", 1, "--dice")  # no die: nothing rolled (issue 24)
    assert dice["high"] <= sum(dice["limits"].values()) and len(dice["values"]) > dice["high"]
    assert heavy["command"]["type"] == "Engage" and heavy["example"].startswith("rk engage")
    chosen = dice["values"][-1]["word"]
    r = table.client.post(
        f"/api/games/{g}/commands",
        json={"line": f"engage --form heavy --target e1 --dice {chosen}"},
        headers=table.host,
    )
    assert r.status_code == 200, r.text
    assert (
        table.client.post(f"/api/games/{g}/commands", json={"line": "fly away"}, headers=table.host).status_code == 400
    )
