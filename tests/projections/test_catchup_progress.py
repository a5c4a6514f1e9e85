"""The catch-up tells a progress display how far it got, a projection given
a new name over its old tables rebuilds them from empty, and the audit's
words for an undo carry no command id (issue 10, points 4 and 5)."""

from __future__ import annotations

import random
import sqlite3
from contextlib import closing
from pathlib import Path

from domain.betrayal.table.party import party_member
from domain.betrayal.battle.application import BetrayalApp
from domain.betrayal.battle.bots import greedy_choice
from domain.kernel.commandlog import LAST_COMMAND
from projections import views
from projections.audit import AuditView
from projections.runner import Catchup


def played(app: BetrayalApp) -> str:
    """A clash a few commands on, the last one undone."""
    specs = [party_member(p) for p in ("Ysolda:nord", "Tarn:dark-elf")]
    bid = app.new_clash(setup="waystone-crossing", party=specs, xp=2, seed=3).battle.state.battle_id
    rnd = random.Random(3)
    for _ in range(6):
        state = app.battle(bid).state
        app.execute(bid, greedy_choice(state, app.context(state), rnd))
    app.undo(bid, force=True)
    return bid


def test_the_catch_up_reports_each_page_read_and_nothing_is_left_behind():
    app = BetrayalApp(store="memory")
    played(app)
    catchup = Catchup(None, (AuditView(),), page=7)
    assert catchup.behind(app) == app.max_notification_id()
    heard: list[int] = []
    catchup.catch_up(app, progress=heard.append)
    assert sum(heard) == len(list(app.notifications())) and max(heard) <= 7
    assert catchup.behind(app) == 0
    catchup.catch_up(app, progress=heard.append)
    assert sum(heard) == len(list(app.notifications()))  # nothing more to read, nothing heard


def test_a_new_name_over_old_tables_rebuilds_them_from_empty(tmp_path: Path):
    app = BetrayalApp(store="memory")
    played(app)
    path = tmp_path / "views.sqlite"
    old = Catchup(path, (AuditView(),))
    old.catch_up(app)
    old.db.execute("UPDATE audit_lines SET text = 'stale', battle = 'elsewhere'")
    old.close()

    class Renamed(AuditView):
        name = "audit-renamed"

    renamed = Catchup(path, (Renamed(),))
    assert renamed.contents()["audit_lines"] == []
    renamed.catch_up(app)
    fresh = Catchup(None, (AuditView(),))
    fresh.catch_up(app)
    assert renamed.contents() == fresh.contents()
    renamed.close()
    with closing(sqlite3.connect(path)) as db:
        assert db.execute("SELECT count(*) FROM audit_lines WHERE text = 'stale'").fetchone() == (0,)


def test_the_audit_says_an_undo_without_the_command_id():
    app = BetrayalApp(store="memory")
    bid = played(app)
    lines = views.audit(app, bid)
    undo = next(line for line in lines if line.event == "CommandUndone")
    undone = {line.command_id for line in lines if line.undone}
    assert LAST_COMMAND in undo.text
    assert not any(command in undo.text for command in undone | {undo.command_id})
    views.close_views(app)
