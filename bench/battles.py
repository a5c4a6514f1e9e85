"""Item 16, `rk battles`: list every game of a store in-process, at 10 and at
1,000 battles, against a floor that reads the game index's rows with the
database driver, decodes them with msgspec and writes one line per game.

The store holds Betrayal clashes just set up (every tenth one a few commands
on, one of them undone). `rk battles --store FILE` runs as a user's process
runs it (the console script's path: ``cli.direct``, which hands to typer
only the lines it leaves; a fresh application each time) with its read
model already caught up; the first run on a store with no read model yet
(it catches up from the first event) is reported in the note, with the CPU
time of both (less disturbed than wall-clock time by other work)."""

from __future__ import annotations

import contextlib
import io
import sqlite3
import tempfile
import time
from pathlib import Path

import msgspec

from domain.betrayal.battle.application import BetrayalApp, PartySpec
from domain.kernel.games import INDEX_STREAM

from .measure import Row, interleaved, median, ms

SETUP = "waystone-crossing"
SIZES = (10, 1_000)
GOAL = 5.0  # `rk battles`: at most 5x the floor (issue 25)


def build(path: Path, battles: int) -> None:
    """A store of ``battles`` clashes; every tenth one played a little."""
    with BetrayalApp(f"sqlite:{path}") as app:
        party = [PartySpec("Ysolda", "nord")]
        for i in range(battles):
            battle_id = f"b{i}"
            app.new_clash(setup=SETUP, party=party, xp=2, seed=i, battle_id=battle_id)
            if i % 10 == 0:
                for _ in range(2):
                    legal = app.legal(battle_id)
                    app.execute(battle_id, legal[0])
                app.undo(battle_id, force=True)


def rk_battles(path: Path) -> str:
    """`rk battles --store FILE` in-process, as a fresh process runs it:
    through ``cli.direct`` and, for a line it leaves, typer (``cli.direct.run``)."""
    from cli import direct

    argv = ["battles", "--store", f"sqlite:{path}"]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = direct.main(argv)
        if code is None:
            from cli.main import main

            code = main(argv)
    if code != 0:
        raise AssertionError(f"rk battles exited {code}")
    return out.getvalue()


def floor(path: Path) -> str:
    """Read the index's rows, decode them, write a line per game."""
    con = sqlite3.connect(path)
    rows = con.execute(
        "SELECT state FROM stored_events WHERE originator_id = ? ORDER BY originator_version", (INDEX_STREAM.hex,)
    ).fetchall()
    con.close()
    out = io.StringIO()
    for (data,) in rows:
        body = msgspec.json.decode(data)
        out.write(f"{body.get('d', body)}\n")
    return out.getvalue()


def battles_rows(quick: bool = False, sizes: tuple[int, ...] = SIZES) -> list[Row]:
    """One row per store size."""
    rows = []
    repeats = 3 if quick else 25  # a run is a few milliseconds: enough for a median on a noisy machine
    for n in sizes:
        with tempfile.TemporaryDirectory(prefix="rk-bench-battles-") as tmp:
            path = Path(tmp) / "store.sqlite"
            build(path, n)
            start = time.perf_counter()
            listed = rk_battles(path)  # cold: the read model catches up from the first event
            cold = time.perf_counter() - start
            if listed.count("waystone-crossing") != n:
                raise AssertionError(f"rk battles listed {listed.count('waystone-crossing')} of {n} battles")
            cpu: dict[str, list[float]] = {}
            runs = interleaved({"rk": lambda: rk_battles(path), "floor": lambda: floor(path)}, repeats, cpu)
        value, low = median(runs["rk"]), median(runs["floor"])
        used, used_floor = median(cpu["rk"]), median(cpu["floor"])
        rows.append(
            Row(
                figure="rk battles (in-process)",
                size=f"{n:,} battles",
                value=ms(value),
                floor=ms(low),
                ratio=value / low,
                goal=GOAL,
                note=f"CPU {ms(used)} vs {ms(used_floor)} ({used / used_floor:.1f}x);"
                f" first run, read model built from the log: {ms(cold)}",
                data={
                    "battles": n,
                    "seconds": runs["rk"],
                    "floor_seconds": runs["floor"],
                    "cpu_seconds": cpu["rk"],
                    "floor_cpu_seconds": cpu["floor"],
                    "cold_seconds": cold,
                },
            )
        )
    return rows


if __name__ == "__main__":  # python -m bench.battles
    for row in battles_rows(quick=True):
        print(row.figure, row.size, row.value, "floor", row.floor, f"x{row.ratio:.1f}", row.note)
