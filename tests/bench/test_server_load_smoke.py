"""The server load benchmark runs end to end on tiny sizes: servers started
and stopped, every figure beside its floors (the tables' writes replayed
in-process at once, and one at a time), one table alone, every race answered
one 200 and one 409, every log checked, the fresh databases dropped.

No time is asserted here: times depend on the machine (see bench/README.md)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # bench/ is not an installed package
    sys.path.insert(0, str(ROOT))

from bench import server_load  # noqa: E402

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


def databases(url: str) -> set[str]:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        return {name for (name,) in conn.execute("SELECT datname FROM pg_database")}


def test_the_quick_server_load_reports_its_figures_and_every_log_holds(tmp_path, postgres_store, capsys):
    out = tmp_path / "server_load.json"
    assert server_load.main(["--quick", "--postgres", postgres_store, "--out", str(out)]) == 0

    results = json.loads(out.read_text())
    figures = {(r["figure"], r["size"]) for r in results["rows"]}
    for k in (1, 2):
        for figure in (
            "server load: writes/s",
            "server load: POST command p50",
            "server load: POST command p99",
            "server load: POST command p50 vs one at a time",
        ):
            assert (figure, f"K={k}, 2 tables") in figures
    assert ("server load: POST command p50", "K=1, 1 table alone") in figures
    assert ("in-process: execute p50, tables at once", "2 threads") in figures
    assert all(r["ratio"] > 0 for r in results["rows"])
    assert {(g["figure"], g["size"]) for g in results["goals"]} == {
        ("server load: writes/s", "K=2, 2 tables"),
        ("server load: POST command p50", "K=1, 2 tables"),
        ("server load: POST command p50", "K=2, 2 tables"),
    }
    assert [(p["processes"], p["tables"]) for p in results["phases"]] == [(1, 2), (2, 2), (1, 1)]
    for phase in results["phases"]:
        assert phase["writes"] > 0 and phase["wrong"] == [], phase
        assert phase["races"] == phase["races_ok"], phase  # each race: one saved, one 409 moved-on
        assert phase["check"]["ok"], phase["check"]
        assert "Traceback" not in phase["server_stderr"], phase["server_stderr"]
    assert results["floor"]["commands"] > 0 and results["floor"]["diverged"] == []
    at_once, alone = results["concurrent"]["concurrent"], results["concurrent"]["alone"]
    assert at_once["threads"] == 2 and alone["threads"] == 1
    for replayed, phase in ((at_once, results["phases"][0]), (alone, results["phases"][2])):
        assert replayed["writes"] == phase["writes"] and replayed["diverged"] == [] and not replayed["stopped"]
        assert replayed["legal"] == replayed["writes"]  # the legal commands asked before each write
    assert "time/throughput" in capsys.readouterr().out
    made = (
        {p["database"] for p in results["phases"]}
        | {results["floor"]["database"]}
        | {f["database"] for f in results["concurrent"].values()}
    )
    assert len(made) == 6 and not made & databases(postgres_store)  # every fresh database dropped


def test_the_lone_table_alone_is_measured_without_the_tables_at_once(tmp_path, postgres_store):
    out = tmp_path / "server_load.json"
    assert server_load.main(["--quick", "--alone-only", "--postgres", postgres_store, "--out", str(out)]) == 0

    results = json.loads(out.read_text())
    assert [(p["processes"], p["tables"], p["alone"]) for p in results["phases"]] == [(1, 1, True)]
    figures = {r["figure"] for r in results["rows"] if r["size"] == "K=1, 1 table alone"}
    assert {"server load: POST command p50", "server load: POST command p99"} <= figures
    assert {r["size"] for r in results["rows"]} == {"K=1, 1 table alone"}
    assert results["floor"] is None and set(results["concurrent"]) == {"alone"}
    phase = results["phases"][0]
    assert phase["check"]["ok"] and phase["wrong"] == [] and phase["races"] == phase["races_ok"]
    assert not {phase["database"], results["concurrent"]["alone"]["database"]} & databases(postgres_store)
