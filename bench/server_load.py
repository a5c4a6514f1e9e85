"""The server under load: `rk server` processes on one PostgreSQL database,
tables playing at once over HTTP on loopback; one table printed, the
figures written as JSON.

    .venv/bin/python -m bench.server_load            # 8 tables, 60 commands each, 1 then 2 processes
    .venv/bin/python -m bench.server_load --quick    # tiny: a smoke test

For each process count K, a fresh database is made (the URL's own database
is never written), K servers are started on it and the tables play
(``bench.load_play``); then the servers are stopped and every game's log
is checked (``bench.load_check``). Then one table plays alone on one
process (``--no-alone`` skips it), the same way.

Two floors, each on another fresh database, from the writes the fewest
processes saved: the tables' writes replayed in this process at once, a
thread and a ``GameApp`` per table, with the legal commands asked before
each write as the tables did (``bench.load_concurrent``: the fair floor,
the same load without the server), and the same commands one at a time
(``load_check.replay``: what one command costs alone). Every database made
is dropped at the end, every server stopped.

No figure is judged alone: the POST latency is set beside the in-process
``execute`` of the same commands, 2 processes' throughput beside 1's.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a file: python bench/server_load.py
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import httpx  # noqa: E402

from bench import load_check, load_concurrent, load_play, load_procs  # noqa: E402
from bench.load_client import LeanClient  # noqa: E402
from bench.load_report import report, summary  # noqa: E402
from bench.measure import Row, median, ms, p99, rate  # noqa: E402
from bench.run import DEFAULT_POSTGRES, postgres_problem, table  # noqa: E402

LATENCY_GOAL = 2.0  # a POST command's median: at most 2x the in-process execute's, the tables at once both
SCALE_GOAL = 1.0  # 2 processes faster than 1 (issue 11): the cost of a write below 1 process's


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    tables = args.tables or (2 if args.quick else 8)
    commands = args.commands or (8 if args.quick else 60)
    seconds = args.max_seconds or (60 if args.quick else 600)
    counts = [int(k) for k in args.processes.split(",") if k.strip()]
    reason = postgres_problem(args.postgres)
    if reason:
        _say(f"server load skipped: {reason}")
        return 1
    started = time.perf_counter()
    client = LeanClient if args.client == "lean" else httpx.AsyncClient
    base = min(counts)
    loaded = [] if args.alone_only else [(k, tables, f"k{k}") for k in counts]
    runs = loaded + ([] if args.no_alone else [(base, 1, "alone")])
    phases: list[dict] = []
    with tempfile.TemporaryDirectory(prefix="rk-load-") as tmp:
        for k, n, label in runs:
            _say(f"{k} server process(es), {n} table(s), {commands} commands each...")
            with load_procs.fresh_database(args.postgres, label) as store:
                folder = Path(tmp) / label
                with load_procs.servers(k, store, folder, args.workers) as (bases, host):
                    tally = asyncio.run(load_play.play(bases, host, n, commands, seconds, args.seed, client))
                _say(f"  {tally.writes} writes in {tally.seconds:.1f} s; checking {len(tally.games)} logs")
                checked = load_check.check(store, tally.games)
            phases.append(
                {
                    "processes": k,
                    "tables": n,
                    "alone": label == "alone",
                    "tally": tally,
                    "checked": checked,
                    "errors": load_procs.server_errors(folder),
                    "database": _dbname(store),
                    "client": args.client,
                }
            )
    first = next((p for p in phases if p["processes"] == base and not p["alone"]), None)
    floors = {}
    if first is not None:
        _say(f"the floors: the writes of {base} process(es) replayed in-process, {tables} threads at once...")
        with load_procs.fresh_database(args.postgres, "conc") as store:
            floors["concurrent"] = load_concurrent.replay(store, first["tally"].games, seconds)
            floors["concurrent"].database = _dbname(store)
        _say("  ...and one at a time")
        with load_procs.fresh_database(args.postgres, "floor") as store:
            floors["one"] = load_check.replay(store, first["tally"].games)
            floors["one"].database = _dbname(store)
    alone = next((p for p in phases if p["alone"]), None)
    if alone is not None:
        _say("  ...and the lone table's, in-process")
        with load_procs.fresh_database(args.postgres, "alonefloor") as store:
            floors["alone"] = load_concurrent.replay(store, alone["tally"].games, seconds)
            floors["alone"].database = _dbname(store)
    rows = make_rows(phases, floors, base)
    print(table(rows))
    print("\n" + summary(phases, floors))
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(
        json.dumps(report(args, rows, phases, floors, time.perf_counter() - started), indent=2, default=str) + "\n"
    )
    _say(f"figures written to {out}")
    return 0


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m bench.server_load", description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="2 tables, 8 commands each (a smoke test)")
    p.add_argument("--tables", type=int, help="tables playing at once (default 8)")
    p.add_argument("--commands", type=int, help="commands (undos included) each table posts (default 60)")
    p.add_argument(
        "--processes", default="1,2", help="server process counts to run, one after the other (default %(default)s)"
    )
    p.add_argument("--workers", type=int, help="store threads of each server (default: the server's, 4)")
    p.add_argument(
        "--postgres",
        default=DEFAULT_POSTGRES,
        help="PostgreSQL URL whose server gets the fresh databases (default %(default)s)",
    )
    p.add_argument("--no-alone", action="store_true", help="skip the phase of one table alone on one process")
    p.add_argument(
        "--alone-only",
        action="store_true",
        help="only the phase of one table alone on one process (and its floor): no tables at once",
    )
    p.add_argument(
        "--client",
        choices=("httpx", "lean"),
        default="httpx",
        help="the tables' HTTP client: httpx (default), or bench.load_client's, which costs the"
        " machine about a sixth of httpx's CPU per request",
    )
    p.add_argument("--seed", type=int, default=1, help="seed of the tables' choices and games")
    p.add_argument("--max-seconds", type=float, help="a phase's play stops after this (default 600, quick 60)")
    p.add_argument("--out", default="bench/server_load.json", help="JSON file for the figures (default %(default)s)")
    return p.parse_args(argv)


def make_rows(phases: list[dict], floors: dict, base: int) -> list[Row]:
    """Each phase's figures beside their floors: writes/s beside the
    concurrent replay's (K=1) or 1 process's (K=2, the goal), the POST's
    p50 and p99 beside the concurrent replay's execute (p50: the goal), and
    beside the execute one at a time; the lone table beside its replay."""
    rows = _loaded_rows(phases, floors, base) if "concurrent" in floors else []
    for phase in phases:
        if not phase["alone"]:
            continue
        k, t, lone = phase["processes"], phase["tally"], floors["alone"]
        size = f"K={k}, 1 table alone"
        for stat, fn in (("p50", median), ("p99", p99)):
            s, floor_s = fn(t.saved), fn(lone.seconds)
            rows.append(
                Row(
                    f"server load: POST command {stat}",
                    size,
                    ms(s),
                    ms(floor_s),
                    ratio=s / floor_s,
                    note=f"{len(t.saved)} commands answered 200 over HTTP ({phase['client']} client), no other"
                    " table; floor:"
                    f" GameApp.execute of the same {len(lone.seconds)} commands in-process"
                    " (GameApp.legal before each write)",
                    data={"processes": k, "seconds": s, "floor_seconds": floor_s},
                )
            )
        if not t.unraced:
            continue
        # A raced command's two posts are answered by one process at once;
        # the floor replays it alone. The commands nobody raced, beside it:
        s, floor_s = median(t.unraced), median(lone.seconds)
        rows.append(
            Row(
                "server load: POST command p50, not raced",
                size,
                ms(s),
                ms(floor_s),
                ratio=s / floor_s,
                note=f"the {len(t.unraced)} of them no second client posted at the same moment;"
                f" the client's own CPU: {ms(t.client_cpu / t.requests)} a request ({t.requests} requests);"
                " floor: as above",
                data={"processes": k, "seconds": s, "floor_seconds": floor_s, "client_cpu": t.client_cpu},
            )
        )
    return rows


def _loaded_rows(phases: list[dict], floors: dict, base: int) -> list[Row]:
    """The figures of the phases of tables at once (``make_rows``)."""
    conc: load_concurrent.Concurrent = floors["concurrent"]
    one: load_check.Replay = floors["one"]
    c50, c99, o50 = median(conc.seconds), p99(conc.seconds), median(one.seconds)
    base_rate = next(p["tally"] for p in phases if p["processes"] == base and not p["alone"]).rate
    conc_note = (
        f"floor: GameApp.execute of the same {len(conc.seconds)} commands in-process, {conc.threads}"
        f" threads at once (one GameApp each, GameApp.legal before each write), on PostgreSQL"
    )
    rows = []
    for phase in phases:
        if phase["alone"]:
            continue
        k, t = phase["processes"], phase["tally"]
        size = f"K={k}, {phase['tables']} tables"
        note = (
            f"{t.writes} writes ({t.undos} undos asked) by {len(t.games)} games in {t.seconds:.1f} s,"
            f" {t.requests} requests in all"
        )
        if k == base:
            rows.append(
                Row(
                    "server load: writes/s",
                    size,
                    rate(t.rate, "/s"),
                    rate(conc.rate, "/s"),
                    ratio=conc.rate / t.rate,
                    note=note + f"; floor: the same writes in-process, {conc.threads} threads at once"
                    f" ({conc.writes} in {conc.wall:.1f} s, set-ups and legal included)",
                    data={"processes": k, "writes_per_second": t.rate, "floor_per_second": conc.rate},
                )
            )
        else:
            rows.append(
                Row(
                    "server load: writes/s",
                    size,
                    rate(t.rate, "/s"),
                    rate(base_rate, "/s"),
                    ratio=base_rate / t.rate,
                    goal=SCALE_GOAL,
                    note=note + f"; floor: {base} process(es); goal: faster than 1 process",
                    data={"processes": k, "writes_per_second": t.rate, "floor_per_second": base_rate},
                )
            )
        said = f"{len(t.saved)} commands answered 200 over HTTP; "
        for stat, fn, floor_s, goal in (("p50", median, c50, LATENCY_GOAL), ("p99", p99, c99, None)):
            s = fn(t.saved)
            rows.append(
                Row(
                    f"server load: POST command {stat}",
                    size,
                    ms(s),
                    ms(floor_s),
                    ratio=s / floor_s,
                    goal=goal,
                    note=said + conc_note,
                    data={"processes": k, "seconds": s, "floor_seconds": floor_s},
                )
            )
        s = median(t.saved)
        rows.append(
            Row(
                "server load: POST command p50 vs one at a time",
                size,
                ms(s),
                ms(o50),
                ratio=s / o50,
                note=said + f"floor: GameApp.execute of the same {len(one.seconds)} commands in-process,"
                " one at a time (one GameApp, no legal asked)",
                data={"processes": k, "seconds": s, "floor_seconds": o50},
            )
        )
    rows.append(
        Row(
            "in-process: execute p50, tables at once",
            f"{conc.threads} threads",
            ms(c50),
            ms(o50),
            ratio=c50 / o50,
            note="what running the tables at once costs without any server; floor: the same commands one at a time",
            data={"processes": None, "seconds": c50, "floor_seconds": o50},
        )
    )
    return rows


def _dbname(url: str) -> str:
    return url.rsplit("/", 1)[1]


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


if __name__ == "__main__":
    sys.exit(main())
