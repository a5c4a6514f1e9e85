"""The undo/redo property runs on real stores, SQLite and PostgreSQL, and a
battle comes out the same whatever store holds it (store independence).

A PostgreSQL run gets an application class of its own name, hence fresh
tables (``<name>_events``, ``<name>_snapshots``), dropped afterwards.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path
from uuid import uuid4

import pytest
from checked_play import CheckedBattle, SnapshottingApp, play_checked
from postgres_tables import drop_postgres_tables
from random_battles import random_table

SEEDS = range(5)

Opener = Callable[[], SnapshottingApp]


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def open_app(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Opener]:
    """Opens applications on one store; each call is a new instance (a new
    connection) on the same database."""
    app_class: type[SnapshottingApp] = SnapshottingApp
    if request.param == "sqlite":
        setting = f"sqlite:{tmp_path / 'battles.sqlite'}"
    else:
        setting = request.getfixturevalue("postgres_store")
        app_class = type(f"Property{uuid4().hex[:12]}", (SnapshottingApp,), {})
    opened: list[SnapshottingApp] = []

    def opener() -> SnapshottingApp:
        app = app_class(setting)
        opened.append(app)
        return app

    yield opener
    for app in opened:
        app.close()
    if request.param == "postgresql":
        drop_postgres_tables(setting, app_class.name)


def _play(app: SnapshottingApp, seed: int) -> CheckedBattle:
    rnd = random.Random(seed)
    return play_checked(app, random_table(rnd), f"b{seed}", rnd)


@pytest.mark.parametrize("seed", SEEDS)
def test_undo_redo_and_loads_hold_on_a_real_store_and_match_memory(open_app: Opener, seed: int) -> None:
    battle = _play(open_app(), seed)
    battle.check_store(open_app())  # a new connection loads the same, at every version
    with SnapshottingApp("memory") as memory:
        twin = _play(memory, seed)
        assert twin.live == battle.live
        assert memory.battle(twin.battle_id) == battle.app.battle(battle.battle_id)
        assert [e.event for e in memory.stream(twin.battle_id)] == [
            e.event for e in battle.app.stream(battle.battle_id)
        ]
        for spec in battle.table.party:
            assert memory.adventurer(spec.name) == battle.app.adventurer(spec.name)
