"""How Betrayal's modules depend on one another: one way, with no circle,
counting imports inside functions too. The core rules (actions, damage,
exploration, flow, foes) never import the race, class and item abilities:
those register at the core's hook points (``hooks``)."""

from __future__ import annotations

import ast
from pathlib import Path

from import_graph import first_circle

ROOT = Path(__file__).resolve().parents[2]
BETRAYAL = ROOT / "domain" / "betrayal"
CORE = ("actions", "damage", "exploration", "flow", "foes")
ABILITIES = ("race_abilities", "class_abilities", "class_progress", "item_use", "item_wards", "defense")


def imported(path: Path) -> set[str]:
    """The Betrayal modules ``path`` imports, at its top or inside a function."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level == 1:  # from . import x, from .x import y
                names |= {a.name for a in node.names} if not base else {base.split(".")[0]}
            elif base == "domain.betrayal":
                names |= {a.name for a in node.names}
            elif base.startswith("domain.betrayal."):
                names.add(base.split(".")[2])
        elif isinstance(node, ast.Import):
            names |= {a.name.split(".")[2] for a in node.names if a.name.startswith("domain.betrayal.")}
    return {n for n in names if (BETRAYAL / f"{n}.py").exists()}


def _graph() -> dict[str, set[str]]:
    return {p.stem: imported(p) - {p.stem} for p in BETRAYAL.glob("*.py") if p.stem != "__init__"}


def test_the_betrayal_modules_import_one_another_without_a_circle():
    circle = first_circle(_graph())
    assert circle is None, "an import circle: " + " -> ".join(circle or [])


def test_the_core_rules_do_not_import_the_abilities():
    graph = _graph()
    assert {m: sorted(graph[m] & set(ABILITIES)) for m in CORE if graph[m] & set(ABILITIES)} == {}
