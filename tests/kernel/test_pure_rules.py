"""The rules are pure (DESIGN: "no I/O, no clock, no global randomness"):
no module of a ruleset's rules imports the clock, the global random
generator, the file system, the network or a database. Randomness comes
from the kernel's seeded counter RNG, and content is read by the pack
loaders (``packs.py``, ``pack_*.py``; Betrayal's ``packs/load.py``, which
reads the starter pack's files), which this test leaves out, as it
leaves out the players (``bots.py``: they choose among the legal commands
with a ``random.Random`` their caller seeds, never the global one) and the
application verbs (``application.py``, ``*_app.py``) and the read models
(``read_models/``: projections into a database of their own, not rules)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

DOMAIN = Path(__file__).resolve().parents[2] / "domain"
RULESETS = ("betrayal", "conquest", "labyrinth")
FORBIDDEN = {
    "random",
    "time",
    "datetime",
    "os",
    "pathlib",
    "io",
    "socket",
    "sqlite3",
    "psycopg",
    "subprocess",
    "shutil",
    "tempfile",
    "secrets",
    "urllib",
    "http",
    "asyncio",
    "threading",
}
NOT_RULES = ("packs.py", "pack_", "bots.py")  # content loaders (I/O by design) and players
LOADERS = (Path("betrayal", "packs", "load.py"),)  # a loader in a packs/ sub-package


def rule_modules() -> list[Path]:
    """Every module of every ruleset, in its sub-packages too."""
    return sorted(
        p
        for name in RULESETS
        for p in (DOMAIN / name).rglob("*.py")
        if "read_models" not in p.parts
        and not p.name.startswith(NOT_RULES)
        and p.name != "application.py"
        and not p.name.endswith("_app.py")
        and p.relative_to(DOMAIN) not in LOADERS
    )


def imported(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("path", rule_modules(), ids=lambda p: str(p.relative_to(DOMAIN)))
def test_a_rules_module_imports_no_clock_randomness_or_io(path):
    found = sorted(imported(path) & FORBIDDEN)
    assert not found, f"{path.relative_to(DOMAIN)} imports {', '.join(found)}: rules stay pure (DESIGN)"
