"""A store written without the eventsourcing library (``PlainGameWrites``:
``domain.kernel.stores.plain_writes`` under ``GameWrites``, what an
in-process `rk move` writes an SQLite file with) writes what the library's
application writes: the same commands (setups, random commands of a delve
and a clash, undos forced and refused, redos, renames, snapshots crossed,
commands writing a battle and its delve at once, the index) leave byte-identical
``stored_events`` and ``stored_snapshots`` tables, row for row. A second
writer at a version taken is told "moved on" and writes nothing, in any
stream; a refused command writes nothing. Any store the library would open
otherwise, or whose tables it has not made, is written through it."""

from __future__ import annotations

import os
import random
import shutil
import sqlite3
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any
from uuid import uuid4

import pytest

from domain.betrayal.battle.application import new_clash, new_delve
from domain.betrayal.table.party import PartySpec
from domain.kernel.envelope import wrap
from domain.kernel.errors import MOVED_ON, ConcurrencyError, RulekeeperError, RuleViolation
from domain.kernel.game_writes import GameWrites, PlainGameWrites
from domain.kernel.games import GameApp
from domain.kernel.open_writes import open_writes

SNAPSHOT_EVERY = 7  # a game's snapshots crossed many times in a short game
START = datetime(2026, 1, 1, tzinfo=timezone.utc)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Callable[[], None]:
    """The envelope clock, one second later at each reading, wherever it
    is read (``wrap``, and each snapshot); calling the fixture sets it back."""
    ticks: list[int] = [0]

    def now() -> datetime:
        ticks[0] += 1
        return START + timedelta(seconds=ticks[0])

    for module in ("domain.kernel.envelope", "domain.kernel.stores.application", "domain.kernel.stores.plain_writes"):
        monkeypatch.setattr(f"{module}.utc_now", now)

    def reset() -> None:
        ticks[0] = 0

    return reset


def _made(path: Path) -> Path:
    """An SQLite store with the library's tables and nothing in them."""
    GameApp(f"sqlite:{path}").close()
    return path


def _rows(path: Path) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """Every row of both tables, the events with their notification ids."""
    with sqlite3.connect(path) as db:
        events = db.execute("SELECT rowid, * FROM stored_events ORDER BY rowid").fetchall()
        snapshots = db.execute("SELECT * FROM stored_snapshots ORDER BY originator_id, originator_version").fetchall()
    return events, snapshots


def _outcome(do: Callable[[], Any]) -> tuple[str, str]:
    try:
        result = do()
    except RulekeeperError as e:
        return type(e).__name__, str(e)
    return "ok", getattr(result, "command_id", "")


def _play(app: GameWrites, battle_id: str, steps: int, rnd: random.Random) -> Iterator[tuple[str, str]]:
    """Random legal commands, undos (forced, and unforced ones the barrier
    may refuse) and redos; what each did."""
    for _ in range(steps):
        game = app.battle(battle_id)
        roll = rnd.random()
        if game.can_redo and roll < 0.25:
            yield _outcome(lambda: app.redo(battle_id))
        elif game.can_undo and roll < 0.4:
            yield _outcome(lambda: app.undo(battle_id, force=roll < 0.33))
        else:
            legal = app.legal(battle_id)
            if legal:
                yield _outcome(lambda: app.execute(battle_id, rnd.choice(legal)))
            elif game.can_undo:
                yield _outcome(lambda: app.undo(battle_id, force=True))


def _session(app: GameWrites) -> list[tuple[str, str]]:
    """One sequence of commands: two setups (a delve writes its battle, its
    delve and its new adventurers at once), random play, a rename, a
    deletion and its restoring, a refused command."""
    app.snapshot_every = SNAPSHOT_EVERY
    done = [
        _outcome(
            lambda: new_delve(
                app, delve="drowned-cistern", party=[PartySpec("Ria", "nord")], xp=1, seed=3, battle_id="d1"
            )
        ),  # noqa: E501
        _outcome(
            lambda: new_clash(
                app, setup="waystone-crossing", party=[PartySpec("Tarn", "orc")], xp=1, seed=7, battle_id="c1"
            )
        ),  # noqa: E501
    ]
    rnd = random.Random(25)
    for battle_id in ("d1", "c1", "d1"):
        done += _play(app, battle_id, 45, rnd)
    done.append(_outcome(lambda: app.rename_battle("c1", "friday")))
    done.append(_outcome(lambda: app.delete_battle("friday")))
    done.append(_outcome(lambda: app.restore_battle("c1")))
    done.append(_outcome(lambda: app.rename_battle("c1", "d1")))  # refused: the name is taken
    return done


