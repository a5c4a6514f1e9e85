"""The README's tour is a transcript: every command in it runs, in order, on
a fresh store, exits as shown and prints what the README shows (issue 10)."""

import os
import sys
from pathlib import Path

import pytest
from transcript import missing, run, steps_of

README = Path(__file__).resolve().parents[2] / "README.md"


@pytest.fixture(scope="module")
def tour(tmp_path_factory):
    steps = steps_of(README.read_text())
    where = tmp_path_factory.mktemp("tour")
    env = {k: v for k, v in os.environ.items() if not k.startswith("RULEKEEPER")}
    env.update(
        RULEKEEPER_HOME=str(where / "home"),
        PATH=f"{Path(sys.executable).parent}:{env.get('PATH', '')}",
        COLUMNS="100",
        NO_COLOR="1",
        PAGER="cat",
    )
    return steps, run(steps, where, env)


def test_the_readme_has_a_tour():
    steps = steps_of(README.read_text())
    assert len(steps) >= 30
    assert steps[0].command.startswith("rk ")


@pytest.mark.slow  # 90 `rk` processes: the full tier (CI) runs it
def test_every_command_of_the_tour_exits_as_shown_and_prints_what_it_shows(tour):
    steps, results = tour
    for n, step in enumerate(steps):
        if step.background:
            continue
        printed, status = results.get(n, ("", None))
        where = f"README.md line {step.line}: $ {step.command}\n{printed}"
        assert status == step.status, where
        gone = missing(step.expected, printed)
        assert gone is None, f"{where}\n--- not printed: {gone!r}"


def test_a_transcript_reads_commands_continuations_exit_statuses_and_excerpts():
    steps = steps_of(
        "text\n```sh\n$ not a transcript\n```\n"
        "```console\n$ rk new clash \\\n   --seed 7\n  Clash b7 on …\n$ rk move z9   # exit 2\nMOVE-1: no\n"
        "$ rk serve &\n```\n"
    )
    assert [(s.command, s.status, s.expected, s.background) for s in steps] == [
        ("rk new clash --seed 7", 0, ["  Clash b7 on …"], False),
        ("rk move z9   # exit 2", 2, ["MOVE-1: no"], False),
        ("rk serve &", 0, [], True),
    ]
    assert steps[0].line == 6


def test_an_excerpt_matches_in_order_with_lines_between_and_prefixes():
    printed = "a  b\nnoise\nc d e\nlast line\n"
    assert missing(["a b", "c d…", "last line"], printed) is None
    assert missing(["c d e", "a b"], printed) == "a b"  # out of order
    assert missing(["c d"], printed) == "c d"  # a whole line unless it ends in …


def test_a_transcript_runs_in_one_shell_with_statuses(tmp_path):
    steps = steps_of(
        "```console\n$ echo one; echo two\ntwo\n$ sleep 30 &\n$ false   # exit 1\n"
        "$ kill -0 %1 && echo alive\nalive\n```\n"
    )
    results = run(steps, tmp_path, dict(os.environ))
    assert results[0] == ("one\ntwo", 0)
    assert results[2][1] == 1
    assert results[3] == ("alive", 0)
