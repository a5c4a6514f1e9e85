"""A frozen PostgreSQL (its processes stopped: connections accepted, the
kernel acknowledging every packet, nothing answered) and the command line
(issue 21, point 10): `rk status` in-process and through `rk serve` each
fail within a bound, in one line, and `rk serve` serves on once the
database is back.

The database is frozen only as this test's connections see it, through a
``postgres_line.Line``. No duration is asserted: a command is given a
generous limit (``GENEROUS``) to end within, far above its bound, which a
command waiting for ever would not meet."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from uuid import uuid4

import pytest
from postgres_line import Line
from served import NEW, Server, rk_client

GENEROUS = 90  # seconds a command is given to end (its bounds here are 2 to 5 s)
DEADLINE = "3"  # seconds `rk serve` gives a command in these tests


@pytest.fixture
def frozen_env(env, postgres_store) -> Iterator[tuple[dict[str, str], Line]]:
    """``env`` on a PostgreSQL schema of its own holding a clash, reached
    through a line the test may freeze."""
    import psycopg

    line = Line(postgres_store)
    schema = f"t{uuid4().hex[:12]}"
    with psycopg.connect(postgres_store, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        env = env | {"RULEKEEPER_STORE": line.store, "POSTGRES_SCHEMA": schema, "POSTGRES_CONNECT_TIMEOUT": "2"}
        assert rk_client(env, *NEW, local=True).code == 0
        yield env, line
    finally:
        line.thaw()
        line.close()
        with psycopg.connect(postgres_store, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


def within(env: dict[str, str], *args: str, **kw):
    try:
        return rk_client(env, *args, **kw, timeout=GENEROUS)
    except subprocess.TimeoutExpired:  # the failure being tested: no bound held
        pytest.fail(f"rk {' '.join(args)} still waiting after {GENEROUS} s on a frozen store")


@pytest.mark.postgres
def test_rk_status_in_process_on_a_frozen_store_fails_in_one_line(frozen_env):
    env, line = frozen_env
    line.freeze()
    done = within(env, "status", local=True)  # a fresh process: bounded by the connect timeout
    assert done.code == 1 and done.stderr.count("\n") == 1 and "cannot use" in done.stderr, done.stderr


@pytest.mark.postgres
@pytest.mark.slow  # about 7 s; the quick tier keeps the deadline's own test, without a database, below
def test_a_served_command_on_a_frozen_store_is_answered_at_the_deadline_and_the_server_serves_on(
    frozen_env, tmp_path, request
):
    env, line = frozen_env
    # The store's own bounds set far beyond the test's limit: only the
    # server's deadline can answer in time.
    served_env = env | {"RULEKEEPER_SERVE_DEADLINE": DEADLINE, "POSTGRES_CONNECT_TIMEOUT": "600"}
    running = Server(served_env, tmp_path)
    request.addfinalizer(running.stop)
    first = rk_client(env, "status")
    assert first.served and first.code == 0, first.stderr  # a pooled connection is open now
    line.freeze()
    stuck = within(env, "status")
    assert stuck.served and stuck.code == 1 and stuck.stdout == "", stuck.stderr
    assert stuck.stderr == f"the store did not answer within {DEADLINE} s\n"
    as_json = within(env, "--json", "status")  # the next one runs in a process of its own: its own connection
    assert as_json.code == 1 and as_json.stderr.count("\n") == 1, as_json.stderr
    line.thaw()
    back = within(env, "status")
    while not back.served:  # declined while the stuck command finishes, then served again
        back = within(env, "status")
    assert back.code == 0 and "Battle" in back.stdout, back.stderr
    assert "Traceback" not in running.log.read_text()


def test_a_command_past_its_deadline_is_answered_in_one_line_or_one_json_object():
    from cli.serve import late

    assert late(["status"], 30.0) == {"stdout": "", "stderr": "the store did not answer within 30 s\n", "exit": 1}
    said = late(["--json", "status"], 3.0)["stderr"]
    assert said.count("\n") == 1 and json.loads(said) == {
        "error": "StoreUnavailable",
        "message": "the store did not answer within 3 s",
    }


def test_past_the_deadline_a_command_is_answered_and_the_next_ones_declined_until_it_ends(tmp_path):
    import threading

    from cli.serve import Server
    from domain.kernel.stores.store_setting import canonical_store

    store = str(tmp_path / "s.sqlite")
    release, entered = threading.Event(), []

    def main(argv, obj):  # a command whose store does not answer until released
        entered.append(argv)
        if argv == ["status"]:
            release.wait(GENEROUS)
        return 0

    server = Server(canonical_store(store, str(tmp_path)), str(tmp_path / "rk.sock"), main, deadline=0.2)
    ask = {"argv": ["status"], "cwd": str(tmp_path), "store": store, "tty": False, "width": 80}
    try:
        assert server.answer(ask) == {"stdout": "", "stderr": "the store did not answer within 0.2 s\n", "exit": 1}
        assert "decline" in server.answer(ask | {"argv": ["battles"]})  # run in the client's own process
        release.set()
        server._late.join(GENEROUS)
        assert server.answer(ask | {"argv": ["battles"]}) == {"stdout": "", "stderr": "", "exit": 0}
        assert entered == [["status"], ["battles"]]
    finally:
        release.set()
        server.close()
