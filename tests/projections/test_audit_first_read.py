"""A first `rk audit` answers from the lines its catch-up has just built
(``AuditView.keeping`` and ``kept``), and those are the lines the table
holds: the same answer as reading them back, the same rows as a catch-up
that keeps nothing, whatever the page size. When the lines it holds are
not all of the table's (another catch-up applied a page between, a page
was rolled back), it reads the table. Each distinct event is described
once (``Words``), in the words ``describe`` gives (issue 25, seventh pass).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import msgspec
import pytest

from domain.betrayal.battle.application import BetrayalApp
from domain.kernel.commandlog import CommandIssued
from domain.kernel.games import GameApp
from domain.kernel.portable import import_log
from projections import views
from projections.audit import AuditView, audit_lines
from projections.audit_words import Words, describe
from projections.runner import Catchup

from test_audit_held_lines import played_with_undos

LOGS = Path(__file__).resolve().parents[2] / "logs"
GOLDEN = sorted(p.name for p in LOGS.glob("*.jsonl"))


def golden_store(names: list[str], store: str = "memory") -> tuple[GameApp, list[str]]:
    app = GameApp(store=store)
    ids = []
    for name in names:
        data = (LOGS / name).read_bytes()
        import_log(app, data)
        ids.append(msgspec.json.decode(data.split(b"\n", 1)[0])["battle_id"])
    return app, ids


def first_read(app, battle_id: str, page: int) -> tuple[list | None, list, dict]:
    """What a first read keeps, what the table gives back, and its rows."""
    view = AuditView()
    catchup = Catchup(None, (view,), page=page)
    stream = str(app.ruleset(battle_id).game_stream(battle_id))
    with catchup.alone(), view.keeping():
        catchup.catch_up(app)
        kept = view.kept(stream, catchup.position())
    with catchup.reading() as db:
        read = audit_lines(db, stream)
    return kept, read, catchup.contents()


def rows_kept_nowhere(app) -> dict:
    catchup = Catchup(None, (AuditView(),), page=7)
    catchup.catch_up(app)
    return catchup.contents()


@pytest.mark.parametrize("page", [1, 7, 500])
def test_a_first_read_answers_with_the_lines_the_table_holds(page):
    app = BetrayalApp(store="memory")
    bid = played_with_undos(app)
    kept, read, rows = first_read(app, bid, page)
    assert kept is not None and kept == read
    assert any(line.undone for line in kept) and any(line.stream != kept[0].stream for line in kept)
    assert rows == rows_kept_nowhere(app)


@pytest.mark.parametrize("name", GOLDEN)
def test_each_golden_game_reads_the_same_kept_or_read_back(name):
    app, (bid,) = golden_store([name])
    kept, read, rows = first_read(app, bid, 5)
    assert kept is not None and kept == read and kept
    assert rows == rows_kept_nowhere(app)


def test_games_of_every_ruleset_in_one_store_are_each_answered_with_their_own_lines():
    names = [n for n in GOLDEN if n.startswith(("won-", "conquest-", "labyrinth-"))]
    app, ids = golden_store(names)
    everything = rows_kept_nowhere(app)
    for bid in ids:
        kept, read, rows = first_read(app, bid, 11)
        assert kept is not None and kept == read and kept
        assert rows == everything


def test_lines_another_catchup_wrote_between_pages_are_read_from_the_table(tmp_path: Path):
    app = BetrayalApp(store="memory")
    bid = played_with_undos(app)
    stream = str(app.ruleset(bid).game_stream(bid))
    path = tmp_path / "views.sqlite"
    mine, other = AuditView(), Catchup(path, (AuditView(),), page=3)
    catchup = Catchup(path, (mine,), page=3)
    with catchup.alone(), mine.keeping():
        catchup.catch_up(app, upto=20)
        other.catch_up(app, upto=40)  # another process, between two of this one's pages
        catchup.catch_up(app)
        assert mine.kept(stream, catchup.position()) is None
    assert catchup.contents() == rows_kept_nowhere(app)


def test_a_rolled_back_page_leaves_the_table_to_be_read():
    app = BetrayalApp(store="memory")
    bid = played_with_undos(app)
    stream = str(app.ruleset(bid).game_stream(bid))

    class Crash(Exception):
        pass

    class CrashingOnce(AuditView):
        crashed = False

        def line(self, db, nid, env):
            if nid == 30 and not self.crashed:
                self.crashed = True
                raise Crash
            super().line(db, nid, env)

    view = CrashingOnce()
    catchup = Catchup(None, (view,), page=4)
    with catchup.alone(), view.keeping():
        with pytest.raises(Crash):
            catchup.catch_up(app)
        catchup.catch_up(app)  # resumes after the last committed page
        assert view.kept(stream, catchup.position()) is None
    assert catchup.contents() == rows_kept_nowhere(app)


def test_the_views_query_answers_a_first_read_as_it_answers_the_next(tmp_path: Path):
    app = BetrayalApp(store=f"sqlite:{tmp_path / 'store.sqlite'}")
    bid = played_with_undos(app)
    first = views.audit(app, bid)
    again = views.audit(app, bid)
    views.close_views(app)
    reopened = views.audit(app, bid)
    assert first == again == reopened
    with pytest.raises(Exception, match="no battle"):
        views.audit(app, "nope")


@pytest.mark.parametrize("name", GOLDEN)
def test_words_are_what_describe_says_of_each_event_seen_again(name):
    app, _ = golden_store([name])
    events = [envelope.event for _, envelope in app.notifications()]
    words = Words()
    assert [words(e) for e in events] == [describe(e) for e in events]
    assert [words(e) for e in events] == [describe(e) for e in events]  # the second time, from what it keeps


def indexes(path: Path) -> set[str]:
    with sqlite3.connect(path) as db:
        return {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}


def test_a_first_read_makes_the_index_after_the_rows(tmp_path: Path):
    app = BetrayalApp(store=f"sqlite:{tmp_path / 'store.sqlite'}")
    bid = played_with_undos(app)
    views.audit(app, bid)
    assert "audit_by_battle" in indexes(views.views_path_for(app))


def test_a_build_cut_short_leaves_the_index_to_the_next_catchup_that_writes(tmp_path: Path):
    app = BetrayalApp(store="memory")
    bid = played_with_undos(app)
    stream = str(app.ruleset(bid).game_stream(bid))
    path = tmp_path / "views.sqlite"

    class Crash(Exception):
        pass

    class Crashing(AuditView):
        def line(self, db, nid, env):
            if nid == 30:
                raise Crash
            super().line(db, nid, env)

    view = Crashing()
    catchup = Catchup(path, (view,), page=4)
    with catchup.alone(), view.keeping(), pytest.raises(Crash):
        catchup.catch_up(app)
    catchup.close()
    assert "audit_by_battle" not in indexes(path)  # the pages before the crash were built without it
    again = Catchup(path, (AuditView(),), page=4)
    again.catch_up(app)
    assert "audit_by_battle" in indexes(path)
    with again.reading() as db:
        assert audit_lines(db, stream) == first_read(app, bid, 4)[0]
    assert again.contents() == rows_kept_nowhere(app)


@pytest.mark.parametrize("name", GOLDEN)
def test_words_of_a_redone_command_are_what_describe_says_whichever_command_it_redoes(name):
    app, _ = golden_store([name])
    issued = [env.event for _, env in app.notifications() if isinstance(env.event, CommandIssued)]
    redone = [msgspec.structs.replace(e, redo_of=f"c{n}") for n, e in enumerate(issued)]
    events = issued + redone + [msgspec.structs.replace(e, redo_of="") for e in redone]
    words = Words()
    assert [words(e) for e in events] == [describe(e) for e in events]


def test_the_at_column_says_each_time_in_its_own_zone():
    """A command's events share their time and its text is made once; the
    same instant in another zone, or the same fields in another, reads as
    its own."""
    from datetime import datetime, timedelta, timezone

    view = AuditView()
    utc = datetime(2026, 12, 7, 20, 0, tzinfo=timezone.utc)
    east = timezone(timedelta(hours=2))
    times = [
        utc,
        utc,
        datetime(2026, 12, 7, 20, 0, tzinfo=timezone(timedelta(0))),  # another zone object, the same offset
        utc.astimezone(east),  # the same instant at another offset
        datetime(2026, 12, 7, 20, 0, tzinfo=east),  # the same fields in another zone
        utc + timedelta(microseconds=1),
        utc,
    ]
    assert [view._at(t) for t in times] == [t.isoformat() for t in times]
