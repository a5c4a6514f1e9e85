"""Item "log", the long reads a player waits for (issue 10, point 4): `rk log`
and `rk audit` of one long battle (20,000 events by default), in-process as
a fresh process runs them, with stdout a pipe (no pager, no progress).

Floor: the battle stream's rows read with ``sqlite3``, decoded by msgspec
into the same event Structs, folded by the same ``evolve``, and one line
per event written (its version and type): what any narrated log must do at
least. `rk audit` reads its read model, caught up beforehand; its first run
on a store without one (the catch-up from the first event, behind a
progress display on a terminal) has a row of its own: the median of
``FIRST_RUNS`` runs, each on a fresh copy of the store, after one on
another copy (so that, as for the floor and the other rows, the process
has imported and loaded what any run needs; the process rows measure
that)."""

from __future__ import annotations

import contextlib
import gc
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
FIRST_RUNS = 5  # `rk audit`'s first runs measured, each on a fresh copy of the store


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


def first_runs(built: Built, folder: Path, runs: int) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU seconds of `rk audit` on ``runs`` fresh copies of
    ``built`` (no read model yet: it is built from the first event), each
    in a folder of its own under ``folder`` (the audit writes its read model
    beside the store)."""
    wall, cpu = [], []
    for n in range(runs):
        mine = copy_of(built, _made(folder / f"first-{n}"))
        gc.collect()
        start, start_cpu = time.perf_counter(), time.thread_time()
        rk(mine, "audit")
        wall.append(time.perf_counter() - start)
        cpu.append(time.thread_time() - start_cpu)
    return wall, cpu


def _made(folder: Path) -> Path:
    folder.mkdir()
    return folder


def log_rows(built: Built, quick: bool = False) -> list[Row]:
    """One row for `rk log`, one for `rk audit`, on a private copy of ``built``
    (the audit writes its read model beside the store), and one for
    `rk audit`'s first run (``first_runs``)."""
    with tempfile.TemporaryDirectory(prefix="rk-bench-log-") as tmp:
        mine = copy_of(built, _made(Path(tmp) / "store"))
        audit = rk(mine, "audit")  # the process's first: imports, the pack, the narrators loaded
        firsts, firsts_cpu = first_runs(built, Path(tmp), 1 if quick else FIRST_RUNS)
        cold = median(firsts)
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
                    **({"cold_seconds": firsts} if name == "audit" else {}),
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
            note=(
                f"median of {len(firsts)} runs, each on a fresh copy of the store (the audit's catch-up"
                f" from the first event); CPU {ms(median(firsts_cpu))}"
            ),
            data={
                "events": built.events,
                "seconds": firsts,
                "cpu_seconds": firsts_cpu,
                "floor_seconds": runs["floor"],
            },
        )
    )
    return rows


if __name__ == "__main__":  # python -m bench.log [EVENTS]
    import sys

    from .streams import stream

    built = stream(int(sys.argv[1]) if len(sys.argv) > 1 else 20_000, 1)
    for row in log_rows(built):
        print(row.figure, row.size, row.value, "floor", row.floor, f"x{row.ratio:.1f}", row.note)
