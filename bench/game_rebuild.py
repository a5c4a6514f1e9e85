"""The rebuild row of one game stream of any ruleset: the whole stream
loaded through the application (snapshots off) against its floor, the
rows read straight from SQLite, decoded and folded by the ruleset's own
``evolve``, the command log handled as the kernel does (an undo restores
its state). Conquest's and the labyrinth's rows are this one."""

from __future__ import annotations

import sqlite3
from typing import Any

from domain.kernel import ruleset as registry
from domain.kernel.commandlog import fold as fold_game
from domain.kernel.games import GameApp

from .measure import Row, interleaved, median, ms, rate
from .rebuild import GOAL_SQLITE_10K, NO_SNAPSHOTS, Decoders, repeats_for


def fold(rows: list[tuple[str, bytes]], decoders: Decoders, rs: Any) -> Any:
    """The floor: every row decoded and folded by the ruleset's ``evolve``."""
    issued, undone, evolve = rs.issued, rs.undone, rs.evolve
    state = None
    for topic, data in rows:
        event = decoders(topic).decode(data).d
        if type(event) is undone:
            state = event.restored
        elif type(event) is not issued:
            state = evolve(state, event)
    return state


def game_rebuild_rows(built: Any, ruleset: str, title: str, quick: bool = False) -> list[Row]:
    """Load the whole stream of ``built`` (``path``, ``stream_id``,
    ``events``, ``target``) through the application against the floor;
    the row is called "rebuild, SQLite, ``title``"."""
    rs = registry.load(ruleset)
    figure = f"rebuild, SQLite, {title}"
    con = sqlite3.connect(built.path)
    decoders = Decoders()
    sql = "SELECT topic, state FROM stored_events WHERE originator_id=? ORDER BY originator_version"
    key = built.stream_id.hex

    def floor():
        return fold(con.execute(sql, (key,)).fetchall(), decoders, rs)

    with GameApp(f"sqlite:{built.path}", env=NO_SNAPSHOTS) as app:

        def load():
            return app.load(built.stream_id, lambda game, items: fold_game(rs, game, items))

        if load().state != floor():
            raise AssertionError(f"{figure}: the floor's fold differs from the application's state")
        got = interleaved({"app": load, "floor": floor}, repeats_for(built.events, quick))
    con.close()
    t_app, t_floor = median(got["app"]), median(got["floor"])
    n = built.events
    return [
        Row(
            figure=figure,
            size=f"{n:,} ev",
            value=f"{rate(n / t_app, 'ev/s')} ({ms(t_app)})",
            floor=f"{rate(n / t_floor, 'ev/s')} ({ms(t_floor)})",
            ratio=t_app / t_floor,
            goal=GOAL_SQLITE_10K if built.target == 10_000 else None,
            data={
                "events": n,
                "seconds": t_app,
                "floor_seconds": t_floor,
                "events_per_second": n / t_app,
                "floor_events_per_second": n / t_floor,
                "repeats": len(got["app"]),
            },
        )
    ]
