"""The command lines `rk` runs without typer (``cli.direct``) print and
exit exactly as through typer (``cli.main``), on a game of each ruleset;
the lines it leaves to typer are left; and an in-process `rk status`
imports neither typer nor what it does not show (another ruleset, the
narrator)."""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from four_games import GAMES, made_games
from four_games import ran as _ran

from cli import direct
from cli.main import _registered_name, app, main

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def games(tmp_path_factory) -> Path:
    """A store holding a game of each ruleset (one move made in the clash), and the home it was made in."""
    return made_games(tmp_path_factory.mktemp("games"), columns=80)


@pytest.fixture
def both(games: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Runs a command line through ``cli.direct`` and through typer, each on
    a fresh copy of the store (of ``source``, when given), and returns what
    each printed."""
    monkeypatch.setenv("RULEKEEPER_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("_RK_COMPLETE", raising=False)
    runs = iter(range(10**6))

    def run(argv: list[str], source: Path | None = None) -> tuple[tuple, tuple]:
        got = []
        for how in (direct.main, main):
            copy = tmp_path / f"rk{next(runs)}.sqlite"
            shutil.copyfile(source or games / "rk.sqlite", copy)
            monkeypatch.setenv("RULEKEEPER_STORE", str(copy))
            got.append(_ran(how, argv))
        return got[0], got[1]

    return run


READS = [
    ["status", "-b", "{g}"],
    ["status", "--battle", "{g}", "--json"],
    ["status", "--battle={g}", "--at", "1"],
    ["status", "--at=1", "-b", "{g}", "--json"],
    ["legal", "-b", "{g}"],
    ["legal", "--json", "-b", "{g}"],
    ["log", "-b", "{g}", "--no-pager"],
    ["log", "-b", "{g}", "--json"],
]
WRITES = [["undo", "-b", "{g}"], ["undo", "--force", "-b", "{g}"], ["redo", "-b", "{g}"]]
# `rk battles` lists every game of the store, whichever is named: run once, not per game.
LISTS = [
    ["battles"],
    ["battles", "--all"],
    ["battles", "--json"],
    ["battles", "--all", "--json"],
    ["battles", "--store", "{store}"],  # the store the battle was chosen in: marked *
    ["battles", "--json", "--store={store}", "--all"],
    ["battles", "--store", "{empty}"],
    ["battles", "--store", "{garbage}"],
    ["battles", "--store", "{garbage}", "--json"],
]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_plain_lines_print_as_through_typer(both, game):
    for line in READS + WRITES:
        argv = [w.replace("{g}", game) for w in line]
        here, typer_ = both(argv)
        assert here[0] is not None, f"{argv} was left to typer"
        assert here == typer_, argv


def test_the_list_of_battles_prints_as_through_typer(both, games, tmp_path):
    # A battle renamed, one deleted and one chosen, so that every mark and note shows.
    listed = tmp_path / "listed.sqlite"
    shutil.copyfile(games / "rk.sqlite", listed)
    for line in (["rename", "d1", "delve-one"], ["delete", "q1"], ["use", "c1"]):
        assert _ran(main, [*line, "--store", str(listed)])[0] == 0
    garbage = tmp_path / "garbage.sqlite"
    garbage.write_bytes(b"not a database, though named as one" * 100)
    stores = {"{store}": listed, "{empty}": tmp_path / "none.sqlite", "{garbage}": garbage}
    for line in LISTS:
        argv = line
        for key, path in stores.items():
            argv = [w.replace(key, str(path)) for w in argv]
        here, typer_ = both(argv, source=listed)
        assert here[0] is not None, f"{argv} was left to typer"
        assert here[0] == (1 if "{garbage}" in " ".join(line) else 0), (argv, here)
        assert here == typer_, argv


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_verb_of_the_game_acts_as_through_typer(both, game, games, monkeypatch):
    monkeypatch.setenv("RULEKEEPER_STORE", str(games / "rk.sqlite"))
    monkeypatch.setenv("RULEKEEPER_HOME", str(games / "home"))
    listed = _ran(main, ["legal", "-b", game])[1].splitlines()
    typed = [line.split()[1:] for line in listed if line.startswith("rk ") and line == line.lower()]
    assert typed, listed
    for words in typed[:2]:
        argv = [*words, "-b", game]
        here, typer_ = both(argv)
        assert here[0] is not None, f"{argv} was left to typer"
        assert here == typer_, argv


@pytest.mark.parametrize(
    "argv",
    [
        ["status", "-b", "nowhere"],
        ["legal", "--store", "/nonexistent/folder/rk.sqlite"],
        ["status", "--at", "99999", "-b", "c1"],
        ["move", "zz", "-b", "c1"],
        ["move", "a3", "-b", "c1", "--frob"],
        ["move", "a3", "--store", "memory"],
        ["undo", "-b", "q1", "--json"],
    ],
)
def test_refusals_are_as_through_typer(both, argv):
    here, typer_ = both(argv)
    assert here[0] is not None and here[0] != 0, here
    assert here == typer_


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["--json", "status"],
        ["status", "--help"],
        ["status", "-h"],
        ["status", "-bc1"],
        ["status", "--at", "0"],
        ["status", "--at", "x"],
        ["status", "extra"],
        ["status", "-b", "c1", "-b", "c1"],
        ["status", "--battle"],
        ["status", "--json=1"],
        ["status", "--"],
        ["log", "--force"],
        ["move", "--help"],
        ["move", "a2", "-h"],
        ["battles", "-b", "c1"],
        ["battles", "--all=1"],
        ["battles", "--all", "--all"],
        ["battles", "--store"],
        ["battles", "c1"],
        ["battles", "--", "--all"],
        ["new", "clash"],
        ["nosuchverb"],
    ],
)
def test_other_lines_are_left_to_typer(argv, monkeypatch):
    monkeypatch.delenv("_RK_COMPLETE", raising=False)
    assert direct.main(argv) is None


def test_the_core_commands_are_those_typer_registers():
    registered = {_registered_name(info) for info in app.registered_commands}
    assert direct.CORE == registered | {group.name for group in app.registered_groups}


# Modules of the standard library no read of a game needs (each a few milliseconds of start).
STDLIB_UNUSED = {"hashlib", "_hashlib", "hmac", "tempfile", "difflib"}


def _imported(env: dict[str, str], *argv: str) -> set[str]:
    code = (
        "import runpy, sys; sys.argv = ['rk', *sys.argv[1:]]\n"
        "try:\n    runpy.run_module('cli.client', run_name='__main__')\n"
        "except SystemExit as e:\n    assert not e.code, e.code\n"
        "print(' '.join(sorted(sys.modules)), file=sys.stderr)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, *argv], env=env, cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return set(done.stderr.splitlines()[-1].split())


def test_status_in_process_imports_only_what_it_shows(games):
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "NO_COLOR", "TTY_COMPATIBLE")}
    env |= {"RULEKEEPER_STORE": str(games / "rk.sqlite"), "RULEKEEPER_HOME": str(games / "home"), "COLUMNS": "100"}
    env["RULEKEEPER_NO_SERVER"] = "1"
    never = {"typer", "domain.betrayal.battle.narrate", "domain.betrayal.campaign.narrate", "projections.views"}
    # Nor what only a write or a refusal needs: OpenSSL's digests (``domain.kernel.digests``),
    # tempfile (a write renamed into place), difflib (a hint in a refused pack).
    never |= STDLIB_UNUSED
    # Nor the campaign's surface, the pack's parsers, or any rule deciding a command.
    # (The kernel's TOML reading is the other rulesets' too: a Betrayal game's status only.)
    never |= CAMPAIGN_SURFACE | (PACK_PARSERS - {"domain.kernel.content"}) | OTHER_RULES
    never.add("domain.betrayal.battle.dispatch")
    # A battle's or a delve's status registers no campaign (``LATER``, ``domain.kernel.ruleset``).
    campaign = {"domain.betrayal.campaign.game", "domain.betrayal.campaign.ruleset"}
    for game, others in {
        "c1": {"domain.conquest", "domain.labyrinth", "domain.kernel.content"} | campaign,
        "d1": {"domain.conquest", "domain.labyrinth", "domain.kernel.content"} | campaign,
        "q1": {"domain.betrayal", "domain.labyrinth"},
        "l1": {"domain.betrayal", "domain.conquest"},
    }.items():
        # Once first: a home whose pack cache is cold writes it (tempfile), as any first run does.
        _imported(env, "status", "-b", game)
        imported = _imported(env, "status", "-b", game)
        assert "cli.game" in imported, game
        assert not imported & (never | others), (game, sorted(imported & (never | others)))
        # The view fits 100 columns: it is written straight (``cli.straight``), plain
        # or in colour, and rich is not imported at all.
        for colour in ({}, {"FORCE_COLOR": "1"}, {"FORCE_COLOR": "1", "NO_COLOR": "1"}):
            imported = _imported({**env, **colour}, "status", "-b", game)
            assert "cli.straight" in imported, game
            assert not {m for m in imported if m.split(".")[0] == "rich"}, (game, colour)


def test_a_verb_of_one_ruleset_imports_no_other_ruleset(games, tmp_path):
    shutil.copyfile(games / "rk.sqlite", tmp_path / "rk.sqlite")
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "NO_COLOR", "TTY_COMPATIBLE")}
    env |= {"RULEKEEPER_STORE": str(tmp_path / "rk.sqlite"), "RULEKEEPER_HOME": str(games / "home"), "COLUMNS": "100"}
    env["RULEKEEPER_NO_SERVER"] = "1"
    imported = _imported(env, "end-turn", "-b", "c1")
    assert "cli.verbs" in imported
    assert not {m for m in imported if m.startswith(("domain.conquest", "domain.labyrinth"))}
    assert not imported & {"domain.betrayal.campaign.game", "domain.betrayal.campaign.ruleset"}
    # What it did and the view after it fit 100 columns: written straight, no rich.
    assert not {m for m in imported if m.split(".")[0] == "rich"}
    assert not imported & {"hashlib", "_hashlib", "hmac", "difflib"}


# What a Betrayal battle's status or move never needs: the campaign's surface and
# commands (given for later, ``domain.kernel.surface``), the pack's parsers (the pack
# is read back from its cache: ``packs.load``), and what the rules load per command kind.
PACK_PARSERS = {
    "domain.kernel.content",
    *(f"domain.betrayal.packs.{m}" for m in ("parse", "companions", "delve", "campaign", "dice", "enemies")),
    *(f"domain.betrayal.packs.{m}" for m in ("setups", "classes", "gear", "training")),
}
CAMPAIGN_SURFACE = {"domain.betrayal.table.campaign_surface", "domain.betrayal.campaign.commands"}
OTHER_RULES = {
    f"domain.betrayal.battle.{m}"
    for m in ("legal", "setup", "defense", "abilities.race", "abilities.classes", "items.use", "items.wards")
} | {"domain.betrayal.battle.companions.turn", "domain.betrayal.battle.companions.setup"}


def test_a_move_on_a_clash_imports_only_the_rules_it_runs(games, tmp_path):
    """A Move decided (``battle.dispatch``) loads the core rules it runs
    (``actions``) and reads no hook point: the abilities, the other
    commands' rules and the list of legal commands stay out; so do the
    campaign's surface and the pack's parsers."""
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "NO_COLOR", "TTY_COMPATIBLE")}
    env |= {"RULEKEEPER_HOME": str(games / "home"), "COLUMNS": "100", "RULEKEEPER_NO_SERVER": "1"}
    for run in ("warm", "counted"):  # the first writes the home's caches, as any first run does
        shutil.copyfile(games / "rk.sqlite", tmp_path / f"{run}.sqlite")
        imported = _imported({**env, "RULEKEEPER_STORE": str(tmp_path / f"{run}.sqlite")}, "move", "a1", "-b", "c1")
    assert {"domain.betrayal.battle.dispatch", "domain.betrayal.battle.actions"} <= imported
    assert "domain.betrayal.battle.narrate" in imported  # what it did is told
    unused = OTHER_RULES | CAMPAIGN_SURFACE | PACK_PARSERS
    assert not imported & unused, sorted(imported & unused)


def test_battles_in_process_imports_neither_typer_nor_the_log(games):
    env = {**os.environ, "RULEKEEPER_STORE": str(games / "rk.sqlite"), "RULEKEEPER_HOME": str(games / "home")}
    env["RULEKEEPER_NO_SERVER"] = "1"
    imported = _imported(env, "battles")
    assert "cli.battle_list" in imported
    never = {"typer", "cli.history", "cli.lines", "domain.betrayal.battle.narrate"}
    assert not imported & never, sorted(imported & never)


def test_a_read_of_a_game_in_process_imports_no_eventsourcing(games):
    """`rk status`, `legal` and `log` on an SQLite store read it without the
    library (``domain.kernel.stores.plain``); so does a store not there yet."""
    env = {**os.environ, "RULEKEEPER_STORE": str(games / "rk.sqlite"), "RULEKEEPER_HOME": str(games / "home")}
    env["RULEKEEPER_NO_SERVER"] = "1"
    for argv in (
        ["status", "-b", "c1"],
        ["status", "--at", "3", "-b", "d1", "--json"],
        ["legal", "-b", "q1"],
        ["log", "-b", "l1", "--no-pager"],
        ["log", "-b", "d1", "--json"],
    ):
        imported = _imported(env, *argv)
        assert "cli.game" in imported, argv
        assert not {m for m in imported if m.split(".")[0] == "eventsourcing"}, argv


def test_a_write_to_a_game_in_process_imports_no_eventsourcing(games, tmp_path):
    """`rk undo`, `redo` and a verb on an SQLite store whose tables are made
    write it without the library (``domain.kernel.open_writes``); a store
    with none goes through the library, which makes them."""
    shutil.copyfile(games / "rk.sqlite", tmp_path / "rk.sqlite")
    env = {**os.environ, "RULEKEEPER_STORE": str(tmp_path / "rk.sqlite"), "RULEKEEPER_HOME": str(games / "home")}
    env |= {"RULEKEEPER_NO_SERVER": "1", "COLUMNS": "100"}
    for argv in (["undo", "-b", "c1"], ["redo", "-b", "c1"], ["undo", "--force", "-b", "c1"], ["end-turn", "-b", "c1"]):
        before = _rows(tmp_path / "rk.sqlite")
        imported = _imported(env, *argv)
        assert "cli.game" in imported, argv
        assert not {m for m in imported if m.split(".")[0] == "eventsourcing"}, argv
        assert len(_rows(tmp_path / "rk.sqlite")[0]) > len(before[0]), argv  # written
    new = tmp_path / "new.sqlite"
    sqlite3.connect(new).close()  # a file, no tables
    with pytest.raises(AssertionError):  # refused: no such game; the library made the tables
        _imported({**env, "RULEKEEPER_STORE": str(new)}, "undo", "-b", "c1")
    assert {"stored_events", "stored_snapshots"} <= {
        name for (name,) in sqlite3.connect(new).execute("SELECT name FROM sqlite_master")
    }


WRITTEN = [["undo", "-b", "c1"], ["undo", "--force", "-b", "c1"], ["redo", "-b", "c1"], ["end-turn", "-b", "c1"]]


@pytest.mark.parametrize("argv", WRITTEN)
def test_a_write_here_stores_what_typer_stores(games, tmp_path, monkeypatch, argv):
    """What a write run here stores without the library is what typer's
    run stores through it, row for row (the times of writing aside)."""
    monkeypatch.setenv("RULEKEEPER_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("COLUMNS", "80")
    stored = []
    for how in (direct.main, main):
        copy = tmp_path / f"{how.__module__}.sqlite"
        shutil.copyfile(games / "rk.sqlite", copy)
        monkeypatch.setenv("RULEKEEPER_STORE", str(copy))
        if argv[0] == "redo":
            assert _ran(how, ["undo", "-b", "c1"])[0] == 0
        assert _ran(how, argv)[0] == 0
        stored.append(_rows(copy, timeless=True))
    assert stored[0] == stored[1]
    assert len(stored[0][0]) > len(_rows(games / "rk.sqlite")[0])


def _rows(path: Path, timeless: bool = False) -> tuple[list[tuple], list[tuple]]:
    """Every row of a store's tables (``timeless``: each body's time left out)."""
    with sqlite3.connect(path) as db:
        events = db.execute("SELECT rowid, * FROM stored_events ORDER BY rowid").fetchall()
        snapshots = db.execute("SELECT * FROM stored_snapshots ORDER BY originator_id, originator_version").fetchall()
    if timeless:
        events = [(*row[:-1], re.sub(rb'"t":"[^"]*"', b"", row[-1])) for row in events]
        snapshots = [(*row[:-1], re.sub(rb'"t":"[^"]*"', b"", row[-1])) for row in snapshots]
    return events, snapshots


def test_a_command_run_here_leaves_its_objects_out_of_the_collections_at_exit(games, monkeypatch):
    """What an in-process command built lives until the process ends: it is
    frozen as the interpreter ends (``cli.direct.run``), so the collections at
    exit do not walk it, and the output is whole."""
    env = {**os.environ, "RULEKEEPER_STORE": str(games / "rk.sqlite"), "RULEKEEPER_HOME": str(games / "home")}
    env |= {"RULEKEEPER_NO_SERVER": "1", "COLUMNS": "100"}
    # An exit handler registered before the command's runs after its own (last in, first out).
    code = (
        "import atexit, gc, runpy, sys; sys.argv = ['rk', *sys.argv[1:]]\n"
        "atexit.register(lambda: print('frozen', gc.get_freeze_count(), file=sys.stderr))\n"
        "runpy.run_module('cli.client', run_name='__main__')"
    )
    for argv in (["status", "-b", "c1"], ["legal", "-b", "q1"], ["setups"]):
        done = subprocess.run(
            [sys.executable, "-c", code, *argv], env=env, cwd=ROOT, capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 0, done.stderr
        frozen = int(done.stderr.split()[-1])
        if argv[0] == "setups":  # typer's command (``rk play`` and ``rk serve`` among them): collected as ever
            assert frozen == 0
            continue
        assert frozen > 10_000, argv
        # Printed whole, as typer prints it in this process.
        for k in ("RULEKEEPER_STORE", "RULEKEEPER_HOME", "COLUMNS"):
            monkeypatch.setenv(k, env[k])
        assert done.stdout == _ran(main, argv)[1], argv


def test_a_command_run_here_is_not_collected_on_its_way(games):
    """The collector's rhythm for a command run in this process is set before
    its modules are imported (``cli.client.run``): a status or a legal list
    is never collected; typer's commands keep the interpreter's thresholds."""
    env = {**os.environ, "RULEKEEPER_STORE": str(games / "rk.sqlite"), "RULEKEEPER_HOME": str(games / "home")}
    env |= {"RULEKEEPER_NO_SERVER": "1", "COLUMNS": "100"}
    code = (
        "import gc, sys; sys.argv = ['rk', *sys.argv[1:]]\n"
        "import cli.client\n"
        "default, made = gc.get_threshold(), []\n"
        "gc.callbacks.append(lambda phase, info: made.append(info) if phase == 'start' else None)\n"
        "try:\n    cli.client.run()\n"
        "except SystemExit as e:\n    assert not e.code, e.code\n"
        "print(len(made), gc.get_threshold() == default, file=sys.stderr)"
    )
    for argv in (["status", "-b", "c1"], ["legal", "-b", "q1"], ["status", "-b", "l1"], ["setups"]):
        done = subprocess.run(
            [sys.executable, "-c", code, *argv], env=env, cwd=ROOT, capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 0, done.stderr
        collections, as_before = done.stderr.split()[-2:]
        if argv[0] == "setups":  # typer's command (``rk play`` and ``rk serve`` among them): as ever
            assert as_before == "True"
        else:
            assert collections == "0", (argv, collections)


def _bad_store(kind: str, path: Path) -> None:
    """Makes ``path`` a store of ``kind`` that cannot be read (or holds nothing)."""
    if kind == "garbage":
        path.write_bytes(b"not a database, though named as one" * 100)
    elif kind == "empty file":
        path.touch()
    elif kind == "folder":
        path.mkdir()
    elif kind == "other tables":  # an SQLite file of something else
        with sqlite3.connect(path) as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("CREATE TABLE other (a)")
        sqlite3.connect(path).close()


@pytest.mark.parametrize("kind", ["garbage", "empty file", "folder", "other tables", "missing"])
@pytest.mark.parametrize("argv", [["status"], ["legal", "--json"], ["log", "--no-pager"], ["status", "-b", "c1"]])
def test_a_store_that_cannot_be_read_is_refused_as_through_the_library(kind, argv, tmp_path, monkeypatch):
    """The plain reads (``cli.direct``) refuse a bad store in the words and
    with the status the library's application gives (through typer)."""
    monkeypatch.setenv("RULEKEEPER_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("_RK_COMPLETE", raising=False)
    path = tmp_path / "bad.sqlite"
    _bad_store(kind, path)
    line = [*argv, "--store", str(path)]
    here, typer_ = _ran(direct.main, line), _ran(main, line)
    assert here[0] == 1 and here[2], here
    assert here == typer_, line


def test_a_locked_store_is_refused_as_through_the_library(games, tmp_path, monkeypatch):
    path = tmp_path / "locked.sqlite"
    shutil.copyfile(games / "rk.sqlite", path)
    monkeypatch.setenv("RULEKEEPER_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("RULEKEEPER_SQLITE_LOCK_TIMEOUT", "1")  # seconds each waits
    holder = sqlite3.connect(path, isolation_level=None)
    try:
        holder.execute("PRAGMA locking_mode=EXCLUSIVE")
        holder.execute("BEGIN EXCLUSIVE")
        holder.execute("CREATE TABLE held (a)")
        line = ["status", "-b", "c1", "--store", str(path)]
        here, typer_ = _ran(direct.main, line), _ran(main, line)
    finally:
        holder.close()
    assert here[0] == 1 and "database is locked" in here[2], here
    assert here == typer_
