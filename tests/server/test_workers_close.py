"""Stopping the server's workers while a call still runs on one of them:
the applications are closed only once it is done (closing an SQLite
connection under a running query crashed the process)."""

from __future__ import annotations

import asyncio
import contextlib
import threading

import anyio
import pytest

from server.workers import Workers

WAIT = 10  # seconds any step may take


def test_close_waits_for_a_call_whose_request_was_cancelled(tmp_path):
    pool = Workers(f"sqlite:{tmp_path / 'games.sqlite'}")
    started, release = threading.Event(), threading.Event()
    order: list[str] = []

    def slow(app) -> int:
        real_close = app.close
        app.close = lambda: (order.append("closed"), real_close())
        started.set()
        release.wait(WAIT)
        order.append("call done")
        return app.max_notification_id()

    async def cancelled_call() -> None:
        call = asyncio.create_task(pool.run(slow))
        await asyncio.to_thread(started.wait, WAIT)
        call.cancel()  # as the change feed is stopped: the thread runs on
        with contextlib.suppress(asyncio.CancelledError):
            await call

    asyncio.run(cancelled_call())
    closing = threading.Thread(target=pool.close)
    closing.start()
    closing.join(timeout=0.2)  # a chance to close too early, if it would
    assert closing.is_alive(), "closed while a call was still running"
    release.set()
    closing.join(timeout=WAIT)
    assert not closing.is_alive() and order == ["call done", "closed"]


def test_a_call_after_close_is_refused_not_run_on_a_closed_store(tmp_path):
    pool = Workers(f"sqlite:{tmp_path / 'games.sqlite'}")
    assert anyio.run(pool.run, lambda app: app.max_notification_id()) is not None
    pool.close()
    with pytest.raises(RuntimeError, match="stopping"):
        anyio.run(pool.run, lambda app: app.max_notification_id())
