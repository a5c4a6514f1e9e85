"""Item 4, a command inside one process (the interactive shell, the API):
decide and append, on SQLite, against the floor of one
SQLite commit of the same bytes.

The application stays open, as ``rk play`` or a server keeps it; each
command is chosen untimed by the same seeded bot as the streams (which, when
the battle ends, goes back a few commands, untimed), then timed
through ``BetrayalApp.execute`` (decide on the game held, append, fold the
saved events in, snapshot when due). The views are not refreshed: no command
catches them up (a read of a view does, ``cli.session.Session.views``), so
neither does the row (until issue 25's sixth pass it meant to, through an
import that had moved and failed silently). The rows that command appended are then written again, in
one transaction of their own, into an SQLite file opened as the library opens
its own (WAL, autocommit with explicit BEGIN): that commit is the floor."""

from __future__ import annotations

import gc
import random
import sqlite3
import tempfile
import time
from pathlib import Path

from domain.betrayal.battle.application import BetrayalApp
from domain.betrayal.battle.state import Phase

from .measure import Row, median, ms, p99
from .streams import BACK, Built, choose, copy_of

GOAL = 1.5  # a command in one process: at most 1.5x one SQLite commit (medians; issue 25)

FLOOR_TABLE = (
    "CREATE TABLE IF NOT EXISTS stored_events (originator_id TEXT, originator_version INTEGER,"
    " topic TEXT, state BLOB, PRIMARY KEY (originator_id, originator_version))"
)


def inprocess_rows(built: Built, quick: bool = False, seed: int = 1) -> list[Row]:
    commands = 30 if quick else 400
    app_times: list[float] = []
    floor_times: list[float] = []
    sizes: list[int] = []
    with tempfile.TemporaryDirectory() as tmp:
        mine = copy_of(built, Path(tmp))
        bid = mine.battle_id
        raw = sqlite3.connect(mine.path)
        floor = _floor_db(Path(tmp) / "floor.sqlite")
        with BetrayalApp(f"sqlite:{mine.path}") as app:
            battle = app.battle(bid)
            rnd = random.Random(seed)
            written = 0
            while len(app_times) < commands:
                if battle.state.phase is Phase.ENDED:
                    # As the streams are played: go back a few commands, untimed.
                    for _ in range(rnd.choice(BACK)):
                        if len(battle.done) <= 1:
                            break
                        battle = app.undo(bid, force=True).battle
                    continue
                command = choose(app, battle, rnd)
                last = app.max_notification_id()
                gc.collect()
                start = time.perf_counter()
                battle = app.execute(bid, command).battle
                app_times.append(time.perf_counter() - start)
                rows = raw.execute(
                    "SELECT originator_id, originator_version, topic, state FROM stored_events WHERE rowid>?", (last,)
                ).fetchall()
                sizes.append(sum(len(r[3]) for r in rows))
                rows = [(r[0], written + i, r[2], r[3]) for i, r in enumerate(rows)]
                written += len(rows)
                gc.collect()
                start = time.perf_counter()
                floor.execute("BEGIN")
                floor.executemany("INSERT INTO stored_events VALUES (?,?,?,?)", rows)
                floor.execute("COMMIT")
                floor_times.append(time.perf_counter() - start)
        raw.close()
        floor.close()
    what = "execute"
    out = []
    for stat, fn, goal in (("median", median, GOAL), ("p99", p99, None)):
        t, f = fn(app_times), fn(floor_times)
        out.append(
            Row(
                figure=f"in-process command, {stat}",
                size=f"{built.events:,} ev",
                value=ms(t),
                floor=ms(f),
                ratio=t / f,
                goal=goal,
                note=f"{what}; {len(app_times)} commands, {median(sizes):.0f} B each (median)",
                data={
                    "events": built.events,
                    "seconds": t,
                    "floor_seconds": f,
                    "commands": len(app_times),
                    "median_bytes": median(sizes),
                },
            )
        )
    return out


def _floor_db(path: Path) -> sqlite3.Connection:
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute(FLOOR_TABLE)
    return con
