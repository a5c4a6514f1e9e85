"""Positions round-trip for every ruleset and mode (issue 23, point 3):
write a game's position, start a game from it in a store of its own, write
its position again: the same text, the same state digest, and the new
game's log verifies (its first event holds the position, re-checked).

Over the golden logs (a clash won, lost and undone; three delves; a
dungeon; a campaign; Conquest; the labyrinth) at several versions each, and
over seeded random play from the first example of every setup every
ruleset declares, at several versions of it.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import msgspec
import pytest

from domain.kernel.games import GameApp
from domain.kernel.portable import export_battle, import_log, state_digest, verify_log
from domain.kernel.position.at import position_text
from domain.kernel.position.messages import StartFromPosition
from domain.kernel.surface import surfaces

LOGS = sorted((Path(__file__).resolve().parents[2] / "logs").glob("*.jsonl"))
STEPS = 40  # commands of seeded random play before positions are taken


def _versions(last: int) -> list[int]:
    """The setup's end, two versions on the way, and the last."""
    return sorted({2, max(2, last // 3), max(2, (2 * last) // 3), last})


def _round_trip(app: GameApp, battle_id: str, version: int) -> None:
    rs = app.ruleset(battle_id)
    text = position_text(app, battle_id, version)
    state = app.battle(battle_id, version).state
    with GameApp("memory") as other:
        started = other.start(rs.name, StartFromPosition(position=text), battle_id=battle_id)
        assert started.battle.version == 2  # its CommandIssued, then its PositionTaken
        assert position_text(other, battle_id) == text
        assert state_digest(other.battle(battle_id).state) == state_digest(state)
        report = verify_log(export_battle(other, battle_id))
        assert report.ok, report.summary()


@pytest.mark.parametrize("path", LOGS, ids=[p.stem for p in LOGS])
def test_every_golden_log_round_trips_through_its_position_at_several_versions(path: Path):
    """Every game of the log: a campaign's log holds its battles too, fought
    by the campaign's adventurers (their class sheets and items)."""
    with GameApp("memory") as app:
        import_log(app, path.read_bytes())
        for game in app.battles():
            for version in _versions(app.battle(game.battle_id).version):
                _round_trip(app, game.battle_id, version)


def _setups() -> list[Any]:
    return [
        pytest.param(surface, setup, id=setup.name)
        for surface in surfaces()
        for setup in surface.setups
        if setup.examples
    ]


@pytest.mark.parametrize("surface, setup", _setups())
def test_seeded_random_play_of_every_setup_round_trips_through_its_position(surface: Any, setup: Any):
    rnd = random.Random(23)
    with GameApp("memory") as app:
        fields = {**setup.examples[0], "name": "pos-1"}
        if any(f.name == "seed" for f in msgspec.structs.fields(setup.request)):
            fields["seed"] = 23
        battle_id = setup.start(app, msgspec.convert(fields, setup.request)).battle.state.battle_id
        for _ in range(STEPS):
            legal = app.legal(battle_id)
            if not legal:
                break
            app.execute(battle_id, rnd.choice(legal))
        for version in _versions(app.battle(battle_id).version):
            _round_trip(app, battle_id, version)


@pytest.mark.parametrize("surface, setup", _setups())
def test_a_position_may_give_the_dice_to_come_to_the_table(surface: Any, setup: Any):
    """README, Positions: `physical_dice = true` in a position (in the
    state, or in its options where the ruleset keeps them) makes every roll
    from there wait for the faces the table rolled."""
    from msgspec.structs import replace

    from domain.kernel.position.at import position_of, start
    from domain.kernel.position.document import Position, write

    with GameApp("memory") as app:
        fields = {**setup.examples[0], "name": "dice-1"}
        battle_id = setup.start(app, msgspec.convert(fields, setup.request)).battle.state.battle_id
        rs = app.ruleset(battle_id)
        position = position_of(app, battle_id)
        state = position.state
        if not hasattr(state, "physical_dice") and not hasattr(getattr(state, "options", None), "physical_dice"):
            pytest.skip(f"{setup.name} games roll no dice")
        if hasattr(state, "physical_dice"):
            state = replace(state, physical_dice=True)
        else:
            state = replace(state, options=replace(state.options, physical_dice=True))
        text = write(rs, Position(position.ruleset, state, position.others))
        assert "physical_dice = true" in text
    with GameApp("memory") as other:  # a store of its own: the position keeps the game's name
        start(other, text)
        given = other.battle(battle_id).state
        assert (given.physical_dice if hasattr(given, "physical_dice") else given.options.physical_dice) is True
