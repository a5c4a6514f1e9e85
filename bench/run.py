"""Run rulekeeper's benchmarks, print one table, write the figures as JSON.

.venv/bin/python -m bench.run            # the full run (see bench/README.md)
.venv/bin/python -m bench.run --quick    # tiny sizes: a smoke test
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import time
from dataclasses import asdict
from pathlib import Path

if __package__ in (None, ""):  # run as a file: python bench/run.py
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import (  # noqa: E402
    battles,
    conquest,
    delve,
    inprocess,
    labyrinth,
    log,
    memory,
    play,
    process,
    rebuild,
    server_memory,
    size,
    snapshots,
    streams,
)
from bench.measure import Row  # noqa: E402

DEFAULT_POSTGRES = "postgresql://postgres@127.0.0.1:5432/test"
ITEMS = ("rebuild", "snapshots", "process", "inprocess", "play", "battles", "log", "size", "memory", "server-memory")
HEADERS = ("figure", "size", "time/throughput", "floor", "ratio", "goal", "holds?")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    started = time.perf_counter()
    sizes = _ints(args.sizes or ("200,500" if args.quick else "1000,10000,100000"))
    snap_sizes = _ints(args.snapshot_sizes or ("100,500" if args.quick else "100,10000,100000"))
    battle_events = args.battle_events or (300 if args.quick else 1000)
    log_events = args.log_events or (300 if args.quick else 20_000)
    only = set(args.only.split(",")) if args.only else set(ITEMS)
    cache = Path(args.cache) if args.cache else streams.default_cache_dir()
    built: dict[int, streams.Built] = {}

    def stream(n: int) -> streams.Built:
        if n not in built:
            _say(f"stream of {n:,} events (seed {args.seed})...")
            built[n] = streams.stream(n, args.seed, cache)
            b = built[n]
            _say(
                f"  {b.events:,} events: {b.commands} commands, {b.undos} undos, {b.redos} redos,"
                f" {b.ends} endings undone; built in {b.build_seconds:.0f} s, cached in {cache}"
            )
        return built[n]

    rows: list[Row] = []
    skipped: list[str] = []
    if "rebuild" in only:
        for n in sizes:
            _say(f"rebuild, SQLite, {n:,} events")
            rows += rebuild.rebuild_rows(stream(n), args.quick)
        for n in sizes:
            if n > 10_000:
                continue  # Conquest's row is for the goal's size; 100,000 would only repeat it, slower
            _say(f"rebuild, SQLite, Conquest, {n:,} events")
            c = conquest.stream(n, args.seed, cache)
            _say(
                f"  {c.events:,} events: {c.commands} commands, {c.undos} undos, {c.redos} redos,"
                f" {c.ends} endings undone; built in {c.build_seconds:.0f} s"
            )
            rows += conquest.rebuild_rows(c, args.quick)
        for n in sizes:
            if n > 10_000:
                continue  # as Conquest's: the goal's size
            _say(f"rebuild, SQLite, labyrinth, {n:,} events")
            lab = labyrinth.stream(n, args.seed, cache)
            _say(
                f"  {lab.events:,} events: {lab.commands} commands, {lab.undos} undos, {lab.redos} redos,"
                f" {lab.ends} endings undone; built in {lab.build_seconds:.0f} s"
            )
            rows += labyrinth.rebuild_rows(lab, args.quick)
        for n in sizes:
            if n > 10_000:
                continue  # as Conquest's: the goal's size
            _say(f"rebuild, SQLite, Betrayal delve, {n:,} events")
            d = delve.stream(n, args.seed, cache)
            _say(
                f"  {d.events:,} events ({d.delve_events:,} in the Delve stream): {d.commands} commands,"
                f" {d.undos} undos, {d.redos} redos, {d.ends} endings undone; built in {d.build_seconds:.0f} s"
            )
            rows += delve.rebuild_rows(d, args.quick)
        reason = postgres_problem(args.postgres)
        if reason:
            skipped.append(f"rebuild, PostgreSQL: {reason}")
            _say(f"rebuild, PostgreSQL skipped: {reason}")
        else:
            for n in sizes:
                _say(f"rebuild, PostgreSQL, {n:,} events")
                rows += rebuild.postgres_rows(stream(n), args.postgres, args.quick)
    if "snapshots" in only:
        _say("load with snapshots on")
        base, *others = [stream(n) for n in snap_sizes]
        rows += snapshots.snapshot_rows(base, others, args.quick)
    if "process" in only:
        _say("one command as a process")
        rows += process.process_rows(stream(battle_events), cache / "pycache", args.quick)
    if "inprocess" in only:
        _say("a command inside one process")
        rows += inprocess.inprocess_rows(stream(battle_events), args.quick, args.seed)
    if "play" in only:
        _say("random legal play in memory")
        rows += play.play_rows(args.quick)
    if "battles" in only:
        _say("rk battles, 10 and 1,000 battles")
        rows += battles.battles_rows(args.quick)
    if "log" in only:
        _say(f"rk log and rk audit, {log_events:,} events")
        rows += log.log_rows(stream(log_events), args.quick)
    if "size" in only:
        _say("size")
        for n in sorted(set(sizes) | {battle_events}):
            rows += size.size_rows(stream(n))
    if "memory" in only:
        _say("memory of export, verify, import")
        rows += memory.memory_rows(stream(max(sizes)), args.quick)
    if "server-memory" in only:
        _say("memory of rk server reading a whole log")
        rows += server_memory.server_memory_rows(stream(max(sizes)))

    print(table(rows))
    if skipped:
        print("\nskipped: " + "; ".join(skipped))
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(
        json.dumps(
            report(args, rows, skipped, list(built.values()), time.perf_counter() - started), indent=2, default=str
        )
        + "\n"
    )
    _say(f"figures written to {out}")
    return 0


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m bench.run", description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="tiny sizes and few repeats (smoke test, CI)")
    p.add_argument("--sizes", help="rebuild stream lengths, comma-separated (default 1000,10000,100000)")
    p.add_argument(
        "--snapshot-sizes", help="snapshot-load stream lengths, the first is the base (default 100,10000,100000)"
    )
    p.add_argument("--battle-events", type=int, help="length of the battle for items 3 and 4 (default 1000)")
    p.add_argument("--log-events", type=int, help="length of the battle `rk log` and `rk audit` read (default 20000)")
    p.add_argument("--seed", type=int, default=1, help="seed of the random play that builds the streams")
    p.add_argument("--out", default="bench/results.json", help="JSON file for the figures (default %(default)s)")
    p.add_argument(
        "--postgres",
        default=DEFAULT_POSTGRES,
        help="PostgreSQL URL for the rebuild, or 'none' (default %(default)s; skipped when unreachable)",
    )
    p.add_argument(
        "--cache", help="directory of the built streams (default $RULEKEEPER_BENCH_CACHE or <tmp>/rulekeeper-bench)"
    )
    p.add_argument("--only", help=f"comma-separated subset of {','.join(ITEMS)}")
    return p.parse_args(argv)


def postgres_problem(url: str) -> str:
    """Why PostgreSQL cannot be used, or "" when it can."""
    if not url or url.lower() == "none":
        return "not asked for (--postgres none)"
    try:
        import psycopg
    except ImportError as e:
        return f"psycopg is not installed ({e})"
    try:
        psycopg.connect(url, connect_timeout=3).close()
    except psycopg.Error as e:
        return f"{url} is not reachable ({str(e).strip().splitlines()[0]})"
    return ""


def table(rows: list[Row]) -> str:
    cells = [HEADERS] + [
        (
            r.figure,
            r.size,
            r.value,
            r.floor,
            "" if r.ratio is None else f"{r.ratio:.2f}x",
            "" if r.goal is None else f"<= {r.goal:g}x",
            {None: "", True: "yes", False: "NO"}[r.holds],
        )
        for r in rows
    ]
    widths = [max(len(c[i]) for c in cells) for i in range(len(HEADERS))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    notes = [f"  [{i}] {r.figure}, {r.size}: {r.note}" for i, r in enumerate(rows, 1) if r.note]
    return "\n".join(lines + (["", "notes:"] + notes if notes else []))


def report(args, rows, skipped, built, seconds) -> dict:
    return {
        "run": {
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "python": sys.version.split()[0],
            "platform": platform.platform(),
            "cpus": os.cpu_count(),
            "commit": _git_commit(),
            "args": vars(args),
            "seconds": seconds,
        },
        "streams": [asdict(b) for b in built],
        "rows": [r.as_json() for r in rows],
        "goals": [
            {"figure": r.figure, "size": r.size, "ratio": r.ratio, "goal": r.goal, "holds": r.holds}
            for r in rows
            if r.goal is not None
        ],
        "skipped": skipped,
    }


def _git_commit() -> str:
    try:
        return subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=Path(__file__).resolve().parent
        ).stdout.strip()
    except OSError:
        return ""


def _ints(text: str) -> list[int]:
    return [int(x.replace("_", "")) for x in text.split(",") if x.strip()]


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


if __name__ == "__main__":
    sys.exit(main())
