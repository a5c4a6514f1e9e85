"""The server's own hand-off of store work to its threads
(``server.lane``, under ``server.workers``): the thread idle last takes
the next call, calls past the lane's threads wait in order, a call
abandoned before it begins never runs, and the threads end with the lane."""

from __future__ import annotations

import asyncio
import gc
import threading

import pytest

from server.lane import Lane
from server.store_down import StoreDown
from server.workers import Workers

WAIT = 10  # seconds any step may take (never asserted as a duration)


async def _on(lane: Lane, fn):
    loop = asyncio.get_running_loop()
    done = loop.create_future()
    lane.submit(fn, loop, done)
    return await done


def test_a_quiet_lane_serves_one_call_after_another_on_one_thread():
    lane = Lane(4)

    async def run() -> set[int]:
        return {await _on(lane, threading.get_ident) for _ in range(6)}

    try:
        assert len(asyncio.run(run())) == 1  # its application's caches stay warm
    finally:
        lane.stop()


def _held_calls(lane: Lane, count: int) -> tuple[list[int], int]:
    """``count`` calls given at once while the first ones hold every thread:
    the order they began in, and the most that ran at once."""
    release, lock = threading.Event(), threading.Lock()
    began: list[int] = []
    running, most = [0], [0]

    def call(i: int):
        def work() -> int:
            with lock:
                began.append(i)
                running[0] += 1
                most[0] = max(most[0], running[0])
            release.wait(WAIT)
            with lock:
                running[0] -= 1
            return i

        return work

    async def run() -> list[int]:
        calls = [asyncio.ensure_future(_on(lane, call(i))) for i in range(count)]
        await asyncio.sleep(0.05)
        release.set()
        return list(await asyncio.gather(*calls))

    try:
        assert asyncio.run(run()) == list(range(count))
    finally:
        lane.stop()
    return began, most[0]


def test_calls_past_the_lanes_threads_wait_their_turn_in_order():
    began, most = _held_calls(Lane(1), 5)
    assert began == [0, 1, 2, 3, 4] and most == 1


def test_no_more_calls_run_at_once_than_the_lane_has_threads():
    began, most = _held_calls(Lane(2), 6)
    assert sorted(began) == list(range(6)) and most == 2


def test_a_call_abandoned_before_it_begins_never_runs():
    lane, started, release = Lane(1), threading.Event(), threading.Event()
    ran: list[str] = []

    async def run() -> None:
        loop = asyncio.get_running_loop()
        first, second = loop.create_future(), loop.create_future()
        lane.submit(lambda: (started.set(), release.wait(WAIT), ran.append("first")), loop, first)
        await asyncio.to_thread(started.wait, WAIT)
        lane.submit(lambda: ran.append("second"), loop, second).abandon()
        release.set()
        await first
        await _on(lane, lambda: None)  # the lane has gone past the abandoned call

    try:
        asyncio.run(run())
    finally:
        lane.stop()
    assert ran == ["first"]


def test_a_call_still_waiting_for_a_worker_at_its_deadline_is_answered_503_and_never_runs(tmp_path):
    pool = Workers(f"sqlite:{tmp_path / 'games.sqlite'}")  # one thread
    started, release = threading.Event(), threading.Event()
    ran: list[str] = []

    async def run() -> str:
        held = asyncio.ensure_future(pool.run(lambda app: (started.set(), release.wait(WAIT))))
        await asyncio.to_thread(started.wait, WAIT)
        try:
            await pool.run(lambda app: ran.append("late"), deadline=0.2)
            return "answered"
        except StoreDown as e:
            return str(e)
        finally:
            release.set()
            await held
            await pool.run(lambda app: None)

    try:
        assert asyncio.run(run()) == "the store did not answer within 0.2 s"
    finally:
        pool.close()
    assert ran == []


def test_a_lane_stopped_takes_no_call_and_its_threads_end():
    lane = Lane(2)
    thread = asyncio.run(_on(lane, threading.current_thread))
    lane.stop()
    thread.join(WAIT)
    assert not thread.is_alive()
    with pytest.raises(RuntimeError, match="stopping"):
        asyncio.run(_on(lane, lambda: None))


def test_the_threads_of_workers_never_closed_end_with_them(tmp_path):
    pool = Workers(f"sqlite:{tmp_path / 'games.sqlite'}")
    thread = asyncio.run(pool.run(lambda app: threading.current_thread()))
    del pool
    gc.collect()
    thread.join(WAIT)
    assert not thread.is_alive()
