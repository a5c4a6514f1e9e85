"""A store read without the eventsourcing library (``domain.kernel.stores.plain``
under ``GameReads``: what `rk status`, `legal` and `log` read an SQLite file
with) reads what the library's application reads from the same file: every
game of every ruleset at every version, snapshots and the events after
them, companion streams, the index; older class versions upcast; rows that
do not decode refused in the same words. A store configured otherwise (a
compressor, a cipher, PostgreSQL) is read through the library."""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
from pathlib import Path
from typing import Any
from uuid import UUID, uuid4

import msgspec
import pytest
from eventsourcing.persistence import MapperDeserialisationError, StoredEvent
from typer.testing import CliRunner

from cli.main import main
from domain.kernel import ruleset as registry
from domain.kernel.envelope import register_state, wrap
from domain.kernel.errors import NotFound, RulekeeperError
from domain.kernel.game_reads import INDEX_STREAM, NAME, GameReads, PlainGames
from domain.kernel.open_reads import open_reads
from domain.kernel.games import GameApp
from domain.kernel.messages import Event
from domain.kernel.stores.application import EventSourcedApp, projector
from domain.kernel.stores.plain import PlainStore, plain_settings
from domain.kernel.stores.store import app_settings, store_env

GAMES = {
    "c1": ["new", "clash", "--setup", "waystone-crossing", "--party", "Ria:nord", "--party", "Tarn:orc", "--seed", "7"],
    "d1": ["new", "delve", "--delve", "drowned-cistern", "--party", "Ria", "--seed", "3"],
    "q1": ["new", "conquest", "--scenario", "border-clash", "--army", "saltmarch", "--army", "cinderpact"],
    "l1": ["new", "labyrinth", "--encounter", "mossy-hollow", "--party", "mender"],
}


class OftenSnapshotted(GameApp):
    """The application, snapshotting a game every few events (so that the
    reads below meet snapshots at many versions)."""

    snapshot_every = 7


def _play(app: GameApp, battle_id: str, commands: int, rnd: random.Random) -> None:
    """Random legal commands, now and then an undo (forced) or a redo."""
    for _ in range(commands):
        game = app.battle(battle_id)
        try:
            if game.can_redo and rnd.random() < 0.3:
                app.redo(battle_id)
            elif game.can_undo and rnd.random() < 0.15:
                app.undo(battle_id, force=True)
            else:
                legal = app.legal(battle_id)
                if not legal:
                    if not game.can_undo:
                        return
                    app.undo(battle_id, force=True)
                    continue
                app.execute(battle_id, rnd.choice(legal))
        except RulekeeperError:
            continue


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An SQLite store holding a game of each ruleset (a Betrayal delve
    among them, with its companion streams) played on for a while, one
    renamed and one deleted, snapshots taken every 7 game events."""
    folder = tmp_path_factory.mktemp("plain")
    path = folder / "rk.sqlite"
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("RULEKEEPER_HOME", str(folder / "home"))
        mp.setenv("COLUMNS", "80")
        for name, line in GAMES.items():
            with CliRunner().isolation():
                assert main([*line, "--name", name, "--store", str(path)]) in (0, None)
        rnd = random.Random(25)
        with OftenSnapshotted(f"sqlite:{path}") as app:
            for name in GAMES:
                _play(app, name, 40, rnd)
            app.rename_battle("q1", "border")
            app.delete_battle("l1")
    return path


@pytest.fixture
def both(store: Path, tmp_path: Path):
    """The library's read-only application and the plain reads, on one copy of the store."""
    copy = tmp_path / "rk.sqlite"
    shutil.copyfile(store, copy)
    lib = GameApp(str(copy), read_only=True)
    plain = open_reads(str(copy))
    assert type(plain) is PlainGames
    yield lib, plain
    lib.close()
    plain.close()


def _same(read: Any) -> tuple[str, Any]:
    """What ``read()`` gives, or the error it raises, as a comparable pair."""
    try:
        return "ok", read()
    except (NotFound, RulekeeperError) as e:
        return type(e).__name__, str(e)


