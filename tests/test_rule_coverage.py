"""Every rule of each ruleset's spec is cited by a test, or its coverage
file says why not; and nothing is listed as tested that no test cites.

Rulesets and where their citations come from (rule IDs repeat across
rulesets, so each is checked against its own tests only):

- betrayal: rules/betrayal.md, RULES-COVERAGE.md, every test except those
  under tests/<another ruleset>/ (tests/conquest, ...);
- conquest: rules/conquest.md, RULES-COVERAGE-conquest.md, tests/conquest;
- labyrinth: rules/labyrinth.md, RULES-COVERAGE-labyrinth.md, tests/labyrinth.

Citations are read from the test sources with ``ast``: each argument of a
``pytest.mark.rule(...)`` call, as a decorator, in ``pytestmark`` or in
``pytest.param(marks=...)``. A test marked ``xfail`` proves nothing, so its
citations do not count. Docstrings and comments never count.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path

from dataclasses import dataclass

import pytest

REPO = Path(__file__).resolve().parents[1]
RULES = REPO.parent / "shared" / "rules"
SPEC = RULES / "betrayal.md"
COVERAGE = REPO / "RULES-COVERAGE.md"
TESTS = REPO / "tests"
OTHER_RULESETS = ("conquest", "labyrinth")  # test folders whose citations are not Betrayal's


@dataclass(frozen=True)
class Ruleset:
    """One ruleset's spec, coverage file and the test files citing it."""

    name: str
    spec: Path
    coverage: Path
    roots: tuple[Path, ...]
    excluded: tuple[Path, ...] = ()
    min_rules: int = 1

    def spec_text(self) -> str:
        if not self.spec.is_file():
            pytest.skip(f"the {self.name} rules are not at {self.spec}")
        return self.spec.read_text(encoding="utf-8")

    def spec_ids(self) -> list[str]:
        return RULE_ID.findall(self.spec_text())

    def rows(self) -> list[tuple[str, str, str]]:
        return ROW.findall(self.coverage.read_text(encoding="utf-8"))

    def cited(self) -> set[str]:
        found: set[str] = set()
        for root in self.roots:
            for path in sorted(root.rglob("*.py")):
                if any(path.is_relative_to(ex) for ex in self.excluded):
                    continue
                found |= cited_in(path.read_text(encoding="utf-8"))
        return found


RULESETS = (
    Ruleset("betrayal", SPEC, COVERAGE, (TESTS,), tuple(TESTS / n for n in OTHER_RULESETS), 300),
    Ruleset("conquest", RULES / "conquest.md", REPO / "RULES-COVERAGE-conquest.md", (TESTS / "conquest",), (), 74),
    Ruleset("labyrinth", RULES / "labyrinth.md", REPO / "RULES-COVERAGE-labyrinth.md", (TESTS / "labyrinth",), (), 99),
)

RULE_ID = re.compile(r"^\s*- \*\*\[([A-Za-z0-9-]+)\]\*\*", re.MULTILINE)
EXAMPLE_ID = re.compile(r"^### (EX-\d+) ", re.MULTILINE)
ROW = re.compile(r"^\|\s*([A-Z][A-Za-z0-9-]*)\s*\|\s*([a-z ]+?)\s*\|\s*(.*?)\s*\|\s*$", re.MULTILINE)
STATUSES = ("tested", "not modelled", "partly modelled")
OUR_IDS = {
    "UNDO-1",
    "UNDO-2",
    "UNDO-3",
    "REDO-1",  # undo and redo: ours, not the book's
    # the Reward Phase and rest (facts)
    "REWARD-1",
    "REWARD-2",
    "REWARD-3",
    "REWARD-4",
    "REST-1",
    "REST-2",
    "REST-3",
    "BETWEEN-1",
}
# The table's own rules (the server's seats: server/tables.py), shared by every ruleset.
SEAT_IDS = {"SEAT-1", "SEAT-2", "SEAT-3", "SEAT-4", "SEAT-5"}
OUR_IDS |= SEAT_IDS


def spec_text() -> str:
    if not SPEC.is_file():
        pytest.skip(f"the Betrayal rules are not at {SPEC} (the shared rules folder beside the repository)")
    return SPEC.read_text(encoding="utf-8")


def spec_ids() -> list[str]:
    return RULE_ID.findall(spec_text())


def coverage_rows() -> list[tuple[str, str, str]]:
    """(rule, status, note) for every table row of RULES-COVERAGE.md."""
    return ROW.findall(COVERAGE.read_text(encoding="utf-8"))


def _is_mark(node: ast.AST, name: str) -> bool:
    """``<anything>.mark.<name>``: pytest.mark.rule, mark.rule."""
    return (
        isinstance(node, ast.Attribute)
        and node.attr == name
        and isinstance(node.value, ast.Attribute)
        and node.value.attr == "mark"
    )


def _rule_calls(node: ast.AST) -> list[ast.Call]:
    return [n for n in ast.walk(node) if isinstance(n, ast.Call) and _is_mark(n.func, "rule")]


def _ids(calls: list[ast.Call]) -> set[str]:
    return {a.value for call in calls for a in call.args if isinstance(a, ast.Constant) and isinstance(a.value, str)}


