"""Fixtures of the HTTP server's tests: a ``Table`` (a client of the ASGI
application with the host's token) on a fresh store, once on an SQLite
file and once on the real PostgreSQL, each test in a schema of its own."""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from uuid import uuid4

import pytest

with warnings.catch_warnings():
    # Starlette prefers the httpx2 fork; httpx serves the tests as well.
    warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
    from starlette.testclient import TestClient

from api_table import SECRET, Table
from pg_schemas import drop_schema, fresh_schema
from server.app import create_app
from server.passes import Keyring

POLL = 0.05  # seconds: the change feed looks at the store often, so live tests wait little


@dataclass(frozen=True)
class Store:
    """A store setting and the library settings that isolate it."""

    setting: str
    env: dict[str, str] | None = None


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def store_kind(request) -> str:
    """Each test of a table runs on SQLite, then on PostgreSQL."""
    return request.param


@pytest.fixture
def new_store(store_kind, request, tmp_path) -> Iterator[Callable[[], Store]]:
    """Makes fresh, empty stores of this test's kind: an SQLite file, or a
    PostgreSQL schema of its own (dropped afterwards with its tables)."""
    schemas: list[str] = []
    url = request.getfixturevalue("postgres_store") if store_kind == "postgresql" else ""

    def make() -> Store:
        if store_kind == "sqlite":
            return Store(f"sqlite:{tmp_path / f'games-{uuid4().hex[:8]}.sqlite'}")
        schema = fresh_schema(url)
        schemas.append(schema)
        return Store(url, {"POSTGRES_SCHEMA": schema})

    yield make
    for schema in schemas:
        drop_schema(url, schema)


@contextlib.contextmanager
def serving(store: Store) -> Iterator[Table]:
    """A table on ``store``, its lifespan (workers, change feed) running."""
    app = create_app(store.setting, Keyring(SECRET), poll=POLL, env=store.env, heavy_rate=None)
    with TestClient(app, raise_server_exceptions=False) as client:
        yield Table(client, Keyring(SECRET), app)


@pytest.fixture
def table(new_store) -> Iterator[Table]:
    """A table on a fresh store, nothing in it yet."""
    with serving(new_store()) as t:
        yield t


@pytest.fixture
def other_table(new_store) -> Iterator[Table]:
    """A second table on a store of its own (an import's destination)."""
    with serving(new_store()) as t:
        yield t
