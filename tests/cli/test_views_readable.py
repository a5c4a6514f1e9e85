"""`rk pool` and `rk audit` print for a player (issue 10, point 2): the pool
as a table of EP and draws, the audit as narrated lines with rule IDs, both
at 80 columns and piped; `--json` keeps every field of the read models."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cli.output import to_json
from domain.betrayal.battle.application import BetrayalApp

import betrayal_views as views  # noqa: E402

NEW_CLASH = ["new", "clash", "--setup", "waystone-crossing", "--party", "Ysolda:nord", "--xp", "2", "--seed", "7"]
NEW_DELVE = ["new", "delve", "--delve", "whispering-barrow", "--party", "Ysolda:nord", "--xp", "2", "--seed", "7"]
MICROSECONDS = re.compile(r"\d\d:\d\d:\d\d\.\d{6}")
ENTRY = re.compile(r"^v\d+ ")


@pytest.fixture
def delve(rk, store) -> Path:
    """A delve with one tile placed: its fresh EP, a draw and a discard."""
    rk(*NEW_DELVE)
    rk("explore", "ag31")
    place = next(line for line in rk("legal").stdout.splitlines() if line.startswith("rk place-tile"))
    rk(*place.split()[1:])
    return store


def assert_pool_table(out: str, draws: int) -> None:
    lines = out.splitlines()
    assert all(len(line) <= 80 for line in lines)
    header = next(line.split() for line in lines if line.split()[:1] in (["kind"], ["tile"]))
    assert {"kind", "rule", "foe", "hex", "enemy", "level", "note"} <= set(header)
    assert "draw" not in header and "quest" not in header and "notification" not in out
    rows = [line for line in lines if re.match(r"^(t\d+ +)?draw ", line)]
    assert len(rows) == draws
    assert "draw -1" not in out and "ep left" not in out and "discarded 0" not in out


def assert_audit_lines(out: str, rows: list) -> None:
    assert "notification" not in out and "command id" not in out and not MICROSECONDS.search(out)
    entries = [line for line in out.splitlines() if ENTRY.match(line)]
    assert len(entries) == len(rows)  # one entry per event; wrapped text continues indented
    assert all(
        line.startswith(" ") for line in out.splitlines() if line and not ENTRY.match(line) and not line.startswith("↶")
    )
    for line, row in zip(entries, rows):
        assert line.startswith(f"v{row.version} ")
        if row.rule:
            assert f"{row.rule}: " in line


def rows_of(rk, store: Path, view: str):
    """The rows ``projections.views`` gives for the current battle."""
    app_ = BetrayalApp(store=f"sqlite:{store}")
    try:
        battle = rk("status", json=True).json()["battle"]
        return getattr(views, view)(app_, battle)
    finally:
        views.close_views(app_)
        app_.close()


def test_rk_pool_is_a_table_of_ep_and_draws(rk, store):
    rk(*NEW_CLASH)
    for out in (rk("pool").stdout, rk.process("pool").stdout):
        assert_pool_table(out, draws=2)
        assert re.search(r"^draw +CLASH-7a, EP-4 +1 +e1 +c3 +Ash Imp +1 +1 ", out, re.M)
        assert re.search(r"^ep +EP-2 +2 +EP = XP 2( |$)", out, re.M)
        assert "x party size 1 = 2" in out  # a term of the sum is never split


def test_rk_pool_of_a_delve_shows_the_tile(rk, delve):
    for out in (rk("pool").stdout, rk.process("pool").stdout):
        assert_pool_table(out, draws=1)
        assert re.search(r"^t1 +ep +DELVE-4 ", out, re.M)
        assert re.search(r"^t1 +discarded +EXPLORATION-11c ", out, re.M)


def test_rk_audit_is_narrated_with_rule_ids(rk, store):
    rk(*NEW_CLASH)
    rows = rows_of(rk, store, "audit")
    for out in (rk("audit").stdout, rk.process("audit").stdout):
        assert_audit_lines(out, rows)
        assert "CLASH-7a: e1 Ash Imp" in out
        assert "[adventurer:Ysolda] HEALTH-1: Ysolda" in out  # another stream than the battle's, named


def test_rk_audit_of_a_delve_marks_an_undone_command(rk, delve):
    rk("undo", "--force")
    rows = rows_of(rk, delve, "audit")
    assert any(r.undone for r in rows)
    out = rk("audit").stdout
    assert_audit_lines(out, rows)
    assert "[delve:" in out and "(undone at v" in out and "↶ marks the events of 1 undone command(s)" in out


@pytest.mark.parametrize("view, command", [("enemy_pool", "pool"), ("audit", "audit")])
def test_json_keeps_the_rows_of_the_read_models(rk, delve, view, command):
    rows = rows_of(rk, delve, view)
    assert rk(command, "--json").stdout == to_json(rows) + "\n"
    first = rk(command, json=True).json()[0]
    if view == "audit":
        assert {"notification_id", "at", "command_id"} <= set(first)
    else:
        assert {"draw", "quest", "discarded", "ep_left"} <= set(first)


NEW_PARTY = [
    "new",
    "clash",
    "--setup",
    "waystone-crossing",
    "--party",
    "Ysolda:nord",
    "--party",
    "Tarn:dark-elf:bow+destruction-staff:ranged",
    "--xp",
    "2",
    "--seed",
    "7",
]


@pytest.fixture
def engaged(rk, store) -> Path:
    """The README's clash after Ysolda's and Tarn's engages: both tracks hold dice."""
    rk(*NEW_PARTY)
    for command in (
        ["move", "b2"],
        ["engage", "--form", "light", "--target", "e1", "--dice", "1,2"],
        ["resolve"],
        ["end-turn"],
        ["engage", "--form", "magic", "--target", "e2", "--dice", "5,6"],
        ["resolve"],
    ):
        rk(*command)
    return store


