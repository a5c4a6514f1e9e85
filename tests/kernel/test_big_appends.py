"""Big appends in one transaction (``append_batches``), and PostgreSQL that
never makes a command wait for ever: bounded statements and lock waits,
safe concurrent start-up, fast failure and recovery when the server is down.

Issue "Logs that can be trusted and a store that never hangs", points 6-8.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from uuid import uuid4

import pytest
from postgres_line import Line
from postgres_tables import drop_postgres_tables

from domain.kernel.envelope import Envelope, wrap
from domain.kernel.errors import ConcurrencyError

sys.path.insert(0, str(Path(__file__).parent))
from test_store import CounterApp, CounterBumped, CounterStarted  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
BIG = 100_000


def counter_batches(stream, events: int, size: int = 5000) -> Iterator[list[Envelope]]:
    """A counter stream of ``events`` events, ``size`` envelopes per batch,
    built as it is consumed."""
    yield wrap(stream, 0, [CounterStarted(start=0)], "start")
    for done in range(1, events, size):
        n = min(size, events - done)
        yield wrap(stream, done, [CounterBumped(by=1) for _ in range(n)], f"c{done}")


@pytest.fixture(params=["memory", "sqlite", "postgresql"])
def app(request, tmp_path):
    name = f"t{uuid4().hex[:12]}"
    cls = type(name, (CounterApp,), {})
    if request.param == "memory":
        setting = "memory"
    elif request.param == "sqlite":
        setting = f"sqlite:{tmp_path / 'big.sqlite'}"
    else:
        setting = request.getfixturevalue("postgres_store")
    opened = cls(setting)
    yield opened
    opened.close()
    if request.param == "postgresql":
        drop_postgres_tables(setting, name)


def test_append_batches_writes_every_batch_and_returns_the_last_id(app):
    a, b = uuid4(), uuid4()
    last = app.append_batches(
        iter(
            [
                wrap(a, 0, [CounterStarted(start=1)], "x"),
                wrap(b, 0, [CounterStarted(start=2)], "y"),
                wrap(a, 1, [CounterBumped(by=3)] * 3, "z"),
            ]
        )
    )
    assert last == app.max_notification_id() == 5
    assert [e.originator_version for e in app.events(a)] == [1, 2, 3, 4]
    assert app.append_batches([]) == 5 and app.append_batches([[]]) == 5


def test_append_batches_is_all_or_nothing_on_a_conflict(app):
    taken = uuid4()
    app.append(wrap(taken, 0, [CounterStarted(start=0)], "first"))
    fresh = uuid4()
    batches = [
        wrap(fresh, 0, [CounterStarted(start=0)], "a"),
        wrap(fresh, 1, [CounterBumped(by=1)] * 2500, "b"),  # spans several chunks
        wrap(taken, 0, [CounterStarted(start=9)], "c"),
    ]  # version 1 is taken
    with pytest.raises(ConcurrencyError, match="moved on"):
        app.append_batches(iter(batches))
    assert app.events(fresh) == [] and app.max_notification_id() == 1
    # A repeated version inside the batches is a conflict too.
    with pytest.raises(ConcurrencyError):
        app.append_batches([wrap(fresh, 0, [CounterStarted(start=0)], "a")] * 2)
    assert app.events(fresh) == []
    # And the store still works.
    assert app.append(wrap(fresh, 0, [CounterStarted(start=0)], "a")) == app.max_notification_id()


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_100k_event_stream_is_appended_in_one_transaction(kind, tmp_path, request):
    """Point 6: 100,000 events in one transaction, read back whole."""
    name = f"t{uuid4().hex[:12]}"
    cls = type(name, (CounterApp,), {})
    setting = request.getfixturevalue("postgres_store") if kind == "postgresql" else f"sqlite:{tmp_path / 'big.sqlite'}"
    app = cls(setting)
    try:
        stream = uuid4()
        started = time.perf_counter()
        last = app.append_batches(counter_batches(stream, BIG))
        took = time.perf_counter() - started
        assert last == app.max_notification_id() == BIG
        assert len(app.events(stream)) == BIG
        assert took < 120, f"{BIG} events took {took:.1f} s"
        print(f"\n{kind}: {BIG} events appended in {took:.2f} s")
    finally:
        app.close()
        if kind == "postgresql":
            drop_postgres_tables(setting, name)


APPEND_ONE_CALL = """
import sys, time
sys.path[:0] = [{tests!r}, {kernel!r}]
from uuid import uuid4
from test_store import CounterApp
from test_big_appends import counter_batches
cls = type({name!r}, (CounterApp,), {{}})
app = cls({setting!r})
envelopes = [e for batch in counter_batches(uuid4(), {events}) for e in batch]
t = time.perf_counter()
print(app.append(envelopes), round(time.perf_counter() - t, 2))
"""


@pytest.mark.slow
@pytest.mark.postgres
def test_one_append_of_100k_events_on_postgresql_does_not_hang(postgres_store, postgres_app_name):
    """Point 6: a single ``append`` of 100,000 envelopes (which hung in
    psycopg's pipeline, holding the table lock) finishes, within generous
    bounds; it is split into bounded batches inside one transaction."""
    code = APPEND_ONE_CALL.format(
        tests=str(ROOT / "tests"),
        kernel=str(ROOT / "tests" / "kernel"),
        name=postgres_app_name,
        setting=postgres_store,
        events=BIG,
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    last, took = done.stdout.split()
    assert int(last) == BIG
    print(f"\none append of {BIG} events: {took} s")


# -- bounded waits on PostgreSQL -----------------------------------------------------


@pytest.mark.postgres
def test_a_held_table_lock_gives_a_clear_error_not_a_hang(postgres_store, postgres_app_name):
    """Point 6: a writer waiting for another's lock gives up after
    POSTGRES_LOCK_TIMEOUT seconds with a one-line error."""
    import psycopg

    cls = type(postgres_app_name, (CounterApp,), {})
    app = cls(postgres_store, env={"POSTGRES_LOCK_TIMEOUT": "1"})
    app.start(uuid4())
    outcome: list[BaseException | int] = []
    with psycopg.connect(postgres_store) as holder:
        holder.execute(f'LOCK TABLE "{postgres_app_name}_events" IN EXCLUSIVE MODE')
        writer = threading.Thread(target=lambda: outcome.append(_try(app.start, uuid4())), daemon=True)
        started = time.monotonic()
        writer.start()
        writer.join(timeout=15)
        waited = time.monotonic() - started
        alive = writer.is_alive()
        holder.rollback()
    writer.join(timeout=15)
    app.close()
    assert not alive, "the writer waited for the lock for ever"
    assert waited < 10
    error = outcome[0]
    assert isinstance(error, Exception) and "POSTGRES_LOCK_TIMEOUT" in str(error)
    assert "\n" not in str(error)


@pytest.mark.postgres
def test_a_long_statement_is_cancelled(postgres_store, postgres_app_name):
    from domain.kernel.stores.pgstore import StoreTimeout

    cls = type(postgres_app_name, (CounterApp,), {})
    app = cls(postgres_store, env={"POSTGRES_STATEMENT_TIMEOUT": "1"})
    started = time.monotonic()
    with pytest.raises(StoreTimeout, match="POSTGRES_STATEMENT_TIMEOUT"):
        with app.recorder.datastore.get_connection() as conn:
            conn.execute("SELECT pg_sleep(30)")
    assert time.monotonic() - started < 10
    app.close()


def _try(function, *args):
    try:
        return function(*args)
    except Exception as e:  # noqa: BLE001
        return e


# -- many processes starting at once on a fresh database (point 7) --------------------

START = """
import sys
sys.path[:0] = [{tests!r}, {kernel!r}]
from uuid import uuid4
from test_store import CounterApp
cls = type({name!r}, (CounterApp,), {{}})
app = cls({setting!r})
app.start(uuid4())
print(app.max_notification_id())
"""


@pytest.mark.slow  # the same check with threads runs in the quick tier
@pytest.mark.postgres
def test_many_processes_starting_on_a_fresh_schema_all_succeed(postgres_store, postgres_app_name):
    """Point 7: 24 processes create the same tables at once: none fails."""
    code = START.format(
        tests=str(ROOT / "tests"), kernel=str(ROOT / "tests" / "kernel"), name=postgres_app_name, setting=postgres_store
    )
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        for _ in range(24)
    ]
    failures = []
    for p in procs:
        out, err = p.communicate(timeout=120)
        if p.returncode:
            failures.append(err.strip().splitlines()[-1])
    assert failures == []


@pytest.mark.postgres
def test_many_threads_starting_on_a_fresh_schema_all_succeed(postgres_store, postgres_app_name):
    cls = type(postgres_app_name, (CounterApp,), {})
    gate = threading.Barrier(16)
    results: list[object] = []

    def one():
        gate.wait()
        app = _try(cls, postgres_store)
        if isinstance(app, Exception):
            results.append(app)
            return
        results.append(_try(app.start, uuid4()))
        app.close()

    threads = [threading.Thread(target=one) for _ in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert [r for r in results if isinstance(r, Exception)] == []
    assert len(results) == 16


# -- PostgreSQL down, then back (point 8) -------------------------------------------------


@pytest.fixture
def postgres_line(postgres_store) -> Iterator[Line]:
    """A line to the test database that a test can cut (``down()``) and
    mend (``up()``): PostgreSQL going down for this test alone, not for the
    other tests and test runs using the server meanwhile."""
    line = Line(postgres_store)
    try:
        yield line
    finally:
        line.close()


@pytest.mark.postgres
def test_postgresql_down_fails_fast_and_an_open_app_recovers_at_once(postgres_line, postgres_app_name):
    """Point 8: with the server down, opening an application and using an
    open one fail within seconds; once it is back, the open one works at
    its next call."""
    from eventsourcing.persistence import PersistenceError

    cls = type(postgres_app_name, (CounterApp,), {})
    app = cls(postgres_line.store)
    stream = uuid4()
    app.start(stream)
    postgres_line.down()
    try:
        started = time.monotonic()
        with pytest.raises(PersistenceError):
            cls(postgres_line.store)
        opening = time.monotonic() - started
        started = time.monotonic()
        with pytest.raises(PersistenceError):
            app.events(stream)
        reading = time.monotonic() - started
    finally:
        postgres_line.up()
    started = time.monotonic()
    assert len(app.events(stream)) == 1
    recovering = time.monotonic() - started
    app.close()
    print(
        f"\nPostgreSQL down: open fails in {opening:.2f} s, a read on an open app in {reading:.2f} s;"
        f" first read after the restart {recovering:.2f} s"
    )
    assert opening < 8 and reading < 8 and recovering < 3
