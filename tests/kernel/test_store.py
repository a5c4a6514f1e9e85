"""Store selection and the application base: append, load, snapshots,
concurrency and the notification log, on memory, SQLite and PostgreSQL."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from uuid import UUID, uuid4

import msgspec
import pytest
from postgres_tables import drop_postgres_tables

from domain.kernel.stores.application import EventSourcedApp, projector
from domain.kernel.envelope import Envelope, SnapshotEnvelope, register_state, wrap
from domain.kernel.errors import ConcurrencyError, NotFound
from domain.kernel.messages import Event
from domain.kernel.stores.store import default_store_path, store_env

# -- a counter stream, for tests only ----------------------------------------


class CounterStarted(Event, frozen=True, kw_only=True):
    TOPIC = "test.store.CounterStarted"
    start: int


class CounterBumped(Event, frozen=True, kw_only=True):
    TOPIC = "test.store.CounterBumped"
    by: int


class Counter(msgspec.Struct, frozen=True, kw_only=True):
    total: int
    version: int
    bumps: tuple[int, ...] = ()


COUNTER_TOPIC = "test.store.Counter"
register_state(COUNTER_TOPIC, Counter)


def evolve(state: Counter | None, event: Event) -> Counter:
    if isinstance(event, CounterStarted):
        return Counter(total=event.start, version=1)
    assert state is not None and isinstance(event, CounterBumped)
    return Counter(total=state.total + event.by, version=state.version + 1, bumps=(*state.bumps, event.by))


def replay(state: Counter | None, items: Iterable[Envelope | SnapshotEnvelope]) -> Counter | None:
    """A projector that also checks each envelope follows the state's version."""
    for item in items:
        if isinstance(item, SnapshotEnvelope):
            state = item.state  # type: ignore[assignment]
        else:
            assert item.originator_version == (state.version if state else 0) + 1
            state = evolve(state, item.event)
    return state


class CounterApp(EventSourcedApp):
    """The application under test."""

    def start(self, stream: UUID, start: int = 0, command_id: str = "start") -> int:
        return self.append(wrap(stream, 0, [CounterStarted(start=start)], command_id))

    def bump(self, stream: UUID, after: int, *bys: int, command_id: str = "bump") -> int:
        return self.append(wrap(stream, after, [CounterBumped(by=b) for b in bys], command_id))


