"""A counter-based random number generator.

Outcome n of a battle is a pure function of (seed, n): BLAKE2b of both. The
counter lives in the battle's state and every outcome is written into an
event, so replay never calls this module and ``verify`` can re-derive every
roll from the log alone.
"""

from __future__ import annotations

from domain.kernel.digests import blake2b

_LIMIT = 1 << 64

# A seed is stored as a signed 64-bit integer (SQLite, PostgreSQL BIGINT, the
# portable log's JSON readers): 0 to 2**63 - 1.
MAX_SEED = (1 << 63) - 1


def check_seed(seed: int) -> None:
    """Refuse a seed no store can keep (MalformedCommand, no rule sets it)."""
    from domain.kernel.errors import MalformedCommand

    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        shown = str(seed) if isinstance(seed, int) and abs(seed) < 10**30 else "that"
        raise MalformedCommand(f"seed {shown} is out of range: a seed is 0 to {MAX_SEED} (2^63 - 1)")


def draw(seed: int, counter: int, sides: int) -> int:
    """Return outcome ``counter`` of ``seed`` as an integer in [0, sides).

    Rejection sampling keeps every value exactly equally likely; the retry
    index is folded into the hash, so the result is still a pure function
    of (seed, counter).
    """
    if sides <= 0:
        raise ValueError("sides must be positive")
    bound = _LIMIT - (_LIMIT % sides)
    attempt = 0
    while True:
        digest = blake2b(f"{seed}:{counter}:{attempt}".encode(), digest_size=8).digest()
        value = int.from_bytes(digest, "big")
        if value < bound:
            return value % sides
        attempt += 1


def draws(seed: int, counter: int, sides: int, n: int) -> tuple[list[int], int]:
    """Return ``n`` outcomes starting at ``counter`` and the next counter."""
    return [draw(seed, counter + i, sides) for i in range(n)], counter + n
