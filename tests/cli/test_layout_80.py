"""Text output at 80 columns, piped: no line is wider than the screen, none
is cut short, and no line breaks inside a phrase a player reads as one (an
enemy's name and state, a command with its options, `--battle` and its
id). The maps show their tiles without colour: each hex its tile's letter,
and a bar between two hexes of different tiles side by side.

Each command runs in-process on an SQLite file of the test's own, output
captured as a pipe would take it (no terminal, so no colour); one test runs
`rk status` in a pseudo-terminal with NO_COLOR set."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
from pathlib import Path

from cli.hexmap import TILE_EDGE

ROOT = Path(__file__).resolve().parents[2]
WIDTH = 80
PARTY = ["--party", "Ysolda:nord", "--party", "Tarn:dark-elf:bow+destruction-staff:ranged"]
CLASH = ["new", "clash", "--setup", "waystone-crossing", *PARTY, "--xp", "2", "--seed", "7"]
DELVE = [
    "new",
    "delve",
    "--delve",
    "whispering-barrow",
    "--party",
    "Ysolda:nord",
    "--party",
    "Tarn:dark-elf",
    "--xp",
    "2",
    "--seed",
    "7",
]
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
# Options that take a value: a line never ends on one (its value would start the next).
VALUED = (
    "--battle",
    "--party",
    "--setup",
    "--delve",
    "--rotation",
    "--origin",
    "--form",
    "--target",
    "--dice",
    "--store",
    "--seed",
    "--xp",
    "--scenario",
    "--army",
)
# Said as one: each must appear whole on some line wherever its command prints it.
WHOLE = {
    "clash": ["party Ysolda, Tarn", "seed 7"],
    "clash status": ["Waystone Crossing (conquer)", "Road Lookout", "Tunnel Rat"],
    "clash audit": ["--party Ysolda", "--party Tarn", "--seed 7"],
    "clash move b2": ["e1 Ash Imp 2/2 c3", "e2 Road Lookout 2/2 e1", "e3 Road Lookout 2/2 g4", "e4 Tunnel Rat 2/2 h2"],
    "clash setups": ["waystone-crossing", "fallen-watchtower", "ash-hierophant", "10×6, 54 hexes"],
    "clash delves": ["whispering-barrow", "The Whispering Barrow"],
    "clash lines": ["Steady Shot", "Tainted Arrow", "instant true damage 1", "drained true damage 2"],
    "delve": ["party Ysolda, Tarn", "rk move HEX --explore", "EP 4 per tile (DELVE-4)"],
    "delve explore": ["rk place-tile --rotation N --origin HEX", "Crooked Stair (bend)"],
    "conquest status": ["Warlord Tide Warden", "Warlord Ash Matron", "Brine Spears", "Ash Skirmishers"],
    "demo": ["rk log --battle demo-1", "rk verify --battle demo-1"],
}


def assert_laid_out(name: str, out: str) -> None:
    """No line wider than the screen, cut short, or ending where its phrase goes on."""
    for line in out.splitlines():
        assert len(line) <= WIDTH, f"{name}: {len(line)} columns: {line!r}"
        assert "…" not in line, f"{name}: cut short: {line!r}"
        last = line.split()[-1] if line.split() else ""
        assert last not in VALUED and last not in ("rk", "party"), f"{name}: breaks after {last!r}: {line!r}"
    for phrase in WHOLE.get(name, ()):
        assert any(phrase in line for line in out.splitlines()), f"{name}: {phrase!r} is split or missing:\n{out}"


def test_a_clash_reads_at_80_columns(rk):
    shown = {"clash": rk(*CLASH).stdout}
    for command in (
        "status",
        "legal",
        "track",
        "pool",
        "log",
        "audit",
        "battles",
        "setups",
        "races",
        "lines",
        "delves",
        "adventurers",
        "rule MOVE-1",
        "move b2",
        "move c2",
        "end-turn",
    ):
        shown[f"clash {command}"] = rk(*command.split()).stdout
    for name, out in shown.items():
        assert_laid_out(name, out)


def test_a_delve_reads_at_80_columns_and_its_map_fits(rk):
    shown = {"delve": rk(*DELVE).stdout, "delve explore": rk("explore", "ag31").stdout}
    placing = [line for line in rk("legal").stdout.splitlines() if line.startswith("rk place-tile")]
    assert placing, "the explored tile waits to be placed"
    shown["delve place-tile"] = rk(*placing[0].split()[1:]).stdout
    for command in ("status", "legal", "skyshards", "log"):
        shown[f"delve {command}"] = rk(command).stdout
    for name, out in shown.items():
        assert_laid_out(name, out)
    assert "  t1  " in shown["delve status"]  # a second tile is on the map


def test_a_conquest_reads_at_80_columns(rk):
    shown = {"conquest": rk(*CONQUEST).stdout}
    for command in ("status", "legal"):
        shown[f"conquest {command}"] = rk(command).stdout
    for name, out in shown.items():
        assert_laid_out(name, out)


def test_the_demo_reads_at_80_columns(rk):
    assert_laid_out("demo", rk("demo").stdout)


def test_prose_breaks_between_phrases_and_never_inside_a_command():
    from cli.phrases import Phrases

    said = (
        "  DELVE-7: the Entrance is placed; tiles face down by shape (3 bend, 3 cavern, 3 cell, 3 hall),"
        " a delve deck of 20 cards; 3 skyshards required"
    )
    assert Phrases(said).wrapped(80).plain.splitlines() == [
        "  DELVE-7: the Entrance is placed;",
        "    tiles face down by shape (3 bend, 3 cavern, 3 cell, 3 hall),",
        "    a delve deck of 20 cards; 3 skyshards required",
    ]
    hint = "Battle waystone-12 is kept in the store: rk log --battle waystone-12, rk verify --battle waystone-12"
    assert Phrases(hint).wrapped(80).plain.splitlines() == [
        "Battle waystone-12 is kept in the store: rk log --battle waystone-12,",
        "  rk verify --battle waystone-12",
    ]
    short = "Round 1 · Ysolda's turn · moves 0/2 · engages 0"
    assert Phrases(short).wrapped(80).plain == short  # a line that fits is left alone


# --- tile borders without colour ----------------------------------------------------------------


def map_rows(out: str) -> list[str]:
    """The rows of the first map in ``out`` (they start with a row number)."""
    return [line for line in out.splitlines() if re.match(r"\s{0,2}\d+ ", line)]


def test_tile_borders_show_piped(rk):
    rk(*CLASH)
    rows = map_rows(rk("status").stdout)
    # Waystone Crossing's row 1: Entrance, tile a from c1, tile b from g1 (setups.toml).
    assert re.search(rf"Ta *\{TILE_EDGE}a +a +e2 +a *\{TILE_EDGE}b +b +b", rows[0]), rows[0]
    assert all(TILE_EDGE in row for row in rows[:5])
    assert sum(row.split().count("a") for row in rows) > 10 and sum(row.split().count("b") for row in rows) > 10


def test_tile_borders_show_on_a_terminal_with_no_colour(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "RULEKEEPER_STORE")}
    env |= {"RULEKEEPER_HOME": str(tmp_path), "RULEKEEPER_NO_SERVER": "1", "COLUMNS": str(WIDTH)}
    made = subprocess.run(
        [sys.executable, "-m", "cli.main", *CLASH],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert made.returncode == 0, made.stderr
    out = _on_a_terminal([sys.executable, "-m", "cli.main", "status"], env | {"NO_COLOR": "1"})
    assert "\x1b[3" not in out and "\x1b[9" not in out  # no colour (bold may stay)
    plain = re.sub(r"\x1b\[[0-9;]*m", "", out).replace("\r", "")
    rows = map_rows(plain)
    assert rows and re.search(rf"a *\{TILE_EDGE}b", rows[0]), plain


def _on_a_terminal(argv: list[str], env: dict[str, str]) -> str:
    """What ``argv`` writes to a pseudo-terminal (it sees a tty on stdout)."""
    leader, follower = pty.openpty()
    proc = subprocess.Popen(argv, env=env, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=follower, stderr=subprocess.PIPE)
    os.close(follower)
    chunks = []
    while True:
        ready, _, _ = select.select([leader], [], [], 60)
        if not ready:
            break
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal closed: the process is done writing
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    assert proc.wait(timeout=60) == 0, proc.stderr.read()
    proc.stderr.close()
    return b"".join(chunks).decode()


def test_refusals_fit_one_80_column_line(rk):
    """The one line a refusal writes on stderr fits the screen: an unknown
    battle, `rk skyshards` on a clash and on a Conquest battle, `rk track`
    and `rk pool` on a Conquest battle (issue 10)."""
    rk(*CLASH)
    rk(*CONQUEST)
    refusals = [
        ["status", "--battle", "nowhere"],
        ["skyshards", "--battle", "waystone-1"],
        ["skyshards", "--battle", "border-1"],
        ["track", "--battle", "border-1"],
        ["pool", "--battle", "border-1"],
    ]
    for argv in refusals:
        refused = rk(*argv, code=1)
        (line,) = refused.stderr.strip().splitlines()
        assert refused.stdout == "" and len(line) <= WIDTH, f"{argv}: {len(line)} columns: {line!r}"
    for argv in refusals[1:3]:  # the rule behind the refusal is still named
        assert "(SKYSHARD-1)" in rk(*argv, code=None).stderr