def _xfailed(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    for deco in fn.decorator_list:
        target = deco.func if isinstance(deco, ast.Call) else deco
        if _is_mark(target, "xfail"):
            return True
    return False


def cited_in(source: str) -> set[str]:
    """Rule IDs cited by the tests of one file, leaving out xfailed tests."""
    tree = ast.parse(source)
    skipped: set[int] = set()
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and _xfailed(fn):
            skipped.update(id(call) for call in _rule_calls(fn))
    return _ids([call for call in _rule_calls(tree) if id(call) not in skipped])


def cited_ids(root: Path = TESTS) -> set[str]:
    """Rule IDs cited under ``root`` (tests/<another ruleset>/ left out when ``root`` is tests/)."""
    found: set[str] = set()
    for path in sorted(root.rglob("*.py")):
        if root == TESTS and any(path.is_relative_to(TESTS / n) for n in OTHER_RULESETS):
            continue
        found |= cited_in(path.read_text(encoding="utf-8"))
    return found


# --- the checker checks itself ---------------------------------------------------


def test_citations_are_read_from_marks_and_not_from_text():
    source = '''
"""Docs may say @pytest.mark.rule("DOC-1") without citing it."""
import pytest
pytestmark = pytest.mark.rule("MOD-1")

@pytest.mark.rule("A-1")
@pytest.mark.rule("A-2")
def test_a():
    pass

@pytest.mark.xfail(reason="not yet", strict=True)
@pytest.mark.rule("X-1")
def test_x():
    pass

@pytest.mark.parametrize("n", [pytest.param(1, marks=pytest.mark.rule("P-1"))])
def test_p(n):
    pass
'''
    assert cited_in(source) == {"MOD-1", "A-1", "A-2", "P-1"}


def test_the_spec_lists_its_rules_as_bold_bracketed_bullets():
    ids = spec_ids()
    assert len(ids) == len(set(ids)) > 300
    assert ids[0] == "ROUND-1" and "ENGAGE-7c" in ids and "RACE-DARK-ELF" in ids


# --- the coverage itself, per ruleset ------------------------------------------------


@pytest.mark.parametrize("rs", RULESETS, ids=lambda r: r.name)
def test_every_rule_is_listed_once_with_a_known_status_and_a_reason_when_not_tested(rs):
    ids = rs.spec_ids()
    assert len(ids) == len(set(ids)) >= rs.min_rules
    rows = rs.rows()
    problems = []
    counts = Counter(rule for rule, _, _ in rows)
    problems += [f"{rule}: listed {n} times" for rule, n in counts.items() if n > 1]
    problems += [f"{rule}: not a rule of {rs.spec.name}" for rule in counts if rule not in set(ids) and rule != "Rule"]
    problems += [f"{rule}: missing from {rs.coverage.name}" for rule in ids if rule not in counts]
    for rule, status, note in rows:
        if rule == "Rule":
            continue
        if status not in STATUSES:
            problems.append(f"{rule}: unknown status {status!r} (use {', '.join(STATUSES)})")
        elif status != "tested" and not note:
            problems.append(f"{rule}: {status} needs a one-line reason")
    assert not problems, f"{rs.coverage.name}:\n  " + "\n  ".join(problems)


@pytest.mark.parametrize("rs", RULESETS, ids=lambda r: r.name)
def test_every_rule_is_cited_by_a_test_or_listed_as_not_or_partly_modelled(rs):
    cited = rs.cited()
    excused = {rule for rule, status, _ in rs.rows() if status in ("not modelled", "partly modelled")}
    missing = [rule for rule in rs.spec_ids() if rule not in cited and rule not in excused]
    assert not missing, (
        f"{len(missing)} rules are neither cited by a test (@pytest.mark.rule) nor listed as not or "
        f"partly modelled in {rs.coverage.name}:\n  " + "\n  ".join(missing)
    )


@pytest.mark.parametrize("rs", RULESETS, ids=lambda r: r.name)
def test_no_rule_is_listed_as_tested_unless_a_test_cites_it(rs):
    cited = rs.cited()
    claimed = [rule for rule, status, _ in rs.rows() if status == "tested" and rule not in cited]
    assert not claimed, f"{rs.coverage.name} lists these as tested but no test cites them:\n  " + "\n  ".join(claimed)


def test_every_cited_betrayal_id_exists():
    text = spec_text()
    known = set(RULE_ID.findall(text)) | set(EXAMPLE_ID.findall(text)) | OUR_IDS
    unknown = sorted(cited_ids(TESTS / "betrayal") - known)
    assert not unknown, "tests/betrayal cites IDs that betrayal.md does not have: " + ", ".join(unknown)


def test_every_cited_conquest_id_exists():
    rs = RULESETS[1]
    unknown = sorted(rs.cited() - set(rs.spec_ids()) - SEAT_IDS)
    assert not unknown, "tests/conquest cites IDs that conquest.md does not have: " + ", ".join(unknown)


def test_every_cited_labyrinth_id_exists():
    rs = RULESETS[2]
    unknown = sorted(rs.cited() - set(rs.spec_ids()) - SEAT_IDS)
    assert not unknown, "tests/labyrinth cites IDs that labyrinth.md does not have: " + ", ".join(unknown)
