"""Dice nobody can predict (issue 21, point 1): while a game goes on, no
seat and no spectator reads its seed, in any answer of the API; the game
commits to its seed at its setup, the same for everyone, and reveals it as
it ends; verification checks the reveal against the commitment."""

from __future__ import annotations

import random
import time
from typing import Any

import msgspec
import pytest
from api_table import SECRET, Table, refusal
from starlette.testclient import TestClient

from domain.kernel import fairness
from domain.kernel.portable.chain import link
from server import app as server_app
from server.passes import Keyring

SEED = 5550123456789  # distinctive: its digits appear nowhere else in an answer
SEEN = str(SEED).encode()


def _readers(table: Table, g: str) -> dict[str, dict[str, str]]:
    return {"seat a": table.seat(g, "a"), "seat b": table.seat(g, "b"), "spectator": table.spectator(g)}


def _everything_read(table: Table, g: str, headers: dict[str, str]) -> dict[str, bytes]:
    """Every answer a reader of game ``g`` gets, raw."""
    out = {}
    for path in ("", "/state", "/log", "/table", "/legal", "/seats", "/whoami"):
        url = f"/api/games/{g}{path}" if path != "/whoami" else "/api/whoami"
        r = table.client.get(url, headers=headers, params={"game": g} if path == "/whoami" else None)
        assert r.status_code == 200, (path, r.text)
        out[path or "/"] = r.content
    return out


@pytest.mark.parametrize(
    "body",
    [
        {
            "new": "clash",
            "setup": "waystone-crossing",
            "party": [{"name": "Ria", "race": "nord"}, {"name": "Tarn", "race": "orc"}],
        },
        {"new": "delve", "delve": "whispering-barrow", "party": [{"name": "Ria", "race": "nord"}]},
        {
            "new": "labyrinth",
            "encounter": "mossy-hollow",
            "party": [{"class": "vanguard", "level": 1}, {"class": "mender", "level": 2}],
        },
    ],
    ids=["clash", "delve", "labyrinth"],
)
def test_no_reader_of_any_ruleset_sees_the_seed_on_the_table_while_the_game_goes_on(table: Table, body):
    g = table.create({**body, "seed": SEED, "name": "g1"})["game"]
    first = table.legal(g)[0]["command"]
    table.done(g, first)
    seats = table.get(f"/api/games/{g}/seats")["seats"]
    readers = {s["key"]: table.seat(g, s["key"]) for s in seats} | {"spectator": table.spectator(g)}
    for who, headers in readers.items():
        for path, body_read in _everything_read(table, g, headers).items():
            assert SEEN not in body_read, (who, path)
        assert table.get(f"/api/games/{g}/state", headers)["state"]["seed"] is None, who
    assert table.get(f"/api/games/{g}/state")["state"]["seed"] == SEED  # the host's


def _play_to_the_end(table: Table, g: str, rnd: random.Random) -> None:
    for _ in range(500):
        legal = table.legal(g)
        if not legal:
            return
        table.done(g, rnd.choice(legal)["command"])
    raise AssertionError("the game did not end")


@pytest.mark.rule("SEAT-5")
def test_no_seat_nor_spectator_reads_the_seed_while_the_game_goes_on(table: Table):
    g = table.new_conquest(seed=SEED)
    table.done(g, {"type": "ChooseArrival", "regiment": "a1"})
    assert table.get(f"/api/games/{g}/state")["state"]["seed"] == SEED  # the host does
    for who, headers in _readers(table, g).items():
        state = table.get(f"/api/games/{g}/state", headers)
        assert state["state"]["seed"] is None, who
        assert table.get(f"/api/games/{g}/state", headers, at=2)["state"]["seed"] is None, who
        for path, body in _everything_read(table, g, headers).items():
            assert SEEN not in body, (who, path)
        first = table.get(f"/api/games/{g}/log", headers)[0]["text"]
        assert "--seed (hidden)" in first, (who, first)
        # the whole log holds it: it is the host's until the game is over
        refusal(table.client.get(f"/api/games/{g}/export", headers=headers), 403, "forbidden", "SEAT-5")
        refusal(table.client.get(f"/api/games/{g}/verify", headers=headers), 403, "forbidden", "SEAT-5")


def test_the_live_feed_and_what_a_viewer_reads_on_it_hold_no_seed(table: Table, monkeypatch):
    monkeypatch.setattr(server_app, "KEEPALIVE", 0.2)
    g = table.new_conquest(seed=SEED)
    for who, headers in _readers(table, g).items():
        with table.client.stream("GET", f"/api/games/{g}/live", headers=headers) as feed:
            lines = feed.iter_lines()
            seen: list[str] = []
            deadline = time.monotonic() + 10
            for line in lines:
                seen.append(line)
                if line.startswith("data: "):
                    break
                assert time.monotonic() < deadline
            version = msgspec.json.decode(seen[-1].removeprefix("data: "))["version"]
            # what the page reads when told a version: the table at it
            view = table.client.get(f"/api/games/{g}/table", headers=headers)
            assert view.status_code == 200 and SEEN not in view.content, who
            assert all(str(SEED) not in line for line in seen), who
            state = table.get(f"/api/games/{g}/state", headers, at=version)
            assert state["state"]["seed"] is None, who


