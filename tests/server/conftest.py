"""Fixtures of the HTTP server's tests: a ``Table`` (a client of the ASGI
application with the host's token) on a fresh store, once on an SQLite
file and once on the real PostgreSQL, each test in a schema of its own;
and the browser tests' real `rk server`, Chromium and pages (browsing.py)."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import threading
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from uuid import uuid4

import pytest

with warnings.catch_warnings():
    # Starlette prefers the httpx2 fork; httpx serves the tests as well.
    warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
    from starlette.testclient import TestClient

from api_table import SECRET, Table
from browsing import CHROMIUM, DESKTOP, REPO, SETUP, WAIT_MS, Running, read_links
from rk_server import rk_script
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


# -- the browser tests: a real `rk server`, Chromium, pages ------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[Running]:
    """`rk server` on a fresh store holding one clash (set up with `rk new`)."""
    with rk_serving(tmp_path_factory.mktemp("browser-home"), [SETUP]) as running:
        yield running


@contextlib.contextmanager
def rk_serving(home: Path, setups: list[list[str]]) -> Iterator[Running]:
    """`rk server` on a fresh store in ``home``, after the `rk` commands
    ``setups`` (each its arguments) ran on it in order."""
    store = str(home / "t.sqlite")
    env = {k: v for k, v in os.environ.items() if k not in ("RULEKEEPER_STORE", "RULEKEEPER_SERVER_SECRET")}
    env["RULEKEEPER_HOME"] = str(home)
    rk = rk_script()
    for args in setups:
        subprocess.run(
            [rk, "--store", store, *args],
            env=env,
            check=True,
            timeout=60,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
    errors = (home / "server.err").open("wb")
    proc = subprocess.Popen(
        [rk, "--store", store, "server", "--port", "0"], env=env, stdout=subprocess.PIPE, stderr=errors, text=True
    )
    lines: list[str] = []
    ready = threading.Event()

    def drain() -> None:  # keeps the pipe empty for the server's whole life
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line.rstrip("\n"))
            if line.startswith("Stop it with"):
                ready.set()
        ready.set()  # the server ended before it was ready: the test says so below

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        ready.wait(timeout=60)
        if proc.poll() is not None or not any(line.startswith("Stop it with") for line in lines):
            errors.flush()
            pytest.fail(f"rk server did not start: {lines} {(home / 'server.err').read_text()}")
        yield read_links(lines)
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=15)
        reader.join(timeout=5)
        errors.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Debian's Chromium, headless; skips when it does not start (or without
    the playwright package)."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
    sync_api.expect.set_options(timeout=WAIT_MS)
    playwright = sync_api.sync_playwright().start()
    try:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True)
    except Exception as e:  # noqa: BLE001 - any launch failure means no browser to test with
        playwright.stop()
        pytest.skip(f"Chromium at {CHROMIUM} does not start under Playwright: {e}")
    try:
        yield chromium
    finally:
        chromium.close()
        playwright.stop()


@pytest.fixture
def open_page(browser) -> Iterator[object]:
    """Opens a link in a context of its own (its own cookies, its own live
    feed; ``live=False``: none), closed at the end of the test. The page
    asks its own questions in the page (browsing.answer); a browser dialog,
    which it should never open, is answered OK (Cancel with
    ``confirm=False``) and its text gathered in ``page.asked``."""
    contexts = []

    def opener(
        link: str, viewport: dict[str, int] = DESKTOP, live: bool = True, confirm: bool = True, **options: object
    ):
        context = browser.new_context(viewport=viewport, **options)
        context.set_default_timeout(WAIT_MS)
        contexts.append(context)
        if not live:
            context.route(re.compile(r"/live$"), lambda route: route.abort())
        page = context.new_page()
        asked: list[str] = []

        def answer(dialog: Any) -> None:
            asked.append(dialog.message)
            dialog.accept() if confirm else dialog.dismiss()

        page.on("dialog", answer)
        page.asked = asked
        page.goto(link)
        return page

    yield opener
    for context in contexts:
        context.close()


@pytest.fixture(scope="module")
def artifacts() -> Path:
    """Where screenshots go."""
    path = Path(os.environ.get("RULEKEEPER_ARTIFACTS") or REPO / "test-artifacts")
    path.mkdir(parents=True, exist_ok=True)
    return path
