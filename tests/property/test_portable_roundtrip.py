"""Export then import is the identity (DESIGN: Logs, the portable format;
STYLE.md item 9), for random battles played with undos and redos."""

from __future__ import annotations

import random

import pytest
from tiers import quick_first
from checked_play import SnapshottingApp, play_checked
from random_battles import random_table

from domain.betrayal.battle.application import BetrayalApp

portable = pytest.importorskip("domain.kernel.portable")

SEEDS = range(200, 220)


@pytest.mark.parametrize("seed", quick_first(SEEDS, 5))
def test_a_battle_exported_and_imported_exports_the_same_bytes_and_verifies(seed: int) -> None:
    rnd = random.Random(seed)
    with SnapshottingApp("memory") as app:
        played = play_checked(app, random_table(rnd), f"b{seed}", rnd)
        if not played.tally.undos:  # every log holds an undo and a redo
            played.undo()
            played.redo()
        log = portable.export_battle(app, played.battle_id)
        assert portable.verify_battle(app, played.battle_id).ok
        with BetrayalApp("memory") as fresh:
            battle_id = portable.import_log(fresh, log)
            assert battle_id == played.battle_id
            assert portable.export_battle(fresh, battle_id) == log
            assert fresh.battle(battle_id) == app.battle(battle_id)
            assert fresh.battle(battle_id).state == played.live
            for spec in played.table.party:
                assert fresh.adventurer(spec.name) == app.adventurer(spec.name)
            assert portable.verify_battle(fresh, battle_id).ok
            played.check_store(fresh, versions=10)  # past versions too
