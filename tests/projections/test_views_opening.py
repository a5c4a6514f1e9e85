"""Opening the views database (every command that reads a view does) makes
its tables only when they are not made yet: a database made by the same
projections is read, not written, so opening it waits for no writer; new
statements, a new projection or a lost position are still made."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from projections.audit import AuditView
from projections.battles import BattlesView
from projections.runner import LOCK_TIMEOUT, Catchup


def _tables(path: Path) -> set[str]:
    with closing(sqlite3.connect(path)) as db:
        return {name for (name,) in db.execute("SELECT name FROM sqlite_master")}


def test_views_made_by_the_same_projections_open_while_another_process_writes(tmp_path: Path):
    path = tmp_path / "views.sqlite"
    Catchup(path, (AuditView(), BattlesView())).close()
    with closing(sqlite3.connect(path, isolation_level=None, timeout=LOCK_TIMEOUT)) as writer:
        writer.execute("BEGIN IMMEDIATE")  # another process, mid-page of a catch-up
        again = Catchup(path, (AuditView(), BattlesView()))  # would wait LOCK_TIMEOUT, then fail, if it wrote
        assert set(again.positions()) == {AuditView.name, BattlesView.name}
        writer.execute("ROLLBACK")
    again.close()


def test_a_statement_added_to_a_projection_is_made_on_the_next_opening(tmp_path: Path):
    path = tmp_path / "views.sqlite"
    Catchup(path, (BattlesView(),)).close()

    class Indexed(BattlesView):
        schema = (*BattlesView.schema, "CREATE INDEX IF NOT EXISTS battle_list_by_name ON battle_list (name)")

    Catchup(path, (Indexed(),)).close()
    assert "battle_list_by_name" in _tables(path)


def test_a_projection_added_or_a_position_lost_is_made_again(tmp_path: Path):
    path = tmp_path / "views.sqlite"
    Catchup(path, (BattlesView(),)).close()
    both = Catchup(path, (BattlesView(), AuditView()))
    assert set(both.positions()) == {BattlesView.name, AuditView.name}
    assert "audit_lines" in _tables(path)
    both.db.execute("DELETE FROM positions WHERE projection = ?", (AuditView.name,))
    both.close()
    again = Catchup(path, (BattlesView(), AuditView()))
    with again.reading() as db:
        assert {name for (name,) in db.execute("SELECT projection FROM positions")} == {
            BattlesView.name,
            AuditView.name,
        }
    again.close()
