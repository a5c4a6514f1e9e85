"""How Betrayal's modules depend on one another: one way, with no circle,
counting imports inside functions too, across its sub-packages. The core
rules (actions, damage, exploration, flow, the enemies' turn) never import
the race, class and item abilities: those register at the core's hook
points (``battle.hooks``)."""

from __future__ import annotations

import ast
from pathlib import Path

from import_graph import first_circle, tree_graph

ROOT = Path(__file__).resolve().parents[2]
BETRAYAL = ROOT / "domain" / "betrayal"
CORE = ("battle.actions", "battle.damage", "battle.exploration", "battle.flow", "battle.enemies.turn")
ABILITIES = (
    "battle.abilities.race",
    "battle.abilities.classes",
    "battle.abilities.class_progress",
    "battle.items.use",
    "battle.items.wards",
    "battle.defense",
)


def _graph() -> dict[str, set[str]]:
    return tree_graph(BETRAYAL, "domain.betrayal")


def test_the_graph_reads_every_module_of_the_tree():
    graph = _graph()
    assert len(graph) == len(list(BETRAYAL.rglob("*.py"))) - 1  # all but the package's own __init__
    assert "battle.ruleset" in graph["ruleset"]  # from .battle.ruleset import ...
    assert "battle.events" in graph["battle.abilities.race"]  # from .. import events as ev
    assert "packs.catalog" in graph["battle.ruleset"]  # from domain.betrayal.packs.catalog import Pack


def test_the_betrayal_modules_import_one_another_without_a_circle():
    circle = first_circle(_graph())
    assert circle is None, "an import circle: " + " -> ".join(circle or [])


def test_the_core_rules_do_not_import_the_abilities():
    graph = _graph()
    assert {m: sorted(graph[m] & set(ABILITIES)) for m in CORE if graph[m] & set(ABILITIES)} == {}


def test_every_sub_package_says_what_it_holds():
    for init in sorted(BETRAYAL.rglob("__init__.py")):
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        assert doc, f"{init.relative_to(ROOT)} has no docstring"
