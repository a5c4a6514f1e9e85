"""What the server load benchmark (``bench.server_load``) runs on: a fresh
PostgreSQL database made for one phase and dropped after it, and `rk
server` processes on it, stopped (killed if need be) on the way out."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit
from uuid import uuid4

ROOT = Path(__file__).resolve().parent.parent
START_WAIT = 60.0  # seconds a server may take to print its links
STOP_WAIT = 10.0  # seconds a server may take to stop after SIGTERM before it is killed
HOST_LINK = re.compile(r"^host \(.*\): (http://\S+?)/#token=(\S+)$", re.M)


@contextmanager
def fresh_database(url: str, label: str) -> Iterator[str]:
    """A new, empty database on the server of ``url`` (its store URL),
    dropped afterwards whatever happens: the database of ``url`` itself is
    only connected to, never written."""
    import psycopg
    from psycopg.sql import SQL, Identifier

    name = f"rk_load_{label}_{uuid4().hex[:8]}"
    with psycopg.connect(url, autocommit=True, connect_timeout=5) as conn:
        conn.execute(SQL("CREATE DATABASE {}").format(Identifier(name)))
    try:
        parts = urlsplit(url)
        yield urlunsplit(parts._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(url, autocommit=True, connect_timeout=5) as conn:
            conn.execute(SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(Identifier(name)))


@dataclass
class Server:
    """One `rk server` process and what it printed."""

    process: subprocess.Popen
    base: str
    out: Path
    err: Path


def rk_command() -> list[str]:
    """`rk` of this environment (the console script beside the interpreter),
    else ``python -m cli.main``."""
    script = Path(sys.executable).parent / "rk"
    return [str(script)] if script.exists() else [sys.executable, "-m", "cli.main"]


@contextmanager
def servers(count: int, store: str, folder: Path, workers: int | None = None) -> Iterator[tuple[list[str], str]]:
    """``count`` `rk server` processes on ``store``, each on a free loopback
    port, sharing one secret: yields their base URLs and the host's token.
    Every process is stopped on the way out (SIGTERM, then SIGKILL)."""
    home = folder / "home"
    home.mkdir(parents=True, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k != "RULEKEEPER_STORE"}
    env |= {"RULEKEEPER_SERVER_SECRET": secrets.token_urlsafe(32), "RULEKEEPER_HOME": str(home)}
    extra = ["--workers", str(workers)] if workers else []
    running: list[Server] = []
    try:
        for i in range(count):
            out, err = folder / f"server-{i}.out", folder / f"server-{i}.err"
            with out.open("wb") as o, err.open("wb") as e:
                process = subprocess.Popen(
                    [*rk_command(), "server", "--host", "127.0.0.1", "--port", "0", "--store", store, *extra],
                    cwd=ROOT,
                    env=env,
                    stdout=o,
                    stderr=e,
                    stdin=subprocess.DEVNULL,
                )
            running.append(Server(process, "", out, err))
        token = ""
        for s in running:
            s.base, token = _host_link(s)
        yield [s.base for s in running], token
    finally:
        for s in running:
            if s.process.poll() is None:
                s.process.terminate()
        for s in running:
            try:
                s.process.wait(STOP_WAIT)
            except subprocess.TimeoutExpired:
                s.process.kill()
                s.process.wait()


def _host_link(s: Server) -> tuple[str, str]:
    deadline = time.monotonic() + START_WAIT
    while time.monotonic() < deadline:
        found = HOST_LINK.search(s.out.read_text(errors="replace"))
        if found:
            return found.group(1), found.group(2)
        if s.process.poll() is not None:
            break
        time.sleep(0.05)
    tail = s.err.read_text(errors="replace")[-2000:]
    raise RuntimeError(f"rk server printed no host link (exit {s.process.poll()}): {tail}")


def server_errors(folder: Path) -> str:
    """What the servers wrote on stderr (warnings, tracebacks), for the report."""
    return "".join(p.read_text(errors="replace") for p in sorted(folder.glob("server-*.err")))
