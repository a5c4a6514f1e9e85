"""A campaign's whole log at the server: the export of a game that leads a
group (a campaign) is the group's log, every battle of it in one, the same
bytes as `rk export --campaign`; the stored verify checks the whole group;
and the log stays the host's (SEAT-5) while its games hold secrets.

The campaign and its two battles are set up on the command line, on the
test's SQLite store, which a server then serves."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
    from starlette.testclient import TestClient

from api_table import SECRET, Table, refusal
from domain.kernel.portable.chain import link
from server.app import create_app
from server.passes import Keyring

BATTLES = ("w1", "w2")


@pytest.fixture
def saga(rk, store) -> Iterator[Table]:
    """A campaign ``saga`` of Ria and Tarn, Ria in battle w1 and Tarn in
    battle w2 (each moved once, at the server), served from the store."""
    rk("campaign", "new", "saga", "--difficulty", "adept")
    rk("adventurer", "new", "Ria", "--race", "nord", "--class", "bastion")
    rk("adventurer", "new", "Tarn", "--race", "dark-elf", "--class", "stalker")
    for battle, who, seed in (("w1", "Ria", "2"), ("w2", "Tarn", "3")):
        rk("new", "clash", "--setup", "waystone-crossing", "--party", who, "--seed", seed, "--name", battle)
    app = create_app(str(store), Keyring(SECRET), heavy_rate=None)
    with TestClient(app, raise_server_exceptions=False) as client:
        table = Table(client, Keyring(SECRET), app)
        for battle in BATTLES:
            table.done(battle, table.legal_of(battle, "Move")[0])
        yield table


def _objects(data: bytes) -> list[dict[str, Any]]:
    return [msgspec.json.decode(line) for line in data.splitlines()]


def _exported(table: Table) -> bytes:
    r = table.client.get("/api/games/saga/export", headers=table.host)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("application/x-ndjson")
    return r.content


def test_the_export_of_a_campaign_is_its_whole_log_as_the_command_line_writes_it(saga, rk, tmp_path):
    data = _exported(saga)
    header = _objects(data)[0]
    assert header["group"] == "campaign" and header["battle_id"] == "saga"
    assert [g["battle_id"] for g in header["games"]] == ["saga", *BATTLES]
    path = tmp_path / "saga.jsonl"
    rk("export", "--campaign", "saga", "-o", str(path))
    assert data == path.read_bytes()


def test_the_stored_verify_of_a_campaign_checks_every_battle(saga, rk, tmp_path):
    path = tmp_path / "saga.jsonl"
    rk("export", "--campaign", "saga", "-o", str(path))
    whole = path.read_bytes()
    answer = saga.get("/api/games/saga/verify")
    assert answer["ok"] is True and answer["divergence"] is None, answer
    assert answer["lines"] == len(whole.splitlines())
    commands = sum(1 for o in _objects(whole)[1:-1] if o["type"].endswith(("CommandIssued", "CampaignIssued")))
    assert answer["commands"] == commands  # the campaign's commands and every battle's
    cli = rk("verify", "--campaign", "saga", json=True).json()
    assert answer == {key: cli.get(key, answer[key]) for key in answer}  # what `rk verify --campaign` says
    assert "w2" in answer["summary"]


def _posted(table: Table, data: bytes) -> dict[str, Any]:
    r = table.client.post("/api/verify", headers={**table.host, "content-type": "application/x-ndjson"}, content=data)
    assert r.status_code == 200, r.text
    return r.json()


def test_the_campaign_export_verifies_and_a_forged_battle_line_is_refused_at_its_line(saga):
    data = _exported(saga)
    assert _posted(saga, data)["ok"] is True
    lines = _objects(data)
    forged = max(n for n, o in enumerate(lines) if o.get("type", "").endswith("HeroMoved"))  # w2's move
    lines[forged]["data"]["path"] = [[9, 9]]
    previous = ""
    for obj in lines:  # a forger who knows the chain: every hash made good again
        obj.pop("hash", None)
        if obj.get("end"):
            obj["last_hash"] = previous
        obj["hash"] = previous = link(previous, obj)
    answer = _posted(saga, b"\n".join(msgspec.json.encode(o) for o in lines) + b"\n")
    assert answer["ok"] is False and answer["divergence"]["line"] == forged + 1, answer
    assert answer["divergence"]["rule"] != "CHAIN"


@pytest.mark.rule("SEAT-5")
def test_a_campaigns_whole_log_is_the_hosts_while_its_battles_go_on(saga):
    for path in ("/api/games/saga/export", "/api/games/saga/verify"):
        refusal(saga.client.get(path, headers=saga.spectator("saga")), 403, "forbidden", "SEAT-5")
        # A battle's seat holds a pass for its own battle, not for the campaign.
        refusal(saga.client.get(path, headers=saga.seat("saga", "Ria")), 401, "unauthorized")
