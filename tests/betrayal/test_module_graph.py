"""How Betrayal's modules depend on one another: one way, with no circle,
counting imports inside functions too. The core rules (actions, damage,
exploration, flow, foes) never import the race, class and item abilities:
those register at the core's hook points (``hooks``)."""

from __future__ import annotations

from pathlib import Path

from import_graph import first_circle, package_graph

ROOT = Path(__file__).resolve().parents[2]
BETRAYAL = ROOT / "domain" / "betrayal"
CORE = ("actions", "damage", "exploration", "flow", "foes")
ABILITIES = ("race_abilities", "class_abilities", "class_progress", "item_use", "item_wards", "defense")


def _graph() -> dict[str, set[str]]:
    return package_graph(BETRAYAL, "domain.betrayal")


def test_the_betrayal_modules_import_one_another_without_a_circle():
    circle = first_circle(_graph())
    assert circle is None, "an import circle: " + " -> ".join(circle or [])


def test_the_core_rules_do_not_import_the_abilities():
    graph = _graph()
    assert {m: sorted(graph[m] & set(ABILITIES)) for m in CORE if graph[m] & set(ABILITIES)} == {}
