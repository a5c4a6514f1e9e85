"""Item 3, one command as a whole process: ``rk status`` and ``rk move HEX``
on a battle of about 1,000 events in an SQLite file, against the floor
process ``python -c "import msgspec, sqlite3"``; each both served by a
running ``rk serve`` (the figure with the goal) and in-process, with no
server (``RULEKEEPER_NO_SERVER=1``); plus the largest import costs of
in-process ``rk status`` from ``python -X importtime``.

Each in-process ``rk move`` runs on a fresh copy of the prepared file (copied
untimed), so every run makes the same move from the same state. The server
keeps its own copy open, so each served move is undone (untimed) instead:
the same move from the same state, two events further along."""

from __future__ import annotations

import os
import random
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

from domain.betrayal.battle.application import BetrayalApp
from domain.betrayal.battle.commands import Move
from domain.betrayal.battle.state import Phase
from domain.kernel.hexes import label

from .measure import Row, median, ms
from .streams import Built, checkpoint, choose, copy_of

GOAL = 2.0  # one rk command as a process, with or without `rk serve`: at most twice the floor process (issue 25)
FLOOR = [sys.executable, "-c", "import msgspec, sqlite3"]


def rk_command() -> list[str] | None:
    """How to run ``rk`` with this interpreter, or None if it is not usable yet."""
    script = Path(sys.executable).with_name("rk")
    if not script.exists():
        return None
    cmd = [sys.executable, str(script)]
    try:
        done = subprocess.run([*cmd, "--help"], capture_output=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return cmd if done.returncode == 0 else None


def prepare(built: Built, directory: Path) -> tuple[Built, str]:
    """A copy of ``built`` played on (by the same seeded bot) until a Move is
    legal; returns it and the hex label of one legal move."""
    mine = copy_of(built, directory)
    rnd = random.Random(built.events)
    with BetrayalApp(f"sqlite:{mine.path}") as app:
        battle = app.battle(mine.battle_id)
        for _ in range(500):
            if battle.state.phase is Phase.ENDED:
                battle = app.undo(mine.battle_id, force=True).battle
                continue
            moves = [c for c in app.legal(mine.battle_id) if isinstance(c, Move)]
            if moves:
                to = rnd.choice(moves).to
                break
            battle = app.execute(mine.battle_id, choose(app, battle, rnd)).battle
        else:
            # Played on, the battle keeps ending before any move (seed 1's stream at 1,000
            # events: the party cannot move, and ending the turn ends it): walk back instead.
            for _ in range(500):
                battle = app.undo(mine.battle_id, force=True).battle
                moves = [c for c in app.legal(mine.battle_id) if isinstance(c, Move)]
                if battle.state.phase is not Phase.ENDED and moves:
                    to = rnd.choice(moves).to
                    break
            else:
                raise RuntimeError("no legal move came up in 500 commands, nor 500 undos back")
    checkpoint(Path(mine.path))
    return mine, label(to)


def fallback_commands(battle_id: str, to_label: str) -> tuple[list[str], list[str]]:
    """The same work without ``rk``: build the app and run the command."""
    head = "from domain.betrayal.battle.application import BetrayalApp; app = BetrayalApp(); "
    status = head + f"b = app.battle({battle_id!r}); print(b.version, b.state.phase)"
    move = (
        head + "from domain.betrayal.battle.commands import Move; from domain.kernel.hexes import parse_label; "
        f"print(app.execute({battle_id!r}, Move(to=parse_label({to_label!r}))).battle.version)"
    )
    return [sys.executable, "-c", status], [sys.executable, "-c", move]


def process_env(pycache: Path, **extra: str) -> dict[str, str]:
    """The environment of the timed processes: bytecode cached (in a
    directory of the benchmark's, not in the source tree), as in a user's
    install, even where the caller's environment turns caching off."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return env | {"PYTHONPYCACHEPREFIX": str(pycache)} | extra


def process_rows(built: Built, pycache: Path, quick: bool = False) -> list[Row]:
    """``rk status`` and ``rk move`` as processes, each in-process (no
    server: every command pays its imports) and served by a running ``rk
    serve``, taking turns with the floor."""
    repeats = 3 if quick else 15
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        prepared, to = prepare(built, work)
        rk = rk_command()
        if rk:
            status_cmd, move_cmd = [*rk, "status"], [*rk, "move", to]
            client = rk
            how = "rk"
        else:
            status_cmd, move_cmd = fallback_commands(prepared.battle_id, to)
            client = [sys.executable, "-m", "cli.client"]
            how = "python -c (rk not usable yet)"
        served_status, served_move, undo = [*client, "status"], [*client, "move", to], [*client, "undo", "--force"]
        run_path, served_path = work / "run.sqlite", work / "served.sqlite"
        home = work / "home"
        # UTF-8 output either way: the client serves only a UTF-8 stdout (else it falls back).
        env = process_env(
            pycache,
            RULEKEEPER_STORE=str(run_path),
            RULEKEEPER_HOME=str(home),
            RULEKEEPER_NO_SERVER="1",
            PYTHONIOENCODING="utf-8",
        )
        served_env = process_env(
            pycache, RULEKEEPER_STORE=str(served_path), RULEKEEPER_HOME=str(home), PYTHONIOENCODING="utf-8"
        )

        def fresh():
            for suffix in ("", "-wal", "-shm"):
                Path(f"{run_path}{suffix}").unlink(missing_ok=True)
            for views in work.glob("run.views*"):
                views.unlink()
            shutil.copyfile(prepared.path, run_path)

        fresh()
        # The server keeps its store open, so its file is never swapped:
        # each served move is undone afterwards (untimed) instead.
        shutil.copyfile(prepared.path, served_path)
        for cmd in (FLOOR, status_cmd, move_cmd, FLOOR, status_cmd, move_cmd):  # warm caches, write .pyc
            _run(cmd, env)
            fresh()
        names = ("floor", "status", "served status", "move", "served move")
        got: dict[str, list[float]] = {name: [] for name in names}
        cpu: dict[str, list[float]] = {name: [] for name in names}
        server_cpu: dict[str, list[float]] = {"served status": [], "served move": []}
        socket_file = home / f"rk-{os.getuid()}" / "rk.sock"  # where rk serve listens (cli.protocol.socket_path)
        with resident_server(served_env, socket_file, str(served_path), work) as server:
            for cmd in (served_status, served_move, undo, served_status, served_move, undo):  # warm the server
                _run(cmd, served_env)
            for _ in range(repeats):
                for name, cmd in (
                    ("floor", FLOOR),
                    ("status", status_cmd),
                    ("served status", served_status),
                    ("move", move_cmd),
                    ("served move", served_move),
                ):
                    served = name.startswith("served")
                    before = _process_cpu(server.pid) if served else None
                    wall, used = _run(cmd, served_env if served else env)
                    got[name].append(wall)
                    cpu[name].append(used)
                    if served and before is not None:
                        server_cpu[name].append(_process_cpu(server.pid) - before)
                    if name == "move":
                        fresh()
                    elif name == "served move":
                        _run(undo, served_env)
        imports = import_costs(status_cmd, env)
    t_floor = median(got["floor"])
    c_floor = median(cpu["floor"])
    top = ", ".join(f"{name} {cost / 1000:.0f} ms" for name, cost in imports[:6])
    total = sum(cost for _, cost in imports)
    rows = []
    for name, text, command in (
        ("served status", "rk status", served_status),
        ("status", "rk status, in-process", status_cmd),
        ("served move", f"rk move {to}", served_move),
        ("move", f"rk move {to}, in-process", move_cmd),
    ):
        t = median(got[name])
        c = median(cpu[name])
        served = name.startswith("served")
        per_command = None
        if served:
            if server_cpu[name]:
                per_command = sum(server_cpu[name]) / len(server_cpu[name])
            note = (
                f"via {'rk' if rk else 'python -m cli.client'} with `rk serve` running;"
                f" client CPU {c * 1000:.0f} ms vs {c_floor * 1000:.0f} ms ({c / c_floor:.1f}x)"
                + (f", server CPU {per_command * 1000:.1f} ms a command" if per_command is not None else "")
            )
        else:
            note = (
                f"via {how}, no server (RULEKEEPER_NO_SERVER=1): every command pays its imports;"
                f" CPU {c * 1000:.0f} ms vs {c_floor * 1000:.0f} ms ({c / c_floor:.1f}x)"
                + (f"; imports {total / 1000:.0f} ms, largest: {top}" if name == "status" else "")
            )
        rows.append(
            Row(
                figure=f"process: {text}",
                size=f"{built.events:,} ev",
                value=ms(t),
                floor=ms(t_floor),
                ratio=t / t_floor,
                goal=GOAL,
                note=note,
                data={
                    "events": built.events,
                    "seconds": t,
                    "floor_seconds": t_floor,
                    "repeats": repeats,
                    "cpu_seconds": c,
                    "floor_cpu_seconds": c_floor,
                    "served": served,
                    "server_cpu_seconds": per_command,
                    "how": how,
                    "command": " ".join(command),
                    "imports_us": dict(imports[:20]) if name == "status" else {},
                    "imports_total_us": total if name == "status" else None,
                },
            )
        )
    return rows


@contextmanager
def resident_server(env: dict[str, str], socket_file: Path, store: str, cwd: Path):
    """A running ``rk serve`` for ``store`` (stopped on leaving), checked to
    answer: a client that silently fell back would time the wrong thing."""
    from cli import client

    log = cwd / "serve.log"
    with open(log, "w") as errors:  # a file, not a pipe: nobody reads it while timing
        proc = subprocess.Popen(
            [sys.executable, "-m", "cli.main", "serve"],
            env=env,
            cwd=cwd,
            stdout=subprocess.PIPE,
            stderr=errors,
            text=True,
        )
    try:
        line = proc.stdout.readline()  # said once it listens; "" if it died
        reply = (
            client.exchange(
                {"argv": ["status"], "cwd": str(cwd), "store": store, "tty": False, "width": 100}, str(socket_file)
            )
            if "listening" in line
            else None
        )
        if not reply or reply.get("exit") != 0:
            raise RuntimeError(f"rk serve did not serve: {line!r} {reply!r} {log.read_text()[-500:]}")
        yield proc
    finally:
        proc.stdout.close()
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def _process_cpu(pid: int) -> float | None:
    """CPU seconds (user + system) used so far by process ``pid``, from
    /proc (None where there is none); clock-tick resolution, so only the
    average over many commands means much."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _run(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall-clock and CPU seconds (user + system) of one run of ``cmd``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({done.returncode}): {done.stderr.decode()[-500:]}")
    used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return seconds, used


def import_costs(cmd: list[str], env: dict[str, str]) -> list[tuple[str, int]]:
    """Import time of ``cmd`` by top-level package (the self times of its
    modules summed: ``rich`` holds every ``rich.*``), in microseconds,
    largest first."""
    done = subprocess.run(
        [cmd[0], "-X", "importtime", *cmd[1:]], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    costs: dict[str, int] = {}
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or line.count("|") != 2:
            continue
        own, _, name = line[len("import time:") :].split("|")
        if not own.strip().isdigit():
            continue  # the header line
        root = name.strip().split(".")[0]
        costs[root] = costs.get(root, 0) + int(own)
    return sorted(costs.items(), key=lambda c: -c[1])
