"""Mutation testing of a ruleset's rules against that ruleset's tests
(issue 22): a mutant that no test kills is a rule the tests do not guard.

Not run in CI: a module takes minutes, a ruleset hours on two cores. Run

    .venv/bin/pip install mutmut
    .venv/bin/python tests/mutation.py conquest victory board   # some modules
    .venv/bin/python tests/mutation.py labyrinth                 # every rules module
    .venv/bin/python tests/mutation.py betrayal --sample 80 --seed 22   # a random sample
    .venv/bin/python tests/mutation.py betrayal --mutants NAME...       # named mutants again
    .venv/bin/python tests/mutation.py betrayal --report                # tally the last run
    .venv/bin/python tests/mutation.py betrayal --mutants NAME... --confirm TEST...

It exports the committed tree (``git archive HEAD``) to a scratch folder
(``--work``, default ``/tmp/rk-mutation-RULESET``), writes mutmut's
configuration there (the modules to mutate, ``tests/RULESET/`` to run), runs
``mutmut run`` (under ``nice``) and prints each surviving mutant, the count
of each outcome and the score with its 95% Wilson interval. ``--sample N``
draws N of the ruleset's mutants at random (``--seed``; the names go to
``sample.txt`` in the work folder) and tests only those: a whole ruleset is
thousands of mutants, so the figures in tests/MUTATION.md are samples and
say so. Look at a survivor with ``mutmut show NAME`` in that folder; then
kill it with a test or write down why it is equivalent in tests/MUTATION.md,
whose ``equivalent`` rows the score leaves out of its denominator;
``--confirm`` then checks, in the same folder, that the new test kills it.
Per mutant the tests run fastest first, and those mutmut timed over
``--longest`` seconds are left out (see ``_FAST_FIRST``).
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import math
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# The modules that decide (rules, flow, state changes); not narration,
# listings, views, surfaces, content loading or citations.
RULES_MODULES = {
    "conquest": [
        "activation",
        "board",
        "decision",
        "evolve",
        "reinforcement",
        "rules",
        "seats",
        "setup",
        "supremacy",
        "victory",
    ],
    "labyrinth": [
        "ailments",
        "attack",
        "buffs",
        "casualties",
        "decision",
        "end_phase",
        "enemies",
        "escape",
        "evolve",
        "flow",
        "fp",
        "reactions",
        "rules",
        "setup",
        "skills",
        "standby",
        "stats",
        "targeting",
        "windows",
    ],
    "betrayal": [
        "battle/actions",
        "battle/board",
        "battle/damage",
        "battle/decision",
        "battle/evolve",
        "battle/exploration",
        "battle/flow",
        "battle/reach",
        "battle/rules",
        "battle/setup",
        "battle/track",
        "battle/enemies/targeting",
        "battle/enemies/turn",
        "battle/companions/turn",
        "campaign/rules",
        "delve/aggregate",
        "delve/deck",
    ],
}


# Run inside the work folder by the venv's Python: mutmut's own first step
# (copy the tree to mutants/, write every mutant of the source paths), then
# one mutant name a line. ``mutmut run`` afterwards finds the mutants
# written and keeps them, so a sample can name them before any test runs.
_GENERATE = """
import os
from mutmut.__main__ import create_mutants
from mutmut.mutation.data import SourceFileMutationData
from mutmut.utils.file_utils import copy_also_copy_files, copy_src_dir, setup_source_paths, walk_mutatable_files
os.makedirs("mutants", exist_ok=True)
copy_src_dir()
copy_also_copy_files()
setup_source_paths()
create_mutants(1)
for path in walk_mutatable_files():
    data = SourceFileMutationData(path=path)
    data.load()
    for name in data.exit_code_by_key:
        print("MUTANT", name)
"""

# Written as conftest.py at the root of mutmut's copy (never into the repo).
# While a mutant is tested (not while mutmut collects its stats), the tests
# mutmut picked for it run fastest first (by the times its stats recorded),
# so ``-x`` stops a killed mutant after seconds, not after the random-play
# sweeps; tests whose recorded time exceeds RK_MUTATION_LONGEST seconds are
# left out, which can only lower the score (a mutant they alone would kill
# counts as survived).
_FAST_FIRST = """
import json
import os
from pathlib import Path

import pytest

LONGEST = float(os.environ.get("RK_MUTATION_LONGEST", "inf"))


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    if "__mutmut_" not in os.environ.get("MUTANT_UNDER_TEST", ""):
        return  # mutmut listing, timing or running the clean tests: all of them
    stats = Path(__file__).parent / "mutmut-stats.json"
    if not stats.is_file():
        return
    took = json.loads(stats.read_text())["duration_by_test"]
    long = [item for item in items if took.get(item.nodeid, 0.0) > LONGEST]
    if long:
        config.hook.pytest_deselected(items=long)
    items[:] = sorted((item for item in items if item not in long), key=lambda item: took.get(item.nodeid, 0.0))
