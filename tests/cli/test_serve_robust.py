"""`rk serve` and the `rk` client when things go wrong: stuck and slow
clients, a socket planted by someone else, passwords, malformed requests,
PostgreSQL going down, and stores that may only be read.

Issue "Logs that can be trusted and a store that never hangs", points 8-12.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import socket
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from postgres_line import Line
from served import NEW, Server, ask, home_of, rk_client, sock_of

from cli import client, protocol

ROOT = Path(__file__).resolve().parents[2]


def timed_rk(env, *args, limit: float = 30.0, **kw):
    started = time.monotonic()
    try:
        done = rk_client(env, *args, **kw)
    except subprocess.TimeoutExpired:  # pragma: no cover - the failure being tested
        pytest.fail(f"rk {' '.join(args)} still waiting after {time.monotonic() - started:.0f} s")
    return done, time.monotonic() - started


# -- point 9: a stuck or slow request holds no one else -----------------------------------


def test_a_stuck_command_does_not_hold_other_commands(server, env, tmp_path):
    fifo = tmp_path / "f"
    os.mkfifo(fifo)
    stuck = subprocess.Popen(
        [sys.executable, "-m", "cli.client", "verify", str(fifo)],
        env=env,
        cwd=home_of(env),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    writer = None
    try:
        writer = _writer_once_read(fifo, stuck)  # the server now waits for bytes that do not come
        done = subprocess.run(
            [sys.executable, "-m", "cli.client", "status"],
            env=env,
            cwd=home_of(env),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert done.returncode == 0 and "Battle" in done.stdout
    finally:
        if writer is not None:
            os.close(writer)  # let the stuck command go: it reads the end of the file
        else:
            with open(fifo, "wb"):
                pass
        stuck.communicate(timeout=60)


def _writer_once_read(fifo: Path, reader: subprocess.Popen) -> int:
    """The write end of ``fifo``, opened once some process has it open for
    reading (before that, a non-blocking open for writing fails with ENXIO);
    left open, it keeps the reader waiting."""
    while True:
        try:
            return os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError as e:
            if e.errno != errno.ENXIO or reader.poll() is not None:
                raise
        time.sleep(0.05)  # polling a condition, not a guess at how long the server takes


def test_a_slow_client_holds_no_one(server, env):
    slow = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    slow.connect(str(sock_of(env)))
    stop = threading.Event()
    cut_off: list[float] = []

    def drip():
        started = time.monotonic()
        try:
            while not stop.is_set():
                slow.sendall(b" ")
                time.sleep(0.5)
        except OSError:
            cut_off.append(time.monotonic() - started)

    dripping = threading.Thread(target=drip, daemon=True)
    dripping.start()
    try:
        time.sleep(1)
        done, took = timed_rk(env, "status")
        assert done.served and done.code == 0 and took < 15
        dripping.join(timeout=20)
        assert cut_off and cut_off[0] < 15  # the server gave up on it (READ_TIMEOUT)
    finally:
        stop.set()
        slow.close()


def test_a_server_that_never_answers_is_left_for_in_process(env, tmp_path):
    """The client waits a bounded time for a command to start, then runs it itself."""
    path = sock_of(env)
    path.parent.mkdir(mode=0o700, exist_ok=True)
    mute = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    mute.bind(str(path))
    mute.listen(4)  # accepts (the kernel does), never answers
    try:
        done, took = timed_rk(env, "status")
        assert not done.served and done.code == 0
        assert took < client.START_TIMEOUT + 15
    finally:
        mute.close()


# -- point 10: whose socket, and no passwords over it ------------------------------------------


def client_socket(env, monkeypatch) -> Path:
    """Where the client looks for its server, its directory made (0700)."""
    monkeypatch.setenv("RULEKEEPER_HOME", env["RULEKEEPER_HOME"])
    path = Path(protocol.socket_path())
    path.parent.mkdir(mode=0o700, exist_ok=True)
    return path


class FakeServer:
    """Listens on ``path`` and records what clients send; declines everything."""

    def __init__(self, path: Path) -> None:
        self.received: list[bytes] = []
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.bind(str(path))
        self.sock.listen(4)
        self.sock.settimeout(0.2)
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.done.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            with conn:
                conn.settimeout(5)
                data = b""
                while b"\n" not in data:
                    chunk = conn.recv(65536)
                    if not chunk:
                        break
                    data += chunk
                self.received.append(data)
                conn.sendall(json.dumps({"decline": "fake"}).encode() + b"\n")

    def close(self) -> None:
        self.done.set()
        self.thread.join(timeout=5)
        self.sock.close()


@pytest.mark.skipif(os.geteuid() != 0, reason="planting another user's socket needs root")
@pytest.mark.parametrize("plant", ["socket of another user", "directory open to others"])
def test_a_planted_socket_is_not_used(env, plant, monkeypatch):
    path = client_socket(env, monkeypatch)
    fake = FakeServer(path)
    try:
        if plant == "socket of another user":
            os.chown(path, 65534, 65534)
        else:
            os.chmod(path.parent, 0o777)
        done = rk_client(env, "status")
        assert not done.served and done.code == 0
        assert fake.received == []  # the command line never reached it
    finally:
        fake.close()


def test_no_password_goes_over_the_socket(env, monkeypatch):
    path = client_socket(env, monkeypatch)
    fake = FakeServer(path)
    try:
        store = "postgresql://someone:s3cret-pw@127.0.0.1:1/nowhere"
        rk_client(env | {"RULEKEEPER_STORE": store}, "status", "--store", store)
        assert fake.received, "the client did not ask the (trusted) server"
        assert all(b"s3cret-pw" not in data for data in fake.received)
        assert b"someone:***@127.0.0.1" in fake.received[0]
    finally:
        fake.close()


def test_the_socket_directory_is_private(server, env):
    folder = sock_of(env).parent
    info = folder.stat()
    assert info.st_uid == os.getuid() and stat.S_IMODE(info.st_mode) == 0o700
    assert stat.S_IMODE(sock_of(env).stat().st_mode) == 0o600


# -- point 12: malformed requests get a one-line error ----------------------------------------


def test_a_malformed_request_gets_a_one_line_error(server, env):
    # One server for all of them (each is checked on its own, and the server serves on after each).
    for fields in (
        {"argv": ["status", "--battle", "b\x00"]},
        {"columns": "abc"},
        {"columns": "0"},
        {"width": -3},
        {"cwd": "relative/dir"},
        {"cwd": "/tmp\x00x"},
    ):
        request = {"argv": ["status"]} | fields
        reply = ask(env, request.pop("argv"), **request)
        assert reply["exit"] == 1 and reply["stdout"] == "", fields
        assert reply["stderr"].startswith("rk serve: bad request:") and reply["stderr"].count("\n") == 1, fields
        assert "Traceback" not in server.log.read_text()
        assert rk_client(env, "status").served, fields  # and the server serves on


# -- point 8: PostgreSQL down, through the server -------------------------------------------


@pytest.mark.postgres
def test_postgresql_down_through_the_server_fails_fast_and_recovers(env, tmp_path, postgres_store, request):
    from uuid import uuid4

    import psycopg

    line = Line(postgres_store)
    request.addfinalizer(line.close)
    # Through the relay, with a password in the URL (ignored under trust
    # auth): the server must match it masked.
    store = line.store.replace("postgres@", "postgres:pw@")
    schema = f"t{uuid4().hex[:12]}"  # tables of our own, whoever else uses the database
    with psycopg.connect(postgres_store, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')

    def drop() -> None:
        with psycopg.connect(postgres_store, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')

    request.addfinalizer(drop)
    env = env | {"RULEKEEPER_STORE": store, "POSTGRES_SCHEMA": schema}
    assert rk_client(env, *NEW, local=True).code == 0
    running = Server(env, tmp_path)
    request.addfinalizer(running.stop)
    first = rk_client(env, "status")
    assert first.served and first.code == 0
    line.down()
    down, took_served = timed_rk(env, "status")
    assert down.code == 1 and down.stderr.count("\n") == 1 and "cannot use" in down.stderr, down.stderr
    assert "pw" not in down.stderr
    direct, took_direct = timed_rk(env, "status", local=True)
    assert direct.code == 1 and direct.stderr.count("\n") == 1, direct.stderr
    line.up()
    back, took_back = timed_rk(env, "status")
    print(
        f"\nPostgreSQL down: served status failed in {took_served:.2f} s, in-process in"
        f" {took_direct:.2f} s; first served status after the restart {took_back:.2f} s"
    )
    assert back.served and back.code == 0, back.stderr
    assert took_served < 10 and took_direct < 10 and took_back < 5


# -- point 11: read-only stores and private files ---------------------------------------------


def test_store_files_are_private(tmp_path):
    home = tmp_path / "home"
    env = {k: v for k, v in os.environ.items() if k != "RULEKEEPER_STORE"}
    env |= {"RULEKEEPER_HOME": str(home), client.NO_SERVER: "1"}
    done = subprocess.run(
        [sys.executable, "-m", "cli.main", *NEW],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert stat.S_IMODE(home.stat().st_mode) == 0o700
    for f in home.glob("*.sqlite*"):
        assert stat.S_IMODE(f.stat().st_mode) == 0o600, f


def test_a_read_command_never_creates_a_store(tmp_path):
    target = tmp_path / "passwd.db"
    env = os.environ | {client.NO_SERVER: "1", "RULEKEEPER_HOME": str(tmp_path / "h")}
    done = subprocess.run(
        [sys.executable, "-m", "cli.main", "--store", str(target), "status"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert "Traceback" not in done.stderr
    assert not target.exists() and not (tmp_path / "h").exists()


@pytest.mark.postgres
def test_a_read_command_never_creates_tables_on_postgresql(tmp_path, postgres_store):
    """A read on a PostgreSQL database with no tables yet says so in one line
    and creates nothing (a read-only role could not create them either)."""
    import psycopg

    database = f"ro_{os.getpid()}"
    with psycopg.connect(postgres_store, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {database}")
        admin.execute(f"CREATE DATABASE {database}")
    try:
        store = postgres_store.rsplit("/", 1)[0] + "/" + database
        env = os.environ | {client.NO_SERVER: "1", "RULEKEEPER_HOME": str(tmp_path / "h")}
        for command in ("status", "battles", "log"):
            done = subprocess.run(
                [sys.executable, "-m", "cli.main", "--store", store, command],
                env=env,
                cwd=tmp_path,
                capture_output=True,
                text=True,
                timeout=120,
                check=False,
            )
            assert done.returncode == 1 and "holds no battle yet" in done.stderr, done.stderr
            assert len(done.stderr.strip().splitlines()) == 1
        with psycopg.connect(store) as con:
            assert con.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").fetchone()[0] == 0
    finally:
        with psycopg.connect(postgres_store, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")


READ_ONLY = """
set -e
mount --bind {dir} {dir}
mount -o remount,bind,ro {dir}
for c in status battles log audit track pool legal export; do
  {python} -m cli.main --store {store} $c > /dev/null 2> {dir_out}/$c.err || echo "$c $?" >> {dir_out}/failed
