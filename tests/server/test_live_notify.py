"""On PostgreSQL the live feed hears another process's writes from the
store's NOTIFY, without waiting for its poll; the listener behind it
listens again after its connection is dropped, and stops when asked."""

from __future__ import annotations

import asyncio
import threading
import time
from uuid import uuid4

import pytest

from domain.betrayal.table.party import party_member
from domain.betrayal.battle.application import BetrayalApp
from domain.kernel.games import GameApp
from domain.kernel.stores.pglisten import Listener, listen_target
from server.live import ChangeFeed
from server.workers import Workers

pytestmark = pytest.mark.postgres
DEADLINE = 15.0  # seconds any one wait may take before the test fails
NEVER = 3600.0  # a poll that never comes within a test: only a notification wakes the feed


@pytest.fixture
def schema(postgres_store):
    """A schema of this test's own in the test database, dropped afterwards."""
    import psycopg

    name = f"t{uuid4().hex[:12]}"
    with psycopg.connect(postgres_store, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{name}"')
    yield name
    with psycopg.connect(postgres_store, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA "{name}" CASCADE')


def wait_until(condition, what: str) -> None:
    deadline = time.monotonic() + DEADLINE
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"not in {DEADLINE:.0f} s: {what}")
        time.sleep(0.02)


def test_a_command_another_process_saves_reaches_a_viewer_without_waiting_for_the_poll(postgres_store, schema):
    env = {"POSTGRES_SCHEMA": schema}
    other = BetrayalApp(store=postgres_store, env=env)  # another process's application: its own connections
    party = [party_member(p) for p in ("Ysolda:nord", "Tarn:dark-elf")]
    bid = other.new_clash(
        setup="waystone-crossing", party=party, xp=2, seed=3, battle_id="live-1"
    ).battle.state.battle_id
    stream = other.ruleset(bid).game_stream(bid)
    workers = Workers(postgres_store, env=env)

    async def watch() -> list[int]:
        feed = ChangeFeed(workers, poll=NEVER)
        await feed.start()
        try:
            await asyncio.to_thread(feed._listener.listening.wait, DEADLINE)
            seen: list[int] = []
            async with feed.watch(bid, stream) as queue:
                done = await asyncio.to_thread(other.execute, bid, other.legal(bid)[0])
                while not seen or seen[-1] < done.battle.version:
                    seen.append(await asyncio.wait_for(queue.get(), DEADLINE))
            return seen
        finally:
            await feed.stop()

    try:
        seen = asyncio.run(watch())
    finally:
        workers.close()
        other.close()
    assert seen[-1] == other.battle(bid).version


def test_the_listener_listens_again_after_its_connection_is_dropped_and_stops_when_asked(postgres_store):
    import psycopg

    with GameApp(store=postgres_store) as app:
        settings, _ = listen_target(app)
    channel = f"rk_test_{uuid4().hex[:12]}"
    heard = threading.Semaphore(0)
    listener = Listener(settings, channel, heard.release, retry_first=0.05)
    listener.start()
    try:
        with psycopg.connect(postgres_store, autocommit=True) as conn:
            assert listener.listening.wait(DEADLINE)
            conn.execute(f'NOTIFY "{channel}"')
            assert heard.acquire(timeout=DEADLINE)

            conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = %s", (f'LISTEN "{channel}"',)
            )
            wait_until(lambda: listener.connections == 2 and listener.listening.is_set(), "a second connection")
            assert heard.acquire(timeout=DEADLINE)  # told once on listening again: writes may have gone unheard
            conn.execute(f'NOTIFY "{channel}"')
            assert heard.acquire(timeout=DEADLINE)
    finally:
        listener.stop()
    assert listener._thread is None and not listener.listening.is_set()
