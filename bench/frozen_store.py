"""How long `rk server`'s `GET state` and `rk status` (in-process and
through `rk serve`) take to answer when PostgreSQL freezes (#21 points 2
and 10): its processes stopped, connections accepted and nothing answered.

    .venv/bin/python bench/frozen_store.py [DATABASE_URL] [SERVERS_CONNECT_TIMEOUT]

The database is frozen only as seen through a relay (``tests/postgres_line.py``),
so other users of it go on. With the default bounds (connect timeout 5 s,
`rk server`'s deadline 30 s, `rk serve`'s 30 s) it sets up a clash in a
schema of its own, starts `rk server` and `rk serve` and reads once through
each (a pooled connection open in each), freezes the relay, and times one
`GET state`, one `rk status` in a process of its own, and one through
`rk serve`, each with how it ended. Nothing waits longer than ``LIMIT``.
A connect timeout for the two servers (say 600) leaves only their own
deadlines to answer.
"""

from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from uuid import uuid4

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from postgres_line import Line  # noqa: E402

LIMIT = 300  # seconds any one probe may take before it is called unbounded
SETUP = ["new", "clash", "--setup", "waystone-crossing", "--party", "Ria:nord", "--seed", "7"]


def _rk() -> str:
    beside = Path(sys.executable).parent / "rk"
    return str(beside) if beside.exists() else "rk"


def _timed(what, *args) -> tuple[float, str]:
    began = time.perf_counter()
    said = what(*args)
    return time.perf_counter() - began, said


def _get(url: str, token: str) -> str:
    request = urllib.request.Request(url, headers={"authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(request, timeout=LIMIT) as r:
            return f"{r.status}"
    except urllib.error.HTTPError as e:
        return f"{e.code} {json.loads(e.read()).get('reason', '')}"
    except OSError as e:
        return f"no answer: {e}"


def _status(env: dict[str, str]) -> str:
    try:
        done = subprocess.run([_rk(), "status"], env=env, capture_output=True, text=True, timeout=LIMIT)
    except subprocess.TimeoutExpired:
        return f"still waiting after {LIMIT} s"
    return f"exit {done.returncode}: {done.stderr.strip()[:120]}"


def main() -> None:
    import psycopg

    database = sys.argv[1] if len(sys.argv) > 1 else "postgresql://postgres@127.0.0.1:5432/test"
    line = Line(database)
    schema = f"bench{uuid4().hex[:10]}"
    with psycopg.connect(database, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    home = Path(tempfile.mkdtemp(prefix="rk-frozen-"))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RULEKEEPER_", "POSTGRES_"))}
    env |= {"RULEKEEPER_HOME": str(home), "RULEKEEPER_STORE": line.store, "POSTGRES_SCHEMA": schema}
    local = env | {"RULEKEEPER_NO_SERVER": "1"}
    if len(sys.argv) > 2:
        env["POSTGRES_CONNECT_TIMEOUT"] = sys.argv[2]
    procs: list[subprocess.Popen] = []
    try:
        subprocess.run([_rk(), *SETUP], env=local, check=True, capture_output=True, timeout=120)
        server = subprocess.Popen(
            [_rk(), "server", "--port", "0"], env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
        )
        procs.append(server)
        lines = []
        while not lines or not lines[-1].startswith("Stop it with"):
            lines.append(server.stdout.readline().rstrip("\n"))
        base = next(
            re.match(r"rulekeeper server on (\S+)", x).group(1) for x in lines if x.startswith("rulekeeper server on")
        )
        link = next(x.split()[-1] for x in lines if x.strip().startswith("Ria "))
        game, token = link.split("/table/", 1)[1].split("#token=", 1)
        state = f"{base}/api/games/{game}/state"
        served = subprocess.Popen(
            [_rk(), "serve"], env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
        )
        procs.append(served)
        ready, _, _ = select.select([served.stdout], [], [], 60)
        assert ready and "listening" in served.stdout.readline()
        print(f"warm: GET state {_get(state, token)}; served rk status {_status(env)}")
        line.freeze()
        for name, probe, args in (
            ("GET state (rk server)", _get, (state, token)),
            ("rk status, in-process", _status, (local,)),
            ("rk status, through rk serve", _status, (env,)),
        ):
            took, said = _timed(probe, *args)
            print(f"frozen: {name}: {took:.1f} s, {said}")
    finally:
        line.thaw()
        for proc in procs:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=40)
            except subprocess.TimeoutExpired:
                proc.kill()
        line.close()
        with psycopg.connect(database, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


if __name__ == "__main__":
    main()
