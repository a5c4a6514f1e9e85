"""Issue 25, eighth pass: one SQLite stream's envelopes in append order
(`rk log` of a game without companion streams) go from the query's rows
straight to the decoder (``EnvelopeDecoder.envelopes``), with no row
object made of each nor a filter called for it. The envelopes are those
of the general path (the rows as ``_notifications`` gives them, snapshots
left out, ``decoded``), in the library's application and in the plain
reads, at any page size, with and without a topic read as a narrower
class."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from cli import history
from domain.betrayal.battle.application import BetrayalApp
from domain.kernel.envelope import is_state_topic
from domain.kernel.games import GameApp
from betrayal_undoing import play_undoing
from domain.kernel.open_reads import open_reads
from domain.kernel.stores import streams_order

BATTLES = ("straight-1", "straight-2")


class OftenSnapshotted(BetrayalApp):
    """Snapshots every few events: the store holds some beside the events."""

    snapshot_every = 5


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Two battles played in turns into one SQLite store (their streams' rows interleaved)."""
    path = Path(tmp_path_factory.mktemp("straight")) / "rk.sqlite"
    with OftenSnapshotted(f"sqlite:{path}") as app:
        for n, battle_id in enumerate(BATTLES):
            play_undoing(app, battle_id, commands=40, seed=n + 3)
    return str(path)


def _general(app: Any, stream: UUID, page: int, narrower: Any) -> list[Any]:
    rows = (n for n in streams_order._notifications(app, [stream], page) if not is_state_topic(n.topic))
    return list(app.mapper.decoded(rows, narrower))


@pytest.mark.parametrize("plain", [False, True])
@pytest.mark.parametrize("page", [1, 7, 500])
def test_one_streams_envelopes_are_those_of_the_general_path(store: str, plain: bool, page: int) -> None:
    app = open_reads(store) if plain else GameApp(store, read_only=True)
    try:
        assert streams_order._is_sqlite(app.recorder)
        for battle_id in BATTLES:
            rs = app.ruleset(battle_id)
            stream = rs.game_stream(battle_id)
            for narrower in (None, {rs.undone: history.unread_undo(rs.undone)}.get):
                got = list(streams_order.envelopes_in_append_order(app, (stream,), page, narrower))
                assert len(got) == app.battle(battle_id).version
                assert got == _general(app, stream, page, narrower)
    finally:
        app.close()