def test_the_commitment_is_in_the_first_event_and_the_same_for_everyone(table: Table):
    g = table.new_conquest(seed=SEED)
    host = table.get(f"/api/games/{g}/state")["seed_commitment"]
    assert host.startswith("sha256:") and len(host) == len("sha256:") + 64
    for who, headers in {"host": table.host, **_readers(table, g)}.items():
        assert table.get(f"/api/games/{g}/state", headers)["seed_commitment"] == host, who
        first = table.get(f"/api/games/{g}/log", headers)[0]
        assert first["version"] == 1 and first["command"], who
        if who != "host":  # where the line hides the seed, it says what it is committed to
            assert first["text"].endswith(f"--seed (hidden) · seed committed: {host}"), (who, first["text"])
    lines = [
        msgspec.json.decode(t)
        for t in table.client.get(f"/api/games/{g}/export", headers=table.host).content.splitlines()
    ]
    setup = next(obj for obj in lines if obj.get("version") == 1 and obj.get("type", "").endswith("CommandIssued"))
    assert setup["data"]["commitment"] == host == fairness.commit(SEED, setup["data"]["salt"])
    assert host != fairness.commit(SEED, "00" * fairness.SALT_BYTES)  # salted
    answer = table.get(f"/api/games/{g}/verify")
    assert answer["ok"] and "not yet revealed" in answer["summary"], answer


def _ended(table: Table) -> tuple[str, bytes]:
    g = table.new_conquest(seed=SEED)
    _play_to_the_end(table, g, random.Random(3))
    data = table.client.get(f"/api/games/{g}/export", headers=table.spectator(g))
    assert data.status_code == 200, data.text  # over: the log is everyone's
    return g, data.content


def test_after_the_game_ends_everyone_reads_the_reveal_and_verify_says_it_matches(table: Table):
    g, data = _ended(table)
    commitment = table.get(f"/api/games/{g}/state")["seed_commitment"]
    for who, headers in _readers(table, g).items():
        assert table.get(f"/api/games/{g}/state", headers)["state"]["seed"] == SEED, who
        log = table.get(f"/api/games/{g}/log", headers, limit=0)
        assert f"--seed {SEED}" in log[0]["text"], who
        reveal = [e["text"] for e in log if "SEED-2" in e["text"]]
        assert len(reveal) == 1 and f"its seed was {SEED}" in reveal[0], who
        answer = table.get(f"/api/games/{g}/verify", headers)
        assert answer["ok"] is True, (who, answer)
        assert "matches the commitment" in answer["summary"] and commitment[:23] in answer["summary"], answer
    posted = _verify(table, data)
    assert posted["ok"] is True and "matches the commitment" in posted["summary"]


def _verify(table: Table, data: bytes) -> dict[str, Any]:
    """The host's POST /api/verify of ``data``, sent as a log (NDJSON)."""
    r = table.client.post("/api/verify", headers={**table.host, "content-type": "application/x-ndjson"}, content=data)
    return r.json()


def _forged(data: bytes, change: Any) -> tuple[bytes, int]:
    """``data`` with the reveal changed by ``change(reveal)``, every hash
    made good again (a forger who knows the chain); and the reveal's line."""
    lines = [msgspec.json.decode(text) for text in data.splitlines()]
    at = next(n for n, obj in enumerate(lines) if (obj.get("data") or {}).get("revealed"))
    change(lines[at]["data"]["revealed"])
    previous = ""
    for obj in lines:
        if obj.get("end"):
            obj["last_hash"] = previous
        obj["hash"] = previous = link(previous, obj)
    return b"\n".join(msgspec.json.encode(obj) for obj in lines) + b"\n", at + 1


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(lambda r: r.update(salt="0" * 32), id="salt"),
        pytest.param(lambda r: r.update(seed=r["seed"] + 1), id="seed"),
    ],
)
def test_a_forged_reveal_fails_verify_with_its_line_and_reason(table: Table, change):
    _, data = _ended(table)
    forged, line = _forged(data, change)
    answer = _verify(table, forged)
    assert answer["ok"] is False, answer
    d = answer["divergence"]
    assert d["line"] == line and d["rule"] == "SEED-1", d
    assert "does not match the commitment" in d["found"], d
    assert f"line {line}" in answer["summary"] and "SEED-1" in answer["summary"]


def test_a_game_started_from_a_position_keeps_its_seed_from_every_seat(rk, store, tmp_path):
    """A position file is the host's and holds the seed; the game started
    from it keeps it from the seats as any other (SEAT-5)."""
    rk(
        "new",
        "clash",
        "--setup",
        "waystone-crossing",
        "--party",
        "Ria:nord",
        "--party",
        "Tarn:orc",
        "--seed",
        str(SEED),
        "--name",
        "p0",
    )
    position = tmp_path / "p.toml"
    rk("position", "-o", str(position))
    position.write_text(position.read_text().replace('battle_id = "p0"', 'battle_id = "p1"'))
    rk("new", "betrayal", "--position", str(position))
    app = server_app.create_app(f"sqlite:{store}", Keyring(SECRET), poll=0.05, heavy_rate=None)
    with TestClient(app) as client:
        table = Table(client, Keyring(SECRET), app)
        for key in ("ria", "tarn"):
            headers = table.seat("p1", key)
            for path, body in _everything_read(table, "p1", headers).items():
                assert SEEN not in body, (key, path)
            assert SEEN not in table.client.get("/api/games/p1/state", headers=headers, params={"at": 2}).content
