"""The server under load: `rk server` processes on one PostgreSQL database,
tables playing at once over HTTP on loopback; one table printed, the
figures written as JSON.

    .venv/bin/python -m bench.server_load            # 8 tables, 60 commands each, 1 then 2 processes
    .venv/bin/python -m bench.server_load --quick    # tiny: a smoke test

For each process count K, a fresh database is made (the URL's own database
is never written), K servers are started on it and the tables play
(``bench.load_play``); then the servers are stopped and every game's log
is checked (``bench.load_check``). The floor is the same writes replayed in
this process through ``GameApp`` on another fresh database. Every
database made is dropped at the end, every server stopped.

No figure is judged alone: the POST latency is set beside the in-process
``execute`` of the same commands, 2 processes' throughput beside 1's.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a file: python bench/server_load.py
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import load_check, load_play, load_procs  # noqa: E402
from bench.measure import Row, median, ms, p99, rate  # noqa: E402
from bench.run import DEFAULT_POSTGRES, _git_commit, postgres_problem, table  # noqa: E402

LATENCY_GOAL = 2.0  # a POST command's median: at most 2x the in-process execute's
SCALE_GOAL = 0.5  # the cost of a command with 2 processes: at most half of 1's (twice the throughput)


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
    phases: dict[int, dict] = {}
    with tempfile.TemporaryDirectory(prefix="rk-load-") as tmp:
        for k in counts:
            _say(f"{k} server process(es), {tables} tables, {commands} commands each...")
            with load_procs.fresh_database(args.postgres, f"k{k}") as store:
                folder = Path(tmp) / f"k{k}"
                with load_procs.servers(k, store, folder, args.workers) as (bases, host):
                    tally = asyncio.run(load_play.play(bases, host, tables, commands, seconds, args.seed))
                _say(f"  {tally.writes} writes in {tally.seconds:.1f} s; checking {len(tally.games)} logs")
                checked = load_check.check(store, tally.games)
            phases[k] = {"tally": tally, "checked": checked, "errors": load_procs.server_errors(folder),
                         "database": _dbname(store)}
        base = min(counts)
        _say(f"the floor: the writes of {base} process(es) replayed in-process")
        with load_procs.fresh_database(args.postgres, "floor") as store:
            floor = load_check.replay(store, phases[base]["tally"].games)
            floor.database = _dbname(store)
    rows = make_rows(phases, floor, base)
    print(table(rows))
    print("\n" + summary(phases, floor))
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report(args, rows, phases, floor, time.perf_counter() - started),
                              indent=2, default=str) + "\n")
    _say(f"figures written to {out}")
    return 0


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m bench.server_load", description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="2 tables, 8 commands each (a smoke test)")
    p.add_argument("--tables", type=int, help="tables playing at once (default 8)")
    p.add_argument("--commands", type=int, help="commands (undos included) each table posts (default 60)")
    p.add_argument("--processes", default="1,2", help="server process counts to run, one after the other"
                                                      " (default %(default)s)")
    p.add_argument("--workers", type=int, help="store threads of each server (default: the server's, 4)")
    p.add_argument("--postgres", default=DEFAULT_POSTGRES,
                   help="PostgreSQL URL whose server gets the fresh databases (default %(default)s)")
    p.add_argument("--seed", type=int, default=1, help="seed of the tables' choices and games")
    p.add_argument("--max-seconds", type=float, help="a phase's play stops after this (default 600, quick 60)")
    p.add_argument("--out", default="bench/server_load.json", help="JSON file for the figures (default %(default)s)")
    return p.parse_args(argv)


def make_rows(phases: dict[int, dict], floor: load_check.Replay, base: int) -> list[Row]:
    rows = []
    f50, f99 = median(floor.seconds), p99(floor.seconds)
    floor_rate = len(floor.seconds) / sum(floor.seconds)
    base_rate = phases[base]["tally"].writes / phases[base]["tally"].seconds
    for k, phase in phases.items():
        t: load_play.Tally = phase["tally"]
        size = f"K={k}, {len({g.request['name'].split('-')[1] for g in t.games})} tables"
        rate_k = t.writes / t.seconds
        note = (f"{t.writes} writes ({t.undos} undos asked) by {len(t.games)} games in {t.seconds:.1f} s,"
                f" {t.requests} requests in all")
        if k == base:
            rows.append(Row("server load: writes/s", size, rate(rate_k, "/s"), rate(floor_rate, "/s"),
                            ratio=floor_rate / rate_k, note=note + "; floor: in-process execute, one at a time",
                            data={"processes": k, "writes_per_second": rate_k, "floor_per_second": floor_rate}))
        else:
            rows.append(Row("server load: writes/s", size, rate(rate_k, "/s"), rate(base_rate, "/s"),
                            ratio=base_rate / rate_k, goal=SCALE_GOAL,
                            note=note + f"; floor: {base} process(es); goal: twice the throughput",
                            data={"processes": k, "writes_per_second": rate_k, "floor_per_second": base_rate}))
        for stat, fn, floor_s, goal in (("p50", median, f50, LATENCY_GOAL), ("p99", p99, f99, None)):
            s = fn(t.saved)
            rows.append(Row(f"server load: POST command {stat}", size, ms(s), ms(floor_s), ratio=s / floor_s,
                            goal=goal, note=f"{len(t.saved)} commands answered 200 over HTTP; floor: GameApp.execute"
                                            f" of the same {len(floor.seconds)} commands in-process, on PostgreSQL",
                            data={"processes": k, "seconds": s, "floor_seconds": floor_s}))
    return rows


def summary(phases: dict[int, dict], floor: load_check.Replay) -> str:
    """The conflicts and the check of the logs, in words."""
    lines = []
    for k, phase in phases.items():
        t: load_play.Tally = phase["tally"]
        c: load_check.Checked = phase["checked"]
        lines.append(f"K={k}: {t.races} races, {t.races_ok} answered one 200 and one 409 moved-on;"
                     f" {len(t.refused)} conflicts (409), median {ms(median(t.refused)) if t.refused else '-'};"
                     f" {len(t.wrong)} wrong answers")
        lines.append(f"     logs: {c.verified}/{c.games} verify, {c.contiguous}/{c.games} contiguous,"
                     f" {len(c.lost)} writes lost, {len(c.unanswered)} written unanswered"
                     f" -> {'ok' if c.ok else 'NOT OK'}")
        lines.append("     answers: " + ", ".join(f"{n} {s}" for s, n in sorted(t.statuses.items())))
        for wrong in (t.wrong + c.lost + c.unanswered + c.failures)[:10]:
            lines.append(f"     ! {wrong}")
        if "Traceback" in phase["errors"]:
            lines.append("     ! a server logged a traceback (see the JSON file)")
    lines.append(f"floor: {len(floor.seconds)} commands and {floor.undos} undos replayed in-process,"
                 f" {len(floor.diverged)} at another version than served")
    return "\n".join(lines)


def report(args, rows, phases, floor, seconds) -> dict:
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
        "rows": [r.as_json() for r in rows],
        "goals": [{"figure": r.figure, "size": r.size, "ratio": r.ratio, "goal": r.goal, "holds": r.holds}
                  for r in rows if r.goal is not None],
        "phases": [{
            "processes": k,
            "games": len(p["tally"].games),
            "writes": p["tally"].writes,
            "requests": p["tally"].requests,
            "seconds": p["tally"].seconds,
            "races": p["tally"].races,
            "races_ok": p["tally"].races_ok,
            "conflicts": len(p["tally"].refused),
            "undos_asked": p["tally"].undos,
            "answers": dict(p["tally"].statuses),
            "wrong": p["tally"].wrong,
            "check": {"ok": p["checked"].ok, "games": p["checked"].games, "verified": p["checked"].verified,
                      "contiguous": p["checked"].contiguous, "lost": p["checked"].lost,
                      "unanswered": p["checked"].unanswered, "failures": p["checked"].failures},
            "server_stderr": p["errors"][-4000:],
            "database": p["database"],
        } for k, p in phases.items()],
        "floor": {"commands": len(floor.seconds), "undos": floor.undos, "diverged": floor.diverged,
                  "database": floor.database},
    }


def _dbname(url: str) -> str:
    return url.rsplit("/", 1)[1]


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


if __name__ == "__main__":
    sys.exit(main())
