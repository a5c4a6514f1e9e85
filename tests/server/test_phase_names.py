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


def test_no_one_is_to_decide_on_a_conquest_board_once_the_battle_is_over(table: Table):
    """A finished battle's board names no player to decide (the page's side
    heading read '· to decide' and its top bar 'Turn saltmarch' after the end)."""
    game = table.new_conquest()
    assert _board(table, game)["turn"] is not None
    legal = table.get(f"/api/games/{game}/legal")
    surrender = next(e for e in legal if e["label"].startswith("rk surrender"))
    answer = table.client.post(
        f"/api/games/{game}/commands", headers=table.host, json={"command": surrender["command"]}
    )
    assert answer.status_code == 200, answer.text
    board = _board(table, game)
    assert board["phase_name"] == "over" and board["turn"] is None