def test_rk_track_names_the_dice_without_ids(rk, engaged):
    for out in (rk("track").stdout, rk.process("track").stdout):
        assert all(len(line) <= 80 for line in out.splitlines())
        header = next(line.split() for line in out.splitlines() if line.strip())
        assert header == ["adventurer", "position", "die", "kind", "face", "shows"]
        assert "cinder-bolt" not in out and "tarn" not in out and "ysolda" not in out  # ids are for --json
        assert re.search(r"^Ysolda +1 +#1 Combat +skill +5 +combat 1 *$", out, re.M)
        assert re.search(r"^ +2 +#2 Combat +skill +3 +combat 1 *$", out, re.M)  # named once per adventurer
        assert re.search(r"^Tarn +1 +#5 Cinder Bolt +skill +3 +instant damage 2 *$", out, re.M)
    rows = rows_of(rk, engaged, "cooldown_track")
    assert rk("track", "--json").stdout == to_json(rows) + "\n"
    assert {"hero", "hero_name", "uid", "die", "die_name", "face", "shown"} <= set(rk("track", json=True).json()[0])


def test_rk_adventurer_keeps_each_die_whole_at_80_columns(rk, engaged):
    for name, dice in (("Ysolda", ["#6 Brace", "#7 Second Wind"]), ("Tarn", ["#5 Cinder Bolt", "#6 Rime Veil"])):
        for out in (rk("adventurer", name).stdout, rk.process("adventurer", name).stdout):
            assert all(len(line) <= 80 for line in out.splitlines())
            assert not re.search(r"#\d+,? *$", out, re.M)  # a die's number never ends a line
            for die in dice:
                assert die in out


def test_rk_pool_notes_break_between_phrases_at_80_columns(rk, engaged):
    out = rk.process("pool").stdout
    assert all(len(line) <= 80 for line in out.splitlines())
    assert "x party size 2 = 4" in out  # not "party size" then "2 = 4"
    assert not re.search(r"(size|level|XP|EP) *$", out, re.M)
    assert re.search(r" the EP reached 0: *$", out, re.M)  # a phrase too wide starts a line of its own
    assert re.search(r"^ +no more enemies are *$", out, re.M)