done
{python} -m cli.main --store {store} end-turn > /dev/null 2> {dir_out}/write.err || echo "write $?" >> {dir_out}/failed
"""


def test_a_read_only_store_can_be_read_and_refuses_writes_in_one_line(tmp_path):
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        pytest.skip("needs root and unshare for a read-only mount")
    probe = subprocess.run(["unshare", "-m", "true"], capture_output=True, check=False)
    if probe.returncode:
        pytest.skip("cannot make a mount namespace here")
    folder, out = tmp_path / "ro", tmp_path / "out"
    folder.mkdir()
    out.mkdir()
    store = folder / "s.sqlite"
    env = os.environ | {client.NO_SERVER: "1", "RULEKEEPER_HOME": str(tmp_path / "h"), "COLUMNS": "100"}
    made = subprocess.run(
        [sys.executable, "-m", "cli.main", "--store", str(store), *NEW],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert made.returncode == 0, made.stderr
    script = READ_ONLY.format(dir=folder, dir_out=out, python=sys.executable, store=store)
    subprocess.run(["unshare", "-m", "bash", "-c", script], env=env, cwd=ROOT, timeout=300, check=True)
    failed = (out / "failed").read_text().split("\n")
    assert failed == ["write 1", ""], {p.name: p.read_text() for p in out.glob("*.err")}
    write = (out / "write.err").read_text()
    assert (
        write.count("\n") == 1
        and ("can only be read here" in write or "not writable here" in write)
        and "Traceback" not in write
    )