"""


# mutmut's states, as ``mutmut results --all true`` prints them.
STATES = ("killed", "timeout", "survived", "no tests", "not checked")


def wilson(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95% by default) of a proportion: honest
    at the ends, where a sample of 80 with 78 killed must not claim 100%."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return (max(0.0, centre - half), min(1.0, centre + half))


def equivalents(ruleset: str) -> set[str]:
    """The mutants tests/MUTATION.md shows equivalent (its table rows whose
    verdict is ``equivalent``), left out of the score's denominator."""
    table = ROOT / "tests" / "MUTATION.md"
    text = table.read_text(encoding="utf-8") if table.is_file() else ""
    found = set()
    for line in text.splitlines():
        cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
        if len(cells) >= 3 and cells[0].startswith(f"domain.{ruleset}.") and cells[2].startswith("equivalent"):
            found.add(cells[0])
    return found


def prepare(ruleset: str, sources: list[str], work: Path) -> None:
    """Export the committed tree to ``work`` and configure mutmut there."""
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", "HEAD"], cwd=ROOT, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(work)], input=archive, check=True)
    (work / "conftest.py").write_text(_FAST_FIRST, encoding="utf-8")
    # The tests read more than code (examples/, logs/, the coverage tables):
    # the whole tree goes to mutmut's copy.
    tree = sorted(p.name for p in work.iterdir() if p.name != "pyproject.toml")
    with (work / "pyproject.toml").open("a", encoding="utf-8") as f:
        # Each mutant runs only the tests of this ruleset that reached the
        # mutated function when mutmut collected its stats; the quick tier's
        # default (conftest.py deselects ``slow`` unless -m or --full is
        # given) holds there too, so no mutant runs the full tier.
        f.write(
            "\n[tool.mutmut]\n"
            f"source_paths = {sources!r}\n"
            f"pytest_add_cli_args_test_selection = ['tests/{ruleset}/']\n"
            f"also_copy = {tree!r}\n"
            "pytest_add_cli_args = ['-p', 'no:xdist', '-p', 'no:cacheprovider']\n"
        )


def run(args: argparse.Namespace, sources: list[str], work: Path, mutmut: str) -> list[str]:
    """Prepare ``work``, draw the sample if asked, run mutmut there; the
    mutants asked for (none: every one)."""
    prepare(args.ruleset, sources, work)
    chosen: list[str] = list(args.mutants or [])
    if args.sample:
        generated = subprocess.run(
            [sys.executable, "-c", _GENERATE], cwd=work, capture_output=True, text=True, check=True
        ).stdout
        names = sorted(line.split(" ", 1)[1] for line in generated.splitlines() if line.startswith("MUTANT "))
        chosen = sorted(random.Random(args.seed).sample(names, min(args.sample, len(names))))
        print(f"{args.ruleset}: {len(chosen)} of {len(names)} mutants drawn (seed {args.seed})")
        (work / "sample.txt").write_text("".join(f"{n}\n" for n in chosen), encoding="utf-8")
    # nice: the other work on the machine keeps the CPU it needs.
    env = {**os.environ, "RK_MUTATION_LONGEST": str(args.longest)}
    subprocess.run(
        ["nice", "-n", "10", mutmut, "run", "--max-children", str(args.jobs), *chosen], cwd=work, env=env, check=False
    )
    return chosen


