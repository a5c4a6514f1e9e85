"""The pytest plugin (``rulekeeper.pytest_plugin``), run on suites of a
user's own (pytester): its fixtures, given/when/then with readable
failures, golden logs checked and written; and the API and plugin name no
ruleset in their code.

Each suite runs in a process of its own: run in this one, a second run
would import the rulesets again beside the first run's classes."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

PACKAGE = Path(__file__).resolve().parents[2] / "rulekeeper"
CLASH = '{"setup": "waystone-crossing", "party": [{"name": "Ria", "race": "nord"}], "seed": 1}'


def test_the_plugin_is_declared_as_a_pytest11_entry_point():
    found = [e for e in entry_points(group="pytest11") if e.name == "rulekeeper"]
    assert [e.value for e in found] == ["rulekeeper.pytest_plugin"]


def test_loading_the_plugin_imports_nothing_of_the_kernel():
    # pytest loads it in every run of every suite where rulekeeper is installed
    loaded = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, rulekeeper.pytest_plugin; "
            "print(sorted(m for m in sys.modules if m.startswith(('domain', 'eventsourcing'))))",
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert loaded.stdout.strip() == "[]"


def test_its_fixtures_play_a_suite_of_ones_own(pytester):
    pytester.makepyfile(f"""
        import pytest

        CLASH = {CLASH}

        def test_given_when_then(given):
            start = given.setup("clash", **CLASH)
            start.when("move b2").then("MOVE-1: Ria moves a1 → b1 → b2")
            start.when("move c3").then_refused("MOVE-1", "another unit")
            start.when("fly").then_malformed("not a command")
            start.when_undo().then_cites("UNDO-1")
            start.when_redo().then_has("MOVE-1: Ria moves...")

        @pytest.mark.rulekeeper_setup("clash", **CLASH)
        def test_game(game, rulekeeper):
            assert rulekeeper.game().id == game.id and "move b2" in game.legal_lines()
    """)
    pytester.runpytest_subprocess().assert_outcomes(passed=2)


def test_a_failed_check_shows_what_happened_beside_what_was_expected(pytester):
    pytester.makepyfile(f"""
        CLASH = {CLASH}

        def test_events(given):
            given.setup("clash", **CLASH).when("move b2").then("MOVE-1: Ria moves a1 → b2")

        def test_refusal(given):
            given.setup("clash", **CLASH).when("move c3").then_refused("MOVE-2")

        def test_accepted(given):
            given.setup("clash", **CLASH).when("move b2").then_refused("MOVE-1")
    """)
    result = pytester.runpytest_subprocess()
    result.assert_outcomes(failed=3)
    result.stdout.fnmatch_lines(
        [
            "*`move b2`: the events differ from those expected*",
            "*At index 0 diff: 'MOVE-1: Ria moves a1 → b1 → b2' != 'MOVE-1: Ria moves a1 → b2'*",
            "*`move c3` was refused by another rule: MOVE-1: that hex holds another unit*",
            "*assert 'MOVE-1' == 'MOVE-2'*",
            "*`move b2` was accepted, where MOVE-1 should refuse it; it did:*",
            "*MOVE-1: Ria moves a1 → b1 → b2*",
        ]
    )
    assert "rulekeeper/testing.py" not in result.stdout.str()  # a failure points at the test's own line


def test_golden_logs_are_read_checked_and_written_again(pytester):
    pytester.makeini("[pytest]\nrulekeeper_golden = golden\n")
    pytester.makepyfile(f"""
        CLASH = {CLASH}

        def test_golden(golden_log, rulekeeper):
            game = rulekeeper.new("clash", **CLASH, name="kept")
            game.play("move b2")
            golden_log.check(game, "kept.jsonl")
            assert golden_log.names() == ["kept.jsonl"]
            assert golden_log("kept.jsonl").verify().ok
            assert golden_log("kept.jsonl").header["battle_id"] == "kept"
    """)
    pytester.runpytest_subprocess().assert_outcomes(failed=1)  # no log yet
    pytester.runpytest_subprocess("--rulekeeper-regen").assert_outcomes(passed=1)
    assert (pytester.path / "golden" / "kept.jsonl").is_file()
    pytester.runpytest_subprocess().assert_outcomes(passed=1)

    test = pytester.path / "test_golden_logs_are_read_checked_and_written_again.py"
    test.write_text(test.read_text().replace('"move b2"', '"move b1"'))
    result = pytester.runpytest_subprocess()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        ["*kept no longer plays as golden log kept.jsonl*", "*At index 9 diff: 'rk move b1' != 'rk move b2'*"]
    )


def test_the_plugin_can_be_turned_off(pytester):
    pytester.makepyfile("def test_given(given):\n    pass\n")
    pytester.runpytest_subprocess("-p", "no:rulekeeper").assert_outcomes(errors=1)


def _code_words(path: Path) -> set[str]:
    """The ruleset names in ``path``'s code: identifiers, imports and
    strings that are not docstrings (as the adapters' check reads them)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    words: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            words.append(node.id)
        elif isinstance(node, ast.Attribute):
            words.append(node.attr)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            words += [a.name for a in node.names] + [getattr(node, "module", "") or ""]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            words.append(node.value)
    from domain.kernel.packages import names

    rulesets = re.compile("|".join(names()), re.I)
    return {m.group().lower() for w in words for m in rulesets.finditer(w)}


@pytest.mark.parametrize("module", sorted(p.name for p in PACKAGE.glob("*.py")))
def test_the_api_and_plugin_name_no_ruleset(module):
    assert _code_words(PACKAGE / module) == set()
