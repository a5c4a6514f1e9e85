"""Naming and choosing battles: `rk new --name`, readable default names,
`rk use`, `rk rename`, `rk delete` and `rk restore`, `rk battles` at 80
columns, `rk adventurers`; in one-shot commands, in `rk play` and through
`rk serve`."""

from __future__ import annotations

import json
import os
import select
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest


PARTY = ["--party", "Ysolda:nord", "--party", "Tarn:dark-elf:bow+destruction-staff:ranged"]
CLASH = ["new", "clash", "--setup", "waystone-crossing", *PARTY, "--xp", "2", "--seed", "7"]
CONQUEST = [
    "new",
    "conquest",
    "--scenario",
    "border-clash",
    "--army",
    "saltmarch",
    "--army",
    "cinderpact",
    "--seed",
    "7",
]


def refused(rk, *args: str) -> str:
    """The one line a refused command writes (exit status 1)."""
    result = rk(*args, code=1)
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr, result.stderr
    return result.stderr


def listed(rk, *flags: str) -> list[dict]:
    return rk("battles", "--json", *flags).json()


def acting_on(rk, *args: str) -> str:
    return rk("status", "--json", *args).json()["battle"]


def written(store: Path) -> int:
    with sqlite3.connect(store) as con:
        return con.execute("SELECT count(*) FROM stored_events").fetchone()[0]


# --- naming new battles ------------------------------------------------------------------


def test_a_new_battle_is_named_after_its_setup_and_becomes_current(rk, store):
    rk(*CLASH)
    rk(*CONQUEST)
    rk(*CLASH[:-1], "8")
    assert [(b["battle"], b["current"]) for b in listed(rk)] == [
        ("waystone-1", False),
        ("border-1", False),
        ("waystone-2", True),
    ]
    assert acting_on(rk) == "waystone-2"


def test_rk_new_takes_a_name(rk, store, monkeypatch):
    rk(*CLASH, "--name", "friday-night")
    rk(*CONQUEST, "--battle", "war")  # --battle still names a new battle, as before
    assert [b["name"] for b in listed(rk)] == ["friday-night", "war"]
    monkeypatch.setenv("COLUMNS", "200")
    help_text = rk("new", "clash", "--help").stdout
    assert "A name for the new game" in help_text


@pytest.mark.parametrize(
    "args",
    [
        [*CLASH, "--name", "no spaces"],
        [*CLASH, "--name", "x" * 65],
        [*CONQUEST, "--name", "ünïcödé"],
        [*CLASH, "--name", "taken"],
        ["rename", "taken", "bad/name"],
        ["rename", "nowhere", "somewhere"],
        ["use", "nowhere"],
        ["delete", "nowhere"],
        ["restore", "taken"],
        ["status", "--battle", "nowhere"],
    ],
)
def test_a_malformed_unknown_or_taken_name_is_refused_in_one_line_and_writes_nothing(rk, store, args):
    rk(*CLASH, "--name", "taken")
    before = written(store)
    refused(rk, *args)
    assert written(store) == before


# --- rename ---------------------------------------------------------------------------------


def test_a_renamed_battle_is_found_by_its_name_and_exports_imports_and_verifies_by_its_id(rk, store, tmp_path):
    rk(*CLASH)
    rk(*CONQUEST)
    renamed = rk("rename", "waystone-1", "friday", json=True).json()
    assert (renamed["battle"], renamed["name"], renamed["was"]) == ("waystone-1", "friday", "waystone-1")
    assert acting_on(rk, "--battle", "Friday") == acting_on(rk, "--battle", "waystone-1") == "waystone-1"
    rk("move", "b2", "--battle", "friday")
    log = tmp_path / "friday.jsonl"
    rk("export", "--battle", "friday", "-o", str(log))
    assert json.loads(log.read_bytes().split(b"\n", 1)[0])["battle_id"] == "waystone-1"
    assert "ok" in rk("verify", str(log)).stdout and "ok" in rk("verify", "--battle", "friday").stdout
    assert "Imported battle waystone-1" in rk("import", str(log), "--store", str(tmp_path / "other.sqlite")).stdout
    rk("rename", "friday", "saturday")
    assert "no battle 'friday'" in refused(rk, "status", "--battle", "friday")
    assert "friday" not in rk("battles").stdout and "saturday" in rk("battles").stdout


def test_status_and_export_call_a_renamed_battle_by_its_name_and_its_id(rk, store, tmp_path):
    rk(*CLASH)
    rk(*CONQUEST)
    rk("rename", "waystone-1", "friday")
    rk("rename", "border-1", "saturday")
    assert rk("status", "--battle", "friday").stdout.startswith("Battle friday (id waystone-1) · Waystone Crossing")
    assert rk("status", "--battle", "saturday").stdout.startswith("saturday (id border-1): round 1")
    log = tmp_path / "friday.jsonl"
    assert rk("export", "--battle", "friday", "-o", str(log)).stdout.startswith("Exported friday (id waystone-1): ")
    assert json.loads(log.read_bytes().split(b"\n", 1)[0])["battle_id"] == "waystone-1"  # the file keeps the id
    rk("rename", "friday", "waystone-1")  # its id again: shown once
    assert rk("status", "--battle", "waystone-1").stdout.startswith("Battle waystone-1 · ")


