"""The server load benchmark's lean HTTP client reads every answer the
tables read as httpx does (the same status, the same bytes), on one
kept-alive connection, and the lone table plays through it end to end."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # bench/ is not an installed package
    sys.path.insert(0, str(ROOT))

from bench import load_procs, server_load  # noqa: E402
from bench.load_client import LeanClient  # noqa: E402

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


async def _both(base: str, host: str) -> list[tuple[str, int, bytes, int, bytes]]:
    """Each request asked of both clients: what each answered."""
    auth = {"authorization": f"Bearer {host}"}
    async with httpx.AsyncClient(base_url=base) as slow, LeanClient(base) as lean:
        made = await lean.request(
            "POST",
            "/api/games",
            json={
                "new": "clash",
                "setup": "waystone-crossing",
                "name": "lean-1",
                "seed": 5,
                "party": [{"name": "Ria", "race": "nord"}],
            },
            headers=auth,
        )
        assert made.status_code == 201, made.text
        game, version = made.json()["game"], made.json()["version"]
        legal = (await slow.get(f"/api/games/{game}/legal", headers=auth)).json()
        first = {"command": legal[0]["command"], "version": version}
        posted = await lean.request("POST", f"/api/games/{game}/commands", json=first, headers=auth)
        assert posted.status_code == 200 and posted.json()["version"] > version
        asked = [
            ("GET", f"/api/games/{game}/legal", None, auth),
            ("GET", f"/api/games/{game}/state", None, auth),
            ("GET", f"/api/games/{game}/seats", None, auth),
            ("GET", f"/api/games/{game}", None, auth),
            # a game that moved on since: 409, nothing written
            ("POST", f"/api/games/{game}/commands", first, auth),
            ("POST", f"/api/games/{game}/undo", {"version": version}, auth),
            ("GET", f"/api/games/{game}/legal", None, {"authorization": "Bearer not-a-token"}),
            ("GET", "/api/no-such-path", None, auth),
        ]
        out = []
        for method, path, body, headers in asked:
            a = await slow.request(method, path, json=body, headers=headers)
            b = await lean.request(method, path, json=body, headers=headers)
            out.append((f"{method} {path}", a.status_code, a.content, b.status_code, b.content))
        return out


def test_the_lean_client_reads_each_answer_as_httpx_does(postgres_store, tmp_path):
    with load_procs.fresh_database(postgres_store, "lean") as store:
        with load_procs.servers(1, store, tmp_path) as (bases, host):
            answers = asyncio.run(_both(bases[0], host))
    statuses = {what: a for what, a, _, _, _ in answers}
    assert sorted(set(statuses.values())) == [200, 401, 404, 409]
    for what, status, body, lean_status, lean_body in answers:
        assert (lean_status, lean_body) == (status, body), what
        json.loads(lean_body)  # every answer read whole


def test_the_lone_table_plays_through_the_lean_client(tmp_path, postgres_store):
    out = tmp_path / "server_load.json"
    argv = ["--quick", "--alone-only", "--client", "lean", "--postgres", postgres_store, "--out", str(out)]
    assert server_load.main(argv) == 0

    results = json.loads(out.read_text())
    phase = results["phases"][0]
    assert phase["client"] == "lean" and phase["writes"] > 0 and phase["client_cpu"] > 0
    assert phase["check"]["ok"] and phase["wrong"] == [] and phase["races"] == phase["races_ok"]
    assert results["concurrent"]["alone"]["diverged"] == []
