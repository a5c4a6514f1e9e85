"""Timing and the result rows every benchmark returns.

Times come from ``time.perf_counter``; each figure is repeated with a
``gc.collect()`` before every repeat, and summarised by its median (and 99th
percentile where asked). A figure is only reported as a ratio to a floor
measured in the same run: on a shared, noisy machine a lone time means little.
"""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


def times(fn: Callable[[], Any], repeats: int, before: Callable[[], Any] | None = None) -> list[float]:
    """Seconds each of ``repeats`` calls of ``fn`` took; ``before`` runs
    untimed ahead of each call (to prepare a fresh copy, say)."""
    out = []
    for _ in range(repeats):
        if before is not None:
            before()
        gc.collect()
        start = time.perf_counter()
        fn()
        out.append(time.perf_counter() - start)
    return out


def interleaved(
    fns: dict[str, Callable[[], Any]], repeats: int, cpu: dict[str, list[float]] | None = None
) -> dict[str, list[float]]:
    """Like ``times`` for several functions, taking turns, so that a noisy
    moment of the machine hits the figure and its floor alike. Given
    ``cpu``, the CPU seconds of each call (this thread's, user and system)
    go into it too, by name: other work on the machine disturbs them less."""
    out: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(repeats):
        for name, fn in fns.items():
            gc.collect()
            start, start_cpu = time.perf_counter(), time.thread_time()
            fn()
            out[name].append(time.perf_counter() - start)
            if cpu is not None:
                cpu.setdefault(name, []).append(time.thread_time() - start_cpu)
    return out


def median(values: list[float]) -> float:
    return statistics.median(values)


def p99(values: list[float]) -> float:
    """The 99th percentile (nearest rank; the maximum below 100 samples)."""
    ordered = sorted(values)
    rank = max(1, -(-99 * len(ordered) // 100))
    return ordered[rank - 1]


@dataclass
class Row:
    """One line of the table: a figure, its floor and their ratio.

    ``ratio`` is the figure's cost over the floor's (times divide, rates
    invert); ``goal`` is the largest ratio the issue accepts, if it sets one.
    ``data`` holds the numbers for the JSON file.
    """

    figure: str
    size: str
    value: str
    floor: str
    ratio: float | None = None
    goal: float | None = None
    note: str = ""
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def holds(self) -> bool | None:
        if self.goal is None or self.ratio is None:
            return None
        return self.ratio <= self.goal

    def as_json(self) -> dict[str, Any]:
        return {
            "figure": self.figure,
            "size": self.size,
            "value": self.value,
            "floor": self.floor,
            "ratio": self.ratio,
            "goal": self.goal,
            "holds": self.holds,
            "note": self.note,
            **self.data,
        }


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.3g} ms" if seconds < 1 else f"{seconds:.2f} s"


def rate(per_second: float, unit: str) -> str:
    if per_second >= 1e6:
        return f"{per_second / 1e6:.2f}M {unit}"
    if per_second >= 1e3:
        return f"{per_second / 1e3:.1f}k {unit}"
    return f"{per_second:.3g} {unit}"
