"""A repeated log line is said once per interval with a count (#21 point 8:
one accept error logged 529,634 times filled 214 MB of stderr in a
minute). The clock is injected: nothing here waits."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator

import pytest

from server.log_throttle import RepeatThrottle


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def logged(clock) -> Iterator[tuple[logging.Logger, RepeatThrottle, io.StringIO]]:
    """A logger of its own writing to a string, throttled at 10 s."""
    logger = logging.getLogger("test.throttle")
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(logging.Formatter("%(levelname)s %(message)s"))
    logger.addHandler(handler)
    logger.propagate = False
    throttle = RepeatThrottle(interval=10.0, clock=clock)
    throttle.install([logger.name])
    yield logger, throttle, out
    logger.removeHandler(handler)
    logger.removeFilter(throttle)


def lines(out: io.StringIO) -> list[str]:
    return out.getvalue().splitlines()


def test_a_line_repeated_within_the_interval_is_said_once(logged, clock):
    logger, _, out = logged
    for _ in range(5321):
        logger.error("socket.accept() out of system resource\nsocket: <fd=6>")
        clock.now += 0.001
    assert lines(out) == ["ERROR socket.accept() out of system resource", "socket: <fd=6>"]


def test_the_first_after_the_interval_says_how_many_were_held_back(logged, clock):
    logger, _, out = logged
    for _ in range(5322):
        logger.error("accept failed: %s", "Too many open files")
        clock.now += 0.001
    clock.now += 10.0
    logger.error("accept failed: %s", "Too many open files")
    assert lines(out) == [
        "ERROR accept failed: Too many open files",
        "ERROR accept failed: Too many open files (repeated 5,321 times in the last 15 s)",
    ]


def test_flush_says_the_count_of_a_flood_that_stopped(logged, clock):
    logger, throttle, out = logged
    for _ in range(3):
        logger.warning("Invalid HTTP request received.")
    throttle.flush()  # within the interval: nothing yet
    assert lines(out) == ["WARNING Invalid HTTP request received."]
    clock.now += 10.0
    throttle.flush()
    throttle.flush()  # said once
    assert lines(out) == [
        "WARNING Invalid HTTP request received.",
        "WARNING Invalid HTTP request received. (repeated 2 times in the last 10 s)",
    ]


def test_different_lines_and_levels_are_each_said(logged, clock):
    logger, _, out = logged
    logger.error("one")
    logger.error("two")
    logger.warning("one")
    logger.error("one")
    assert lines(out) == ["ERROR one", "ERROR two", "WARNING one"]


def test_a_line_not_repeated_is_said_each_time_past_the_interval(logged, clock):
    logger, throttle, out = logged
    for _ in range(3):
        logger.error("once in a while")
        clock.now += 11.0
        throttle.flush()
    assert lines(out) == ["ERROR once in a while"] * 3


def test_flush_of_everything_says_the_counts_held_back_so_far(logged, clock):
    logger, throttle, out = logged
    for _ in range(4):
        logger.warning("busy")
    clock.now += 3.0
    throttle.flush(everything=True)
    assert lines(out) == ["WARNING busy", "WARNING busy (repeated 3 times in the last 3 s)"]
