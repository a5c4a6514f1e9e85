"""Reads of a whole log (verify, export, the full narrated log) run on a
lane of workers of their own: a command or a state read never waits
behind one; exports and whole logs are answered a page at a time; and
one token may read whole logs only so often (429 past it)."""

from __future__ import annotations

import threading

import anyio
import msgspec
import pytest
from api_table import SECRET, Table, refusal
from conftest import serving

from server import streaming, tables
from server.app import create_app
from server.passes import Keyring
from server.throttle import Rate, Throttle, Throttled

WAIT = 20  # seconds any step may take before the test gives up (never asserted as a duration)


def _in_thread(fn):
    """``fn()`` on a thread of its own; the thread and a list for its result."""
    out: list = []
    thread = threading.Thread(target=lambda: out.append(fn()), daemon=True)
    thread.start()
    return thread, out


def test_a_command_and_a_state_read_are_answered_while_a_verify_runs(table: Table, monkeypatch):
    slow, other = table.new_clash("slow"), table.new_clash("other", seed=8)
    started, release = threading.Event(), threading.Event()
    real = tables.verify_stored

    def held_verify(app, p, battle_id):
        started.set()
        release.wait(WAIT)  # a verify of a very long battle
        return real(app, p, battle_id)

    monkeypatch.setattr(tables, "verify_stored", held_verify)
    command = table.legal(other)[0]["command"]
    verify, verified = _in_thread(lambda: table.client.get(f"/api/games/{slow}/verify", headers=table.host))
    try:
        assert started.wait(WAIT)
        acting, acted = _in_thread(
            lambda: (table.command(other, command), table.client.get(f"/api/games/{other}/state", headers=table.host))
        )
        acting.join(WAIT / 2)
        answered_before_the_verify = bool(acted) and not release.is_set()
    finally:
        release.set()
        verify.join(WAIT)
    assert answered_before_the_verify, "the command waited behind the verify"
    done, state = acted[0]
    assert done.status_code == 200, done.text
    assert state.status_code == 200 and state.json()["version"] == done.json()["version"]
    assert verified[0].status_code == 200 and verified[0].json()["ok"]


def test_a_command_is_answered_while_an_export_is_being_read(table: Table, monkeypatch):
    slow, other = table.new_clash("slow"), table.new_clash("other", seed=8)
    started, release = threading.Event(), threading.Event()
    real = tables.export

    def held_export(app, p, battle_id):
        lines = real(app, p, battle_id)
        started.set()
        release.wait(WAIT)
        return lines

    monkeypatch.setattr(tables, "export", held_export)
    command = table.legal(other)[0]["command"]
    export, exported = _in_thread(lambda: table.client.get(f"/api/games/{slow}/export", headers=table.host))
    try:
        assert started.wait(WAIT)
        acting, acted = _in_thread(
            lambda: (table.command(other, command), table.client.get(f"/api/games/{other}/legal", headers=table.host))
        )
        acting.join(WAIT / 2)
        answered_before_the_export = bool(acted) and not release.is_set()
    finally:
        release.set()
        export.join(WAIT)
    assert answered_before_the_export, "the command waited behind the export"
    assert acted[0][0].status_code == 200 and acted[0][1].status_code == 200 and exported[0].status_code == 200


def _asgi_get(app, path: str, token: str) -> tuple[int, list[bytes]]:
    """GET ``path`` straight through ASGI: the status and each body message as sent."""
    sent: list[dict] = []
    asked: list[bool] = []

    async def receive():
        if asked:  # the client stays until the answer is complete
            await anyio.sleep_forever()
        asked.append(True)
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": path.partition("?")[2].encode(),
        "server": ("testserver", 80),
        "client": ("127.0.0.1", 1),
        "headers": [(b"host", b"testserver"), (b"authorization", f"Bearer {token}".encode())],
    }
    scope["path"] = path.partition("?")[0]
    anyio.run(app, scope, receive, send)
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    headers = dict(next(m["headers"] for m in sent if m["type"] == "http.response.start"))
    assert b"content-length" not in headers  # streamed: its length is not known up front
    return status, [m.get("body", b"") for m in sent if m["type"] == "http.response.body"]


