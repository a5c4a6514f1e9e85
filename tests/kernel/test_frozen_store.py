"""A PostgreSQL whose processes are stopped (SIGSTOP) answers nothing and
enforces none of its own timeouts, while its host's kernel still
acknowledges every packet: an open application's next read must still
fail within bounds kept by this process (issue 21, point 10)."""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from uuid import uuid4

import pytest
from postgres_line import Line

sys.path.insert(0, str(Path(__file__).parent))
from test_store import CounterApp  # noqa: E402

WAIT = 60  # seconds before the test calls the read unbounded (never asserted as a duration)


@pytest.fixture
def postgres_line(postgres_store) -> Iterator[Line]:
    line = Line(postgres_store)
    try:
        yield line
    finally:
        line.thaw()
        line.close()


@pytest.mark.postgres
def test_a_read_on_an_open_app_fails_within_bounds_when_the_server_freezes(
    postgres_line, postgres_app_name, monkeypatch
):
    from eventsourcing.persistence import PersistenceError

    from domain.kernel.stores import pgstore

    monkeypatch.setattr(pgstore, "PING_AFTER", 0.0)  # the pooled connection is checked before each use
    cls = type(postgres_app_name, (CounterApp,), {})
    app = cls(postgres_line.store, env={"POSTGRES_CONNECT_TIMEOUT": "2"})
    stream = uuid4()
    app.start(stream)
    postgres_line.freeze()
    outcome: list[BaseException | None] = []

    def read() -> None:
        try:
            app.events(stream)
            outcome.append(None)
        except BaseException as e:
            outcome.append(e)

    reader = threading.Thread(target=read, daemon=True)
    try:
        reader.start()
        reader.join(WAIT)
        assert not reader.is_alive(), "a read on a frozen server waited without bound"
        assert isinstance(outcome[0], PersistenceError), outcome
    finally:
        postgres_line.thaw()
    assert len(app.events(stream)) == 1  # the server goes on: so does the application
    app.close()
