"""Two writers on one battle: the second gets a clear error and nothing of its
command is written, in any stream (DESIGN: Storage)."""

from __future__ import annotations

import uuid

import pytest

from domain.betrayal.battle.application import BetrayalApp, PartySpec, battle_stream
from domain.betrayal.battle.commands import EndTurn, Move
from domain.kernel.errors import ConcurrencyError


def _pair(store: str, name: str = "") -> tuple[BetrayalApp, BetrayalApp]:
    app_class = type(name, (BetrayalApp,), {"name": name}) if name else BetrayalApp
    return app_class(store=store), app_class(store=store)


def _race_to_move(first: BetrayalApp, second: BetrayalApp) -> None:
    party = [PartySpec(f"Ysolda{uuid.uuid4().hex[:6]}", "nord")]
    bid = first.new_clash(setup="waystone-crossing", party=party, xp=1, seed=3).battle.state.battle_id
    # Both load the same version; the first saves, then the second tries.
    stale = second.battle(bid)
    fresh = first.battle(bid)
    assert stale == fresh
    moves = [c for c in first.legal(bid) if isinstance(c, Move)]
    first.execute(bid, moves[0])
    version = first.battle(bid).version

    real_battle = second.battle
    second.battle = lambda battle_id, version=None: stale if version is None else real_battle(battle_id, version)
    with pytest.raises(ConcurrencyError, match="moved on"):
        second.execute(bid, moves[-1])
    second.battle = real_battle
    assert second.battle(bid).version == version
    assert len(second.events(battle_stream(bid))) == version
    # The second writer reloads and goes on.
    second.execute(bid, EndTurn())
    assert first.battle(bid).version > version


def test_a_second_writer_on_one_sqlite_file_is_told_the_battle_moved_on(tmp_path):
    store = f"sqlite:{tmp_path / 'battles.sqlite'}"
    _race_to_move(*_pair(store))


@pytest.mark.postgres
def test_a_second_writer_on_postgresql_is_told_the_battle_moved_on(postgres_store, postgres_app_name):
    _race_to_move(*_pair(postgres_store, postgres_app_name))
