"""A command, undo or redo checked against one version of the game is saved
only at that version: if another writer got in between the check and the
save, it is refused as moved on and nothing is written (the server's
version check, SEAT rules and the rules' decision all see one state)."""

from __future__ import annotations

import pytest

from domain.betrayal.table.party import party_member
from domain.betrayal.battle.application import BetrayalApp
from domain.betrayal.battle.commands import EndTurn, Move
from domain.kernel.errors import ConcurrencyError


def _two_writers(store: str, app_class: type[BetrayalApp] = BetrayalApp) -> tuple[BetrayalApp, BetrayalApp, str]:
    first, second = app_class(store=store), app_class(store=store)
    party = [party_member("Ysolda:nord")]
    bid = first.new_clash(setup="waystone-crossing", party=party, xp=1, seed=3).battle.state.battle_id
    return first, second, bid


def _refused_after_another_write(first: BetrayalApp, second: BetrayalApp, bid: str) -> None:
    seen = second.battle(bid).version  # the second writer checks its command here...
    move = next(c for c in first.legal(bid) if isinstance(c, Move))
    first.execute(bid, move)  # ...the first saves in between...
    after = first.battle(bid).version
    for act in (
        lambda: second.execute(bid, EndTurn(), expected=seen),  # ...so the second's save is refused
        lambda: second.undo(bid, force=True, expected=seen),
    ):
        with pytest.raises(ConcurrencyError, match="moved on"):
            act()
    assert second.battle(bid).version == after
    first.undo(bid, expected=after)
    undone = first.battle(bid).version
    with pytest.raises(ConcurrencyError, match="moved on"):
        second.redo(bid, expected=after)
    assert second.redo(bid, expected=undone).battle.version > undone


def test_a_write_checked_at_a_version_the_game_has_left_is_refused_on_sqlite(tmp_path):
    first, second, bid = _two_writers(f"sqlite:{tmp_path / 'games.sqlite'}")
    _refused_after_another_write(first, second, bid)


@pytest.mark.postgres
def test_a_write_checked_at_a_version_the_game_has_left_is_refused_on_postgresql(postgres_store, postgres_app_name):
    app_class = type(postgres_app_name, (BetrayalApp,), {"name": postgres_app_name})
    first, second, bid = _two_writers(postgres_store, app_class)
    _refused_after_another_write(first, second, bid)
