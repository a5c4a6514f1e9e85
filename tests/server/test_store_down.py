"""A store that cannot be reached, or does not answer: the API answers 503
in one line (password masked, no traceback, one log line), a request
waits at most its deadline, PostgreSQL connections carry client-side
bounds, and `rk server` refuses to start on such a store in one line."""

from __future__ import annotations

import contextlib
import logging
import socket
import threading
import warnings
from collections.abc import Iterator

import pytest
from api_table import SECRET, Table, refusal
from conftest import serving

from server import tables
from server.app import create_app
from server.passes import Keyring

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
    from starlette.testclient import TestClient

PASSWORD = "s3cret-Pw"
WAIT = 30  # seconds any step may take before the test gives up (never asserted as a duration)


@contextlib.contextmanager
def frozen_database() -> Iterator[int]:
    """A port that accepts connections and never says a word, as a
    PostgreSQL whose processes were stopped (SIGSTOP): its port."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.1)
        while not stop.is_set():
            with contextlib.suppress(OSError):
                accepted.append(listener.accept()[0])

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield listener.getsockname()[1]
    finally:
        stop.set()
        thread.join(WAIT)
        for conn in accepted:
            conn.close()
        listener.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_an_unreachable_store_is_answered_503_in_one_line_without_its_password(caplog):
    store = f"postgresql://postgres:{PASSWORD}@127.0.0.1:{_free_port()}/test"
    caplog.set_level(logging.INFO, logger="rulekeeper.server")
    with TestClient(create_app(store, Keyring(SECRET)), raise_server_exceptions=False) as client:
        host = {"authorization": f"Bearer {Keyring(SECRET).host()}"}
        for path in ("/api/games", "/api/games/g1/state", "/api/games/g1/export"):
            answer = client.get(path, headers=host)
            body = refusal(answer, 503, "unavailable")
            assert body["reason"].startswith("the store cannot be reached: ") and "\n" not in body["reason"]
            assert PASSWORD not in answer.text and "Traceback" not in answer.text
    logged = [r for r in caplog.records if r.name == "rulekeeper.server"]
    assert logged and all(r.exc_info is None and "\n" not in r.getMessage() for r in logged)
    assert not any(PASSWORD in r.getMessage() for r in logged)


def test_a_frozen_store_is_answered_503_once_the_connect_timeout_passes():
    with frozen_database() as port:
        store = f"postgresql://postgres:{PASSWORD}@127.0.0.1:{port}/test"
        app = create_app(store, Keyring(SECRET), env={"POSTGRES_CONNECT_TIMEOUT": "2"})
        with TestClient(app, raise_server_exceptions=False) as client:
            answer = client.get("/api/games", headers={"authorization": f"Bearer {Keyring(SECRET).host()}"})
    body = refusal(answer, 503, "unavailable")
    assert "timeout" in body["reason"] and PASSWORD not in answer.text


def test_a_request_the_store_does_not_answer_is_answered_503_at_its_deadline(new_store, monkeypatch):
    release = threading.Event()
    real = tables.state
    monkeypatch.setattr(tables, "state", lambda *a: (release.wait(WAIT), real(*a))[1])  # a frozen store
    store = new_store()
    app = create_app(store.setting, Keyring(SECRET), env=store.env, deadline=0.5)
    try:
        with TestClient(app, raise_server_exceptions=False) as client:
            t = Table(client, Keyring(SECRET), app)
            g = t.new_clash("t1")
            for _ in range(2):  # the second waits for the first's application: no two at once on it
                body = refusal(client.get(f"/api/games/{g}/state", headers=t.host), 503, "unavailable")
                assert body["reason"] == "the store did not answer within 0.5 s"
            release.set()
            assert client.get(f"/api/games/{g}/state", headers=t.host).status_code == 200
    finally:
        release.set()


def test_postgres_connections_are_bounded_by_this_process_too():
    from eventsourcing.utils import Environment

    from domain.kernel.stores.application import POSTGRES_BOUNDS
    from domain.kernel.stores.pgstore import Factory

    env = Environment(
        "rulekeeper",
        {
            **POSTGRES_BOUNDS,
            "POSTGRES_DBNAME": "test",
            "POSTGRES_HOST": "127.0.0.1",
            "POSTGRES_PORT": str(_free_port()),
            "POSTGRES_USER": "postgres",
            "POSTGRES_PASSWORD": "",
            "POSTGRES_TCP_USER_TIMEOUT": "20",
        },
    )
    kwargs = Factory(env).datastore.pool.kwargs
    assert kwargs["keepalives"] == 1 and kwargs["keepalives_idle"] >= 1 and kwargs["keepalives_count"] >= 1
    assert kwargs["keepalives_interval"] >= 1 and kwargs["tcp_user_timeout"] == 20_000


def _serve(store: str, monkeypatch, tmp_path, capsys) -> tuple[int, str]:
    from server.run import serve

    monkeypatch.setenv("RULEKEEPER_HOME", str(tmp_path))
    said: list[str] = []
    code = serve(store, "127.0.0.1", 0, None, None, None, say=said.append)
    err = capsys.readouterr().err
    assert not said  # no links printed for a server that does not start
    return code, err


def test_rk_server_on_an_unreachable_store_says_so_in_one_line(monkeypatch, tmp_path, capsys):
    code, err = _serve(f"postgresql://postgres:{PASSWORD}@127.0.0.1:{_free_port()}/test", monkeypatch, tmp_path, capsys)
    assert code == 1 and err.count("\n") == 1 and err.startswith("rk server: cannot serve postgresql://postgres:***@")
    assert "refused" in err and PASSWORD not in err


def test_rk_server_on_a_frozen_store_gives_up_at_the_connect_timeout(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("POSTGRES_CONNECT_TIMEOUT", "2")
    with frozen_database() as port:
        code, err = _serve(f"postgresql://postgres:{PASSWORD}@127.0.0.1:{port}/test", monkeypatch, tmp_path, capsys)
    assert code == 1 and err.count("\n") == 1 and "timeout" in err and PASSWORD not in err


def test_rk_server_on_a_store_it_can_only_read_says_so_in_one_line(monkeypatch, tmp_path, capsys):
    import os

    path = tmp_path / "games.sqlite"
    with serving_store(f"sqlite:{path}"):
        pass
    real = os.access
    # Read-only for this process (root may write any file: the check is what is tested).
    monkeypatch.setattr(
        os, "access", lambda p, mode, **kw: False if str(p) == str(path) and mode & os.W_OK else real(p, mode, **kw)
    )
    code, err = _serve(f"sqlite:{path}", monkeypatch, tmp_path, capsys)
    assert code == 1 and err.count("\n") == 1 and "can only be read" in err


@contextlib.contextmanager
def serving_store(setting: str) -> Iterator[None]:
    from conftest import Store

    with serving(Store(setting)) as t:
        t.new_clash("t1")
        yield


@pytest.fixture(autouse=True)
def _no_store_variable(monkeypatch):
    monkeypatch.delenv("RULEKEEPER_STORE", raising=False)
