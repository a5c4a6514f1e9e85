"""The change feed's listener wakes the event loop only while someone
watches a game: every write this process saves is heard as well, and with
nobody watching a wake would find nothing to do."""

from __future__ import annotations

import asyncio
import threading
from uuid import uuid4

import domain.kernel.stores.pglisten as pglisten
from server.live import ChangeFeed


class _Workers:
    """Just what ``ChangeFeed`` asks of its workers here."""

    postgres = True

    async def run(self, fn, *args, **kwargs):
        return ({}, "channel")  # listen_target's answer: settings and a channel


class _Listener:
    """Records the callback the feed gives the listener, starts nothing."""

    made: list[_Listener] = []

    def __init__(self, settings, channel, on_notify) -> None:
        self.on_notify = on_notify
        _Listener.made.append(self)

    def start(self) -> None:
        pass


def _wakes_after_notifications(watching: bool, monkeypatch) -> int:
    monkeypatch.setattr(pglisten, "Listener", _Listener)
    _Listener.made.clear()
    feed = ChangeFeed(_Workers())  # type: ignore[arg-type]
    wakes: list[int] = []
    feed.wake = lambda: wakes.append(1)  # type: ignore[method-assign]

    async def run() -> None:
        await feed._listen()
        heard = _Listener.made[-1].on_notify

        async def notify_three_times() -> None:
            for _ in range(3):  # from the listener's thread, as psycopg calls it
                thread = threading.Thread(target=heard)
                thread.start()
                await asyncio.to_thread(thread.join)
            await asyncio.sleep(0)  # the loop runs whatever the thread handed it

        if watching:
            async with feed.watch("game-1", uuid4()):
                await notify_three_times()
        else:
            await notify_three_times()

    asyncio.run(run())
    return len(wakes)


def test_a_notification_heard_while_nobody_watches_does_not_wake_the_loop(monkeypatch):
    assert _wakes_after_notifications(watching=False, monkeypatch=monkeypatch) == 0


def test_a_notification_heard_while_a_game_is_watched_wakes_the_loop_each_time(monkeypatch):
    assert _wakes_after_notifications(watching=True, monkeypatch=monkeypatch) == 3
