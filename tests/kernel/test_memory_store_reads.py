"""The memory store reads only the versions asked for, and saves a batch
all or nothing (``domain.kernel.stores.application``: its ``select_events``
and insert in place of the library's, which walked every version of a
stream and made each stream id text twice per event). What it answers is
checked against the library's own ``select_events`` on the same events."""

from __future__ import annotations

from uuid import uuid4

import pytest
from eventsourcing.popo import POPOAggregateRecorder

from domain.kernel.envelope import wrap
from domain.kernel.errors import ConcurrencyError
from domain.kernel.messages import Event
from domain.kernel.stores.application import EventSourcedApp


class Noted(Event, frozen=True, kw_only=True):
    TOPIC = "test.memory_reads.Noted"
    n: int


class NotesApp(EventSourcedApp):
    """An application of one kind of event, for tests only."""


def _filled() -> tuple[NotesApp, list]:
    app = NotesApp("memory")
    streams = [uuid4(), uuid4()]
    for i in range(12):  # two streams written in turns, a few events at a time
        stream = streams[i % 2]
        last = app.events.last(stream)
        after = last.originator_version if last else 0
        app.append(wrap(stream, after, [Noted(n=10 * i + k) for k in range(1 + i % 3)], f"c{i}"))
    return app, streams


ASKED = [
    {},
    {"gt": 0},
    {"gt": 3},
    {"gt": 100},
    {"lte": 4},
    {"lte": 0},
    {"gt": 2, "lte": 5},
    {"gt": 5, "lte": 2},
    {"desc": True},
    {"desc": True, "limit": 1},
    {"desc": True, "limit": 3, "lte": 6},
    {"limit": 2, "gt": 4},
    {"limit": 0},
]


@pytest.mark.parametrize("asked", ASKED, ids=[str(a) for a in ASKED])
def test_select_events_answers_as_the_library_does(asked: dict) -> None:
    app, streams = _filled()
    recorder = app.recorder
    for stream in [*streams, uuid4()]:
        mine = recorder.select_events(stream, **asked)
        theirs = POPOAggregateRecorder.select_events(recorder, stream, **asked)
        assert mine == list(theirs)


def test_a_taken_version_writes_nothing_in_any_stream() -> None:
    app, streams = _filled()
    before = [list(app.events(s)) for s in streams]
    fresh = uuid4()
    taken = app.events.last(streams[0])
    assert taken is not None
    batch = wrap(fresh, 0, [Noted(n=1)], "x") + wrap(streams[0], taken.originator_version - 1, [Noted(n=2)], "x")
    with pytest.raises(ConcurrencyError):
        app.append(batch)
    assert [list(app.events(s)) for s in streams] == before
    assert app.events(fresh) == []


def test_a_version_given_twice_in_one_batch_writes_nothing() -> None:
    app = NotesApp("memory")
    stream = uuid4()
    twice = wrap(stream, 0, [Noted(n=1)], "x") + wrap(stream, 0, [Noted(n=2)], "x")
    with pytest.raises(ConcurrencyError):
        app.append(twice)
    assert app.events(stream) == []
    app.append(wrap(stream, 0, [Noted(n=3)], "y"))  # the version is still free
    assert [e.event.n for e in app.events(stream)] == [3]
