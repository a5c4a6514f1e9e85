"""Positions through the Python API (issue 23): ``Rulekeeper.from_position``
starts a game from a position file or its text, ``Game.position(version)``
writes one, and ``given.position(file)`` starts a given/when/then from one.
The position is examples/positions/lookout-engage.toml."""

from __future__ import annotations

from pathlib import Path

import pytest

from domain.kernel.position.document import PositionRefused
from rulekeeper import Rulekeeper

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "positions" / "lookout-engage.toml"


def test_a_game_starts_from_a_position_file_and_writes_it_back():
    with Rulekeeper() as keeper:
        game = keeper.from_position(EXAMPLE)
        assert (game.id, game.ruleset, game.version) == ("lookout", "betrayal", 2)
        written = game.position()
        game.play("end-turn")
        assert game.position(2) == written
        with Rulekeeper() as other:
            again = other.from_position(written)
            assert again.position() == written and again.digest() == keeper.game("lookout").at(2).digest()


def test_a_position_the_rules_cannot_hold_is_refused_with_its_line_and_nothing_written():
    with Rulekeeper() as keeper:
        with pytest.raises(PositionRefused) as refused:
            keeper.from_position(EXAMPLE.read_text().replace("hp = 1\n", "hp = 5\n"))
        assert refused.value.line == 62 and "HEALTH-2" in refused.value.reason
        assert keeper.games() == []


def test_given_a_position_when_the_turn_ends_then_the_lookout_engages_ysolda(given):
    given.position(EXAMPLE).when("end-turn").then_has(
        "ENEMY-5: e2 Road Lookout moves g2 → g1", "ENEMY-6a: e2 Road Lookout engages Ysolda"
    )
