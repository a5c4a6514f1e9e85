"""The table names the phase as players do (issue 24, point 5; issue 20,
one vocabulary): the round sequence's steps and Phases, never a phase id
such as ``adventurer-turn``. The board keeps the id for programs."""

from __future__ import annotations

from api_table import Table


def _board(table: Table, game: str) -> dict:
    return table.get(f"/api/games/{game}/table")["board"]


def test_each_ruleset_names_its_phase_in_players_words(table: Table):
    clash = _board(table, table.new_clash())
    assert (clash["phase"], clash["phase_name"]) == ("adventurer-turn", "Adventurer Turns")
    conquest = _board(table, table.new_conquest())
    assert (conquest["phase"], conquest["phase_name"]) == ("reinforcement", "Reinforcement")
    labyrinth = table.create(
        {
            "new": "labyrinth",
            "encounter": "mossy-hollow",
            "name": "l1",
            "seed": 3,
            "party": [{"class": "vanguard", "level": 1}],
        }
    )["game"]
    assert _board(table, labyrinth)["phase_name"] == "Standby"
