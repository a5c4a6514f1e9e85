"""Store work off the event loop: each worker thread keeps its own
``GameApp`` (its own connection and caches), so requests never share an
application across threads. SQLite is written by one worker at a time;
PostgreSQL by several, its own locks keeping the order."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

import anyio
import anyio.to_thread

from domain.kernel.games import GameApp
from domain.kernel.stores.store_setting import store_form

T = TypeVar("T")
POSTGRES_WORKERS = 4
CLOSE_WAIT = 15.0  # seconds ``close`` waits for the calls still running


class Workers:
    """Runs ``fn(app, ...)`` on a worker thread with that thread's application."""

    def __init__(self, store: str | None, workers: int | None = None, env: dict[str, str] | None = None) -> None:
        self.store = store
        self.env = env
        self.postgres = _is_postgres(store)
        self.count = workers or (POSTGRES_WORKERS if self.postgres else 1)
        self._local = threading.local()
        self._apps: list[GameApp] = []
        self._lock = threading.Lock()
        self._limiter: anyio.CapacityLimiter | None = None
        self._calls = threading.Condition()  # guards the two below
        self._running = 0
        self._closed = False

    def app(self) -> GameApp:
        """This thread's application (made on first use)."""
        if not self.postgres:
            # One application for every request: one worker runs at a time,
            # and an in-memory store exists only in the application holding it.
            with self._lock:
                if not self._apps:
                    self._apps.append(GameApp(store=self.store, env=self.env))
                return self._apps[0]
        app = getattr(self._local, "app", None)
        if app is None:
            app = GameApp(store=self.store, env=self.env)
            self._local.app = app
            with self._lock:
                self._apps.append(app)
        return app

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(app, *args)`` on a worker thread."""
        if self._limiter is None:
            self._limiter = anyio.CapacityLimiter(self.count)
        return await anyio.to_thread.run_sync(partial(self._call, fn, *args), limiter=self._limiter)

    def _call(self, fn: Callable[..., T], *args: Any) -> T:
        with self._calls:
            if self._closed:
                raise RuntimeError("the server is stopping")
            self._running += 1
        try:
            return fn(self.app(), *args)
        finally:
            with self._calls:
                self._running -= 1
                self._calls.notify_all()

    def close(self) -> None:
        """Close every thread's application, once the calls still running
        are done: a cancelled request (or the change feed, stopped) leaves
        its thread running, and closing a connection under it crashes
        SQLite."""
        with self._calls:
            self._closed = True
            self._calls.wait_for(lambda: self._running == 0, timeout=CLOSE_WAIT)
        with self._lock:
            apps, self._apps = self._apps, []
        for app in apps:
            try:
                app.close()
            except Exception:  # closing on the way out: nothing left to tell
                pass


def _is_postgres(store: str | None) -> bool:
    setting = store if store is not None else os.environ.get("RULEKEEPER_STORE", "")
    try:
        return store_form(setting)[0] == "postgresql"
    except ValueError:
        return False
