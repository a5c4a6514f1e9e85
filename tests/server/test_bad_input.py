"""Bad input of every kind, on SQLite and on PostgreSQL: each is answered
with a clear JSON refusal, writes nothing, and never shows a traceback or
a server error."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote, unquote

import anyio
import pytest

from api_table import PARTY, Table, bearer, refusal
from domain.conquest.commands import StartConquest
from domain.kernel import game_writes as kernel_games
from domain.kernel import portable
from domain.kernel.games import GameApp
from server.app import open_app
from server.wire import MAX_BODY

MOVE = {"type": "Move", "to": [0, 1]}
NEW_CLASH = {"new": "clash", "setup": "waystone-crossing", "party": PARTY, "seed": 1}


def post(table: Table, path: str, content: bytes, headers: dict[str, str] | None = None):
    return table.client.post(
        path, headers={**table.host, "content-type": "application/json", **(headers or {})}, content=content
    )


def never_a_crash(response: Any) -> None:
    """No server error and no traceback, whatever was asked."""
    assert response.status_code < 500, response.text
    assert "Traceback" not in response.text and 'File "' not in response.text


# -- bodies ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body, says",
    [
        (b"{bad", "not valid JSON"),
        (b'{"command": {"type": "Move", "to": [0, 1]}} trailing', "not valid JSON"),
        (b"\xff\xfe\x00", "not valid JSON"),
        (b"[]", "Expected `object`, got `array`"),
        (b"null", "Expected `object`, got `null`"),
        (b'"Move"', "Expected `object`, got `str`"),
        (b"{}", "missing required field `command`"),
        (b'{"command": 5}', "Expected `object`, got `int`"),
        (b'{"command": {}}', "missing required field `type`"),
        (b'{"command": {"type": "Fly"}}', "Invalid value 'Fly'"),
        (b'{"command": {"type": "Move", "to": "a2"}}', "Expected `array`, got `str`"),
        (b'{"command": {"type": "Move", "to": [0, 1]}, "version": "13"}', "Expected `int | null`"),
        (b'{"command": {"type": "Move", "to": [0, 1]}, "zzz": 1}', "unknown field `zzz`"),
        (b'{"command": {"type": "Move", "to": [0, 1], "zz": 1}}', "no field command.zz"),
        (b'{"command": {"type": "Engage", "form": "light", "dice": [1], "magic": true}}', "no field command.magic"),
        (b'{"command": {"type": "ChooseArrival", "regiment": "a1"}}', "Invalid value 'ChooseArrival'"),
        (b"", "empty"),
        (b"  \n ", "empty"),
    ],
    ids=lambda v: v.decode("latin-1")[:40] if isinstance(v, bytes) else None,
)
def test_a_command_that_cannot_be_read_is_refused_as_malformed(table: Table, body, says):
    g = table.new_clash()
    before = table.written(g)
    response = post(table, f"/api/games/{g}/commands", body, {"content-type": "application/json"})
    assert says in refusal(response, 400, "malformed")["reason"]
    assert table.written(g) == before


def test_a_command_of_another_ruleset_is_refused_as_malformed(table: Table):
    clash, battle = table.new_clash(), table.new_conquest()
    before = table.written(clash), table.written(battle)
    refusal(table.command(battle, MOVE), 400, "malformed")
    refusal(table.command(clash, {"type": "ChooseArrival", "regiment": "a1"}), 400, "malformed")
    refusal(table.command(clash, {"type": "StartClash", "battle_id": "x"}), 400, "malformed")
    assert (table.written(clash), table.written(battle)) == before


@pytest.mark.parametrize("path", ["undo", "redo"])
@pytest.mark.parametrize(
    "body, says",
    [
        (b"{bad", "not valid JSON"),
        (b"[]", "Expected `object`"),
        (b'{"version": "13"}', "Expected `int | null`"),
        (b'{"extra": 1}', "unknown field `extra`"),
        (b"", "empty"),
    ],
)
def test_an_undo_or_redo_that_cannot_be_read_is_refused_as_malformed(table: Table, path, body, says):
    g = table.new_clash()
    table.done(g, MOVE)
    before = table.written(g)
    assert says in refusal(post(table, f"/api/games/{g}/{path}", body), 400, "malformed")["reason"]
    assert table.written(g) == before


@pytest.mark.parametrize(
    "body, says",
    [
        ({"new": "chess"}, "Invalid value 'chess'"),
        ({**NEW_CLASH, "colour": "red"}, "unknown field `colour`"),
        ({**NEW_CLASH, "party": [{"name": "Ria", "race": "nord", "age": 30}]}, "unknown field `age`"),
        ({**NEW_CLASH, "party": []}, "at least one adventurer"),
        ({**NEW_CLASH, "party": [{"name": "Q", "race": "klingon"}]}, "no race 'klingon'"),
        ({**NEW_CLASH, "setup": "nowhere"}, "no setup 'nowhere'"),
        ({**NEW_CLASH, "kind": "raid"}, "unknown field `kind`"),
        ({**NEW_CLASH, "seed": -1}, "seed must be"),
        ({**NEW_CLASH, "seed": 2**70}, "seed must be"),
        ({**NEW_CLASH, "difficulty": "godlike"}, "Invalid enum value 'godlike'"),
        ({**NEW_CLASH, "name": "../x"}, "battle name '../x'"),
        ({**NEW_CLASH, "name": "a/b"}, "battle name 'a/b'"),
        ({**NEW_CLASH, "name": "a\r\nb"}, "battle name"),
        ({**NEW_CLASH, "name": "x" * 5000}, "battle name"),
        ({"new": "conquest", "scenario": "border-clash", "armies": ["saltmarch"]}, "name two armies"),
        ({"new": "conquest", "scenario": "border-clash", "armies": ["saltmarch", "nope"]}, "no army 'nope'"),
    ],
    ids=lambda v: str(v)[:50],
)
def test_a_game_that_cannot_be_set_up_is_refused_and_nothing_is_written(table: Table, body, says):
    table.new_clash("already")
    before = table.everything()
    response = table.client.post("/api/games", headers=table.host, json=body)
    assert says in refusal(response, 400, "malformed")["reason"]
    assert table.everything() == before


def test_a_name_taken_is_refused_and_the_game_of_that_name_left_as_it_was(table: Table):
    g = table.new_clash("taken")
    before = table.written(g)
    response = table.client.post("/api/games", headers=table.host, json={**NEW_CLASH, "name": "taken"})
    assert "taken" in refusal(response, 400, "malformed")["reason"]
    assert table.written(g) == before


@pytest.mark.parametrize("path", ["/api/import", "/api/verify"])
@pytest.mark.parametrize(
    "body",
    [b"", b"garbage\n", b'{"a": 1}\n', b"[1, 2]\n", b"\x00\x01\x02"],
    ids=["empty", "garbage", "object", "array", "binary"],
)
def test_a_log_that_is_no_log_is_refused_or_fails_verification_and_nothing_is_written(table: Table, path, body):
    g = table.new_clash()
    before = table.written(g)
    response = post(table, path, body)
    never_a_crash(response)
    if path == "/api/import" or not body.strip():
        refusal(response, 400, "malformed")
    else:
        assert response.status_code == 200 and response.json()["ok"] is False
        assert response.json()["divergence"]["line"] == 1
    assert table.written(g) == before


def test_a_log_imported_twice_is_refused_the_second_time(table: Table):
    g = table.new_clash()
    log = table.client.get(f"/api/games/{g}/export", headers=table.host).content
    before = table.written(g)
    assert "already exists" in refusal(post(table, "/api/import", log), 400, "malformed")["reason"]
    assert table.written(g) == before


def test_a_verify_with_a_key_that_is_no_key_fails_and_writes_nothing(table: Table):
    g = table.new_clash()
    log = table.client.get(f"/api/games/{g}/export", headers=table.host).content
    before = table.written(g)
    response = post(table, "/api/verify?key=zz", log)
    assert response.status_code == 200 and response.json()["ok"] is False
    assert response.json()["divergence"]["rule"] == "SIGNATURE"
    assert table.written(g) == before


# -- sizes -------------------------------------------------------------------------------------


def _chunks(total: int, size: int = 1 << 16):
    while total > 0:
        yield b"x" * min(size, total)
        total -= size


@pytest.mark.parametrize("path", ["commands", "undo", "/api/games", "/api/import", "/api/verify"])
def test_a_body_over_the_limit_is_refused_too_large_with_or_without_its_length(table: Table, path):
    g = table.new_clash()
    url = path if path.startswith("/") else f"/api/games/{g}/{path}"
    before = table.written(g)
    said = post(table, url, b"x" * (MAX_BODY + 1))
    assert "over" in refusal(said, 413, "too-large")["reason"]
    unsaid = table.client.post(
        url, headers={**table.host, "content-type": "application/json"}, content=_chunks(MAX_BODY + 1)
    )
    assert "content-length" not in unsaid.request.headers
    refusal(unsaid, 413, "too-large")
    assert table.written(g) == before


def test_a_body_that_only_says_it_is_too_large_is_refused_before_it_is_read(table: Table):
    g = table.new_clash()
    response = post(table, f"/api/games/{g}/commands", b"{}", {"content-length": str(MAX_BODY + 1)})
    refusal(response, 413, "too-large")


def test_a_content_length_that_is_no_number_is_refused(table: Table):
    g = table.new_clash()
    before = table.written(g)
    response = post(table, f"/api/games/{g}/commands", b"{}", {"content-length": "lots"})
    assert "Content-Length" in refusal(response, 400, "malformed")["reason"]
    assert table.written(g) == before


# -- query parameters ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "at, says",
    [
        ("0", "at counts events from 1"),
        ("-1", "at counts events from 1"),
        ("abc", "at must be a whole number"),
        ("1.5", "at must be a whole number"),
        ("999", "has only"),
        (str(2**70), "at counts events from 1"),
    ],
)
def test_a_state_at_a_version_that_is_no_version_of_the_game_is_refused(table: Table, at, says):
    g = table.new_clash()
    response = table.client.get(f"/api/games/{g}/state", headers=table.host, params={"at": at})
    assert says in refusal(response, 400, "malformed")["reason"]


@pytest.mark.parametrize(
    "params, says",
    [
        ({"since": "x"}, "since must be a whole number"),
        ({"since": "1e3"}, "since must be a whole number"),
        ({"limit": "-1"}, "limit must be 0"),
        ({"limit": "many"}, "limit must be a whole number"),
    ],
)
def test_a_log_asked_with_a_bad_since_or_limit_is_refused(table: Table, params, says):
    g = table.new_clash()
    response = table.client.get(f"/api/games/{g}/log", headers=table.host, params=params)
    assert says in refusal(response, 400, "malformed")["reason"]


def test_a_log_asked_beyond_its_end_or_for_very_many_is_answered(table: Table):
    g = table.new_clash()
    version = table.version(g)
    assert table.get(f"/api/games/{g}/log", since=10**30) == []
    assert len(table.get(f"/api/games/{g}/log", limit=10**30)) == version


@pytest.mark.parametrize("token", ["x" * 10_000, "Bearer Bearer", "'; DROP TABLE x; --", "\u00e9t\u00e9"])
def test_a_strange_token_is_no_pass_and_nothing_more(table: Table, token):
    g = table.new_clash()
    before = table.written(g)
    header = {"authorization": b"Bearer " + token.encode()}
    for response in (
        table.client.get(f"/api/games/{g}", headers=header),
        table.client.post(f"/api/games/{g}/commands", headers=header, json={"command": MOVE}),
        table.client.get(f"/api/games/{g}/live", headers=header),
    ):
        refusal(response, 401, "unauthorized")
    assert table.written(g) == before


# -- paths -----------------------------------------------------------------------------------------


def raw_get(app: Any, raw_path: bytes) -> tuple[int, dict[str, str], bytes]:
    """GET ``raw_path`` as a client that does not tidy its dots sends it
    (``curl --path-as-is``): straight to the ASGI application."""
    answer: dict[str, Any] = {"body": b""}
    asked = []
    done = None

    async def receive():
        nonlocal done
        if asked:  # the request was read: the client leaves once it has the whole answer
            done = done or anyio.Event()
            await done.wait()
            return {"type": "http.disconnect"}
        asked.append(True)
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        nonlocal done
        if message["type"] == "http.response.start":
            answer["status"] = message["status"]
            answer["headers"] = {k.decode(): v.decode() for k, v in message["headers"]}
        elif message["type"] == "http.response.body":
            answer["body"] += message.get("body", b"")
            if not message.get("more_body", False):
                done = done or anyio.Event()
                done.set()

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": unquote(raw_path.decode()),
        "raw_path": raw_path,
        "root_path": "",
        "query_string": b"",
        "headers": [(b"host", b"testserver")],
        "server": ("testserver", 80),
        "client": ("127.0.0.1", 1),
    }
    anyio.run(app, scope, receive, send)
    return answer["status"], answer["headers"], answer["body"]


@pytest.mark.parametrize(
    "raw",
    [
        b"/static/../app.py",
        b"/static/%2e%2e/app.py",
        b"/static/..%2Fapp.py",
        b"/static/..",
        b"/static/%2e%2e",
        b"/static/../../pyproject.toml",
        b"/static/%2e%2e%2f%2e%2e%2fpyproject.toml",
        b"/static/",
        b"/static/nothing.js",
    ],
)
def test_no_path_leads_out_of_the_static_folder(table: Table, raw):
    status, headers, body = raw_get(table.app, raw)
    assert status == 404 and headers["content-type"].startswith("application/json")
    assert b'"error":"not-found"' in body and b"import" not in body and b"[project]" not in body


def test_the_static_folder_still_serves_its_own_files(table: Table):
    status, headers, body = raw_get(table.app, b"/static/table.html")
    assert status == 200 and headers["content-type"].startswith("text/html") and b"<html" in body.lower()


@pytest.mark.parametrize(
    "name",
    ["..", "..%2F..%2Fetc%2Fpasswd", "a%2Fb", "%2e%2e", "x" * 5000, "%00", "a%0D%0Ab", "t1%2F..%2Ft1", "%E2%80%AE"],
)
def test_a_game_path_that_names_no_game_is_not_found_for_the_host(table: Table, name):
    table.new_clash("t1")
    for tail in ("", "/state", "/export", "/commands"):
        method = "POST" if tail == "/commands" else "GET"
        response = table.client.request(method, f"/api/games/{name}{tail}", headers=table.host, json={"command": MOVE})
        never_a_crash(response)
        refusal(response, 404, "not-found")
        assert "Traceback" not in response.text


def test_a_path_the_api_does_not_have_or_a_method_it_does_not_take_is_a_json_refusal(table: Table):
    refusal(table.client.get("/api/nothing", headers=table.host), 404, "not-found")
    refusal(table.client.get("/api/games/t1/nothing", headers=table.host), 404, "not-found")
    taken = refusal(table.client.delete("/api/games", headers=table.host), 405, "malformed")
    assert "DELETE" in taken["reason"]
    assert set(table.client.put("/api/openapi.json").headers["allow"].replace(" ", "").split(",")) >= {"GET"}


# -- file names ---------------------------------------------------------------------------------

STRANGE_IDS = ['a"b; filename=evil.sh', "crlf\r\nX-Evil: 1", "\u00e9vil name", ".hidden", "semi;colon"]


@pytest.mark.parametrize("battle_id", STRANGE_IDS)
def test_the_exports_file_name_is_a_safe_name_whatever_the_games_id(table: Table, battle_id, monkeypatch):
    # A game of an id no name check lets through today (as an older store
    # may hold): written straight into the store.
    monkeypatch.setattr(kernel_games, "check_name", lambda *args, **kwargs: None)
    open_app(table.app).start(
        "conquest",
        StartConquest(battle_id=battle_id, scenario="border-clash", armies=("saltmarch", "cinderpact"), seed=1),
        battle_id=battle_id,
    )
    response = table.client.get(f"/api/games/{quote(battle_id, safe='')}/export", headers=table.host)
    assert response.status_code == 200, response.text
    disposition = response.headers["content-disposition"]
    name = disposition.removeprefix('attachment; filename="').removesuffix('.jsonl"')
    assert disposition == f'attachment; filename="{name}.jsonl"'
    assert name and all(c.isascii() and (c.isalnum() or c in "._-") for c in name) and not name.startswith(".")
    assert "X-Evil" not in response.headers


@pytest.mark.parametrize("battle_id", STRANGE_IDS)
def test_a_log_of_a_game_whose_id_is_no_name_is_refused_on_import(table: Table, battle_id, monkeypatch):
    monkeypatch.setattr(kernel_games, "check_name", lambda *args, **kwargs: None)
    with GameApp(store="memory") as elsewhere:
        elsewhere.start(
            "conquest",
            StartConquest(battle_id=battle_id, scenario="border-clash", armies=("saltmarch", "cinderpact"), seed=1),
            battle_id=battle_id,
        )
        log = portable.export_battle(elsewhere, battle_id)
    before = table.everything()
    assert "battle name" in refusal(post(table, "/api/import", log), 400, "malformed")["reason"]
    assert table.everything() == before


def test_every_endpoint_answers_json_to_garbage(table: Table):
    from server.app import ENDPOINTS

    g = table.new_clash()
    before = table.written(g)
    for e in ENDPOINTS:
        if e.name == "liveFeed":
            continue  # a stream: its refusals are tested with a bad token
        path = e.path.replace("{game}", g)
        for headers in (table.host, bearer("garbage"), {}):
            response = table.client.request(
                e.method,
                path,
                headers=headers,
                content=b"\x00garbage{",
                params={"at": "x", "since": "y", "limit": "z", "all": "maybe"},
            )
            never_a_crash(response)
            if response.status_code >= 400:
                refusal(response, response.status_code, response.json()["error"])
    assert table.written(g) == before


# -- #21 point 12: numbers off the map, deep nesting, a field given twice ----------------------


@pytest.mark.parametrize("to", [[-1, 0], [0, -5], [2**62, -(2**62)], [-(2**63), 0]], ids=str)
def test_a_hex_off_every_map_is_refused_with_its_reason_not_a_crash(table: Table, to, caplog):
    g = table.new_clash()
    before = table.written(g)
    response = post(table, f"/api/games/{g}/commands", json.dumps({"command": {"type": "Move", "to": to}}).encode())
    assert response.status_code in (400, 422), response.text
    assert "hex" in refusal(response, response.status_code, response.json()["error"])["reason"]
    assert table.written(g) == before
    assert "Traceback" not in caplog.text and "failed" not in caplog.text


@pytest.mark.parametrize("path", ["commands", "/api/games", "/api/import", "/api/verify"])
def test_a_body_nested_fifty_thousand_deep_is_refused_not_a_crash(table: Table, path, caplog):
    g = table.new_clash()
    url = path if path.startswith("/") else f"/api/games/{g}/{path}"
    deep = b"[" * 50_000 + b"]" * 50_000
    before = table.written(g)
    for body in (
        b'{"command": ' + deep + b"}",
        b'{"command": {"type": "Move", "to": [0, 1]}, "version": ' + deep + b"}",
        deep,
    ):
        response = post(table, url, body)
        never_a_crash(response)
        if path != "/api/verify":  # verify answers 200 with the line it cannot read
            assert "nested deeper" in refusal(response, 400, "malformed")["reason"] or path == "/api/import"
    assert table.written(g) == before
    assert "RecursionError" not in caplog.text and "failed" not in caplog.text


@pytest.mark.parametrize(
    "body, field",
    [
        (b'{"command": {"type": "Move", "to": [0, 1]}, "command": {"type": "EndTurn"}}', "command"),
        (b'{"command": {"type": "Move", "to": [0, 1], "to": [0, 2]}}', "to"),
        (b'{"command": {"type": "EndTurn", "type": "Move", "to": [0, 1]}}', "type"),
        (b'{"command": {"type": "EndTurn"}, "version": 1, "version": 99}', "version"),
    ],
)
def test_a_field_given_twice_is_refused_and_nothing_is_written(table: Table, body, field):
    g = table.new_clash()
    before = table.written(g)
    said = refusal(post(table, f"/api/games/{g}/commands", body), 400, "malformed")["reason"]
    assert f"`{field}` is given twice" in said, said
    assert table.written(g) == before


def test_a_setup_with_a_field_given_twice_is_refused(table: Table):
    body = (
        b'{"new": "clash", "setup": "waystone-crossing", "name": "twice", '
        b'"party": [{"name": "Ria", "race": "nord", "race": "orc"}]}'
    )
    assert "`race` is given twice" in refusal(post(table, "/api/games", body), 400, "malformed")["reason"]
    assert table.everything() == []