def test_every_game_reads_the_same_at_every_version(both: tuple[GameApp, GameReads]) -> None:
    lib, plain = both
    snapshotted = 0
    for battle_id in GAMES:
        stream = lib.ruleset(battle_id).game_stream(battle_id)
        assert plain.ruleset(battle_id) is lib.ruleset(battle_id)
        last = lib.events.last(stream)
        assert last is not None and plain.events.last(stream) == last
        for version in range(0, last.originator_version + 2):
            at = version or None
            assert _same(lambda: plain.battle(battle_id, at)) == _same(lambda: lib.battle(battle_id, at)), (
                battle_id,
                version,
            )
        snapshotted += len(list(lib.snapshots.get(stream)))
        assert plain.events(stream) == lib.events(stream)
        assert plain.events(stream, gt=3, lte=9) == lib.events(stream, gt=3, lte=9)
        assert plain.events.page(stream, lte=12, desc=True, limit=5) == lib.events.page(
            stream, lte=12, desc=True, limit=5
        )
        assert plain.legal(battle_id) == lib.legal(battle_id)
        assert plain.called(battle_id) == lib.called(battle_id)
        assert plain.setup_record(battle_id) == lib.setup_record(battle_id)
    assert snapshotted > 10  # the games were read from snapshots too


def test_companion_streams_and_the_index_read_the_same(both: tuple[GameApp, GameReads]) -> None:
    lib, plain = both
    game = lib.battle("d1")
    rs = lib.ruleset("d1")
    companions = rs.companions(game.state)
    assert companions, "a delve reads its Delve"
    for kind, stream in companions:
        assert plain.companion(rs, kind, stream) == lib.companion(rs, kind, stream)
        for version in (1, 5, game.version // 2, game.version):
            assert plain.companion(rs, kind, stream, version) == lib.companion(rs, kind, stream, version)
        aggregate = rs.aggregate(kind)
        assert plain.state_of(aggregate, stream) == lib.state_of(aggregate, stream)
    assert plain.index().entries(deleted=True) == lib.index().entries(deleted=True)
    assert plain.battles() == lib.battles()
    assert plain.latest_battle() == lib.latest_battle()
    assert plain.events(INDEX_STREAM) == lib.events(INDEX_STREAM)
    for text in ("border", "q1", "L1", "nowhere"):
        assert _same(lambda: plain.find_battle(text)) == _same(lambda: lib.find_battle(text))


def test_an_empty_store_reads_as_the_library_reads_it(tmp_path: Path) -> None:
    missing = tmp_path / "none.sqlite"
    plain, lib = open_reads(str(missing)), GameApp(str(missing), read_only=True)
    assert type(plain) is PlainGames
    nothing = ("NotFound", "there is no battle yet: start one with `rk new`")
    assert _same(plain.latest_battle) == _same(lib.latest_battle) == nothing
    assert plain.battles() == lib.battles() == []
    assert not missing.exists()


# -- events of one stream: versions, snapshots, upcasts, errors -------------------------------


class PlainStarted(Event, frozen=True, kw_only=True):
    TOPIC = "test.plain.Started"
    start: int


class PlainNamed(Event, frozen=True, kw_only=True):
    """Version 2: version 1 stored ``title``."""

    TOPIC = "test.plain.Named"
    class_version = 2
    name: str

    @staticmethod
    def upcast_v1_v2(state: dict[str, Any]) -> None:
        state["name"] = state.pop("title")


class Tally(msgspec.Struct, frozen=True):
    """A tally's state (snapshotted under ``test.plain.snapshot.Tally``)."""

    total: int
    names: tuple[str, ...] = ()


register_state("test.plain.snapshot.Tally", Tally)


def _evolve(state: Tally | None, event: Event) -> Tally:
    if isinstance(event, PlainStarted):
        return Tally(total=event.start) if state is None else Tally(state.total + event.start, state.names)
    assert state is not None and isinstance(event, PlainNamed)
    return Tally(state.total, (*state.names, event.name))


class TallyApp(EventSourcedApp):
    """An application of one kind of stream, for these tests."""


def _plain_store(path: Path) -> PlainStore:
    settings = app_settings(
        TallyApp.name, {}, store_env(f"sqlite:{path}", app_name=TallyApp.name, read_only=True), snapshots=True
    )
    found = plain_settings(settings)
    assert found is not None
    return PlainStore(settings, *found)


def _insert_raw(app: TallyApp, stream: UUID, version: int, topic: str, body: dict[str, Any]) -> None:
    """A row as an older release (or a hand) stored it."""
    app.recorder.insert_events(
        [StoredEvent(originator_id=stream, originator_version=version, topic=topic, state=json.dumps(body).encode())]
    )


def test_a_stream_reads_as_the_library_reads_it_snapshots_and_upcasts_included(tmp_path: Path) -> None:
    path = tmp_path / "tally.sqlite"
    stream = uuid4()
    with TallyApp(f"sqlite:{path}") as app:
        app.append(wrap(stream, 0, [PlainStarted(start=3), PlainNamed(name="first")], "c1"))
        _insert_raw(app, stream, 3, PlainNamed.TOPIC, {"t": "2025-03-01T12:00:00Z", "c": "c2", "d": {"title": "old"}})
        app.append(wrap(stream, 3, [PlainStarted(start=4)] * 3, "c3"))
        project = projector(_evolve)
        app.save_snapshot(stream, 4, app.load(stream, project, 4), "test.plain.snapshot.Tally")
        plain = _plain_store(path)
        for asked in ({}, {"gt": 2}, {"lte": 3}, {"gt": 1, "lte": 4}, {"desc": True, "limit": 2}, {"gt": 6}):
            assert list(plain.events.get(stream, **asked)) == list(app.events.get(stream, **asked)), asked
        assert list(plain.snapshots.get(stream)) == list(app.snapshots.get(stream))
        assert [e.event for e in plain.events(stream)][1:3] == [PlainNamed(name="first"), PlainNamed(name="old")]
        for version in (None, 1, 3, 4, 5, 6):
            assert plain.load(stream, project, version) == app.load(stream, project, version), version
        for where in (uuid4(), stream):
            at = None if where != stream else 0
            assert _same(lambda: plain.load(where, project, at)) == _same(lambda: app.load(where, project, at))
        plain.close()


@pytest.mark.parametrize(
    ("topic", "body"),
    [
        ("test.plain.NoSuchEvent", {"t": "2025-03-01T12:00:00Z", "c": "c2", "d": {}}),
        (PlainStarted.TOPIC, {"t": "2025-03-01T12:00:00Z", "c": "c2", "d": {"start": "three"}}),
        (PlainNamed.TOPIC, {"t": "2025-03-01T12:00:00Z", "c": "c2", "v": 3, "d": {"name": "x"}}),
        (PlainStarted.TOPIC, {"t": "2025-03-01T12:00:00", "c": "c2", "d": {"start": 1}}),
    ],
)
def test_a_row_that_does_not_decode_is_refused_as_the_library_refuses_it(
    tmp_path: Path, topic: str, body: dict[str, Any]
) -> None:
    path = tmp_path / "tally.sqlite"
    stream = uuid4()
    with TallyApp(f"sqlite:{path}") as app:
        app.append(wrap(stream, 0, [PlainStarted(start=1)], "c1"))
        _insert_raw(app, stream, 2, topic, body)
        plain = _plain_store(path)
        with pytest.raises(MapperDeserialisationError) as mine:
            plain.load(stream, projector(_evolve))
        with pytest.raises(MapperDeserialisationError) as theirs:
            app.load(stream, projector(_evolve))
        assert str(mine.value) == str(theirs.value)
        plain.close()


# -- what is read through the library ---------------------------------------------------------


@pytest.mark.parametrize(
    "setting",
    [
        {"COMPRESSOR_TOPIC": "eventsourcing.compressor:ZlibCompressor"},
        {"RULEKEEPER_COMPRESSOR_TOPIC": "eventsourcing.compressor:ZlibCompressor"},
        {"CIPHER_KEY": "x"},
        {"RULEKEEPER_APPLICATION_RECORDER_TOPIC": "eventsourcing.sqlite:SQLiteApplicationRecorder"},
        {"RULEKEEPER_PERSISTENCE_MODULE": "eventsourcing.postgres"},
        {"RULEKEEPER_IS_SNAPSHOTTING_ENABLED": "no"},
        {"RULEKEEPER_ORIGINATOR_ID_TYPE": "text"},
        {"RULEKEEPER_CREATE_TABLE": "yes"},
        {"SQLITE_LOCK_TIMEOUT": "soon"},
    ],
)
def test_a_store_configured_otherwise_is_left_to_the_library(setting: dict[str, str], tmp_path: Path) -> None:
    path = tmp_path / "rk.sqlite"
    path.touch()
    settings = app_settings(NAME, {}, store_env(f"sqlite:{path}", app_name=NAME, read_only=True), snapshots=True)
    assert plain_settings(settings) is not None
    settings.update(setting)
    assert plain_settings(settings) is None


def test_a_compressed_store_is_read_through_the_library(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RULEKEEPER_COMPRESSOR_TOPIC", "eventsourcing.compressor:ZlibCompressor")
    monkeypatch.setenv("RULEKEEPER_HOME", str(tmp_path / "home"))
    path = tmp_path / "packed.sqlite"
    with CliRunner().isolation():
        assert main([*GAMES["q1"], "--name", "q1", "--store", str(path)]) in (0, None)
    with sqlite3.connect(path) as db:
        (state,) = db.execute("SELECT state FROM stored_events LIMIT 1").fetchone()
    assert not state.startswith(b"{")  # compressed
    reads = open_reads(str(path))
    assert type(reads) is GameApp
    assert reads.battle("q1").version == GameApp(str(path)).battle("q1").version
    assert registry.load("conquest") is reads.ruleset("q1")
