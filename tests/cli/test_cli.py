"""The command line: what a player types, what comes back, exit statuses,
and that a refused command writes nothing.

Most tests run `rk` in-process (the shared ``rk`` fixture) on an SQLite file of
their own; a few run `python -m cli.main` as a separate process, as a
player's shell does."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from domain.kernel.errors import MalformedCommand
from domain.kernel.hexes import from_offset, label, parse_label

pytestmark = pytest.mark.columns(100)  # the width these tests read output at

ROOT = Path(__file__).resolve().parents[2]
PARTY = ["--party", "Ysolda:nord", "--party", "Tarn:dark-elf:bow+destruction-staff:ranged"]
NEW = ["new", "clash", "--setup", "waystone-crossing", *PARTY, "--xp", "2", "--seed", "7"]


def state(rk, *args: str) -> dict:
    return rk("status", "--json", *args).json()


@pytest.fixture
def clash(rk, store) -> dict:
    """A fresh clash (seed 7): Ysolda on a1 to act, e1 an Ash Imp on c3."""
    rk(*NEW)
    return state(rk)


# --- hex labels ---------------------------------------------------------------------


def test_hex_labels_name_column_and_row_from_a1():
    assert label(from_offset(0, 0)) == "a1"
    assert label(from_offset(2, 3)) == "c4"
    assert parse_label(" C4 ") == from_offset(2, 3)
    assert all(parse_label(label(from_offset(c, r))) == from_offset(c, r) for c in range(30) for r in range(12))


@pytest.mark.parametrize("text", ["", "c", "4", "c0", "4c", "c-1", "c 4x"])
def test_a_bad_hex_label_is_malformed(text):
    with pytest.raises(MalformedCommand, match="hex label"):
        parse_label(text)


# --- setting up and looking ------------------------------------------------------------


@pytest.mark.rule("CLASH-8")
def test_new_clash_then_status_draws_the_map_with_the_party(rk, clash):
    out = rk("status").stdout
    assert "Battle waystone-1" in out and "Round 1" in out and "Ysolda's turn" in out
    assert "     a   b   c" in out  # column letters over the map
    assert "  1  Ys  Ta" in out  # both placed on the Entrance tile (CLASH-8)
    assert "e1" in out and "Ash Imp" in out
    assert "#1 Combat" in out  # free dice carry the uids --dice takes
    assert all(len(line) <= 100 for line in out.splitlines())


def test_content_listings_need_no_battle(rk, store):
    assert "waystone-crossing" in rk("setups").stdout
    assert "dark-elf" in rk("races").stdout
    assert "Shield Bash" in rk("lines").stdout
    assert not store.exists()  # nothing opened the store


def test_legal_lists_rk_commands_that_work(rk, clash):
    lines = rk("legal").stdout.splitlines()
    # each open command on a line of its own; a long one's legend hangs under it
    assert lines and lines[0].startswith("rk ") and all(line.startswith(("rk ", "  (")) for line in lines)
    assert "rk end-turn" in lines
    first_move = next(line for line in lines if line.startswith("rk move "))
    rk(*first_move.split()[1:])


def test_an_action_narrates_its_events_then_shows_the_map(rk, clash):
    out = rk("move", "b2").stdout
    assert "MOVE-1: Ysolda moves a1 → a2 → b2" in out
    assert "moves 1/2" in out


# --- refusals ------------------------------------------------------------------------


@pytest.mark.rule("MOVE-1")
def test_an_illegal_command_exits_2_with_the_rule_and_writes_nothing(rk, clash):
    result = rk("move", "c2", code=None)  # 3 hexes away; Stamina 2
    assert result.code == 2
    assert result.stderr.strip().splitlines() == ["MOVE-1: that hex is 3 hexes away; you move at most 2 (Stamina)"]
    assert "Traceback" not in (result.stdout + result.stderr)
    assert state(rk)["version"] == clash["version"]


@pytest.mark.rule("ENGAGE-7a")
def test_gathering_more_dice_than_stamina_is_refused(rk, clash):
    result = rk("engage", "--form", "light", "--dice", "1,2,3", code=None)
    assert result.code == 2
    assert result.stderr.startswith("ENGAGE-7a: ")
    assert state(rk)["version"] == clash["version"]


@pytest.mark.parametrize(
    "args",
    [
        ["move", "9c"],
        ["move", "c0"],
        ["engage", "--form", "light", "--dice", "x"],
        ["engage", "--form", "sideways"],
        ["resolve", "--skip", "0"],
    ],
)
def test_a_malformed_command_exits_1_with_one_line(rk, clash, args):
    result = rk(*args, code=None)
    assert result.code == 1
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in (result.stdout + result.stderr)
    assert state(rk)["version"] == clash["version"]


def test_no_battle_yet_is_one_line_and_exit_1(rk, store):
    result = rk("status", code=None)
    assert result.code == 1
    assert "rk new" in result.stderr


def test_errors_come_as_json_with_json(rk, clash):
    result = rk("move", "c2", "--json", code=None)
    assert result.code == 2
    assert json.loads(result.stderr) == {
        "error": "RuleViolation",
        "rule": "MOVE-1",
        "message": "that hex is 3 hexes away; you move at most 2 (Stamina)",
    }


# --- undo and redo -------------------------------------------------------------------


def test_undo_then_redo_comes_back_to_the_same_state(rk, clash):
    rk("move", "b2")
    moved = state(rk)["state"]
    out = rk("undo").stdout
    assert "Undid" in out and "rk move b2" in out
    assert state(rk)["state"] == clash["state"]
    rk("redo")
    assert state(rk)["state"] == moved


@pytest.mark.rule("UNDO-2")
def test_undoing_a_roll_needs_force(rk, clash):
    rk("move", "b2")
    rk("engage", "--form", "light", "--target", "e1", "--dice", "1,2")
    refused = rk("undo", code=None)
    assert refused.code == 2 and refused.stderr.startswith("UNDO-2: ")
    rk("undo", "--force")
    assert state(rk)["state"]["pending"] is None


def test_log_narrates_every_event_and_marks_undone_commands(rk, clash):
    rk("move", "b2")
    rk("undo")
    rows = rk("log", json=True).json()
    assert [r["version"] for r in rows] == list(range(1, len(rows) + 1))
    moved = [r for r in rows if r["command_id"] == "c14"]
    assert moved and all(r["undone"] for r in moved)
    text = rk("log").stdout
    assert "rk move b2" in text and "↶" in text


# --- JSON ----------------------------------------------------------------------------


def test_json_output_parses_for_looking_and_acting(rk, clash):
    assert state(rk)["battle"] == "waystone-1"
    legal = rk("legal", json=True).json()
    assert {"rk": "rk end-turn", "command": {"type": "EndTurn"}, "open": False} in [
        {k: e[k] for k in ("rk", "command", "open")} for e in legal
    ]
    acted = rk("--json", "move", "b2").json()
    assert [e["type"] for e in acted["events"]] == ["CommandIssued", "HeroMoved"]
    assert acted["narration"] == ["MOVE-1: Ysolda moves a1 → a2 → b2"]
    for listing in ("setups", "races", "lines", "battles"):
        rk(listing, json=True).json()


# --- physical dice ------------------------------------------------------------------


def test_physical_faces_are_typed_from_1_to_6(rk, store):
    rk(*NEW, "--physical-dice")
    assert "--faces FACES" in rk("legal").stdout  # one per die of --dice (ENGAGE-7)
    rk("move", "b2")
    out = rk("engage", "--form", "light", "--target", "e1", "--dice", "1,2", "--faces", "1,6").stdout
    assert "1 (Tenacity)" in out and "6 (combat 2)" in out
    assert [d[2] for d in state(rk)["state"]["pending"]["dice"]] == [0, 5]


# --- whole sessions -----------------------------------------------------------------


def test_demo_plays_a_clash_to_its_end(rk, store):
    out = rk("demo", "--seed", "3").stdout
    assert "rk undo" in out and "rk redo" in out
    assert "Battle over" in out
    assert len(out.splitlines()) < 90
    battle = rk("battles", json=True).json()[-1]
    assert battle["over"] and battle["ruleset"] == "betrayal" and battle["battle"].startswith("demo-")


def test_demo_twice_in_one_store_does_not_collide(rk, store):
    rk("demo", "--seed", "3")
    rk("demo", "--seed", "3")
    assert len(rk("battles", json=True).json()) == 2


def test_play_reads_commands_until_quit_and_survives_errors(rk, clash):
    result = rk("play", input='status\nmove zz9\nlegal\n"unclosed\nmove b2\nquit\nstatus\n', code=None)
    assert result.code == 0
    assert "Battle waystone-1" in result.stdout
    assert "rk end-turn" in result.stdout  # legal ran after the error
    assert "MOVE-1: hex zz9 is not on this map" in result.stderr
    assert state(rk)["state"]["turn"]["moves"] == 1  # the move after the errors was made


def test_play_ends_cleanly_at_end_of_input(rk, clash):
    rk("play", input="legal\n")


# --- logs and read models -------------------------------------------------------------


def test_export_then_verify_holds_and_an_edit_does_not(rk, clash, tmp_path):
    pytest.importorskip("domain.kernel.portable")
    rk("move", "b2")
    log = tmp_path / "waystone-1.jsonl"
    rk("export", "-o", str(log))
    rk("verify", str(log))
    rk("verify")
    text = log.read_text()
    assert '"seed":7' in text
    log.write_text(text.replace('"seed":7', '"seed":8', 1))  # an edit breaks the hash chain
    assert rk("verify", str(log), code=None).code == 1


def test_read_models_render_as_tables_and_json(rk, clash):
    pytest.importorskip("projections.views")
    rk("move", "b2")
    for view in ("track", "pool", "audit"):
        rk(view)
        assert isinstance(rk(view, json=True).json(), list)


# --- as a separate process -------------------------------------------------------------


def test_rk_as_a_process_exits_with_the_right_status(rk, store):
    rk.process(*NEW)
    illegal = rk.process("move", "c2", code=None)
    assert illegal.code == 2 and illegal.stderr.startswith("MOVE-1: ")
    malformed = rk.process("move", "c0", code=None)
    assert malformed.code == 1 and "Traceback" not in malformed.stderr
    usage = rk.process("move", code=None)
    assert usage.code == 1  # usage errors are not rule violations (2)


def test_help_imports_neither_eventsourcing_nor_the_rules():
    """Help lists every ruleset's verbs from its surface (its commands and
    words), never loading its rules. A ruleset's modules are named by their
    path in its package, at any depth (Betrayal's sub-packages hold only a
    docstring in their ``__init__``)."""
    probe = (
        "import sys\n"
        "from cli.main import main\n"
        "code = main(['--help'])\n"
        "light = ('surface', 'commands', 'vocab', 'options', 'sheets', 'catalog', 'read_models', 'request',"
        " 'read_models.declared', 'table', 'table.battle_surface', 'table.campaign_surface', 'table.party',"
        " 'table.kinds', 'table.companion_kind', 'battle', 'battle.commands', 'battle.companions',"
        " 'battle.companions.commands', 'campaign', 'campaign.commands',"
        " 'delve', 'delve.deck')\n"  # the item deck's struct travels in a setup command
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('eventsourcing', 'pydantic')"
        " or (m.startswith('domain.') and m.count('.') >= 2 and m.split('.')[1] != 'kernel'"
        " and m.split('.', 2)[2] not in light))\n"
        "print(code, heavy, file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.stderr.strip().splitlines()[-1] == "0 []"


def test_a_command_does_not_import_pydantic(clash):
    """typer would coerce values through pydantic (~0.2 s a command)."""
    probe = (
        "import sys\n"
        "from cli.main import main\n"
        "code = main(['status', '--battle', 'waystone-1'])\n"
        "print(code, [m for m in sys.modules if m.startswith('pydantic')], file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=60, env=dict(os.environ)
    )
    assert done.stderr.strip().splitlines()[-1] == "0 []"


def test_status_at_an_earlier_event_shows_the_battle_as_it_stood_then(rk, clash):
    """Replaying to any point: after a move, --at the version before it shows
    the adventurer still on its old hex, and past the end is refused."""
    before = state(rk)
    rk("move", "b2")
    now = state(rk)
    then = state(rk, "--at", str(before["version"]))
    assert then["state"] == before["state"] != now["state"]
    assert "As it stood after event" in rk("status", "--at", "3").stdout
    refused = rk("status", "--at", str(now["version"] + 1), code=None)
    assert refused.code == 1 and "only" in refused.stderr


def test_status_at_the_setup_command_says_where_the_first_board_is(rk, clash):
    """Version 1 of a game is the command that sets it up, before any board
    exists: `--at 1` says so and names the first version with a board,
    rather than claiming there is no such battle."""
    refused = rk("status", "--at", "1", code=None)
    assert refused.code == 1
    assert "has no board at version 1" in refused.stderr
    assert "first board is at version 2" in refused.stderr
    assert "As it stood after event 2" in rk("status", "--at", "2").stdout
