"""Idle connections (#21 point 8): a connection that sends nothing, or half
a request's headers, is closed; past the cap the one idle the longest
makes room, so a real request is answered; and at the common limit of
1,024 open files, 1,100 silent connections neither starve requests nor
flood stderr.

Nothing here times the server: a closing is awaited within a generous
deadline (the machine is shared), never asserted to be quick."""

from __future__ import annotations

import contextlib
import re
import resource
import select
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator

import pytest

from rk_server import Running, new_clash, start

GENEROUS = 60.0  # seconds: ample for a bound of 1 s, or 10 s, on a loaded machine


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    return tmp_path_factory.mktemp("idle-home")


@pytest.fixture(scope="module")
def store(home):
    return new_clash(home)


@contextlib.contextmanager
def serving(home, store, *args: str, **options) -> Iterator[Running]:
    running = start(home, store, "--port", "0", *args, **options)
    try:
        yield running
    finally:
        running.stop()


def silent(port: int, n: int, first: bytes = b"") -> list[socket.socket]:
    """``n`` connections that send ``first`` and nothing more."""
    out = []
    for _ in range(n):
        s = socket.create_connection(("127.0.0.1", port), timeout=GENEROUS)
        if first:
            s.sendall(first)
        out.append(s)
    return out


def closed_by_server(sockets: list[socket.socket], deadline: float, enough: int | None = None) -> int:
    """How many of ``sockets`` the server has closed by ``deadline`` (a
    monotonic time), waiting until then for ``enough`` of them (all)."""
    open_ = set(sockets)
    enough = len(sockets) if enough is None else enough
    while len(sockets) - len(open_) < enough and time.monotonic() < deadline:
        readable, _, _ = select.select(list(open_), [], [], 0.5)
        for s in readable:
            try:
                if s.recv(4096) == b"":
                    open_.discard(s)
            except OSError:  # reset: closed too
                open_.discard(s)
    return len(sockets) - len(open_)


def answered(base: str) -> int:
    with urllib.request.urlopen(f"{base}/api/openapi.json", timeout=GENEROUS) as r:
        return r.status


def test_silent_and_half_sent_connections_are_closed_after_the_header_timeout(home, store):
    with serving(home, store, "--header-timeout", "1", name="header") as running:
        quiet = silent(running.port, 20)
        half = silent(running.port, 20, b"GET /api/openapi.json HTTP/1.1\r\nHost: x\r\n")
        try:
            assert closed_by_server(quiet + half, time.monotonic() + GENEROUS) == 40
        finally:
            for s in quiet + half:
                s.close()


def test_a_kept_alive_connection_left_idle_is_closed_after_the_keep_alive(home, store):
    with serving(home, store, "--keep-alive", "1", name="keep") as running:
        s = socket.create_connection(("127.0.0.1", running.port), timeout=GENEROUS)
        with s:
            s.sendall(b"GET /api/openapi.json HTTP/1.1\r\nHost: x\r\n\r\n")
            deadline = time.monotonic() + GENEROUS
            got = b""
            while b"\r\n\r\n" not in got:
                got += s.recv(65536)
            assert got.startswith(b"HTTP/1.1 200")
            assert closed_by_server([s], deadline) == 1


def test_with_more_idle_connections_than_the_cap_a_real_request_is_still_answered(home, store):
    # A header timeout longer than any test: only the cap can make room.
    with serving(home, store, "--max-connections", "20", "--header-timeout", "600", name="cap") as running:
        idle = silent(running.port, 30)
        try:
            assert answered(running.base) == 200
            assert closed_by_server(idle, time.monotonic() + GENEROUS, enough=11) >= 11  # the longest idle made room
        finally:
            for s in idle:
                s.close()


def _files_1024() -> None:  # in the server's process, before it starts: the common limit, soft and hard
    resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))