# -- store_env ----------------------------------------------------------------


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No store variables set; RULEKEEPER_HOME in tmp_path. Returns the home."""
    for name in ("RULEKEEPER_STORE", "COUNTERAPP_RULEKEEPER_STORE"):
        monkeypatch.delenv(name, raising=False)
    home = tmp_path / "home" / "rk"
    monkeypatch.setenv("RULEKEEPER_HOME", str(home))
    return home


def sqlite_env(path: Path | str) -> dict[str, str]:
    return {
        "ORIGINATOR_ID_TYPE": "uuid",
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "SQLITE_DBNAME": str(path),
        "SQLITE_LOCK_TIMEOUT": "5",
    }


@pytest.mark.parametrize("setting", [None, "", "   "])
def test_unset_means_the_default_sqlite_file(clean_env: Path, setting: str | None) -> None:
    assert not clean_env.exists()
    assert store_env(setting, app_name="CounterApp") == sqlite_env(clean_env / "rulekeeper.sqlite")
    assert clean_env.is_dir()  # created when the env is made


def test_default_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("RULEKEEPER_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_store_path() == tmp_path / ".local/share/rulekeeper/rulekeeper.sqlite"
    assert not (tmp_path / ".local").exists()  # only store_env creates it


def test_memory() -> None:
    assert store_env("memory", app_name="A") == {
        "ORIGINATOR_ID_TYPE": "uuid",
        "PERSISTENCE_MODULE": "eventsourcing.popo",
    }


@pytest.mark.parametrize(
    ("setting", "path"),
    [
        ("sqlite:/var/games/battles.sqlite", "/var/games/battles.sqlite"),
        ("sqlite:relative/file", "relative/file"),
        ("/var/games/battles.sqlite", "/var/games/battles.sqlite"),
        ("battles.db", "battles.db"),
    ],
)
def test_sqlite_files(setting: str, path: str) -> None:
    assert store_env(setting, app_name="A") == sqlite_env(path)


def test_sqlite_home_is_expanded(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    assert store_env("sqlite:~/b.sqlite", app_name="A")["SQLITE_DBNAME"] == str(tmp_path / "b.sqlite")
    assert store_env("~/b.db", app_name="A")["SQLITE_DBNAME"] == str(tmp_path / "b.db")


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        (
            "postgresql://postgres@127.0.0.1:5432/test",
            ("127.0.0.1", "5432", "postgres", "", "test"),
        ),
        (
            "postgresql://rk:s%40cret@db.example:6543/battles",
            ("db.example", "6543", "rk", "s@cret", "battles"),
        ),
        ("postgres://rk:pw@localhost/rk", ("localhost", "5432", "rk", "pw", "rk")),
    ],
)
def test_postgresql_urls(url: str, expected: tuple[str, ...]) -> None:
    host, port, user, password, dbname = expected
    assert store_env(url, app_name="A") == {
        "ORIGINATOR_ID_TYPE": "uuid",
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_HOST": host,
        "POSTGRES_PORT": port,
        "POSTGRES_USER": user,
        "POSTGRES_PASSWORD": password,
        "POSTGRES_DBNAME": dbname,
    }


def test_the_environment_variable_is_the_default(clean_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RULEKEEPER_STORE", "memory")
    assert store_env(app_name="CounterApp")["PERSISTENCE_MODULE"] == "eventsourcing.popo"
    # An explicit setting wins over the variable.
    assert store_env("x.db", app_name="CounterApp")["SQLITE_DBNAME"] == "x.db"
    # A per-application variable wins over the general one (library convention).
    monkeypatch.setenv("COUNTERAPP_RULEKEEPER_STORE", "own.sqlite")
    assert store_env(app_name="CounterApp")["SQLITE_DBNAME"] == "own.sqlite"
    assert store_env(app_name="Other")["PERSISTENCE_MODULE"] == "eventsourcing.popo"


@pytest.mark.parametrize(
    ("setting", "complaint"),
    [
        ("mongodb://h/db", "unknown store 'mongodb://h/db'"),
        ("battles.json", "unknown store 'battles.json'"),
        ("Memory-ish", "unknown store"),
        ("sqlite:", "names no file"),
        ("postgresql://127.0.0.1/test", "has no user"),
        ("postgresql://u@/test", "has no host"),
        ("postgresql://u@h:5432", "has no single database name"),
        ("postgresql://u@h:5432/a/b", "has no single database name"),
        ("postgresql://u@h:port/db", "a port that is not a number"),
        ("postgresql://u@h/db?sslmode=require", "query or fragment"),
    ],
)
def test_bad_settings_are_explained(setting: str, complaint: str) -> None:
    with pytest.raises(ValueError) as caught:
        store_env(setting, app_name="A")
    message = str(caught.value)
    assert complaint in message
    assert "\n" not in message
    assert "use 'memory', 'sqlite:PATH', a path ending in .sqlite or .db" in message
    assert "postgresql://user[:password]@host[:port]/dbname" in message


def test_passwords_are_not_repeated_in_errors() -> None:
    with pytest.raises(ValueError) as caught:
        store_env("postgresql://u:hunter2@h/db?x=1", app_name="A")
    assert "hunter2" not in str(caught.value)
    assert "u:***@h" in str(caught.value)


def test_choosing_postgresql_imports_no_psycopg() -> None:
    code = (
        "import sys\n"
        "from domain.kernel.stores.application import EventSourcedApp\n"
        "from domain.kernel.stores.store import store_env\n"
        "store_env('postgresql://postgres@127.0.0.1:5432/test', app_name='A')\n"
        "assert 'psycopg' not in sys.modules, 'psycopg imported'\n"
        "assert 'eventsourcing.postgres' not in sys.modules\n"
    )
    root = Path(__file__).resolve().parents[2]
    subprocess.run([sys.executable, "-c", code], cwd=root, check=True)


# -- applications on each store -----------------------------------------------

Opener = Callable[[], CounterApp]


@pytest.fixture(params=["memory", "sqlite", "postgresql"])
def open_app(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Opener]:
    """Opens application instances on one store; memory shares one instance.

    On PostgreSQL each test gets a subclass with a unique name, so its
    tables (``<name>_events``, ``<name>_snapshots``) are fresh; they are
    dropped afterwards.
    """
    opened: list[CounterApp] = []
    kind = request.param
    app_class: type[CounterApp] = CounterApp
    if kind == "memory":
        setting = "memory"
    elif kind == "sqlite":
        setting = f"sqlite:{tmp_path / 'counter.sqlite'}"
    else:
        setting = request.getfixturevalue("postgres_store")
        app_class = type(f"Counter{uuid4().hex[:12]}", (CounterApp,), {})

    def opener() -> CounterApp:
        if kind == "memory" and opened:
            return opened[0]
        app = app_class(setting)
        opened.append(app)
        return app

    yield opener
    for app in opened:
        app.close()
    if kind == "postgresql":
        drop_postgres_tables(setting, app_class.name)


def test_append_and_load(open_app: Opener) -> None:
    app = open_app()
    one, two = uuid4(), uuid4()
    assert app.max_notification_id() == 0
    first = app.start(one, start=10)
    assert first >= 1
    last = app.append(
        [
            *wrap(one, 1, [CounterBumped(by=2), CounterBumped(by=3)], "c2"),
            *wrap(two, 0, [CounterStarted(start=7)], "c2"),
        ]
    )
    assert last == app.max_notification_id() >= first + 3

    assert app.load(one, replay) == Counter(total=15, version=3, bumps=(2, 3))
    assert app.load(one, replay, version=2) == Counter(total=12, version=2, bumps=(2,))
    assert app.load(two, projector(evolve)) == Counter(total=7, version=1)

    stored = app.events(one)
    assert [e.originator_version for e in stored] == [1, 2, 3]
    assert [e.command_id for e in stored] == ["start", "c2", "c2"]
    assert stored[1].event == CounterBumped(by=2)
    assert stored[0].timestamp.tzinfo is not None
    assert [e.originator_version for e in app.events(one, gt=1, lte=2)] == [2]
    # The library's own store interface still works.
    assert len(list(app.events.get(one, desc=True, limit=1))) == 1


def test_unknown_streams_are_not_found(open_app: Opener) -> None:
    app = open_app()
    with pytest.raises(NotFound):
        app.load(uuid4(), replay)
    stream = uuid4()
    app.start(stream)
    with pytest.raises(NotFound, match="at version 0"):
        app.load(stream, replay, version=0)


def test_empty_append_writes_nothing(open_app: Opener) -> None:
    app = open_app()
    app.start(uuid4())
    before = app.max_notification_id()
    assert app.append([]) == before
    assert app.max_notification_id() == before


def test_snapshot_and_tail_equal_full_replay(open_app: Opener) -> None:
    app = open_app()
    stream = uuid4()
    app.start(stream, start=1)
    app.bump(stream, 1, *range(1, 9))  # versions 2..9
    at_six = app.load(stream, replay, version=6)
    app.save_snapshot(stream, 6, at_six, COUNTER_TOPIC)
    app.save_snapshot(stream, 6, at_six, COUNTER_TOPIC)  # again: harmless
    app.bump(stream, 9, 20, 30)  # versions 10..11

    seen: list[type] = []

    def spy(state: Counter | None, items: Iterable[Envelope | SnapshotEnvelope]) -> Counter | None:
        items = list(items)
        seen.extend(type(i) for i in items)
        return replay(state, items)

    full = replay(None, app.events(stream))
    assert app.load(stream, spy) == full
    assert seen == [SnapshotEnvelope] + [Envelope] * 5  # versions 7..11 after the snapshot
    # Before the snapshot, replay starts from the first event.
    seen.clear()
    assert app.load(stream, spy, version=4) == replay(None, app.events(stream, lte=4))
    assert SnapshotEnvelope not in seen


def test_concurrent_commands_one_wins_the_other_writes_nothing(open_app: Opener) -> None:
    """Two instances on one store load version N and append N+1 to two streams
    at the same moment: one wins, the other gets ConcurrencyError."""
    setup = open_app()
    one, two = uuid4(), uuid4()
    for stream in (one, two):
        setup.start(stream)
        setup.bump(stream, 1, 1, 1)  # version 3
    apps = {"a": open_app(), "b": open_app()}
    for app in apps.values():
        assert app.load(one, replay).version == 3
        assert app.load(two, replay).version == 3

    barrier = threading.Barrier(2)
    outcome: dict[str, object] = {}

    def command(name: str) -> None:
        batch = [*wrap(one, 3, [CounterBumped(by=5)], name), *wrap(two, 3, [CounterBumped(by=5)], name)]
        barrier.wait()
        try:
            outcome[name] = apps[name].append(batch)
        except Exception as e:  # noqa: BLE001 - recorded and checked below
            outcome[name] = e

    threads = [threading.Thread(target=command, args=(n,)) for n in apps]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)

    errors = {n: o for n, o in outcome.items() if isinstance(o, Exception)}
    assert len(outcome) == 2 and len(errors) == 1, outcome
    ((loser, error),) = errors.items()
    winner = "b" if loser == "a" else "a"
    assert isinstance(error, ConcurrencyError)
    assert str(error) == ("the battle moved on: another command was saved first; reload and try again")
    for stream in (one, two):
        stored = setup.events(stream)
        assert [e.originator_version for e in stored] == [1, 2, 3, 4]
        assert stored[-1].command_id == winner


def test_a_refused_command_leaves_no_half_written_stream(open_app: Opener) -> None:
    """The loser's first event (a free version) must be rolled back with the rest."""
    first, second = open_app(), open_app()
    one, two = uuid4(), uuid4()
    first.start(one)
    first.start(two)
    # Both saw version 1 of each stream; the first writer moves stream two on.
    first.bump(two, 1, 9, command_id="first")
    before = second.max_notification_id()
    with pytest.raises(ConcurrencyError):
        second.append(
            [
                *wrap(one, 1, [CounterBumped(by=1)], "second"),  # free: would succeed alone
                *wrap(two, 1, [CounterBumped(by=1)], "second"),
            ]  # taken
        )
    assert [e.originator_version for e in first.events(one)] == [1]
    assert [e.command_id for e in first.events(two)] == ["start", "first"]
    assert second.max_notification_id() == before


