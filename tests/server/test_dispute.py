"""The public dispute page's request (``POST /api/dispute``, issue #24
point 4): anyone's dropped log verified against today's rules and replayed
step by step with its boards; no token read, nothing stored, its rate kept
per client address."""

from __future__ import annotations

import warnings
from pathlib import Path

import msgspec
import pytest

from api_table import SECRET, Table, bearer
from domain.kernel.portable.chain import link
from server import dispute
from server.app import open_app
from server.passes import Keyring
from server.throttle import Rate
from server.wire import MAX_BODY

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
    from starlette.testclient import TestClient

LOGS = Path(__file__).resolve().parents[2] / "logs"
GOLDEN = LOGS / "won-waystone-crossing.jsonl"
NDJSON = {"content-type": "application/x-ndjson"}


def settle(client, data: bytes, start: int = 0, headers: dict[str, str] | None = None) -> dict:
    r = client.post("/api/dispute", params={"start": start}, content=data, headers={**NDJSON, **(headers or {})})
    assert r.status_code == 200, r.text
    return r.json()


def rechained(lines: list[dict]) -> bytes:
    """A forger's log: every hash made good again after an edit."""
    previous = ""
    for obj in lines:
        if obj.get("end"):
            obj["last_hash"] = previous
        obj["hash"] = previous = link(previous, obj)
    return b"\n".join(msgspec.json.encode(obj) for obj in lines) + b"\n"


@pytest.fixture
def public(tmp_path):
    """A server on a fresh store, its public rate out of the way."""
    from server.app import create_app

    app = create_app(f"sqlite:{tmp_path / 'd.sqlite'}", Keyring(SECRET), heavy_rate=None, public_rate=None)
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


def test_a_golden_log_settles_ok_and_steps_through_every_event_with_its_board(public):
    data = GOLDEN.read_bytes()
    answer = settle(public, data)
    verdict = answer["verdict"]
    assert verdict["ok"] is True and verdict["divergence"] is None and verdict["summary"].startswith("ok:")
    assert answer["divergence_step"] is None and answer["stopped"] == ""
    steps = answer["steps"]
    header = msgspec.json.decode(data.splitlines()[0])
    assert answer["game"] == header["battle_id"] and answer["ruleset"] == header["ruleset"]
    game_lines = [
        n
        for n, text in enumerate(data.splitlines(), 1)
        if n > 1
        and msgspec.json.decode(text).get("stream")
        in [sid for sid, name in header["streams"].items() if name == "battle"]
    ]
    assert [s["line"] for s in steps] == game_lines  # every event of the game, in order, by its line
    assert [s["version"] for s in steps] == list(range(1, len(steps) + 1))
    assert steps[0]["command"] is True and steps[0]["text"].startswith("rk new")
    # The first board in full, then one per step (null: unchanged), drawn from the ruleset's declared board.
    assert answer["first"] == 0 and len(answer["boards"]) == min(len(steps), dispute.PAGE)
    drawn = [b for b in answer["boards"] if b is not None]
    assert drawn and drawn[0]["kind"] == "hexes" and drawn[-1]["hexes"]


def test_a_long_log_sends_its_boards_a_page_at_a_time(public):
    data = (LOGS / "conquest-undo.jsonl").read_bytes()
    first = settle(public, data)
    assert len(first["steps"]) > dispute.PAGE and first["next"] == dispute.PAGE
    second = settle(public, data, start=first["next"])
    assert second["first"] == dispute.PAGE and second["steps"] == first["steps"]
    assert second["boards"][0] is not None  # a page's first board is whole: it does not lean on the page before


def test_an_edited_line_is_reported_at_its_line_as_chain_and_the_replay_goes_on_past_it(public):
    data = GOLDEN.read_bytes()
    lines = data.splitlines()
    n = next(i for i, text in enumerate(lines) if b'"type":"betrayal.HeroMoved"' in text)
    lines[n] = lines[n].replace(b'"path":[[', b'"path":[[9,9],[', 1)
    answer = settle(public, b"\n".join(lines) + b"\n")
    d = answer["verdict"]["divergence"]
    assert answer["verdict"]["ok"] is False and d["line"] == n + 1 and d["rule"] == "CHAIN"
    at = answer["divergence_step"]
    assert answer["steps"][at]["line"] == n + 1  # the step to jump to holds the divergent line
    assert len(answer["steps"]) > at + 1  # what the log claims after it, shown too


def test_a_forged_log_chained_again_names_the_line_and_the_rule_that_differs(public):
    data = GOLDEN.read_bytes()
    lines = [msgspec.json.decode(text) for text in data.splitlines()]
    forged = next(i for i, obj in enumerate(lines) if obj.get("type") == "betrayal.DiceRolled")
    die = lines[forged]["data"]["dice"][0]
    die[2] = (die[2] + 1) % 6  # a face the seeded dice never gave
    answer = settle(public, rechained(lines))
    d = answer["verdict"]["divergence"]
    assert answer["verdict"]["ok"] is False and d["line"] == forged + 1
    assert d["rule"] not in ("CHAIN", "FORMAT") and d["command_id"]
    assert answer["steps"][answer["divergence_step"]]["line"] >= d["line"]


def test_settling_writes_nothing_and_reads_no_token(table: Table):
    g = table.new_clash()
    before = table.written(g)
    data = GOLDEN.read_bytes()
    anyone = settle(table.client, data)
    as_host = settle(table.client, data, headers=table.host)
    as_garbage = settle(table.client, data, headers=bearer("garbage"))
    assert anyone == as_host == as_garbage  # a token changes nothing: none is read
    assert table.written(g) == before
    app = open_app(table.app)
    assert app.events(app.ruleset(g).game_stream(anyone["game"])) == []  # the log's game is not in the store


def test_a_log_too_large_or_not_sent_as_json_lines_is_refused(public):
    too_large = public.post("/api/dispute", content=b"x" * (MAX_BODY + 1), headers=NDJSON)
    assert too_large.status_code == 413 and too_large.json()["error"] == "too-large"
    form = public.post("/api/dispute", content=GOLDEN.read_bytes(), headers={"content-type": "text/plain"})
    assert form.status_code == 415 and form.json()["error"] == "unsupported"
    empty = public.post("/api/dispute", content=b"\n", headers=NDJSON)
    assert empty.status_code == 400
    garbage = settle(public, b"not a log\n")
    assert garbage["verdict"]["ok"] is False and garbage["verdict"]["divergence"]["rule"] == "FORMAT"
    assert garbage["steps"] == [] and garbage["stopped"]


def test_settling_is_rate_limited_per_client_address(tmp_path):
    from server.app import create_app

    app = create_app(
        f"sqlite:{tmp_path / 'r.sqlite'}", Keyring(SECRET), heavy_rate=None, public_rate=Rate(burst=2, per_minute=0.5)
    )
    data = (LOGS / "delve-uncover-retreat.jsonl").read_bytes()
    with TestClient(app, raise_server_exceptions=False) as client:
        settle(client, data)
        settle(client, data, headers=bearer(Keyring(SECRET).host()))  # the host's token buys nothing more
        third = client.post("/api/dispute", content=data, headers=NDJSON)
        assert third.status_code == 429 and int(third.headers["retry-after"]) >= 1
        assert "per client address" in third.json()["reason"]
        throttle = app.state.server.public_throttle
        throttle.take("10.0.0.9", "settling a dispute")  # another address has a bucket of its own
