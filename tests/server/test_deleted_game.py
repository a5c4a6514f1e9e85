"""A deleted game (`rk delete`) is played no more at the table (#21 point
4): as on the command line, nothing changes it, whoever asks (410, nothing
written); the host may still read it, a seat or a spectator reads nothing."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from api_table import Table, refusal
from server.app import open_app

WAIT = 20  # seconds the server may take to hear of a change (never asserted as a duration)


def _elsewhere(table: Table, change: Callable[[Any], Any]) -> None:
    """``change`` made to the store as `rk delete` or `rk restore` makes
    it, on a connection of its own, once the server heard it: on
    PostgreSQL the server reads the index again only once its listener
    heard a write from another connection (``server.index_watch``)."""
    server = table.app.state.server
    watch = server.index_watch
    if watch is not None:
        deadline = time.monotonic() + WAIT
        while server.feed._listener is None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert server.feed._listener.listening.wait(WAIT)
    before = watch.moves if watch is not None else 0
    change(open_app(table.app))
    deadline = time.monotonic() + WAIT
    while watch is not None and watch.moves == before and time.monotonic() < deadline:
        time.sleep(0.005)


def test_a_deleted_game_is_changed_by_no_one_and_read_by_the_host_alone(table: Table):
    g = table.new_clash()
    entry = next(e for e in table.legal(g) if e["command"]["type"] == "EndTurn")
    end_turn, mover = entry["command"], table.seat(g, entry["actor"])
    _elsewhere(table, lambda app: app.delete_battle(g))
    before = table.written(g)
    for who in (mover, table.host, table.spectator(g)):
        body = refusal(table.command(g, end_turn, who), 410, "gone")
        assert "deleted" in body["reason"], body
        for path in ("undo", "redo"):
            refusal(table.client.post(f"/api/games/{g}/{path}", headers=who, json={}), 410, "gone")
    assert table.written(g) == before
    for who in (mover, table.spectator(g)):
        for path in ("", "/state", "/legal", "/log", "/table", "/seats", "/export", "/live"):
            refusal(table.client.get(f"/api/games/{g}{path}", headers=who), 410, "gone")
    assert table.get(f"/api/games/{g}")["deleted"] is True  # the host still reads it
    _elsewhere(table, lambda app: app.restore_battle(g))
    table.done(g, end_turn, mover)  # restored, it is played again


def _seat_commands(table: Table, g: str, count: int) -> None:
    for _ in range(count):
        entry = next(e for e in table.legal(g) if e["actor"] not in (None, "host"))
        table.done(g, entry["command"], table.seat(g, entry["actor"]))


def test_a_seats_commands_read_the_index_again_only_when_another_process_may_have_moved_it(table: Table, monkeypatch):
    from domain.kernel.games import GameApp
    from server.index_watch import IndexWatch

    g = table.new_clash()
    watch = table.app.state.server.index_watch
    if watch is not None:
        watch.max_age = 3600.0  # a slow machine's commands may take a second: not what is tested here
    _elsewhere(table, lambda app: None)  # the listener listens (PostgreSQL)
    _seat_commands(table, g, 2)  # this process's connection known as its own
    time.sleep(0.2)  # their notifications heard
    # The application of each read of the index, held (not its id: a worker's
    # application let go and a new one made at its address would look the same).
    reads: list[GameApp] = []
    real = GameApp.index

    # Only the reads the pass check makes through the watch are counted: a
    # table's view or the change feed read the index afresh by design.
    checking = threading.local()
    real_check = IndexWatch.index

    def counted(self: GameApp, *, refresh: bool = True) -> Any:
        if refresh and (watch is None or getattr(checking, "on", False)):
            reads.append(self)
        return real(self, refresh=refresh)

    def through_watch(self: IndexWatch, app: GameApp) -> Any:
        checking.on = True
        try:
            return real_check(self, app)
        finally:
            checking.on = False

    monkeypatch.setattr(GameApp, "index", counted)
    monkeypatch.setattr(IndexWatch, "index", through_watch)
    heard = watch.moves if watch is not None else 0
    _seat_commands(table, g, 4)
    if watch is None:  # SQLite: every seat's command reads it
        assert len(reads) >= 4
        return
    # Each worker's application at most once (the change feed's polls take
    # a worker too, so the next request may be another's), not each command;
    # and once more for each write heard from elsewhere meanwhile (other
    # tests' schemas in the same database notify on the same channel).
    elsewhere = watch.moves - heard
    assert len(reads) <= len({id(a) for a in reads}) + elsewhere, (
        "a seat's command read the index with nothing heard from elsewhere"
    )
    assert len({id(a) for a in reads}) < 4
    _elsewhere(table, lambda app: app.rename_battle(g, "friday"))
    reads.clear()
    _seat_commands(table, g, 1)
    assert len(reads) == 1
    assert table.get(f"/api/games/{g}")["name"] == "friday"