def test_notifications_page_past_ten_in_append_order(open_app: Opener) -> None:
    app = open_app()
    streams = [uuid4() for _ in range(3)]
    expected: list[tuple[UUID, int, str]] = []
    for s in streams:
        app.start(s, command_id=f"start-{s}")
        expected.append((s, 1, f"start-{s}"))
    for round_ in range(8):
        for s in streams:
            app.bump(s, 1 + round_, round_, command_id=f"r{round_}")
            expected.append((s, 2 + round_, f"r{round_}"))
    app.save_snapshot(streams[0], 5, app.load(streams[0], replay, version=5), COUNTER_TOPIC)
    assert len(expected) == 27

    for limit in (4, 10, 27, 500):
        got = list(app.notifications(limit=limit))
        assert [(e.originator_id, e.originator_version, e.command_id) for _, e in got] == expected
        ids = [n for n, _ in got]
        assert ids == sorted(ids) and len(set(ids)) == 27
        assert ids[-1] == app.max_notification_id()
        assert all(type(e) is Envelope for _, e in got)

    ids = [n for n, _ in app.notifications()]
    tail = list(app.notifications(start=ids[12], limit=5))
    assert [n for n, _ in tail] == ids[12:]
    assert list(app.notifications(start=ids[-1] + 1)) == []


