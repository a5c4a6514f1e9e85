"""How long a real request takes to `rk server` while silent connections
are held open (#21 point 8), against the same request with none (the
floor), taking turns.

    .venv/bin/python bench/idle_connections.py [--idle 200] [--rounds 20] [--state]

Starts `rk server --port 0` on a throwaway SQLite store in a home of its
own; each round opens ``--idle`` connections that send nothing, times
``REQUESTS`` requests (a new connection each, as a browser opening a link),
closes them, and times as many with none open (the API's document, or
with ``--state`` the game's state read with the host's token). Prints the medians, their
ratio, and how many of the silent connections the server had closed by
the end of its header timeout (all of them, after the fix; none before).
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REQUESTS = 5  # per round and per side
SETUP = ["new", "clash", "--setup", "waystone-crossing", "--party", "Ria:nord", "--seed", "7"]


def _rk() -> str:
    beside = Path(sys.executable).parent / "rk"
    return str(beside) if beside.exists() else "rk"


def _request(url: str, token: str | None = None) -> float:
    gc.collect()
    headers = {"authorization": f"Bearer {token}"} if token else {}
    began = time.perf_counter()
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=60) as r:
        r.read()
    return time.perf_counter() - began


def _silent(port: int, n: int) -> list[socket.socket]:
    return [socket.create_connection(("127.0.0.1", port), timeout=60) for _ in range(n)]


def _closed(sockets: list[socket.socket]) -> int:
    count = 0
    for s in sockets:
        s.setblocking(False)
        try:
            count += s.recv(1) == b""
        except BlockingIOError:
            pass
        except OSError:
            count += 1
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--idle", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--header-timeout", type=float, default=2.0)
    parser.add_argument("--state", action="store_true", help="time the game's state read, not the API's document")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        env = {k: v for k, v in os.environ.items() if k not in ("RULEKEEPER_STORE", "RULEKEEPER_SERVER_SECRET")}
        env["RULEKEEPER_HOME"] = home
        store = str(Path(home) / "t.sqlite")
        subprocess.run([_rk(), "--store", store, *SETUP], env=env, check=True, capture_output=True, timeout=60)
        proc = subprocess.Popen(
            [_rk(), "--store", store, "server", "--port", "0", "--header-timeout", str(args.header_timeout)],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        try:
            assert proc.stdout is not None
            said = [proc.stdout.readline()]
            while not said[-1].startswith("Stop it with"):
                said.append(proc.stdout.readline())
            base = re.match(r"rulekeeper server on (\S+)", said[0]).group(1)
            port = int(base.rsplit(":", 1)[1])
            url, token = f"{base}/api/openapi.json", None
            if args.state:
                token = next(x for x in said if x.startswith("host")).rsplit("#token=", 1)[1].strip()
                game = next(x.strip()[:-1] for x in said if x.strip().endswith(":") and " " not in x.strip())
                url = f"{base}/api/games/{game}/state"
            floor: list[float] = []
            held: list[float] = []
            for _ in range(args.rounds):
                idle = _silent(port, args.idle)
                held += [_request(url, token) for _ in range(REQUESTS)]
                for s in idle:
                    s.close()
                floor += [_request(url, token) for _ in range(REQUESTS)]
            idle = _silent(port, args.idle)
            time.sleep(args.header_timeout * 3)
            closed = _closed(idle)
            for s in idle:
                s.close()
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=30)
    with_idle, without = statistics.median(held), statistics.median(floor)
    print(f"request: {'GET state' if args.state else 'GET /api/openapi.json'}")
    print(
        f"request with {args.idle} silent connections open: median {with_idle * 1000:.2f} ms "
        f"(p99 {statistics.quantiles(held, n=100)[98] * 1000:.2f} ms)"
    )
    print(f"request with none open (floor):                 median {without * 1000:.2f} ms")
    print(f"ratio: {with_idle / without:.2f}")
    print(f"silent connections closed {args.header_timeout * 3:.0f} s later: {closed} of {args.idle}")


if __name__ == "__main__":
    main()
