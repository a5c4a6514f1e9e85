"""`rk log`, `rk audit`, `rk undo` and `rk redo` in the game's words (issue
10, point 5): no internal command id in what a player reads, an undo named
by the command as typed and the events it wrote; the ids stay in --json.
Long output is paged on a terminal only (point 4): never when piped, never
with --no-pager."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest


ROOT = Path(__file__).resolve().parents[2]
NEW = [
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
# waystone-crossing has rows 1 to 7: a letter and two digits is never a hex
# there, and a command id from the fourteenth event on always is.
COMMAND_ID = re.compile(r"\b[cu]\d{2,}\b")


@pytest.fixture
def session(rk, store) -> dict[str, str]:
    """A clash with a move undone and redone, then a roll undone with
    --force: what each of those commands printed, by name."""
    rk(*NEW)
    said = {"move": rk("move", "b2").stdout, "undo": rk("undo").stdout, "redo": rk("redo").stdout}
    said["engage"] = rk("engage", "--form", "light", "--target", "e1", "--dice", "1,2").stdout
    said["forced undo"] = rk("undo", "--force").stdout
    return said


def flat(text: str) -> str:
    """``text`` with its lines joined: what a wrapped line says."""
    return " ".join(text.split())


def command_ids(rk) -> set[str]:
    """Every command id of the battle's log, as --json gives them."""
    return {row["command_id"] for row in rk("log", json=True).json()}


def test_no_command_id_in_what_a_player_reads(rk, session):
    ids = {i for i in command_ids(rk) if int(i[1:]) >= 10}
    assert ids  # the moves, undos and redos of the session
    for name, out in {**session, "log": rk("log").stdout, "audit": rk("audit").stdout}.items():
        assert not COMMAND_ID.search(out), (name, COMMAND_ID.search(out), out)
        assert not ids & set(re.findall(r"\w+", out)), name


def test_undo_and_redo_say_the_command_as_typed(session):
    assert session["undo"].startswith("Undid the last command, rk move b2\n")
    assert session["redo"].startswith("Redid rk move b2\n")
    assert flat(session["forced undo"]).startswith(
        "Undid the last command, rk engage --form light --target e1 --dice 1,2 (it had revealed dice"
    )


def test_the_log_names_what_each_undo_reverted_with_its_events(rk, session):
    rows = rk("log", json=True).json()
    moved = [r["version"] for r in rows if r["undone"] and "b2" in r["text"]]
    text = flat(rk("log").stdout)
    assert f"UNDO-1: rk move b2 (events {moved[0]}-{moved[-1]}) is reverted; back to round 1" in text
    assert "rk move b2 (redone)" in text
    assert "UNDO-2: " in text and "is reverted with force, past the dice or draw it revealed" in text
    assert "↶ marks the events of 2 undone command(s)" in text


def test_the_log_is_numbered_by_version_as_status_at_counts(rk, session):
    rows = rk("log", json=True).json()
    text = rk("log").stdout
    numbers = [int(m[1]) for m in re.finditer(r"^ *(\d+) ", text, re.M)]
    assert numbers == [r["version"] for r in rows] == list(range(1, len(rows) + 1))
    undone = [r["version"] for r in rows if r["undone"]]
    marked = [int(m[1]) for m in re.finditer(r"^ *(\d+) ↶ ", text, re.M)]
    assert marked == undone
    assert all(len(line) <= 80 for line in text.splitlines())


def test_the_audit_marks_undone_events_with_the_undo_version(rk, session):
    rows = rk("audit", json=True).json()
    undo = next(r for r in rows if r["event"] == "CommandUndone")
    text = rk("audit").stdout
    assert all(len(line) <= 80 for line in text.splitlines())
    text = flat(text)
    assert f"(undone at v{undo['version']})" in text
    assert "UNDO-1: rk move b2 (events " in text
    assert "forced)" in text  # the undo past the roll


