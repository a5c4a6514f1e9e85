"""A repeated log line, said once per interval with a count.

A server out of file descriptors fails every accept the same way; logged
each time (with its traceback) that filled 214 MB of stderr in a minute.
Records alike (same logger, level and first line) pass the first time;
the next ones within ``interval`` seconds are only counted, and the first
one after it (or ``flush``, called every second by the server) says how
many there were: "... (repeated 5,321 times in the last 10 s)"."""

from __future__ import annotations

import copy
import logging
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

INTERVAL = 10.0  # seconds
MOST_KINDS = 1000  # distinct lines followed at once; the oldest are forgotten beyond


@dataclass
class _Run:
    since: float  # when the last record of this kind was let through
    held: int = 0  # records of this kind held back since
    last: logging.LogRecord | None = None  # the newest held back: what flush says


class RepeatThrottle(logging.Filter):
    """A filter letting through one record of a kind per ``interval``;
    ``clock`` gives the time in seconds (injected by tests)."""

    def __init__(self, interval: float = INTERVAL, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.interval = interval
        self.clock = clock
        self._runs: dict[tuple[str, int, str], _Run] = {}
        self._lock = threading.Lock()  # the store's worker threads log too

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "throttle_summary", False):
            return True  # flush's own
        with self._lock:
            return self._let_through(record)

    def _let_through(self, record: logging.LogRecord) -> bool:
        key = (record.name, record.levelno, record.getMessage().split("\n", 1)[0])
        now = self.clock()
        run = self._runs.get(key)
        if run is not None and now - run.since < self.interval:
            run.held += 1
            run.last = record
            return False
        if run is not None and run.held:
            _say_repeated(record, run.held, now - run.since)
        self._runs.pop(key, None)  # re-inserted last: the dict stays in order of use
        self._runs[key] = _Run(since=now)
        if len(self._runs) > MOST_KINDS:
            del self._runs[next(iter(self._runs))]
        return True

    def flush(self, everything: bool = False) -> None:
        """Say the count of every kind held back whose interval is over
        (a flood that stopped still says how big it was); with
        ``everything``, of every kind held back (the server is stopping)."""
        now = self.clock()
        summaries = []
        with self._lock:
            for key, run in list(self._runs.items()):
                if now - run.since < self.interval and not everything:
                    continue
                if run.held and run.last is not None:
                    summary = copy.copy(run.last)
                    _say_repeated(summary, run.held, now - run.since)
                    summary.throttle_summary = True
                    summaries.append(summary)
                del self._runs[key]
        for summary in summaries:  # outside the lock: a handler may log
            logging.getLogger(summary.name).handle(summary)

    def install(self, loggers: Iterable[str]) -> None:
        """Filter the records these loggers make."""
        for name in loggers:
            logging.getLogger(name).addFilter(self)


def _say_repeated(record: logging.LogRecord, held: int, seconds: float) -> None:
    lines = record.getMessage().split("\n", 1)
    lines[0] += f" (repeated {held:,} times in the last {seconds:.0f} s)"
    record.msg, record.args = "\n".join(lines), None