# -- application wiring ------------------------------------------------------------


def test_rulekeeper_store_variable_chooses_the_store(
    clean_env: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "from-env.sqlite"
    monkeypatch.setenv("RULEKEEPER_STORE", f"sqlite:{path}")
    stream = uuid4()
    with CounterApp() as app:
        app.start(stream, start=3)
    assert path.exists()
    # A new process (here: a new instance) on the same file sees the events.
    with CounterApp(str(path)) as again:
        assert again.load(stream, replay) == Counter(total=3, version=1)


def test_default_store_is_the_home_file(clean_env: Path) -> None:
    with CounterApp() as app:
        app.start(uuid4())
    assert (clean_env / "rulekeeper.sqlite").exists()


def test_env_overrides_and_compression(tmp_path: Path) -> None:
    path = tmp_path / "z.sqlite"
    env = {"COMPRESSOR_TOPIC": "eventsourcing.compressor:ZlibCompressor"}
    stream = uuid4()
    with CounterApp(f"sqlite:{path}", env=env) as app:
        app.start(stream, start=4)
        raw = app.recorder.select_events(stream)[0].state
        assert not raw.startswith(b"{")
        assert app.load(stream, replay) == Counter(total=4, version=1)


def test_stored_rows_are_readable_json(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "audit.sqlite"
    with CounterApp(str(path)) as app:
        app.start(uuid4(), start=2, command_id="cmd-7")
    with sqlite3.connect(path) as db:
        topic, state = db.execute("SELECT topic, state FROM stored_events").fetchone()
    assert topic == "test.store.CounterStarted"
    body = json.loads(state)
    assert body["c"] == "cmd-7" and body["d"] == {"start": 2} and body["t"].endswith("Z")


def test_close_is_idempotent(tmp_path: Path) -> None:
    app = CounterApp(f"sqlite:{tmp_path / 'c.sqlite'}")
    app.start(uuid4())
    app.close()
    app.close()
