"""The command line against hostile input: huge numbers, escape codes in
names, seeds and XP beyond what the store or the rules keep, and `rk battles`
read from its read model. A refused command is one line on stderr, never a
traceback, and writes nothing."""

from __future__ import annotations

import io
import json
import sqlite3
from pathlib import Path

import pytest

pytestmark = pytest.mark.columns(100)  # the width these tests read output at

NINES = "9" * 5000
NEW_CLASH = ["new", "clash", "--setup", "waystone-crossing", "--party", "Ysolda:nord", "--seed", "7"]
NEW_CONQUEST = [
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
EVIL = "Evil\x1b]0;PWNED\x07"


def written(store: Path) -> int:
    """How many events the store holds (its notification log's end)."""
    con = sqlite3.connect(store)
    try:
        return con.execute("SELECT count(*) FROM stored_events").fetchone()[0]
    finally:
        con.close()


def refused(rk, store: Path, *args: str) -> str:
    """Run a command that must be refused: one line on stderr, nothing written."""
    before = written(store)
    code, _, err = rk("--store", f"sqlite:{store}", *args, code=None)
    assert code in (1, 2), err
    assert "Traceback" not in err and err.strip() and err.strip().count("\n") == 0, err
    assert len(err) < 500, err
    assert written(store) == before
    return err.strip()


@pytest.fixture
def clash(rk, store) -> Path:
    """The store holds one clash (seed 7)."""
    rk(*NEW_CLASH)
    return store


# --- 12: every argument parser is bounded ---------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["move", f"c{NINES}"],
        ["move", f"{'c' * 5000}4"],
        ["engage", "--form", "light", "--dice", NINES],
        ["resolve", "--skip", NINES],
        ["roll-enemy", NINES],
        ["clear", NINES],
        ["status", "--at", NINES],
        ["status", "--at", str(2**63)],
        ["status", "--at", "-1"],
        ["move", "c4\x00"],
        ["clear", "0"],
    ],
    ids=lambda a: " ".join(x[:12] for x in a),
)
def test_a_huge_or_broken_argument_is_refused_in_one_line_and_writes_nothing(rk, clash, store, args):
    refused(rk, store, *args)


def test_a_usage_error_is_one_line_naming_the_help(rk, clash, store):
    assert refused(rk, store, "clear", "x").endswith("(see `rk clear -h`)")
    assert "No such command" in refused(rk, store, "nosuch\x1b[2J")
    assert "\x1b" not in refused(rk, store, "nosuch\x1b[2J")


# --- 13: no escape code reaches the terminal -----------------------------------------------


def test_a_name_with_a_control_character_is_refused(rk, clash, store):
    message = refused(rk, store, "new", "clash", "--setup", "waystone-crossing", "--party", f"{EVIL}:nord")
    assert "control character" in message and "\x1b" not in message


def test_names_from_a_log_written_without_the_check_are_printed_escaped(rk, clash, store, monkeypatch):
    """An imported log may carry a name the rules would refuse now: output
    escaping holds on its own, in status, log, battles and audit."""
    import domain.betrayal.adventurer.aggregate as adventurer
    import domain.betrayal.battle.application as application
    import domain.betrayal.battle.setup as setup

    for module in (adventurer, application, setup):
        monkeypatch.setattr(module, "check_name", lambda name, what="": None)
    assert (
        rk(
            "--store",
            f"sqlite:{store}",
            "new",
            "clash",
            "--setup",
            "waystone-crossing",
            "--party",
            f"{EVIL}[bold]y[/bold]\u202e:nord",
            "--battle",
            "evil",
            code=None,
        ).code
        == 0
    )
    monkeypatch.undo()
    for command in (["status"], ["log"], ["battles"], ["audit"], ["legal"], ["end-turn"]):
        code, out, err = rk("--store", f"sqlite:{store}", "--battle", "evil", *command, code=None)
        assert code == 0, err
        assert not {"\x1b", "\x07", "\u202e"} & set(out + err), command
        assert "\\x1b" in out or command in (["legal"],), command
        assert "[bold]y[/bold]" in out or command in (["legal"], ["battles"]), command  # markup shown as typed
    code, out, _ = rk("--store", f"sqlite:{store}", "--json", "battles", code=None)
    assert EVIL in json.loads(out)[-1]["who"]  # JSON keeps the name, escaped by JSON itself


# --- 15: seeds and XP within bounds -------------------------------------------------------


@pytest.mark.parametrize("new", [NEW_CLASH, NEW_CONQUEST], ids=["clash", "conquest"])
@pytest.mark.parametrize("seed", [str(2**64), str(2**63), "-1"])
def test_a_seed_outside_0_to_2_63_is_refused(rk, clash, store, new, seed):
    args = [*new[:-1], seed]
    assert "--seed" in refused(rk, store, *args)


def test_a_seed_of_2_63_minus_1_is_kept(rk, clash, store):
    rk("--store", f"sqlite:{store}", *NEW_CLASH[:-1], str(2**63 - 1), "--battle", "big")


def test_xp_beyond_the_dial_is_refused_citing_ep_2(rk, clash, store):
    assert refused(rk, store, *NEW_CLASH, "--xp", str(2**63 - 1)).startswith("EP-2: ")
    assert "--xp" in refused(rk, store, *NEW_CLASH, "--xp", str(2**63))
    assert refused(rk, store, *NEW_CLASH, "--xp", "81").startswith("EP-2: ")
    assert "--xp" in refused(rk, store, *NEW_CLASH, "--xp", "-1")


# --- 16: rk battles from its read model ----------------------------------------------------


def test_rk_battles_lists_where_each_game_stands_after_undo_and_redo(rk, clash, store):
    from domain.kernel.games import GameApp

    rk("--store", f"sqlite:{store}", *NEW_CONQUEST)
    rk("--store", f"sqlite:{store}", *NEW_CLASH[:-1], "8", "--battle", "second")
    rk("--store", f"sqlite:{store}", "--battle", "second", "move", "b2")
    rk("--store", f"sqlite:{store}", "--battle", "second", "end-turn")
    for step in (["undo", "--force"], ["undo"], ["redo"]):
        rk("--store", f"sqlite:{store}", "--battle", "second", *step)
        code, out, err = rk("--store", f"sqlite:{store}", "--json", "battles", code=None)
        listed = json.loads(out)
        with GameApp(store=f"sqlite:{store}") as app:
            expected = []
            for g in app.battles():
                game = app.battle(g.battle_id)
                summary = app.ruleset(g.battle_id).summary(game.state)
                expected.append(
                    {
                        "battle": g.battle_id,
                        "name": g.battle_id,
                        "ruleset": g.ruleset,
                        "setup": summary.setup,
                        "round": summary.round,
                        "phase": summary.where,
                        "over": summary.over,
                        "who": summary.who,
                        "version": game.version,
                        "deleted": False,
                        "current": g.battle_id == "second",
                    }
                )
        assert listed == expected, step


def test_the_quick_battles_table_prints_what_rich_prints():
    from hypothesis import given, settings
    from hypothesis import strategies as st
    from rich.console import Console
    from rich.table import Table
    from rich import box
    from rich.text import Text

    from cli.history import BATTLE_COLUMNS, simple_table

    cell = st.text(
        st.characters(blacklist_categories=("Cc", "Cs", "Co", "Cn", "Cf", "Zl", "Zp", "Mn", "Me")), max_size=14
    )

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
