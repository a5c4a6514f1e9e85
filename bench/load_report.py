"""The words and the JSON file of the server load benchmark
(``bench.server_load``): the conflicts and the check of the logs in words,
every figure, phase and floor as JSON."""

from __future__ import annotations

import datetime
import os
import platform
import sys

from . import load_check, load_concurrent, load_play
from .measure import median, ms
from .run import _git_commit


def summary(phases: list[dict], floors: dict) -> str:
    """The conflicts and the check of the logs, in words."""
    lines = []
    for phase in phases:
        t: load_play.Tally = phase["tally"]
        c: load_check.Checked = phase["checked"]
        name = f"K={phase['processes']}" + (", 1 table alone" if phase["alone"] else "")
        lines.append(
            f"{name}: {t.races} races, {t.races_ok} answered one 200 and one 409 moved-on;"
            f" {len(t.refused)} conflicts (409), median {ms(median(t.refused)) if t.refused else '-'};"
            f" {len(t.wrong)} wrong answers"
        )
        lines.append(
            f"     logs: {c.verified}/{c.games} verify, {c.contiguous}/{c.games} contiguous,"
            f" {len(c.lost)} writes lost, {len(c.unanswered)} written unanswered"
            f" -> {'ok' if c.ok else 'NOT OK'}"
        )
        lines.append("     answers: " + ", ".join(f"{n} {s}" for s, n in sorted(t.statuses.items())))
        for wrong in (t.wrong + c.lost + c.unanswered + c.failures)[:10]:
            lines.append(f"     ! {wrong}")
        if "Traceback" in phase["errors"]:
            lines.append("     ! a server logged a traceback (see the JSON file)")
    for key, what in (("concurrent", "the tables at once"), ("alone", "the lone table")):
        f: load_concurrent.Concurrent | None = floors.get(key)
        if f is not None:
            lines.append(
                f"floor, {what}: {f.threads} thread(s), {len(f.seconds)} commands, {f.undos} undos and"
                f" {f.legal} legal asks in {f.wall:.1f} s, {len(f.diverged)} at another version than"
                f" served{'; STOPPED at the deadline' if f.stopped else ''}"
            )
    one = floors.get("one")
    if one is not None:  # none with --alone-only
        lines.append(
            f"floor, one at a time: {len(one.seconds)} commands and {one.undos} undos replayed in-process,"
            f" {len(one.diverged)} at another version than served"
        )
    return "\n".join(lines)


def report(args, rows, phases, floors, seconds) -> dict:
    """Everything the run found, for ``--out``."""
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
        "goals": [
            {"figure": r.figure, "size": r.size, "ratio": r.ratio, "goal": r.goal, "holds": r.holds}
            for r in rows
            if r.goal is not None
        ],
        "phases": [
            {
                "processes": p["processes"],
                "tables": p["tables"],
                "alone": p["alone"],
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
                "check": {
                    "ok": p["checked"].ok,
                    "games": p["checked"].games,
                    "verified": p["checked"].verified,
                    "contiguous": p["checked"].contiguous,
                    "lost": p["checked"].lost,
                    "unanswered": p["checked"].unanswered,
                    "failures": p["checked"].failures,
                },
                "server_stderr": p["errors"][-4000:],
                "database": p["database"],
                "client": p.get("client", "httpx"),
                "client_cpu": p["tally"].client_cpu,
            }
            for p in phases
        ],
        "floor": {
            "commands": len(floors["one"].seconds),
            "undos": floors["one"].undos,
            "diverged": floors["one"].diverged,
            "database": floors["one"].database,
        }
        if "one" in floors
        else None,
        "concurrent": {
            key: {
                "threads": f.threads,
                "commands": len(f.seconds),
                "writes": f.writes,
                "undos": f.undos,
                "legal": f.legal,
                "seconds": f.wall,
                "writes_per_second": f.rate,
                "stopped": f.stopped,
                "diverged": f.diverged,
                "database": f.database,
            }
            for key, f in floors.items()
            if key != "one"
        },
    }
