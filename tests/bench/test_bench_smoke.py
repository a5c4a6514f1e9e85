"""The benchmark runs end to end on tiny sizes and reports every figure.

No time is asserted here: times depend on the machine (see bench/README.md)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # bench/ is not an installed package
    sys.path.insert(0, str(ROOT))

from bench import run  # noqa: E402

FIGURES = (
    "rebuild, SQLite",
    "rebuild, SQLite, Conquest",
    "rebuild, SQLite, labyrinth",
    "rebuild, SQLite, Betrayal delve",
    "load, snapshots on",
    "process: rk status",
    "process: rk move",
    "in-process command, median",
    "in-process command, p99",
    "play in memory: battles",
    "play in memory: per command",
    "rk log (in-process)",
    "rk audit (in-process)",
    "rk audit, first run (in-process)",
    "rk battles (in-process)",
    "memory: load a battle",
    "size: stored event JSON",
    "size: store file",
    "size: JSONL export",
)


@pytest.mark.slow
def test_the_quick_benchmark_reports_every_figure_with_its_floor(tmp_path, capsys):
    out = tmp_path / "results.json"
    assert run.main(["--quick", "--out", str(out), "--cache", str(tmp_path / "cache")]) == 0

    results = json.loads(out.read_text())
    rows = results["rows"]
    for figure in FIGURES:
        assert any(r["figure"].startswith(figure) for r in rows), figure
    assert any(r["figure"] == "rebuild, PostgreSQL" for r in rows) or any("PostgreSQL" in s for s in results["skipped"])
    for r in rows:
        if r["floor"] != "-" and r["value"] != "-":
            assert r["ratio"] > 0, r
    goals = {g["figure"] for g in results["goals"]}
    assert {
        "load, snapshots on",
        "process: rk status",
        "process: rk status, in-process",
        "in-process command, median",
        "play in memory: per command",
        "rk battles (in-process)",
        "rk log (in-process)",
        "rk audit, first run (in-process)",
    } <= goals
    assert all(s["events"] >= 100 and s["commands"] > 0 for s in results["streams"])
    assert "time/throughput" in capsys.readouterr().out


def test_the_benchmark_runs_as_a_file_too():
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "run.py"), "--help"], capture_output=True, text=True, cwd=ROOT
    )
    assert done.returncode == 0 and "--quick" in done.stdout
