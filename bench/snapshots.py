"""Item 2, load with snapshots on: the time to load a battle's current state
(latest snapshot plus the events after it) at several stream lengths, each
as a ratio to the load of the shortest stream. Flat means ratios near 1."""

from __future__ import annotations

import sqlite3

from domain.betrayal.battle.application import BetrayalApp

from .measure import Row, median, ms, times
from .rebuild import load_from_store
from .streams import Built

GOAL = 2.0  # the longest stream loads in at most twice the shortest's time


def load_seconds(built: Built, repeats: int) -> float:
    with BetrayalApp(f"sqlite:{built.path}") as app:
        load_from_store(app, built)  # warm: decoders built, pages cached
        return median(times(lambda: load_from_store(app, built), repeats))


def snapshot_facts(built: Built) -> dict[str, int]:
    """The latest snapshot's version and size, and the events after it."""
    con = sqlite3.connect(built.path)
    key = built.stream_id.hex
    got = con.execute(
        "SELECT originator_version, length(state) FROM stored_snapshots WHERE originator_id=?"
        " ORDER BY originator_version DESC LIMIT 1",
        (key,),
    ).fetchone()
    con.close()
    version, size = got if got else (0, 0)
    return {"snapshot_version": version, "snapshot_bytes": size, "tail_events": built.events - version}


def snapshot_rows(base: Built, others: list[Built], quick: bool = False) -> list[Row]:
    """One row per stream; the floor of each is the shortest stream's load.

    The loads take turns (shortest, then each longer one) so that noise on
    the machine falls on the figure and its floor alike."""
    repeats = 5 if quick else 31
    per_round = 3 if quick else 5
    base_times: list[float] = []
    other_times: dict[str, list[float]] = {b.path: [] for b in others}
    for _ in range(per_round):
        base_times.append(load_seconds(base, repeats))
        for b in others:
            other_times[b.path].append(load_seconds(b, repeats))
    t_base = median(base_times)
    rows = [_row(base, t_base, t_base, None)]
    for b in others:
        rows.append(_row(b, median(other_times[b.path]), t_base, GOAL if b is others[-1] else None))
    return rows


def _row(built: Built, t: float, t_base: float, goal: float | None) -> Row:
    facts = snapshot_facts(built)
    return Row(
        figure="load, snapshots on",
        size=f"{built.events:,} ev",
        value=ms(t),
        floor=ms(t_base),
        ratio=t / t_base,
        goal=goal,
        note=f"snapshot {facts['snapshot_bytes'] / 1000:.0f} kB + {facts['tail_events']} events",
        data={"events": built.events, "seconds": t, "floor_seconds": t_base, **facts},
    )
