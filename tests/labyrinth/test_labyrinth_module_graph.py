"""The labyrinth's modules depend on one another one way, with no circle,
counting imports inside functions too: what a critical sets off (CRIT-3)
reaches the attack roll through the decision (``Decision.on_critical``),
not by an import back up."""

from __future__ import annotations

from pathlib import Path

from import_graph import first_circle, package_graph

LABYRINTH = Path(__file__).resolve().parents[2] / "domain" / "labyrinth"


def test_the_labyrinth_modules_import_one_another_without_a_circle():
    circle = first_circle(package_graph(LABYRINTH, "domain.labyrinth"))
    assert circle is None, "an import circle: " + " -> ".join(circle or [])