def test_rk_import_makes_the_imported_battle_current(rk, store, tmp_path):
    rk(*CLASH)
    log = tmp_path / "waystone.jsonl"
    rk("export", "-o", str(log))
    other = str(tmp_path / "other.sqlite")
    rk(*CONQUEST, "--store", other)
    assert acting_on(rk, "--store", other) == "border-1"
    assert "it is the current battle now" in rk("import", str(log), "--store", other).stdout
    assert acting_on(rk, "--store", other) == "waystone-1"
    assert rk("use", "--store", other, json=True).json()["chosen"]
    rk("use", "border-1", "--store", other)
    imported = rk("import", str(log), "--store", str(tmp_path / "third.sqlite"), "--json").json()
    assert imported == {"battle": "waystone-1", "file": str(log), "chosen": True}
    assert acting_on(rk, "--store", other) == "border-1"  # each store keeps its own choice


# --- delete and restore ----------------------------------------------------------------------


def test_a_deleted_battle_leaves_the_list_keeps_its_log_and_comes_back(rk, store, tmp_path):
    rk(*CLASH)
    rk(*CONQUEST)
    deleted = rk("delete", "border-1", json=True).json()
    assert deleted["deleted"] and deleted["current"] == "waystone-1"  # the current battle falls back
    assert [b["battle"] for b in listed(rk)] == ["waystone-1"]
    assert [(b["battle"], b["deleted"]) for b in listed(rk, "--all")] == [("waystone-1", False), ("border-1", True)]
    assert "x   border-1" in rk("battles", "--all").stdout and "1 deleted not shown" in rk("battles").stdout
    # Read, exported, verified; never changed nor chosen until restored.
    rk("export", "--battle", "border-1", "-o", str(tmp_path / "b.jsonl"))
    assert "ok" in rk("verify", "--battle", "border-1").stdout
    before = written(store)
    assert "rk restore border-1" in refused(rk, "choose-arrival", "a1", "--battle", "border-1")
    assert "deleted" in refused(rk, "use", "border-1")
    assert written(store) == before
    assert acting_on(rk) == "waystone-1"
    rk("restore", "border-1")
    assert [b["battle"] for b in listed(rk)] == ["waystone-1", "border-1"]


def test_deleting_every_battle_leaves_none_to_act_on(rk, store):
    rk(*CLASH)
    rk("delete", "waystone-1")
    assert "no battle yet" in refused(rk, "status")
    assert "1 deleted" in rk("battles").stdout


# --- the current battle ------------------------------------------------------------------------


def test_rk_use_chooses_the_battle_commands_act_on(rk, store):
    rk(*CLASH)
    rk(*CONQUEST)
    assert "border-1: the latest" not in rk("use").stdout  # `rk new` chose it
    rk("use", "WAYSTONE-1")  # any case, when one battle alone matches
    assert acting_on(rk) == "waystone-1"
    assert rk("use", json=True).json() == {
        "battle": "waystone-1",
        "name": "waystone-1",
        "ruleset": "betrayal",
        "deleted": False,
        "chosen": True,
    }
    assert "MOVE-1" in rk("move", "b2").stdout  # acted on the clash, not on the newer Conquest battle
    assert [b["battle"] for b in listed(rk) if b["current"]] == ["waystone-1"]
    assert "*   waystone-1" in rk("battles").stdout
    rk("rename", "waystone-1", "mine")  # the choice is kept by id: a rename keeps it
    assert acting_on(rk) == "waystone-1"


def test_the_choice_is_kept_per_store_outside_it(rk, store, tmp_path):
    rk(*CLASH)
    rk(*CONQUEST)
    rk("use", "waystone-1")
    other = str(tmp_path / "other.sqlite")
    rk(*CONQUEST, "--store", other)
    assert acting_on(rk, "--store", other) == "border-1"
    assert acting_on(rk) == "waystone-1"
    kept = json.loads((tmp_path / "home" / "current.json").read_text())
    assert kept == {f"sqlite:{store}": "waystone-1", f"sqlite:{other}": "border-1"}


def test_rk_demo_does_not_steal_the_current_battle(rk, store):
    rk(*CLASH)
    assert "commands still act on waystone-1" in " ".join(rk("demo", "--seed", "3").stdout.split())
    assert acting_on(rk) == "waystone-1"
    rk(*CONQUEST)
    rk("demo", "--seed", "3")
    assert acting_on(rk) == "border-1"
    assert [b["battle"] for b in listed(rk) if b["current"]] == ["border-1"]


