"""Whether two checkouts' `rk` print the same: each command line is run as
a process (no server, ``python -m cli.client``) by this checkout and by
another one, on its own fresh copy of one store holding a game of each
ruleset (clash, delve, Conquest, labyrinth, a finished demo), and their
exit statuses, stdouts and stderrs are compared byte for byte.

    .venv/bin/python -m bench.same_output OTHER_CHECKOUT

The lines: status, legal, log (each also with --json), status --at,
undo, undo --force, redo, help, and the first legal commands of each
game (`rk move a2`...), plus a few refusals. A speed pass that must not
change what `rk` prints runs it against the code before it (a checkout
of main: ``git archive main | tar -x -C DIR``). Prints one line per
command line and exits 1 if any differs.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
GAMES = [
    ["new", "clash", "--setup", "waystone-crossing", "--party", "Ria:nord", "--party", "Tarn:orc", "--seed", "7"],
    ["new", "delve", "--delve", "drowned-cistern", "--party", "Ria", "--seed", "3"],
    ["new", "conquest", "--scenario", "border-clash", "--army", "saltmarch", "--army", "cinderpact"],
    ["new", "labyrinth", "--encounter", "mossy-hollow", "--party", "mender", "--party", "vanguard"],
]
NAMES = ("c1", "d1", "q1", "l1")
PER_GAME = [
    ["status"],
    ["status", "--json"],
    ["status", "--at", "2"],
    ["legal"],
    ["legal", "--json"],
    ["log"],
    ["log", "--json"],
    ["undo"],
    ["undo", "--force"],
    ["redo"],
    ["status", "--help"],
    ["legal", "-h"],
]
OTHERS = [
    ["status"],
    ["log"],
    ["move", "a9"],
    ["move", "zz", "-b", "c1"],
    ["move", "--help"],
    ["--help"],
    ["new", "--help"],
    ["status", "-b", "nope"],
    ["battles"],
    ["status", "--at", "0"],
    ["engage", "--help"],
]


def rk(code: Path, store: Path, home: Path, *args: str) -> tuple[int, str, str]:
    """``rk ARGS`` in-process with ``code``'s modules first on the path."""
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "NO_COLOR")}
    env |= {
        "PYTHONPATH": str(code),
        "RULEKEEPER_NO_SERVER": "1",
        "RULEKEEPER_STORE": str(store),
        "RULEKEEPER_HOME": str(home),
        "COLUMNS": "100",
        "PYTHONIOENCODING": "utf-8",
    }
    done = subprocess.run(
        [sys.executable, "-m", "cli.client", *args], env=env, capture_output=True, text=True, cwd=home.parent
    )
    return done.returncode, done.stdout, done.stderr


def lines_for(code: Path, store: Path, home: Path) -> list[list[str]]:
    """Every command line compared (the games' own from their `rk legal`)."""
    lines = []
    for game in NAMES:
        lines += [[*line, "-b", game] for line in PER_GAME]
        listed = rk(code, store, home, "legal", "-b", game)[1].splitlines()
        typed = [line.split()[1:] for line in listed if line.startswith("rk ") and line == line.lower()]
        lines += [[*words, "-b", game] for words in typed[:3]]
    return lines + OTHERS


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    other = Path(sys.argv[1]).resolve()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        store, home = work / "s.sqlite", work / "h"
        for line, name in zip(GAMES, NAMES):
            made = rk(other, store, home, *line, "--name", name)
            assert made[0] == 0, made
        for line in (["demo", "--seed", "3"], ["move", "a2", "-b", "c1"], ["move", "b3", "-b", "c1"]):
            made = rk(other, store, home, *line)
            assert made[0] == 0, made
        differ = 0
        lines = lines_for(other, store, home)
        for i, line in enumerate(lines):
            outs = []
            for j, code in enumerate((other, HERE)):
                copy, its_home = work / f"s{i}-{j}.sqlite", work / f"h{i}-{j}"
                shutil.copyfile(store, copy)
                shutil.copytree(home, its_home)
                outs.append(rk(code, copy, its_home, *line))
            same = outs[0] == outs[1]
            differ += not same
            print(f"{'same' if same else 'DIFFERS'} (exit {outs[0][0]}) rk {' '.join(line)}")
            if not same:
                print(f"  {other}: {outs[0]!r}\n  {HERE}: {outs[1]!r}")
        print(f"{len(lines)} command lines, {differ} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
