"""The change feed: tells the viewers of a game, in this process and from
every other process on the same store, that it moved.

A command this process saves is told at once (``tell``). What other
processes save is found by following the store's notification log: one
cheap query for the newest notification id every ``POLL`` seconds, and
when it moved, the new rows' streams matched against the games someone is
watching. On PostgreSQL a listener (``domain.kernel.stores.pglisten``) hears the
store's NOTIFY of every insert and wakes the loop at once, so another
process's command reaches the viewers without waiting for the poll, which
stays as the fallback (and is all SQLite has). The listener also tells
``server.index_watch`` which database process sent each notification.
Each viewer holds a queue of the versions it has not yet seen; a slow
viewer's queue keeps only the newest (it reloads the game anyway).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any
from uuid import UUID

from domain.kernel.games import GameApp

from .index_watch import IndexWatch
from .store_down import one_line
from .workers import Workers

POLL = 0.2  # seconds between looks at the notification log
PAGE = 500  # notifications read at a time when catching up

log = logging.getLogger("rulekeeper.server")


class ChangeFeed:
    """Who watches which game, and the loop that follows the store."""

    def __init__(self, workers: Workers, poll: float = POLL, index_watch: IndexWatch | None = None) -> None:
        self.workers = workers
        self.poll = poll
        self.index_watch = index_watch  # told who sent each notification heard
        self._watchers: dict[str, set[asyncio.Queue[int]]] = {}
        self._streams: dict[UUID, str] = {}  # game stream -> game id, of watched games
        self._seen = -1  # the newest notification id looked at
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._listener: Any = None
        self._store_away = False

    async def start(self) -> None:
        """Follow the store from where it is now; a store away at the
        start is followed from where it is once it answers (one log line
        says so), the server answering 503 meanwhile."""
        try:
            self._seen = await self.workers.run(_max_id)
        except Exception as e:
            self._away(e)
        self._task = asyncio.create_task(self._follow())
        if self.workers.postgres:
            try:
                await self._listen()
            except Exception as e:  # the poll is still there to find what others write
                self._away(e)

    async def stop(self) -> None:
        if self._listener is not None:
            listener, self._listener = self._listener, None
            await asyncio.get_running_loop().run_in_executor(None, listener.stop)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None

    async def _listen(self) -> None:
        """Wake on the store's notifications (PostgreSQL): from the
        listener's thread into this loop, the only thread-safe way in."""
        from domain.kernel.stores.pglisten import Listener, listen_target

        target = await self.workers.run(listen_target)
        if target is None:
            return
        loop = asyncio.get_running_loop()

        def heard() -> None:
            # Every write this process saves is heard too, so with nobody
            # watching, waking the loop (a write to its pipe, a turn of it,
            # the GIL handed over while a request is answered) would find
            # nothing to do: ``wake`` looks at the same thing.
            if not self._streams:
                return
            with contextlib.suppress(RuntimeError):  # the loop has closed: nobody to tell
                loop.call_soon_threadsafe(self.wake)

        watch = self.index_watch
        if watch is None:
            self._listener = Listener(*target, heard)
        else:
            self._listener = Listener(*target, heard, on_sender=watch.heard_from)
        self._listener.start()
        if watch is not None:
            watch.follow(self._listener.listening)

    def wake(self) -> None:
        """Look at the log now (another process said it wrote). Nothing to
        do while nobody watches: the poll keeps the position."""
        if self._streams:
            self._wake.set()

    @contextlib.asynccontextmanager
    async def watch(self, battle_id: str, stream: UUID) -> AsyncIterator[asyncio.Queue[int]]:
        """A queue of the versions game ``battle_id`` reaches, while open."""
        queue: asyncio.Queue[int] = asyncio.Queue(maxsize=1)
        self._watchers.setdefault(battle_id, set()).add(queue)
        self._streams[stream] = battle_id
        try:
            yield queue
        finally:
            watchers = self._watchers.get(battle_id, set())
            watchers.discard(queue)
            if not watchers:
                self._watchers.pop(battle_id, None)
                self._streams.pop(stream, None)

    def tell(self, battle_id: str, version: int) -> None:
        """Game ``battle_id`` is now at ``version``."""
        for queue in list(self._watchers.get(battle_id, ())):
            if queue.full():
                with contextlib.suppress(asyncio.QueueEmpty):
                    queue.get_nowait()
            queue.put_nowait(version)

    @property
    def watched(self) -> int:
        """How many viewers are watching, over every game."""
        return sum(len(w) for w in self._watchers.values())

    def _away(self, error: Exception | None) -> None:
        """Say in one line when the store stops answering the feed, and
        when it answers again (not once per look)."""
        if error is not None and not self._store_away:
            log.warning("change feed: cannot read the store: %s", one_line(str(error)) or type(error).__name__)
        elif error is None and self._store_away:
            log.warning("change feed: the store answers again")
        self._store_away = error is not None

    async def _follow(self) -> None:
        while True:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.poll)
            self._wake.clear()
            if not self._streams or self._seen < 0:
                # Nobody watches (or the position is not known yet): only
                # keep the position (one cheap query).
                try:
                    self._seen = await self.workers.run(_max_id)
                    self._away(None)
                except Exception as e:  # the store is away for a moment: look again later
                    self._away(e)
                continue
            try:
                moved, self._seen = await self.workers.run(_moved_since, self._seen, dict(self._streams))
                self._away(None)
            except Exception as e:
                self._away(e)
                continue
            for battle_id, version in moved.items():
                self.tell(battle_id, version)


def _max_id(app: GameApp) -> int:
    return app.max_notification_id()


def _moved_since(app: GameApp, seen: int, streams: dict[UUID, str]) -> tuple[dict[str, int], int]:
    """The watched games whose streams got rows after notification ``seen``
    (each with its newest version), and the newest notification id."""
    newest = app.max_notification_id()
    moved: dict[str, int] = {}
    start = seen + 1
    recorder: Any = app.recorder
    while start <= newest:
        page = recorder.select_notifications(start=start, limit=PAGE)
        if not page:
            break
        for n in page:
            battle_id = streams.get(n.originator_id)
            if battle_id is not None:
                moved[battle_id] = max(moved.get(battle_id, 0), n.originator_version)
        start = page[-1].id + 1
    return moved, max(newest, seen)
