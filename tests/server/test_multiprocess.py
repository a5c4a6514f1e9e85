"""Two `rk server` processes on one PostgreSQL store (a schema of their
own): they answer the same games, a viewer of one hears what is saved
through the other, and of two commands given at once for the same version
exactly one is saved, the other told the game moved on."""

from __future__ import annotations

import os
import queue
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import msgspec
import pytest

from api_table import PARTY, bearer
from pg_schemas import drop_schema, fresh_schema
from rk_server import stop
from server.passes import SECRET_VARIABLE, Keyring

pytestmark = pytest.mark.postgres

SECRET = "a secret both processes share, 32+"
START = 60  # seconds a process may take to say where it listens
WAIT = 10  # seconds any answer or event may take


@dataclass
class Process:
    """A running `rk server`: its address and its process."""

    base: str
    proc: subprocess.Popen

    def url(self, path: str) -> str:
        return self.base + path


def _rk() -> str:
    beside = Path(sys.executable).parent / "rk"
    return str(beside) if beside.exists() else "rk"


def _start(url: str, schema: str, home: Path, name: str) -> Process:
    """`rk server --port 0` on the schema; returns once it says where it listens."""
    env = {k: v for k, v in os.environ.items() if k not in ("RULEKEEPER_STORE", SECRET_VARIABLE)}
    env.update({SECRET_VARIABLE: SECRET, "RULEKEEPER_HOME": str(home), "POSTGRES_SCHEMA": schema})
    errors = (home / f"{name}.err").open("wb")
    proc = subprocess.Popen(
        [_rk(), "server", "--port", "0", "--store", url], env=env, stdout=subprocess.PIPE, stderr=errors, text=True
    )
    said: queue.Queue[str] = queue.Queue()

    def drain() -> None:  # keeps the pipe empty for the process's whole life
        assert proc.stdout is not None
        for line in proc.stdout:
            said.put(line)
        said.put("")  # the process ended

    threading.Thread(target=drain, daemon=True).start()
    try:
        while True:
            line = said.get(timeout=START)
            if not line:
                raise RuntimeError(f"rk server {name} ended: {(home / f'{name}.err').read_text()}")
            found = re.match(r"rulekeeper server on (\S+)", line)
            if found:
                return Process(found.group(1), proc)
    except BaseException:
        stop(proc)
        raise


@pytest.fixture(scope="module")
def pair(postgres_store, tmp_path_factory) -> Iterator[tuple[Process, Process]]:
    """Processes A and B on one fresh schema, stopped with SIGTERM after."""
    schema = fresh_schema(postgres_store)
    home = tmp_path_factory.mktemp("two-servers")
    started: list[Process] = []
    try:
        for name in ("a", "b"):
            started.append(_start(postgres_store, schema, home, name))
        yield started[0], started[1]
    finally:
        for process in started:
            stop(process.proc)
        drop_schema(postgres_store, schema)


@pytest.fixture
def http() -> Iterator[httpx.Client]:
    with httpx.Client(timeout=WAIT, headers=bearer(Keyring(SECRET.encode()).host())) as client:
        yield client


def _new_clash(http: httpx.Client, process: Process, name: str) -> str:
    made = http.post(
        process.url("/api/games"),
        json={"new": "clash", "setup": "waystone-crossing", "party": PARTY, "seed": 7, "name": name},
    )
    assert made.status_code == 201, made.text
    return made.json()["game"]


def _versions(lines: Iterator[str]) -> Iterator[int]:
    """The versions an SSE line stream tells, one by one."""
    event = None
    for line in lines:
        if line.startswith("event: "):
            event = line[len("event: ") :]
        elif line.startswith("data: ") and event == "version":
            yield msgspec.json.decode(line[len("data: ") :])["version"]


def test_both_processes_answer_the_same_game(pair, http):
    a, b = pair
    g = _new_clash(http, a, "same")
    assert http.get(b.url(f"/api/games/{g}/state")).json() == http.get(a.url(f"/api/games/{g}/state")).json()
    moved = http.post(b.url(f"/api/games/{g}/commands"), json={"command": {"type": "Move", "to": [0, 1]}})
    assert moved.status_code == 200, moved.text
    on_a = http.get(a.url(f"/api/games/{g}/state")).json()
    assert on_a["version"] == moved.json()["version"]
    assert on_a == http.get(b.url(f"/api/games/{g}/state")).json()
    assert [s["id"] for s in http.get(a.url("/api/games")).json()] == [
        s["id"] for s in http.get(b.url("/api/games")).json()
    ]


def test_a_viewer_of_one_process_hears_a_command_saved_through_the_other(pair, http):
    a, b = pair
    g = _new_clash(http, a, "heard")
    spectator = Keyring(SECRET.encode()).spectator(g)
    with http.stream("GET", a.url(f"/api/games/{g}/live"), headers={"authorization": f"Bearer {spectator}"}) as feed:
        assert feed.status_code == 200
        versions = _versions(feed.iter_lines())
        assert next(versions) == http.get(a.url(f"/api/games/{g}")).json()["version"]
        moved = http.post(
            b.url(f"/api/games/{g}/commands"),
            json={"command": {"type": "Move", "to": [0, 1]}},
            headers=bearer(Keyring(SECRET.encode()).seat(g, "ria")),
        )
        assert moved.status_code == 200, moved.text
        assert next(versions) == moved.json()["version"]  # a read timeout fails the test


def test_of_two_commands_given_at_once_for_one_version_exactly_one_is_saved(pair, http):
    a, b = pair
    g = _new_clash(http, a, "race")
    seen = http.get(a.url(f"/api/games/{g}")).json()["version"]
    together = threading.Barrier(2, timeout=WAIT)
    answers: dict[str, httpx.Response] = {}

    def give(process: Process, to: list[int]) -> None:
        with httpx.Client(timeout=WAIT, headers=bearer(Keyring(SECRET.encode()).host())) as own:
            together.wait()
            answers[process.base] = own.post(
                process.url(f"/api/games/{g}/commands"), json={"command": {"type": "Move", "to": to}, "version": seen}
            )

    threads = [threading.Thread(target=give, args=(a, [0, 1])), threading.Thread(target=give, args=(b, [1, 1]))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=2 * WAIT)
    statuses = sorted(r.status_code for r in answers.values())
    assert statuses == [200, 409], [r.text for r in answers.values()]
    saved = next(r for r in answers.values() if r.status_code == 200).json()
    refused = next(r for r in answers.values() if r.status_code == 409).json()
    assert refused["error"] == "moved-on" and "moved on" in refused["reason"]
    for process in (a, b):
        assert http.get(process.url(f"/api/games/{g}")).json()["version"] == saved["version"]
        verified = http.get(process.url(f"/api/games/{g}/verify")).json()
        assert verified["ok"] is True and verified["commands"] == 2, verified
