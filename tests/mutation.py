"""Mutation testing of a ruleset's rules against that ruleset's tests
(issue 22): a mutant that no test kills is a rule the tests do not guard.

Not run in CI: a module takes minutes, a ruleset hours on two cores. Run

    .venv/bin/pip install mutmut
    .venv/bin/python tests/mutation.py conquest victory board   # some modules
    .venv/bin/python tests/mutation.py labyrinth                 # every rules module

It exports the committed tree (``git archive HEAD``) to a scratch folder
(``--work``, default ``/tmp/rk-mutation-RULESET``), writes mutmut's
configuration there (the modules to mutate, ``tests/RULESET/`` to run), runs
``mutmut run`` and prints each surviving mutant and the score. Look at a
survivor with ``mutmut show NAME`` in that folder; then kill it with a test
or write down why it is equivalent.
"""

from __future__ import annotations

import argparse
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ruleset", choices=sorted(RULES_MODULES))
    parser.add_argument("modules", nargs="*", help="modules of the ruleset (default: every rules module)")
    parser.add_argument("--work", type=Path, help="the scratch folder (default /tmp/rk-mutation-RULESET)")
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
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", "HEAD"], cwd=ROOT, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(work)], input=archive, check=True)
    with (work / "pyproject.toml").open("a", encoding="utf-8") as f:
        f.write(
            "\n[tool.mutmut]\n"
            f"source_paths = {sources!r}\n"
            f"pytest_add_cli_args_test_selection = ['tests/{args.ruleset}/']\n"
            "also_copy = ['domain', 'tests', 'cli', 'server', 'projections', 'logs']\n"
            "pytest_add_cli_args = ['-p', 'no:xdist', '-p', 'no:cacheprovider']\n"
        )
    subprocess.run([mutmut, "run"], cwd=work, check=False)
    results = subprocess.run([mutmut, "results", "--all", "true"], cwd=work, capture_output=True, text=True).stdout
    states = [line.rsplit(":", 1)[-1].strip() for line in results.splitlines() if ":" in line]
    killed, survived = states.count("killed"), states.count("survived")
    for line in results.splitlines():
        if line.strip().endswith("survived"):
            print(line.strip())
    total = killed + survived
    print(
        f"{args.ruleset}: {killed} of {total} mutants killed ({100 * killed / total:.0f}%), {survived} survived"
        if total
        else f"{args.ruleset}: no mutant was tested"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
