"""Issue 21, point 14: `rk log` (text and ``--json``) streams. It reads
the game's stream a page at a time (its undos' ids first, then the
narration; a game with companion streams is read whole first), writes each
event as it comes, and never holds
the whole log: its peak memory does not grow with the battle. (The figure
at 100,000 events is bench/memory.py's "memory: log" rows.)"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli.session import Defaults
from domain.kernel.games import GameApp
from domain.kernel.portable import import_log

ROOT = Path(__file__).resolve().parents[2]
LONG = ROOT / "logs" / "conquest-round-limit.jsonl"


@pytest.fixture(scope="module")
def long_battle(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """A store (its setting) holding the long Conquest log, and its battle."""
    path = tmp_path_factory.mktemp("log-streams") / "long.sqlite"
    with GameApp(store=f"sqlite:{path}") as app:
        battle = import_log(app, LONG)
    return f"sqlite:{path}", battle


def test_the_log_never_asks_for_the_whole_stream(rk, long_battle, monkeypatch):
    store, battle = long_battle
    on_it, of_it = rk.on(Defaults(store=store)), ["--battle", battle, "--no-pager"]
    expected_json, expected_text = on_it("log", "--json", *of_it).stdout, on_it("log", *of_it).stdout

    def whole(*args, **kwargs):
        raise AssertionError("rk log read the game's whole stream at once")

    monkeypatch.setattr(GameApp, "stream", whole)
    assert on_it("log", "--json", *of_it).stdout == expected_json
    assert on_it("log", *of_it).stdout == expected_text
    rows = json.loads(expected_json)
    assert len(rows) == sum(1 for line in LONG.read_bytes().splitlines()) - 2  # all but header and trailer
    assert [r["version"] for r in rows] == list(range(1, len(rows) + 1))