def confirm(ruleset: str, work: Path, mutants: list[str], tests: list[str]) -> int:
    """Run ``tests`` against each of ``mutants`` in the last run's copy (as
    mutmut would: the trampolines pick the mutant from MUTANT_UNDER_TEST), the
    working tree's tests/RULESET/ copied in first: that the new tests kill
    the survivors they were written for, without timing every test again."""
    copy = work / "mutants"
    if not copy.is_dir():
        print(f"no mutmut run in {work}: run a sample first")
        return 2
    shutil.copytree(ROOT / "tests" / ruleset, copy / "tests" / ruleset, dirs_exist_ok=True)

    def pytest(mutant: str) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "MUTANT_UNDER_TEST": mutant}
        command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", *tests]
        return subprocess.run(["nice", "-n", "10", *command], cwd=copy, env=env, capture_output=True, text=True)

    # Unmutated, the tests must pass: else a failure says nothing of a mutant.
    clean = pytest("")
    if clean.returncode != 0:
        print(clean.stdout[-3000:])
        print(f"the tests fail on the unmutated copy in {copy}: nothing confirmed")
        return 2
    alive = 0
    for name in mutants:
        run = pytest(name)
        killed = run.returncode == 1
        alive += not killed
        print(f"    {name}: {'killed' if killed else f'not killed (pytest exit {run.returncode})'}")
    print(f"{ruleset}: {len(mutants) - alive} of {len(mutants)} killed by {' '.join(tests)}")
    return 1 if alive else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ruleset", choices=sorted(RULES_MODULES))
    parser.add_argument("modules", nargs="*", help="modules of the ruleset (default: every rules module)")
    parser.add_argument("--work", type=Path, help="the scratch folder (default /tmp/rk-mutation-RULESET)")
    parser.add_argument("--sample", type=int, metavar="N", help="test N mutants drawn at random (default: every one)")
    parser.add_argument("--seed", type=int, default=0, help="the draw's seed (default 0): the same seed, the same N")
    parser.add_argument("--mutants", nargs="+", metavar="NAME", help="test only these mutants (names or globs)")
    parser.add_argument("--jobs", type=int, default=2, help="mutants tested at once (default 2)")
    parser.add_argument("--report", action="store_true", help="run nothing: tally the last run in the work folder")
    parser.add_argument(
        "--confirm",
        nargs="+",
        metavar="TEST",
        help="with --mutants: run these tests (as the working tree has them) against each mutant of the last run",
    )
    parser.add_argument(
        "--longest",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="leave out, per mutant, the tests that took longer than this when mutmut timed them (default 30)",
    )
    args = parser.parse_args(argv)
    modules = args.modules or RULES_MODULES[args.ruleset]
    sources = [f"domain/{args.ruleset}/{m.removesuffix('.py')}.py" for m in modules]
    missing = [s for s in sources if not (ROOT / s).is_file()]
    if missing:
        parser.error(f"no such module: {', '.join(missing)}")
    mutmut = shutil.which("mutmut", path=str(Path(sys.executable).parent)) or shutil.which("mutmut")
    if mutmut is None:
        parser.error("mutmut is not installed: .venv/bin/pip install mutmut")
    work = args.work or Path(f"/tmp/rk-mutation-{args.ruleset}")
    if args.confirm:
        if not args.mutants:
            parser.error("--confirm needs --mutants NAME...")
        return confirm(args.ruleset, work, args.mutants, args.confirm)
    sampled = work / "sample.txt"
    if args.report:
        # Only the tally of the last run in ``work`` (after a stopped run, or
        # after ``mutmut run NAME`` by hand there).
        chosen = sampled.read_text(encoding="utf-8").split() if sampled.is_file() else list(args.mutants or [])
    else:
        chosen = run(args, sources, work, mutmut)
    timed = work / "mutants" / "mutmut-stats.json"
    took = json.loads(timed.read_text())["duration_by_test"] if timed.is_file() else {}
    for test, seconds in sorted(took.items()):
        if seconds > args.longest:
            print(f"left out per mutant ({seconds:.0f} s > {args.longest:.0f} s): {test}")
    results = subprocess.run([mutmut, "results", "--all", "true"], cwd=work, capture_output=True, text=True).stdout
    state_of = {
        name.strip(): state.strip()
        for name, _, state in (line.rpartition(":") for line in results.splitlines() if ":" in line)
    }
    if chosen:
        state_of = {n: s for n, s in state_of.items() if any(fnmatch.fnmatch(n, c) for c in chosen)}
    for name, state in sorted(state_of.items()):
        if state not in ("killed", "timeout"):
            print(f"    {name}: {state}")
    counts = {s: sum(1 for v in state_of.values() if v == s) for s in STATES}
    other = len(state_of) - sum(counts.values())
    equivalent = {n for n in equivalents(args.ruleset) if n in state_of and state_of[n] != "killed"}
    killed = counts["killed"] + counts["timeout"]
    # A mutant not checked yet (a stopped run) is left out; any other
    # outcome (no tests, suspicious) counts as not killed.
    tested = len(state_of) - len(equivalent) - counts["not checked"]
    low, high = wilson(killed, tested)
    print(
        f"{args.ruleset}: {len(state_of)} mutants: {counts['killed']} killed, {counts['timeout']} timeout, "
        f"{counts['survived']} survived, {counts['no tests']} no tests, {other} other, "
        f"{counts['not checked']} not checked yet; "
        f"{len(equivalent)} shown equivalent (tests/MUTATION.md)"
    )
    if tested:
        print(
            f"{args.ruleset}: score {killed}/{tested} non-equivalent killed = {100 * killed / tested:.1f}% "
            f"(95% Wilson interval {100 * low:.1f}%-{100 * high:.1f}%)"
            + (f", a sample of {len(state_of)}" if args.sample or (args.report and sampled.is_file()) else "")
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
