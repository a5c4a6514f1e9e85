"""Item "memory": peak memory and time of export, verify and import of a
long battle's portable log, and of `rk log` (text and ``--json``) of it,
each in a process of its own (its peak resident memory, ``VmHWM``), beside
a floor: a process that imports the same modules and loads the battle's
final state, which every operation needs (its own row: the goal is under
60 MB). Also the time to export a small battle from the long battle's store
(it must not pay for the rest of the store). Goal: under 100 MB at any size
(the log is streamed).

``module`` picks the implementation measured (``domain.kernel.portable``,
or a path to another copy of it, to compare with an older one).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from .measure import Row
from .streams import Built, copy_of

GOAL_MB = 100
GOAL_LOAD_MB = 60  # loading a 10,000-event battle (issue 25)

# One operation in a fresh process; prints {"seconds", "maxrss_mb"}.
SCRIPT = r"""
import importlib.util, json, resource, sys, time
op, store, battle, log, target, module = sys.argv[1:7]
if module.endswith(".py"):
    spec = importlib.util.spec_from_file_location("portable_under_test", module)
    portable = importlib.util.module_from_spec(spec); sys.modules[spec.name] = portable
    spec.loader.exec_module(portable)
else:
    import importlib; portable = importlib.import_module(module)
from domain.betrayal.battle.application import BetrayalApp, PartySpec
started = time.perf_counter()
if op == "floor":
    with BetrayalApp(f"sqlite:{store}") as app:
        app.battle(battle)
elif op == "export":
    with BetrayalApp(f"sqlite:{store}") as app, open(log, "wb") as f:
        if hasattr(portable, "write_log"):
            portable.write_log(app, battle, f)
        else:
            f.write(portable.export_battle(app, battle))
elif op == "verify":
    source = log if hasattr(portable, "write_log") else open(log, "rb").read()
    report = portable.verify_log(source)
    assert report.ok, report.summary()
elif op == "import":
    source = log if hasattr(portable, "write_log") else open(log, "rb").read()
    with BetrayalApp(f"sqlite:{target}") as app:
        portable.import_log(app, source)
elif op in ("log", "log-json"):
    # `rk log` as a process runs it, its output to a file (no pager)
    import contextlib
    from cli.main import main
    from cli.session import Defaults
    args = ["log", "--no-pager", "--battle", battle] + (["--json"] if op == "log-json" else [])
    with open(target, "w") as out, contextlib.redirect_stdout(out):
        code = main(args, obj=Defaults(store=f"sqlite:{store}"))
    assert code == 0, code
elif op == "export-small":
    with BetrayalApp(f"sqlite:{store}") as app:
        app.new_clash(setup="waystone-crossing", party=[PartySpec("Smallfry", "nord")], xp=1, seed=9,
                      battle_id="small")
        from domain.betrayal.battle.bots import greedy_choice
        import random
        rnd = random.Random(9)
        for _ in range(3):
            state = app.battle("small").state
            app.execute("small", greedy_choice(state, app.context(state), rnd))
        started = time.perf_counter()
        data = portable.export_battle(app, "small")
seconds = time.perf_counter() - started
# The peak of this process's own memory (VmHWM): ru_maxrss keeps, across
# exec, the peak of the benchmark process this one was forked from.
with open("/proc/self/status") as status:
    peak_kb = next((int(line.split()[1]) for line in status if line.startswith("VmHWM:")), None)
if peak_kb is None:  # no /proc: the rusage figure, an upper bound
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"seconds": seconds, "maxrss_mb": peak_kb / 1024}))
"""


def run(op: str, store: str, battle: str, log: Path, target: Path, module: str) -> dict:
    """One operation in a fresh process: its seconds and peak RSS (MB)."""
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, op, store, battle, str(log), str(target), module],
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parent.parent,
    )
    if done.returncode:
        raise RuntimeError(f"{op} failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def measure(built: Built, module: str = "domain.kernel.portable") -> dict[str, dict]:
    """Every operation's figures on ``built``'s battle (its store is copied
    first: the small battle is added to the copy)."""
    work = Path(tempfile.mkdtemp(prefix="rk-memory-"))
    try:
        copy = copy_of(built, work)
        log, target = work / "battle.jsonl", work / "imported.sqlite"
        figures = {
            op: run(op, copy.path, built.battle_id, log, target, module)
            for op in ("floor", "export", "verify", "import", "log", "log-json", "export-small")
        }
        figures["log_bytes"] = {"bytes": log.stat().st_size}
        return figures
    finally:
        shutil.rmtree(work, ignore_errors=True)


def memory_rows(built: Built, quick: bool = False) -> list[Row]:
    f = measure(built)
    floor = f["floor"]["maxrss_mb"]
    size = f"{built.events:,} ev"
    rows = [
        Row(
            "memory: load a battle",
            size,
            f"{floor:.0f} MB, {f['floor']['seconds']:.2f} s",
            "-",
            note=f"peak RSS of a process that loads the battle (the floor of the rows below); goal under "
            f"{GOAL_LOAD_MB} MB: {'yes' if floor < GOAL_LOAD_MB else 'NO'}",
            data={"maxrss_mb": floor, "seconds": f["floor"]["seconds"]},
        )
    ]
    for op in ("export", "verify", "import", "log", "log-json"):
        mb, seconds = f[op]["maxrss_mb"], f[op]["seconds"]
        rows.append(
            Row(
                f"memory: {op}",
                size,
                f"{mb:.0f} MB, {seconds:.2f} s",
                f"{floor:.0f} MB",
                ratio=mb / floor,
                note=f"peak RSS of the process; goal under {GOAL_MB} MB: {'yes' if mb < GOAL_MB else 'NO'}",
                data={"maxrss_mb": mb, "seconds": seconds, "floor_mb": floor, "log_bytes": f["log_bytes"]["bytes"]},
            )
        )
    small = f["export-small"]["seconds"]
    rows.append(
        Row(
            "export: small battle, big store",
            size,
            f"{small * 1000:.1f} ms",
            "-",
            note="a 3-command battle exported from the long battle's store",
            data={"seconds": small},
        )
    )
    return rows


if __name__ == "__main__":
    from .streams import stream

    events = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    module = sys.argv[2] if len(sys.argv) > 2 else "domain.kernel.portable"
    print(json.dumps(measure(stream(events, 1), module), indent=2))
