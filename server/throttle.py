"""How often one token may read a whole log (export, verify, the full
narrated log): a bucket of ``burst`` reads per token, refilled at
``per_minute``; past it a read is refused (429) with the seconds to wait.

The buckets are kept on the event loop (no lock) and by a digest of the
token, never the token itself. A full bucket is the same as none, so
those are dropped first when there are too many; a client sending many
made-up tokens (each refused 401 anyway) can at worst push out a real
token's bucket after ``MAX_BUCKETS`` of them, which itself takes a while.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from .refusals import Refused
from .wire import Refusal

MAX_BUCKETS = 4096


@dataclass(frozen=True)
class Rate:
    """``burst`` whole-log reads at once, then ``per_minute`` a minute."""

    burst: int = 6
    per_minute: float = 6.0


class Throttled(Refused):
    """429: too many whole-log reads for this token; ``retry_after`` seconds to wait."""

    def __init__(self, reason: str, retry_after: int) -> None:
        super().__init__(429, Refusal(error="throttled", reason=reason))
        self.retry_after = retry_after


class Throttle:
    """The buckets of every token that read a whole log lately."""

    def __init__(self, rate: Rate, clock: Callable[[], float] = time.monotonic, *, per: str = "token") -> None:
        self.rate = rate
        self.per = per  # what a bucket is kept for, in the refusal's words (a token, a client address)
        self.clock = clock  # the tests' own clock; the server's is monotonic
        self._buckets: OrderedDict[bytes, tuple[float, float]] = OrderedDict()  # key -> (tokens, when)

    def take(self, token: str, what: str) -> None:
        """Count one whole-log read (``what``) for ``token`` (or whatever the
        buckets are kept for: ``per``), or raise ``Throttled``."""
        key = hashlib.blake2b(token.encode(), digest_size=16).digest()
        now = self.clock()
        tokens, when = self._buckets.pop(key, (float(self.rate.burst), now))
        tokens = min(float(self.rate.burst), tokens + (now - when) * self.rate.per_minute / 60.0)
        if tokens < 1.0:
            self._buckets[key] = (tokens, now)
            wait = max(1, math.ceil((1.0 - tokens) * 60.0 / self.rate.per_minute))
            raise Throttled(
                f"{what} is a read of a whole log, at most {self.rate.burst} at once and "
                f"{self.rate.per_minute:g} a minute per {self.per}: try again in {wait} s",
                wait,
            )
        self._buckets[key] = (tokens - 1.0, now)
        if len(self._buckets) > MAX_BUCKETS:
            self._prune(now)

    def _prune(self, now: float) -> None:
        full = [
            key
            for key, (tokens, when) in self._buckets.items()
            if tokens + (now - when) * self.rate.per_minute / 60.0 >= self.rate.burst
        ]
        for key in full:
            del self._buckets[key]
        while len(self._buckets) > MAX_BUCKETS:
            self._buckets.popitem(last=False)