def test_the_plain_writer_writes_the_librarys_rows_byte_for_byte(tmp_path: Path, clock: Callable[[], None]) -> None:
    lib_path, plain_path = _made(tmp_path / "lib.sqlite"), _made(tmp_path / "plain.sqlite")
    with GameApp(f"sqlite:{lib_path}") as lib:
        by_library = _session(lib)
    clock()
    plain = open_writes(f"sqlite:{plain_path}")
    assert type(plain) is PlainGameWrites
    try:
        by_plain = _session(plain)
    finally:
        plain.close()
    assert by_plain == by_library
    assert {kind for kind, _ in by_library} >= {"ok", "RuleViolation", "MalformedCommand"}
    assert sum(kind == "ok" for kind, _ in by_library) > 60
    events, snapshots = _rows(lib_path)
    assert _rows(plain_path) == (events, snapshots)
    # What the sequence went through: a battle and its delve in one
    # command, each game's snapshots, undos.
    streams = {row[1] for row in events}
    assert len(streams) >= 5  # the index, two games, a delve, adventurers
    assert len({row[0] for row in snapshots}) == 2 and len(snapshots) > 10
    assert any(row[3].endswith("CommandUndone") or "Undone" in row[3] for row in events)


def _game(tmp_path: Path) -> Path:
    path = _made(tmp_path / "rk.sqlite")
    with GameApp(f"sqlite:{path}") as app:
        new_clash(app, setup="waystone-crossing", party=[PartySpec("Tarn", "orc")], xp=1, seed=7, battle_id="c1")
    return path


def test_a_second_writer_at_a_version_taken_is_told_it_moved_on_and_writes_nothing(tmp_path: Path) -> None:
    path = _game(tmp_path)
    first, second = open_writes(f"sqlite:{path}"), open_writes(f"sqlite:{path}")
    assert type(first) is type(second) is PlainGameWrites
    try:
        seen = second.battle("c1")
        command = second.legal("c1")[0]
        first.execute("c1", first.legal("c1")[0])
        before = _rows(path)
        with pytest.raises(ConcurrencyError) as refused:
            second.execute("c1", command, expected=seen.version)  # decided on the game it holds
        assert str(refused.value).startswith(MOVED_ON)
        assert _rows(path) == before
        # All or nothing across streams: a new stream's rows go with a taken version's.
        stream = second.ruleset("c1").game_stream("c1")
        last = second.events.last(stream)
        assert last is not None
        envelopes = wrap(uuid4(), 0, [last.event], "c9") + wrap(stream, seen.version, [last.event], "c9")
        with pytest.raises(ConcurrencyError, match=MOVED_ON):
            second.append(envelopes)
        assert _rows(path) == before
        # The writer that lost goes on from the game as it stands.
        now = first.battle("c1").version
        assert second.execute("c1", second.legal("c1")[0]).battle.version > now
    finally:
        first.close()
        second.close()


def test_a_refused_command_writes_nothing(tmp_path: Path) -> None:
    path = _game(tmp_path)
    app = open_writes(f"sqlite:{path}")
    assert type(app) is PlainGameWrites
    try:
        before = _rows(path)
        with pytest.raises(RuleViolation, match="UNDO-1"):
            app.undo("c1")
        assert _rows(path) == before
    finally:
        app.close()


def test_every_other_store_is_written_through_the_library(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Not there yet, no tables, in memory, compressed, not writable here, a
    URI: the library opens it (and makes the tables it needs)."""
    path = _game(tmp_path)
    empty = tmp_path / "empty.sqlite"
    sqlite3.connect(empty).close()
    missing = tmp_path / "missing.sqlite"
    for store in (f"sqlite:{missing}", f"sqlite:{empty}", "memory"):
        app = open_writes(store)
        assert type(app) is GameApp, store
        app.close()
    assert {"stored_events", "stored_snapshots"} <= {
        name for (name,) in sqlite3.connect(empty).execute("SELECT name FROM sqlite_master")
    }
    with monkeypatch.context() as mp:
        mp.setenv("RULEKEEPER_COMPRESSOR_TOPIC", "eventsourcing.compressor:ZlibCompressor")
        app = open_writes(f"sqlite:{path}")
        assert type(app) is GameApp
        app.close()
    locked = tmp_path / "locked"
    locked.mkdir()
    shutil.copyfile(path, locked / "rk.sqlite")
    os.chmod(locked / "rk.sqlite", 0o400)
    try:
        # (Run as a user who may write any file, the library writes it too.)
        if not os.access(locked / "rk.sqlite", os.W_OK):
            with pytest.raises(Exception, match="can only be read here"):
                open_writes(f"sqlite:{locked / 'rk.sqlite'}")
    finally:
        os.chmod(locked / "rk.sqlite", 0o600)
