"""Item "log", the long reads a player waits for (issue 10, point 4): `rk log`
and `rk audit` of one long battle (20,000 events by default), in-process as
a fresh process runs them, with stdout a pipe (no pager, no progress).

Floor: the battle stream's rows read with ``sqlite3``, decoded by msgspec
into the same event Structs, folded by the same ``evolve``, and one line
per event written (its version and type): what any narrated log must do at
least. `rk audit` reads its read model, caught up beforehand; its first run
on a store without one (the catch-up from the first event, behind a
progress display on a terminal) is reported in the note."""

from __future__ import annotations

import contextlib
import io
import sqlite3
import tempfile
import time
from pathlib import Path

from domain.betrayal.battle.evolve import evolve

from .measure import Row, interleaved, median, ms
from .rebuild import Decoders, repeats_for
from .streams import Built, copy_of

GOAL = 2.0  # `rk log` and `rk audit` (its first run too): at most 2x the floor (issue 25)


def rk(built: Built, *args: str) -> str:
    """``rk ARGS --battle ID`` in-process on ``built``'s store: its stdout."""
    from cli.main import main
    from cli.session import Defaults

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main([*args, "--battle", built.battle_id], obj=Defaults(store=f"sqlite:{built.path}"))
    if code != 0:
        raise AssertionError(f"rk {' '.join(args)} exited {code}")
    return out.getvalue()


def floor(con: sqlite3.Connection, built: Built, decoders: Decoders) -> str:
    """Read, decode and fold the stream; one line per event."""
    rows = con.execute(
        "SELECT originator_version, topic, state FROM stored_events WHERE originator_id=? ORDER BY originator_version",
        (built.stream_id.hex,),
    ).fetchall()
    state = None
    lines = []
    for version, topic, data in rows:
        event = decoders(topic).decode(data).d
        state = evolve(state, event)
        lines.append(f"{version} {type(event).__name__}")
    return "\n".join(lines) + "\n"


def log_rows(built: Built, quick: bool = False) -> list[Row]:
    """One row for `rk log`, one for `rk audit`, on a private copy of ``built``
    (the audit writes its read model beside the store)."""
    with tempfile.TemporaryDirectory(prefix="rk-bench-log-") as tmp:
        mine = copy_of(built, Path(tmp))
        start = time.perf_counter()
        audit = rk(mine, "audit")  # cold: the read models catch up from the first event
        cold = time.perf_counter() - start
        log = rk(mine, "log")
        if log.count("\n") < built.events or audit.count("\n") < built.events:
            raise AssertionError("rk log or rk audit left events out")
        con = sqlite3.connect(mine.path)
        decoders = Decoders()
        try:
            runs = interleaved(
                {
                    "log": lambda: rk(mine, "log"),
                    "audit": lambda: rk(mine, "audit"),
                    "floor": lambda: floor(con, mine, decoders),
                },
                repeats_for(built.events, quick),
            )
        finally:
            con.close()
    low = median(runs["floor"])
    size = f"{built.events:,} ev"
    rows = []
    for name, note in (
        ("log", "narrated against the state folded once, laid out as plain lines"),
        ("audit", f"read model caught up beforehand; first run: {ms(cold)}"),
    ):
        value = median(runs[name])
        rows.append(
            Row(
                figure=f"rk {name} (in-process)",
                size=size,
                value=ms(value),
                floor=ms(low),
                ratio=value / low,
                goal=GOAL,
                note=note,
                data={
                    "events": built.events,
                    "seconds": runs[name],
                    "floor_seconds": runs["floor"],
                    **({"cold_seconds": cold} if name == "audit" else {}),
                },
            )
        )
    rows.append(
        Row(
            figure="rk audit, first run (in-process)",
            size=size,
            value=ms(cold),
            floor=ms(low),
            ratio=cold / low,
            goal=GOAL,
            note="one run on a store without a read model: the audit's catch-up from the first event",
            data={"events": built.events, "seconds": cold, "floor_seconds": runs["floor"]},
        )
    )
    return rows


if __name__ == "__main__":  # python -m bench.log [EVENTS]
    import sys

    from .streams import stream

    built = stream(int(sys.argv[1]) if len(sys.argv) > 1 else 20_000, 1)
    for row in log_rows(built):
        print(row.figure, row.size, row.value, "floor", row.floor, f"x{row.ratio:.1f}", row.note)
