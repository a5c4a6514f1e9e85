"""`rk projections follow`: a process of its own keeps the read models
caught up, so a reader finds the new rows without catching up itself;
SIGTERM ends it cleanly; `--once` catches up and stops."""

from __future__ import annotations

import random
import selectors
import signal
import sqlite3
import subprocess
import threading
import time
from contextlib import closing
from pathlib import Path
from uuid import uuid4

import pytest

from domain.betrayal.table.party import party_member
from domain.betrayal.battle.application import BetrayalApp
from domain.betrayal.battle.bots import greedy_choice
from projections.follow import Follower
from projections.views import views_path_for

DEADLINE = 15.0  # seconds any one wait may take before the test fails


def line_of(proc: subprocess.Popen) -> str:
    """The process's next line of output, waiting at most ``DEADLINE``."""
    with selectors.DefaultSelector() as sel:
        sel.register(proc.stdout, selectors.EVENT_READ)
        if not sel.select(DEADLINE):
            raise AssertionError("no line from the follower in time")
    return proc.stdout.readline()


def new_clash(app: BetrayalApp) -> str:
    specs = [party_member(p) for p in ("Ysolda:nord", "Tarn:dark-elf")]
    return app.new_clash(
        setup="waystone-crossing", party=specs, xp=2, seed=3, battle_id="follow-1"
    ).battle.state.battle_id


def play(app: BetrayalApp, bid: str, commands: int) -> None:
    rnd = random.Random(5)
    for _ in range(commands):
        state = app.battle(bid).state
        app.execute(bid, greedy_choice(state, app.context(state), rnd))


def views_reached(views_file: Path, notification: int) -> bool:
    """Whether every view in the file is at ``notification`` or beyond,
    read straight from the file (no catch-up by this reader)."""
    if not views_file.exists():
        return False
    with closing(sqlite3.connect(f"file:{views_file}?mode=ro", uri=True)) as db:
        try:
            (position,) = db.execute("SELECT MIN(notification_id) FROM positions").fetchone()
        except sqlite3.OperationalError:  # the follower has not made its tables yet
            return False
    return (position or 0) >= notification


def wait_until(condition, what: str) -> None:
    deadline = time.monotonic() + DEADLINE
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"not in {DEADLINE:.0f} s: {what}")
        time.sleep(0.05)


def test_the_follower_keeps_the_views_caught_up_while_commands_are_played_and_stops_on_sigterm(rk, tmp_path):
    store = f"sqlite:{tmp_path / 'games.sqlite'}"
    app = BetrayalApp(store=store)
    bid = new_clash(app)
    follower = rk.spawn("projections", "follow", "--store", store)
    try:
        first = line_of(follower)
        assert "following the log" in first, first + follower.stderr.read()
        play(app, bid, 6)
        views_file = views_path_for(app)
        newest = app.max_notification_id()
        wait_until(lambda: views_reached(views_file, newest), "the views caught up with the new commands")
        with closing(sqlite3.connect(f"file:{views_file}?mode=ro", uri=True)) as db:
            listed = db.execute("SELECT version FROM battle_list WHERE battle = ?", (bid,)).fetchone()
            audited = db.execute("SELECT COUNT(*) FROM audit_lines").fetchone()[0]
        assert listed == (app.battle(bid).version,)
        assert audited > 0

        follower.send_signal(signal.SIGTERM)
        assert follower.wait(DEADLINE) == 0, follower.stderr.read()
        assert "stopped:" in follower.stdout.read()
    finally:
        if follower.poll() is None:
            follower.kill()
            follower.wait()
        app.close()


def test_following_once_catches_up_says_how_many_events_it_read_and_stops(rk, tmp_path):
    store = f"sqlite:{tmp_path / 'games.sqlite'}"
    with BetrayalApp(store=store) as app:
        bid = new_clash(app)
        play(app, bid, 3)
        events = len(list(app.notifications()))
    once = rk.spawn("projections", "follow", "--once", "--store", store)
    out, err = once.communicate(timeout=60)
    assert once.returncode == 0, err
    assert out.startswith(f"{events} events read into the read models"), out
    again = rk.spawn("projections", "follow", "--once", "--store", store)
    out, err = again.communicate(timeout=60)
    assert again.returncode == 0 and out.startswith("0 events read"), out + err


@pytest.fixture
def postgres_schema(postgres_store):
    """A schema of this test's own in the test database, dropped afterwards."""
    import psycopg

    schema = f"t{uuid4().hex[:12]}"
    with psycopg.connect(postgres_store, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    yield schema
    with psycopg.connect(postgres_store, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


@pytest.mark.postgres
def test_on_postgresql_the_follower_catches_up_when_the_store_notifies_without_polling(
    postgres_store, postgres_schema, tmp_path, monkeypatch
):
    monkeypatch.setenv("RULEKEEPER_HOME", str(tmp_path / "home"))  # views of this test's own
    env = {"POSTGRES_SCHEMA": postgres_schema}
    writer = BetrayalApp(store=postgres_store, env=env)
    follower = Follower(BetrayalApp(store=postgres_store, env=env), fallback=3600)  # no poll: only NOTIFY wakes it
    ready = threading.Event()
    thread = threading.Thread(target=follower.run, args=(lambda read: ready.set(),))
    thread.start()
    try:
        assert ready.wait(DEADLINE)
        bid = new_clash(writer)
        play(writer, bid, 3)
        newest = writer.max_notification_id()
        wait_until(lambda: follower.position >= newest, "the follower heard the writes")
        assert follower.read == len(list(writer.notifications()))
    finally:
        follower.stop()
        thread.join(DEADLINE)
        writer.close()
        follower.app.close()
    assert not thread.is_alive()
