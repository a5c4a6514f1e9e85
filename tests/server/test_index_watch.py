"""The index a worker read is used again, unread, while every write heard
since came from this process's own workers and nothing else moved it
(``server.index_watch``); anything else makes the next check read it."""

from __future__ import annotations

import contextlib
import threading
from types import SimpleNamespace

from domain.kernel.battle_index import BattleIndex
from server.index_watch import IndexWatch

OWN_PID, OTHER_PID = 4101, 4102


class _App:
    """Counts the reads of its index; its connection talks to ``pid``."""

    def __init__(self, pid: int = OWN_PID) -> None:
        self.reads = 0
        self.held = BattleIndex()

        @contextlib.contextmanager
        def connection():
            yield SimpleNamespace(info=SimpleNamespace(backend_pid=pid))

        self.recorder = SimpleNamespace(datastore=SimpleNamespace(get_connection=connection))

    def index(self, *, refresh: bool = True) -> BattleIndex:
        if refresh:
            self.reads += 1
        return self.held


class _Clock:
    now = 100.0

    def __call__(self) -> float:
        return self.now


def _listening_watch(clock: _Clock | None = None) -> IndexWatch:
    watch = IndexWatch(max_age=1.0, clock=clock or _Clock())
    listening = threading.Event()
    listening.set()
    watch.follow(listening)
    return watch


def test_an_index_read_while_listening_is_used_again_while_nothing_is_heard():
    watch, app = _listening_watch(), _App()
    for _ in range(3):
        watch.index(app)
    assert app.reads == 1


def test_a_write_heard_from_this_processs_own_worker_leaves_the_index_unread():
    watch, app = _listening_watch(), _App()
    watch.wrote(app)  # the worker's connection is known as this process's own
    watch.index(app)
    watch.heard_from(OWN_PID)  # its commit's notification
    watch.index(app)
    assert app.reads == 1


def test_a_write_heard_from_another_database_process_makes_the_next_check_read():
    watch, app = _listening_watch(), _App()
    watch.wrote(app)
    watch.index(app)
    watch.heard_from(OTHER_PID)  # `rk delete` in another process, say
    watch.index(app)
    assert app.reads == 2
    watch.heard_from(None)  # the listener reconnected: whatever it missed
    watch.index(app)
    assert app.reads == 3
    watch.index(app)
    assert app.reads == 3


def test_setting_a_game_up_here_makes_every_worker_read_again():
    watch, first, second = _listening_watch(), _App(), _App(pid=OWN_PID + 10)
    watch.index(first), watch.index(second)
    watch.moved()
    watch.index(first), watch.index(second)
    assert (first.reads, second.reads) == (2, 2)


def test_nothing_is_used_unread_while_the_listener_does_not_listen():
    watch, app = IndexWatch(), _App()
    watch.index(app), watch.index(app)
    assert app.reads == 2
    listening = threading.Event()
    watch.follow(listening)
    watch.index(app)  # read before the listener listened: not trusted once it does
    listening.set()
    watch.index(app), watch.index(app)
    assert app.reads == 4
    listening.clear()  # the listener's connection dropped
    watch.index(app)
    assert app.reads == 5


def test_an_index_is_used_unread_for_at_most_max_age_seconds():
    clock = _Clock()
    watch, app = _listening_watch(clock), _App()
    watch.index(app)
    clock.now += 0.9
    watch.index(app)
    assert app.reads == 1
    clock.now += 0.2  # 1.1 s after the read
    watch.index(app)
    assert app.reads == 2


def test_a_write_heard_while_the_index_is_read_makes_that_read_stale():
    watch, app = _listening_watch(), _App()
    real = app.index

    def read_while_another_process_writes(*, refresh: bool = True) -> BattleIndex:
        if refresh:
            watch.heard_from(OTHER_PID)
        return real(refresh=refresh)

    app.index = read_while_another_process_writes  # type: ignore[method-assign]
    watch.index(app)
    watch.index(app)
    assert app.reads == 2


def test_a_workers_first_write_is_its_own_even_when_heard_before_it_returns():
    watch, app = _listening_watch(), _App()
    watch.index(app)
    watch.writing(app)  # its connection noted before its first commit
    watch.heard_from(OWN_PID)  # that commit heard before the write returned
    watch.wrote(app)
    watch.index(app)
    assert app.reads == 1
