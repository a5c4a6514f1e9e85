"""The command line against hostile input: huge numbers, escape codes in
names, seeds and XP beyond what the store or the rules keep, and `rk battles`
read from its read model. A refused command is one line on stderr, never a
traceback, and writes nothing."""

from __future__ import annotations

import contextlib
import io
import json
import sqlite3
from pathlib import Path

import pytest

from cli.main import main
from cli.session import Defaults

NINES = "9" * 5000
NEW_CLASH = ["new", "clash", "--setup", "waystone-crossing", "--party", "Ysolda:nord", "--seed", "7"]
NEW_CONQUEST = ["new", "conquest", "--scenario", "border-clash", "--army", "saltmarch", "--army", "cinderpact",
                "--seed", "7"]
EVIL = "Evil\x1b]0;PWNED\x07"


def run(store: Path, *args: str) -> tuple[int, str, str]:
    """``rk --store STORE args`` in-process: exit status, stdout, stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["--store", f"sqlite:{store}", *args], obj=Defaults())
    return code, out.getvalue(), err.getvalue()


def written(store: Path) -> int:
    """How many events the store holds (its notification log's end)."""
    con = sqlite3.connect(store)
    try:
        return con.execute("SELECT count(*) FROM stored_events").fetchone()[0]
    finally:
        con.close()


def refused(store: Path, *args: str) -> str:
    """Run a command that must be refused: one line on stderr, nothing written."""
    before = written(store)
    code, _, err = run(store, *args)
    assert code in (1, 2), err
    assert "Traceback" not in err and err.strip() and err.strip().count("\n") == 0, err
    assert len(err) < 500, err
    assert written(store) == before
    return err.strip()


@pytest.fixture
def store(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("RULEKEEPER_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("COLUMNS", "100")
    path = tmp_path / "rk.sqlite"
    assert run(path, *NEW_CLASH)[0] == 0
    return path


# --- 12: every argument parser is bounded ---------------------------------------------


@pytest.mark.parametrize("args", [
    ["move", f"c{NINES}"], ["move", f"{'c' * 5000}4"], ["engage", "--form", "light", "--dice", NINES],
    ["resolve", "--skip", NINES], ["roll-enemy", NINES], ["clear", NINES], ["status", "--at", NINES],
    ["status", "--at", str(2**63)], ["status", "--at", "-1"], ["move", "c4\x00"], ["clear", "0"],
], ids=lambda a: " ".join(x[:12] for x in a))
def test_a_huge_or_broken_argument_is_refused_in_one_line_and_writes_nothing(store, args):
    refused(store, *args)


def test_a_usage_error_is_one_line_naming_the_help(store):
    assert refused(store, "clear", "x").endswith("(see `rk clear -h`)")
    assert "No such command" in refused(store, "nosuch\x1b[2J")
    assert "\x1b" not in refused(store, "nosuch\x1b[2J")


# --- 13: no escape code reaches the terminal -----------------------------------------------


def test_a_name_with_a_control_character_is_refused(store):
    message = refused(store, "new", "clash", "--setup", "waystone-crossing", "--party", f"{EVIL}:nord")
    assert "control character" in message and "\x1b" not in message


def test_names_from_a_log_written_without_the_check_are_printed_escaped(store, monkeypatch):
    """An imported log may carry a name the rules would refuse now: output
    escaping holds on its own, in status, log, battles and audit."""
    import domain.betrayal.adventurer.aggregate as adventurer
    import domain.betrayal.battle.application as application
    import domain.betrayal.battle.setup as setup

    for module in (adventurer, application, setup):
        monkeypatch.setattr(module, "check_name", lambda name, what="": None)
    assert run(store, "new", "clash", "--setup", "waystone-crossing", "--party",
               f"{EVIL}[bold]y[/bold]\u202e:nord", "--battle", "evil")[0] == 0
    monkeypatch.undo()
    for command in (["status"], ["log"], ["battles"], ["audit"], ["legal"], ["end-turn"]):
        code, out, err = run(store, "--battle", "evil", *command)
        assert code == 0, err
        assert not {"\x1b", "\x07", "\u202e"} & set(out + err), command
        assert "\\x1b" in out or command in (["legal"],), command
        assert "[bold]y[/bold]" in out or command in (["legal"], ["battles"]), command  # markup shown as typed
    code, out, _ = run(store, "--json", "battles")
    assert EVIL in json.loads(out)[-1]["who"]  # JSON keeps the name, escaped by JSON itself


# --- 15: seeds and XP within bounds -------------------------------------------------------


@pytest.mark.parametrize("new", [NEW_CLASH, NEW_CONQUEST], ids=["clash", "conquest"])
@pytest.mark.parametrize("seed", [str(2**64), str(2**63), "-1"])
def test_a_seed_outside_0_to_2_63_is_refused(store, new, seed):
    args = [*new[:-1], seed]
    assert "--seed" in refused(store, *args)


def test_a_seed_of_2_63_minus_1_is_kept(store):
    assert run(store, *NEW_CLASH[:-1], str(2**63 - 1), "--battle", "big")[0] == 0


def test_xp_beyond_the_dial_is_refused_citing_ep_2(store):
    assert refused(store, *NEW_CLASH, "--xp", str(2**63 - 1)).startswith("EP-2: ")
    assert "--xp" in refused(store, *NEW_CLASH, "--xp", str(2**63))
    assert refused(store, *NEW_CLASH, "--xp", "81").startswith("EP-2: ")
    assert "--xp" in refused(store, *NEW_CLASH, "--xp", "-1")


# --- 16: rk battles from its read model ----------------------------------------------------


def test_rk_battles_lists_where_each_game_stands_after_undo_and_redo(store):
    from domain.kernel.games import GameApp

    assert run(store, *NEW_CONQUEST)[0] == 0
    assert run(store, *NEW_CLASH[:-1], "8", "--battle", "second")[0] == 0
    assert run(store, "--battle", "second", "move", "b2")[0] == 0
    assert run(store, "--battle", "second", "end-turn")[0] == 0
    for step in (["undo", "--force"], ["undo"], ["redo"]):
        assert run(store, "--battle", "second", *step)[0] == 0, step
        code, out, err = run(store, "--json", "battles")
        listed = json.loads(out)
        with GameApp(store=f"sqlite:{store}") as app:
            expected = []
            for g in app.battles():
                game = app.battle(g.battle_id)
                summary = app.ruleset(g.battle_id).summary(game.state)
                expected.append({"battle": g.battle_id, "name": g.battle_id, "ruleset": g.ruleset,
                                 "setup": summary.setup, "round": summary.round, "phase": summary.where,
                                 "over": summary.over, "who": summary.who, "version": game.version,
                                 "deleted": False, "current": g.battle_id == "second"})
        assert listed == expected, step


def test_the_quick_battles_table_prints_what_rich_prints():
    from hypothesis import given, settings
    from hypothesis import strategies as st
    from rich.console import Console
    from rich.table import Table
    from rich import box
    from rich.text import Text

    from cli.history import BATTLE_COLUMNS, simple_table

    cell = st.text(st.characters(blacklist_categories=("Cc", "Cs", "Co", "Cn", "Cf", "Zl", "Zp", "Mn", "Me")),
                   max_size=14)

    n = len(BATTLE_COLUMNS)

    @settings(max_examples=60, deadline=None)
    @given(st.lists(st.lists(cell, min_size=n, max_size=n), max_size=6), st.sampled_from([60, 100, 140]))
    def same(cells, width):
        def printed(renderable) -> str:
            console = Console(file=io.StringIO(), width=width, highlight=False, markup=False, emoji=False)
            console.print(renderable)
            return console.file.getvalue()

        table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
        for name, justify in BATTLE_COLUMNS:
            table.add_column(name, justify=justify)
        for row in cells:
            table.add_row(*(Text(c) for c in row))
        assert printed(simple_table(BATTLE_COLUMNS, cells, width)) == printed(table)

    same()


def test_the_quick_battles_table_leaves_zero_width_characters_to_rich():
    """Found by the property above on a fresh run: a Hangul filler (no cell
    wide) that rich's table drops was written out by the quick path."""
    from rich import box
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from cli.history import BATTLE_COLUMNS, simple_table

    def printed(renderable) -> str:
        console = Console(file=io.StringIO(), width=60, highlight=False, markup=False, emoji=False)
        console.print(renderable)
        return console.file.getvalue()

    for odd in ("\u1160", "\uffa0", "e\u0301"):
        cells = [[odd, "", "", "", "", ""]]
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
        for name, justify in BATTLE_COLUMNS:
            table.add_column(name, justify=justify)
        table.add_row(*(Text(c) for c in cells[0]))
        assert printed(simple_table(BATTLE_COLUMNS, cells, 60)) == printed(table)