def test_rk_demo_does_not_steal_the_latest_battle_when_none_was_chosen(rk, store):
    from domain.betrayal.battle.application import BetrayalApp, PartySpec

    with BetrayalApp(f"sqlite:{store}") as app:  # written without `rk new`: nothing chosen
        app.new_clash(setup="waystone-crossing", party=[PartySpec("Brand", "nord")], xp=1, seed=1, battle_id="older")
    rk("demo", "--seed", "3")
    assert acting_on(rk) == "older"


# --- the lists at 80 columns ---------------------------------------------------------------------


def test_rk_battles_cuts_nothing_at_80_columns(rk, store):
    rk(*CLASH)
    rk(*CONQUEST, "--name", "friday-night-at-the-inn-1")
    rk("new", "delve", "--delve", "whispering-barrow", "--party", "Ysolda", "--party", "Tarn", "--xp", "2")
    out = rk("battles").stdout
    assert max(len(line) for line in out.splitlines()) <= 80
    assert "…" not in out
    words = out.split()
    assert "setup" not in words  # a long name: the setup column goes (--json keeps it), no word is broken
    for b in listed(rk):
        for text in (b["name"], *b["phase"].split(), *b["who"].split()):
            assert text in words, text
    rk("rename", "friday-night-at-the-inn-1", "friday")
    assert "waystone-crossing" in rk("battles").stdout.split()


def test_rk_adventurers_lists_each_with_the_last_battle_it_fought(rk, store):
    rk("demo", "--seed", "3")
    rk(*CLASH)
    rows = {r["name"]: r for r in rk("adventurers", json=True).json()}
    demo = [b for b in listed(rk) if b["battle"].startswith("demo-")][0]
    number = demo["battle"].split("-")[1]
    hero = rows[f"Ysolda-{number}"]
    assert (hero["race"], hero["battles"], hero["last_battle"], hero["last_outcome"]) == (
        "nord",
        1,
        demo["battle"],
        demo["phase"],
    )
    assert hero["can_fight"] == (hero["hp"] > 0)
    assert (rows["Tarn"]["battles"], rows["Tarn"]["last_battle"]) == (0, "")
    rk("rename", demo["battle"], "first-demo")
    out = rk("adventurers").stdout
    assert "first-demo:" in out and "Dark Elf" in out and max(len(line) for line in out.splitlines()) <= 80
    assert "first-demo" in rk("adventurer", f"Ysolda-{number}").stdout


# --- in a shell, through a server -----------------------------------------------------------------


def test_rk_play_names_and_chooses_battles(rk, store):
    rk(*CLASH)
    rk(*CONQUEST)
    result = rk(
        "play", input="use waystone-1\nrename waystone-1 mine\nstatus\ndelete border-1\nbattles\nquit\n", code=None
    )
    assert result.code == 0, result.stderr
    assert "Battle mine (id waystone-1)" in result.stdout and "*   mine" in result.stdout
    table = result.stdout.split("────")[-1].split("* current")[0]
    assert "mine" in table and "border-1" not in table


def test_the_naming_verbs_run_in_rk_serve(rk, store, tmp_path):
    rk(*CLASH)
    rk(*CONQUEST)
    env = {k: v for k, v in os.environ.items() if k not in ("RULEKEEPER_NO_SERVER", "FORCE_COLOR", "NO_COLOR")}
    report = tmp_path / "imported"
    client = (
        "import atexit, os, sys\n"
        f"atexit.register(lambda: open({str(report)!r}, 'w').write(str('cli.main' in sys.modules)))\n"
        "from cli.client import run\nrun()\n"
    )
    server = subprocess.Popen(
        [sys.executable, "-m", "cli.main", "serve"],
        env=env,
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        ready, _, _ = select.select([server.stdout], [], [], 60)
        assert ready and "listening" in server.stdout.readline()

        def served(*args: str) -> str:
            done = subprocess.run(
                [sys.executable, "-c", client, *args],
                env=env,
                cwd=tmp_path,
                text=True,
                capture_output=True,
                timeout=120,
                stdin=subprocess.DEVNULL,
            )
            assert done.returncode == 0 and report.read_text() == "False", (args, done.stderr)
            return done.stdout

        served("use", "waystone-1")
        served("rename", "border-1", "war")
        assert json.loads(served("status", "--json"))["battle"] == "waystone-1"
        assert [b["name"] for b in json.loads(served("battles", "--json"))] == ["waystone-1", "war"]
        served("delete", "war")
        assert "Ysolda" in served("adventurers")
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=20)
        server.stdout.close()
    assert acting_on(rk) == "waystone-1" and [b["battle"] for b in listed(rk)] == ["waystone-1"]
