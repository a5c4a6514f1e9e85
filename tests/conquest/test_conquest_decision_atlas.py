"""Conquest's decision atlas (tests/decision_atlas.py): each example the
surface declares, played at random to its end from a few seeds, and a few of
its states asked again about every command the game offered anywhere.

Every rule the atlas touches has its own test citing it; this one catches a
changed refusal (its rule ID or words), a changed event or a changed list of
legal commands that those tests miss. Written anew, after a meant change,
with ``RK_WRITE_ATLAS=1 .venv/bin/pytest tests/conquest/test_conquest_decision_atlas.py``.
"""

from __future__ import annotations

from pathlib import Path

from decision_atlas import AtlasGame, atlas_lines, check_atlas, example_player

from domain.kernel.games import GameApp

ATLAS = Path(__file__).with_name("decision_atlas.txt")
HEADER = "# Conquest's decision atlas: tests/decision_atlas.py says what it is and how to write it again"
GAMES = [
    AtlasGame(f"example {example}", example_player("conquest", "conquest", example, rarely=("Surrender",)), seed)
    for example in (0, 1)
    for seed in (51, 52, 53, 54, 55, 56)
]


def test_the_rules_answer_every_command_of_the_atlas_as_written_down():
    check_atlas(ATLAS, atlas_lines(lambda: GameApp(store="memory"), GAMES), HEADER)