def test_json_keeps_the_command_ids(rk, session):
    rows = rk("log", json=True).json()
    undos = [r for r in rows if r["event"]["type"] == "CommandUndone"]
    assert len(undos) == 2 and all(r["command_id"].startswith("u") for r in undos)
    assert all(r["event"]["command_id"].startswith("c") for r in undos)  # the command each one reverted
    audit = rk("audit", json=True).json()
    assert {r["undone_by"] for r in audit if r["undone"]} == {r["command_id"] for r in undos}
    redo = rk("redo", json=True).json()
    assert redo["command_id"].startswith("c")


# --- the pager ------------------------------------------------------------------------


def run_rk(store: Path, *args: str, pager: str, tty: bool) -> str:
    """``rk ARGS`` as a process, its stdout a pipe or a 12-row terminal,
    with ``$PAGER`` set; what it wrote to stdout."""
    env = {
        **os.environ,
        "RULEKEEPER_STORE": str(store),
        "COLUMNS": "80",
        "PAGER": pager,
        "RULEKEEPER_NO_SERVER": "1",
        "RULEKEEPER_HOME": str(store.parent),
    }
    env.pop("LINES", None)
    command = [sys.executable, "-m", "cli.main", *args]
    if not tty:
        done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        return done.stdout
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 12, 80, 0, 0))
    child = subprocess.Popen(
        command, cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=follower, stderr=subprocess.PIPE
    )
    os.close(follower)
    out = b""
    while True:  # read until the child closes the terminal, so it never blocks on a full one
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # EIO: no writer is left
            break
        if not chunk:
            break
        out += chunk
    os.close(leader)
    assert child.wait(timeout=60) == 0, child.stderr.read()
    child.stderr.close()
    return out.decode("utf-8", "replace")


@pytest.mark.parametrize("command", ["log", "audit"])
def test_long_output_goes_through_the_pager_on_a_terminal_only(session, store, tmp_path, command):
    paged = tmp_path / "paged.txt"
    pager = f"cat > {paged}"
    piped = run_rk(store, command, pager=pager, tty=False)
    assert not paged.exists() and "rk move b2" in piped  # a pipe gets the text itself
    shown = run_rk(store, command, pager=pager, tty=True)
    assert "rk move b2" not in shown and "rk move b2" in paged.read_text()  # taller than 12 rows
    paged.unlink()
    straight = run_rk(store, command, "--no-pager", pager=pager, tty=True)
    assert not paged.exists() and "rk move b2" in straight
    assert not paged.exists() and "rk move b2" in run_rk(store, command, "--json", pager=pager, tty=True)


# --- the lines themselves ----------------------------------------------------------------


def test_lines_wrap_under_their_text_within_the_width_wide_letters_and_all():
    from rich.cells import cell_len

    from cli.lines import BOLD, Entry, layout

    entries = [
        Entry("7", "Ysolda moves " + "→ b2 " * 30, BOLD),
        Entry("12", "雪" * 100, indent=2),
        Entry("13", "x" * 200),
        Entry("14", "a name with an escape \x1b[31m in it"),
    ]
    lines = layout(entries, 40, styled=False)
    assert all(cell_len(line) <= 40 for line in lines)
    assert lines[0].startswith(" 7   Ysolda moves → b2") and lines[1].startswith("     b2 → ")
    assert "\n".join(lines).endswith("14   a name with an escape \\x1b[31m in\n     it")  # shown, not obeyed
    assert "\x1b" not in "".join(lines)
    styled = layout(entries[:1], 40, styled=True)
    assert styled[0].startswith("\x1b[2m7\x1b[0m   \x1b[1mYsolda")


def test_undo_with_json_on_a_conquest_battle_narrates_the_restored_state(tmp_path):
    """Found by the random-arguments property test: `rk --json undo` on a
    Conquest battle folded the kernel's undo event through Conquest's evolve."""

    from cli.main import main
    from cli.session import Defaults

    store = f"sqlite:{tmp_path / 'rk.sqlite'}"
    assert (
        main(
            [
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
                "--name",
                "war",
            ],
            obj=Defaults(store=store),
        )
        == 0
    )
    assert main(["--battle", "war", "surrender", "--side", "1"], obj=Defaults(store=store)) == 0
    # the surrender ended the battle and revealed its seed (SEED-2): undone only with force
    assert main(["--json", "--battle", "war", "undo", "--force"], obj=Defaults(store=store)) == 0
