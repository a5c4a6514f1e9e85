"""A lane of worker threads, and the one trip of a call to one of them and
back to the event loop (``server.workers`` runs the store's work on it).

A lane has at most ``size`` threads, each given one call at a time in a
queue of its own. The next call goes to the thread that went idle last,
as anyio's threads do: on a quiet server one thread serves one request
after another, its application's caches (the game as last saved, the
index) warm. Calls that find every thread busy wait in the lane's
backlog, in order. The answer goes back with ``call_soon_threadsafe``:
per call, a queue put, one wake of a thread, one wake of the loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections import deque
from collections.abc import Callable
from queue import SimpleQueue
from typing import Any

_STOP: Any = object()  # what a thread's queue is given to end it


class Call:
    """One call on its way through a lane: run on a worker thread unless
    abandoned first (its request answered at its deadline, or gone)."""

    __slots__ = ("fn", "loop", "done", "abandoned")

    def __init__(self, fn: Callable[[], Any], loop: asyncio.AbstractEventLoop, done: asyncio.Future[Any]) -> None:
        self.fn = fn
        self.loop = loop
        self.done = done
        self.abandoned = False

    def abandon(self) -> None:
        """Nobody waits for it any more: if it has not begun, it never will."""
        self.abandoned = True

    def run(self) -> tuple[Any, BaseException | None] | None:
        """Its result and error (None if it was abandoned before it began)."""
        if self.abandoned:
            return None
        try:
            return self.fn(), None
        except BaseException as e:  # told to the request, whatever it is
            return None, e

    def answer(self, result: Any, error: BaseException | None) -> None:
        """Hand the result to the loop, which gives it to whoever waits."""
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
            self.loop.call_soon_threadsafe(_settle, self.done, result, error)


def _settle(done: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if done.done():  # answered at its deadline, or its request was cancelled
        return
    if error is None:
        done.set_result(result)
    else:
        done.set_exception(error)


class Lane:
    """At most ``size`` threads (named ``name``), started as calls come."""

    def __init__(self, size: int, name: str = "worker") -> None:
        self.size = size
        self.name = name
        self._lock = threading.Lock()
        self._idle: list[SimpleQueue[Call]] = []  # the queues of idle threads, the last idle last
        self._backlog: deque[Call] = deque()
        self._threads = 0
        self._stopped = False

    def submit(self, fn: Callable[[], Any], loop: asyncio.AbstractEventLoop, done: asyncio.Future[Any]) -> Call:
        """``fn()`` on a thread of the lane; ``done`` is given its result
        (or error) on ``loop``. RuntimeError once the lane is stopped."""
        call = Call(fn, loop, done)
        with self._lock:
            if self._stopped:
                raise RuntimeError("the server is stopping")
            if self._idle:
                inbox = self._idle.pop()
            elif self._threads < self.size:
                self._threads += 1
                inbox = SimpleQueue()
                thread = threading.Thread(
                    target=self._serve, args=(inbox,), name=f"{self.name} {self._threads}", daemon=True
                )
                thread.start()
            else:
                self._backlog.append(call)
                return call
        inbox.put(call)
        return call

    def _serve(self, inbox: SimpleQueue[Call]) -> None:
        call = inbox.get()
        while call is not _STOP:
            answered = call.run()
            # Idle (or given the next call) before the answer goes back: the
            # request answered may give its next call at once, to this thread.
            with self._lock:
                if self._backlog:
                    after: Call | None = self._backlog.popleft()
                elif self._stopped:
                    after = _STOP
                else:
                    self._idle.append(inbox)
                    after = None
            if answered is not None:
                call.answer(*answered)
            # Neither the call nor its answer is kept alive while this thread waits.
            call = answered = None  # type: ignore[assignment]
            call = after if after is not None else inbox.get()

    def stop(self) -> None:
        """End the threads once their calls are done (idle ones at once);
        no call is taken after this."""
        with self._lock:
            self._stopped = True
            idle, self._idle = self._idle, []
        for inbox in idle:
            inbox.put(_STOP)