def _played(table: Table, game: str, moves: int) -> None:
    for _ in range(moves):
        table.done(game, table.legal(game)[0]["command"])


def test_an_export_is_sent_a_page_at_a_time_and_is_the_same_log(table: Table, monkeypatch):
    g = table.new_clash("long")
    _played(table, g, 6)
    monkeypatch.setattr(streaming, "PAGE_BYTES", 512)
    status, bodies = _asgi_get(table.app, f"/api/games/{g}/export", table.keyring.host())
    assert status == 200 and len([b for b in bodies if b]) > 3
    from domain.kernel import portable
    from server.app import open_app

    assert b"".join(bodies) == portable.export_battle(open_app(table.app), g)


def test_the_export_reads_line_by_line_not_into_one_bytes_object(table: Table):
    g = table.new_clash("long")
    from server.app import open_app
    from server.rights import check_pass

    app = open_app(table.app)
    p, _ = check_pass(app, table.keyring, table.keyring.host(), g)
    lines = tables.export(app, p, g)
    assert not isinstance(lines, bytes | bytearray)
    first = next(iter(lines))
    assert first.endswith(b"\n") and first.count(b"\n") == 1


def test_a_whole_log_is_streamed_and_narrates_as_the_short_one(table: Table, monkeypatch):
    g = table.new_clash("long")
    _played(table, g, 4)
    table.client.post(f"/api/games/{g}/undo", headers=table.host, json={})
    monkeypatch.setattr(streaming, "PAGE_BYTES", 256)
    monkeypatch.setattr(tables, "LOG_PAGE", 3)
    status, bodies = _asgi_get(table.app, f"/api/games/{g}/log?limit=0", table.keyring.host())
    assert status == 200 and len([b for b in bodies if b]) > 2
    whole = msgspec.json.decode(b"".join(bodies))
    assert whole == table.get(f"/api/games/{g}/log", limit=tables.LOG_TAIL)
    assert any(entry["undone"] for entry in whole)


def test_whole_log_reads_are_refused_429_past_the_tokens_rate_while_another_token_is_served(new_store):
    store = new_store()
    app = create_app(store.setting, Keyring(SECRET), env=store.env, heavy_rate=Rate(burst=2, per_minute=1))
    from starlette.testclient import TestClient

    with TestClient(app) as client:
        t = Table(client, Keyring(SECRET), app)
        g = t.new_clash("t1")
        for _ in range(2):
            assert client.get(f"/api/games/{g}/log", headers=t.host, params={"limit": 0}).status_code == 200
        refused = client.get(f"/api/games/{g}/export", headers=t.host)
        body = refusal(refused, 429, "throttled")
        assert int(refused.headers["retry-after"]) >= 1 and "\n" not in body["reason"]
        assert refusal(client.get(f"/api/games/{g}/verify", headers=t.host), 429, "throttled")
        seat = t.seat(g, t.get(f"/api/games/{g}/seats")["seats"][0]["key"])
        assert client.get(f"/api/games/{g}/log", headers=seat, params={"limit": 0}).status_code == 200
        for _ in range(3):  # past the burst: no token is no pass, never a rate
            assert refusal(client.get(f"/api/games/{g}/export"), 401, "unauthorized")
        # The table's own reads are not whole logs: never counted.
        assert client.get(f"/api/games/{g}/log", headers=t.host).status_code == 200
        assert client.get(f"/api/games/{g}/state", headers=t.host).status_code == 200


def test_a_token_may_read_a_whole_log_again_once_its_bucket_refilled():
    now = [0.0]
    throttle = Throttle(Rate(burst=1, per_minute=2), clock=lambda: now[0])
    throttle.take("t", "an export")
    with pytest.raises(Throttled) as refused:
        throttle.take("t", "an export")
    assert refused.value.retry_after == 30
    now[0] += 30
    throttle.take("t", "an export")


def test_the_server_answers_whole_logs_of_its_own_lane(new_store):
    with serving(new_store()) as t:
        srv = t.app.state.server
        assert srv.heavy is not srv.workers and srv.heavy.read_only
