"""Item 1, rebuild: load a whole battle stream through the application with
snapshots off, against a floor that reads the same rows with the database
driver, decodes them with msgspec into the same event Structs and folds them
with the same ``evolve``, with nothing else in between."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

import msgspec

from domain.betrayal.battle.application import BetrayalApp
from domain.betrayal.battle.evolve import evolve
from domain.betrayal.ruleset import BETRAYAL
from domain.kernel.commandlog import Game
from domain.kernel.commandlog import fold as fold_game
from domain.kernel.messages import event_class

from .measure import Row, interleaved, median, ms, rate
from .streams import Built

GOAL_SQLITE_10K = 1.5  # rebuild of 10,000 events on SQLite, each ruleset: at most 1.5x the floor (issue 25)
GOAL_POSTGRES_10K = 1.5  # the same on PostgreSQL (issue 25)
NO_SNAPSHOTS = {"IS_SNAPSHOTTING_ENABLED": "n"}
PG_SCHEMA = "rk_bench"  # the benchmark's tables stay out of everyone else's


class Decoders:
    """One typed msgspec decoder per topic, reading only the event (``d``)."""

    def __init__(self) -> None:
        self._by_topic: dict[str, msgspec.json.Decoder[Any]] = {}

    def __call__(self, topic: str) -> msgspec.json.Decoder[Any]:
        decoder = self._by_topic.get(topic)
        if decoder is None:
            cls = event_class(topic)
            body = msgspec.defstruct(f"Floor{cls.__name__}", [("d", cls)])
            decoder = self._by_topic[topic] = msgspec.json.Decoder(body)
        return decoder


def fold(rows: list[tuple[str, bytes]], decoders: Decoders) -> Any:
    state = None
    for topic, data in rows:
        state = evolve(state, decoders(topic).decode(data).d)
    return state


def repeats_for(events: int, quick: bool) -> int:
    if quick:
        return 3
    return 9 if events <= 2_000 else 5 if events <= 20_000 else 3


def rebuild_rows(built: Built, quick: bool = False) -> list[Row]:
    """The SQLite rebuild figure for one stream."""
    con = sqlite3.connect(built.path)
    decoders = Decoders()
    sql = "SELECT topic, state FROM stored_events WHERE originator_id=? ORDER BY originator_version"
    key = built.stream_id.hex

    def floor():
        return fold(con.execute(sql, (key,)).fetchall(), decoders)

    with BetrayalApp(f"sqlite:{built.path}", env=NO_SNAPSHOTS) as app:
        row = _compare("rebuild, SQLite", built, app, floor, quick, GOAL_SQLITE_10K if built.target == 10_000 else None)
    con.close()
    return [row]


def postgres_rows(built: Built, url: str, quick: bool = False) -> list[Row]:
    """The same on PostgreSQL; the stream's rows are copied there first."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as con:
        con.execute(f"CREATE SCHEMA IF NOT EXISTS {PG_SCHEMA}")
        env = NO_SNAPSHOTS | {"POSTGRES_SCHEMA": PG_SCHEMA}
        with BetrayalApp(url, env=env) as app:
            _copy_stream(built, app, con)
            decoders = Decoders()
            sql = (
                f"SELECT topic, state FROM {PG_SCHEMA}.rulekeeper_events"
                " WHERE originator_id=%s ORDER BY originator_version"
            )

            def floor():
                return fold(con.execute(sql, (built.stream_id,), binary=True).fetchall(), decoders)

            return [
                _compare(
                    "rebuild, PostgreSQL",
                    built,
                    app,
                    floor,
                    quick,
                    GOAL_POSTGRES_10K if built.target == 10_000 else None,
                )
            ]


def load_from_store(app: BetrayalApp, built: Built) -> Game:
    """A full load through the application, as a fresh process does it (the
    application keeps the latest battle it read; that cache is skipped)."""
    return app.load(built.stream_id, lambda game, items: fold_game(BETRAYAL, game, items))


def _compare(
    figure: str, built: Built, app: BetrayalApp, floor: Callable[[], Any], quick: bool, goal: float | None
) -> Row:
    loaded = load_from_store(app, built)
    if loaded.state != floor():
        raise AssertionError(f"{figure}: the floor's fold differs from the application's state")
    got = interleaved({"app": lambda: load_from_store(app, built), "floor": floor}, repeats_for(built.events, quick))
    t_app, t_floor = median(got["app"]), median(got["floor"])
    n = built.events
    return Row(
        figure=figure,
        size=f"{n:,} ev",
        value=f"{rate(n / t_app, 'ev/s')} ({ms(t_app)})",
        floor=f"{rate(n / t_floor, 'ev/s')} ({ms(t_floor)})",
        ratio=t_app / t_floor,
        goal=goal,
        data={
            "events": n,
            "seconds": t_app,
            "floor_seconds": t_floor,
            "events_per_second": n / t_app,
            "floor_events_per_second": n / t_floor,
            "repeats": len(got["app"]),
        },
    )


def _copy_stream(built: Built, app: BetrayalApp, con) -> None:
    """Put the battle stream's stored rows into PostgreSQL, unless they are there."""
    from eventsourcing.persistence import StoredEvent

    table = f"{PG_SCHEMA}.rulekeeper_events"
    have = con.execute(f"SELECT count(*) FROM {table} WHERE originator_id=%s", (built.stream_id,)).fetchone()[0]
    if have == built.events:
        return
    con.execute(f"DELETE FROM {table} WHERE originator_id=%s", (built.stream_id,))
    src = sqlite3.connect(built.path)
    rows = src.execute(
        "SELECT originator_version, topic, state FROM stored_events WHERE originator_id=? ORDER BY originator_version",
        (built.stream_id.hex,),
    ).fetchall()
    src.close()
    for i in range(0, len(rows), 1000):
        app.recorder.insert_events(
            [
                StoredEvent(originator_id=built.stream_id, originator_version=v, topic=t, state=s)
                for v, t, s in rows[i : i + 1000]
            ]
        )