def test_at_1024_open_files_1100_silent_connections_do_not_starve_a_request_nor_flood_stderr(home, store):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 1200:  # the test's own end of 1,100 connections
        if hard != resource.RLIM_INFINITY and hard < 1200:
            pytest.skip(f"this process may open only {hard} files")
        resource.setrlimit(resource.RLIMIT_NOFILE, (1200, hard))
    with serving(home, store, name="flood", limit=_files_1024) as running:
        before = running.errors.stat().st_size
        idle = silent(running.port, 1100)
        try:
            for _ in range(3):
                assert answered(running.base) == 200
            time.sleep(2)  # let a flood, if there is one, show in stderr
            assert running.errors.stat().st_size - before < 10_000, running.errors.read_text()[-2000:]
        finally:
            for s in idle:
                s.close()


def test_the_soft_limit_on_open_files_is_raised_to_the_hard_one():
    code = (
        "import resource; from server.connections import raise_file_limit; "
        "soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE); "
        "resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard)); "
        "print(raise_file_limit() == hard == resource.getrlimit(resource.RLIMIT_NOFILE)[0])"
    )
    assert (
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60).stdout.strip()
        == "True"
    )


@pytest.mark.parametrize(
    "asked, limit, cap", [(None, 1024, 896), (None, 100_000, 4096), (50, 1024, 50), (5000, 1024, 896), (None, 100, 1)]
)
def test_the_connection_cap_stays_below_the_file_limit(asked, limit, cap):
    from server.connections import connection_cap

    assert connection_cap(asked, limit) == cap


def test_when_every_connection_is_busy_a_new_one_is_closed_and_said_once(home, store):
    with serving(home, store, "--max-connections", "3", name="busy") as running:
        game = next(line[:-1] for line in running.lines if line.endswith(":") and " " not in line)
        token = running.link("Ria").split("#token=", 1)[1]
        feed = (
            f"GET /api/games/{game}/live HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n"
            "Accept: text/event-stream\r\n\r\n"
        ).encode()
        feeds = silent(running.port, 3, feed)  # three live feeds: each a response under way
        try:
            for s in feeds:
                assert s.recv(4096).startswith(b"HTTP/1.1 200")
            extra = silent(running.port, 5)
            assert closed_by_server(extra, time.monotonic() + GENEROUS) == 5
            assert closed_by_server(feeds, time.monotonic() + 1) == 0  # the feeds were kept
        finally:
            for s in feeds + extra:
                s.close()
    said = running.errors.read_text().splitlines()
    first = "3 connections open (--max-connections), each with a request under way: new ones are closed"
    told = [line for line in said if "each with a request under way" in line]
    counts = [
        re.fullmatch(rf"{re.escape(first)}(?: \(repeated (\d+) times in the last \d+ s\))?", line) for line in told
    ]
    assert told[0] == first and all(counts), said  # said once, then counted (as the server stopped)
    assert sum(int(c.group(1) or 1) for c in counts) == 5, said


def test_a_request_whose_body_stops_short_is_closed_after_the_body_timeout_and_said_once(home, store):
    # Headers whole, 10 of the 100 bytes promised, then nothing: without a bound
    # the application would wait for the other 90 for ever, holding the connection.
    with serving(home, store, "--body-timeout", "1", name="body") as running:
        game = next(line[:-1] for line in running.lines if line.endswith(":") and " " not in line)
        token = running.link("Ria").split("#token=", 1)[1]
        head = (
            f"POST /api/games/{game}/commands HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n"
            "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n"
        ).encode()
        short = silent(running.port, 3, head + b'{"verb": "')
        try:
            assert closed_by_server(short, time.monotonic() + GENEROUS) == 3
            assert answered(running.base) == 200  # the server itself is fine
        finally:
            for s in short:
                s.close()
    said = running.errors.read_text().splitlines()
    told = [line for line in said if "body" in line]
    first = "a request's body did not arrive within 1 s (--body-timeout): its connection was closed"
    assert told and told[0] == first, said  # said once, then counted
    assert not [line for line in said if "Traceback" in line or "Exception" in line], said
