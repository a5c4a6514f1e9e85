"""The labyrinth's decision atlas (tests/decision_atlas.py): each example the
surface declares, played at random to its end from a few seeds, and a few of
its states asked again about every command the game offered anywhere.

Every rule the atlas touches has its own test citing it; this one catches a
changed refusal (its rule ID or words), a changed event or a changed list of
legal commands that those tests miss. Written anew, after a meant change,
with ``RK_WRITE_ATLAS=1 .venv/bin/pytest tests/labyrinth/test_labyrinth_decision_atlas.py``.
"""

from __future__ import annotations

from pathlib import Path

from decision_atlas import AtlasGame, atlas_lines, check_atlas, example_player

from domain.kernel.games import GameApp

ATLAS = Path(__file__).with_name("decision_atlas.txt")
HEADER = "# The labyrinth's decision atlas: tests/decision_atlas.py says what it is and how to write it again"
# The table's options: typed dice, the GM giving the enemies' commands and
# asking before FP is spent, an ambush on either side.
OPTIONS: dict[str, dict] = {
    "": {},
    ", physical dice": {"physical_dice": True},
    ", GM enemies and FP asked": {"gm_enemies": True, "ask_fp": True},
    ", the party ambushed": {"ambush": "pcs"},
    ", the enemies ambushed": {"ambush": "enemies"},
}
GAMES = [
    AtlasGame(
        f"example {example}{named}",
        example_player("labyrinth", "labyrinth", example, rarely=("Escape",), **options),
        seed,
    )
    for example in (0, 1)
    for named, options in OPTIONS.items()
    for seed in ((51, 52, 53) if not options else (54,))
]


def test_the_rules_answer_every_command_of_the_atlas_as_written_down():
    check_atlas(ATLAS, atlas_lines(lambda: GameApp(store="memory"), GAMES), HEADER)
