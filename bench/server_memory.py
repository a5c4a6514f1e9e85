"""Item "server memory": the peak memory of an `rk server` process while
a whole log of a long battle is read through the API (the export, and the
narrated log with ``limit=0``), each in a server of its own, beside the
same server warm (the battle's state read once). Goal: under 100 MB more
than warm (a whole log is streamed a page at a time).

``root`` picks the code the server runs (this checkout, or another one
to compare with, such as the main checkout before streaming).
"""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from .measure import Row
from .streams import Built, copy_of

GOAL_MB = 100
SECRET = "a bench secret of the server, 32 bytes"

# A server on a store and port, its whole-log rate unlimited where the code has one.
SERVER = r"""
import inspect, sys, uvicorn
from server.app import create_app
from server.passes import Keyring
store, port, secret = sys.argv[1:4]
extra = {"heavy_rate": None} if "heavy_rate" in inspect.signature(create_app).parameters else {}
uvicorn.run(create_app(f"sqlite:{store}", Keyring(secret.encode()), **extra), host="127.0.0.1", port=int(port),
            log_level="warning")
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(base: str, path: str, token: str) -> int:
    """GET ``path``, the body read and dropped; its length."""
    request = urllib.request.Request(base + path, headers={"authorization": f"Bearer {token}"})
    size = 0
    with urllib.request.urlopen(request, timeout=3600) as answer:
        while chunk := answer.read(1 << 16):
            size += len(chunk)
    return size


def _kb(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise RuntimeError(f"no {field} for process {pid}")


def measure_one(built: Built, path: str, root: Path) -> dict[str, float]:
    """A fresh server on a copy of ``built``: warm RSS, then the peak while ``path`` is read."""
    from server.passes import Keyring

    work = Path(tempfile.mkdtemp(prefix="rk-server-memory-"))
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-c", SERVER, copy_of(built, work).path, str(port), SECRET],
        cwd=root,
        env={"RULEKEEPER_HOME": str(work), "PATH": "/usr/bin:/bin"},
    )
    try:
        base, token = f"http://127.0.0.1:{port}", Keyring(SECRET.encode()).host()
        for _ in range(600):
            try:
                _get(base, f"/api/games/{built.battle_id}/state", token)
                break
            except OSError:
                time.sleep(0.1)
        warm = _kb(server.pid, "VmHWM") / 1024
        started = time.perf_counter()
        size = _get(base, f"/api/games/{built.battle_id}/{path}", token)
        seconds = time.perf_counter() - started
        return {"warm_mb": warm, "peak_mb": _kb(server.pid, "VmHWM") / 1024, "seconds": seconds, "bytes": size}
    finally:
        server.terminate()
        server.wait(30)
        shutil.rmtree(work, ignore_errors=True)


def server_memory_rows(built: Built, root: Path | None = None) -> list[Row]:
    root = root or Path(__file__).resolve().parent.parent
    rows = []
    for name, path in (("export", "export"), ("log?limit=0", "log?limit=0")):
        f = measure_one(built, path, root)
        extra = f["peak_mb"] - f["warm_mb"]
        value = f"{f['peak_mb']:.0f} MB, {f['seconds']:.1f} s"
        rows.append(
            Row(
                f"server memory: {name}",
                f"{built.events:,} ev",
                value,
                f"{f['warm_mb']:.0f} MB",
                ratio=f["peak_mb"] / f["warm_mb"],
                note=f"peak RSS of the server; {extra:.0f} MB over warm, goal under {GOAL_MB} MB: "
                f"{'yes' if extra < GOAL_MB else 'NO'}",
                data=f,
            )
        )
    return rows


if __name__ == "__main__":
    from .streams import stream

    events = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    root = Path(sys.argv[2]) if len(sys.argv) > 2 else None
    for row in server_memory_rows(stream(events, 1), root):
        print(json.dumps({"figure": row.figure, "value": row.value, "floor": row.floor, "note": row.note}))
