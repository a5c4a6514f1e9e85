"""Store work off the event loop: each worker thread keeps its own
``GameApp`` (its own connection and caches), so requests never share an
application across threads. SQLite is written by one worker at a time;
PostgreSQL by several, its own locks keeping the order.

A server has two lanes of workers (``server.app``): the main one for
commands and every read of a game as it stands, and one of its own for
the reads of a whole log (export, verify, the full narrated log), with
its own applications (on SQLite a read-only connection: WAL lets it read
beside the writer), so a command never queues behind an hour-long log.

A call with a ``deadline`` is answered (``StoreDown``, 503) once that
many seconds pass, whether or not the store answered: a frozen database
enforces none of its own timeouts. The thread may stay busy with it; the
application it holds is used by no other call until it is done.

The hand-off is the lane's own (``server.lane``), not anyio's
``to_thread``: a request makes one trip to a worker and back, and
anyio's (a checkpoint, a capacity limiter, a cancel scope, its queue)
cost more CPU than the trip's two wake-ups (issue 25).
"""

from __future__ import annotations

import asyncio
import os
import threading
import weakref
from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

from domain.kernel.games import GameApp
from domain.kernel.stores.store_setting import store_form

from .lane import Lane
from .store_down import StoreDown, is_store_error, store_down

T = TypeVar("T")
POSTGRES_WORKERS = 4
CLOSE_WAIT = 15.0  # seconds ``close`` waits for the calls still running


class Workers:
    """Runs ``fn(app, ...)`` on a worker thread with that thread's application.
    ``read_only``: the applications only read (SQLite: a read-only connection)."""

    def __init__(
        self,
        store: str | None,
        workers: int | None = None,
        env: dict[str, str] | None = None,
        *,
        read_only: bool = False,
    ) -> None:
        self.store = store
        self.env = env
        self.read_only = read_only
        self.postgres = _is_postgres(store)
        self.count = workers or (POSTGRES_WORKERS if self.postgres else 1)
        self._local = threading.local()
        self._apps: list[GameApp] = []
        self._lock = threading.Lock()
        # Exactly ``count`` threads: a call still running past its deadline
        # keeps its thread (and its application) until it is done, so no
        # more than ``count`` calls ever use the applications at once.
        self._lane = Lane(self.count, name="store worker")
        weakref.finalize(self, self._lane.stop)  # a server never started (no lifespan) leaves no threads
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
                    self._apps.append(GameApp(store=self.store, env=self.env, read_only=self.read_only))
                return self._apps[0]
        app = getattr(self._local, "app", None)
        if app is None:
            app = GameApp(store=self.store, env=self.env, read_only=self.read_only)
            self._local.app = app
            with self._lock:
                self._apps.append(app)
        return app

    async def run(self, fn: Callable[..., T], *args: Any, deadline: float | None = None) -> T:
        """``fn(app, *args)`` on a worker thread; ``StoreDown`` if it is not
        done within ``deadline`` seconds (None: wait for it). A call still
        waiting for a thread at its deadline is never run; one cancelled
        (its request gone) runs on if it has begun, and ``close`` waits for it."""
        with self._calls:
            if self._closed:
                raise RuntimeError("the server is stopping")
        loop = asyncio.get_running_loop()
        done: asyncio.Future[T] = loop.create_future()
        call = self._lane.submit(partial(self._call, fn, *args), loop, done)
        if deadline is None:
            try:
                return await done
            finally:
                call.abandon()
        timer = loop.call_later(deadline, _expire, call, done, deadline)
        try:
            return await done
        finally:
            timer.cancel()
            call.abandon()

    def _call(self, fn: Callable[..., T], *args: Any) -> T:
        with self._calls:
            if self._closed:
                raise RuntimeError("the server is stopping")
            self._running += 1
        try:
            return fn(self.app(), *args)
        except Exception as e:
            if is_store_error(e):
                raise store_down(e, self.store) from None
            raise
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
        self._lane.stop()
        with self._lock:
            apps, self._apps = self._apps, []
        for app in apps:
            try:
                app.close()
            except Exception:  # closing on the way out: nothing left to tell
                pass


def _expire(call: Any, done: asyncio.Future[Any], deadline: float) -> None:
    call.abandon()
    if not done.done():
        done.set_exception(StoreDown(f"the store did not answer within {deadline:g} s"))


def _is_postgres(store: str | None) -> bool:
    setting = store if store is not None else os.environ.get("RULEKEEPER_STORE", "")
    try:
        return store_form(setting)[0] == "postgresql"
    except ValueError:
        return False


def is_memory(store: str | None) -> bool:
    """Whether ``store`` is held in memory (by one application: a second
    lane could not see it)."""
    setting = store if store is not None else os.environ.get("RULEKEEPER_STORE", "")
    try:
        return store_form(setting)[0] == "memory"
    except ValueError:
        return False
