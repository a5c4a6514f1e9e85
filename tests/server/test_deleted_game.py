"""A deleted game (`rk delete`) is played no more at the table (#21 point
4): as on the command line, nothing changes it, whoever asks (410, nothing
written); the host may still read it, a seat or a spectator reads nothing."""

from __future__ import annotations

from api_table import Table, refusal
from server.app import open_app


def test_a_deleted_game_is_changed_by_no_one_and_read_by_the_host_alone(table: Table):
    g = table.new_clash()
    entry = next(e for e in table.legal(g) if e["command"]["type"] == "EndTurn")
    end_turn, mover = entry["command"], table.seat(g, entry["actor"])
    open_app(table.app).delete_battle(g)
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
    open_app(table.app).restore_battle(g)
    table.done(g, end_turn, mover)  # restored, it is played again
