"""The hash chain of a portable log, the canonical bytes it hashes, the
digest of a game state, what a signature covers, and times as a log
writes them (see the package's docstring for the format)."""

from __future__ import annotations

import hashlib
import re
from datetime import datetime, timezone
from typing import Any

import msgspec

FORMAT = "rulekeeper-log/2"
SIGNED_PREFIX = b"rulekeeper-log/2 signature\n"

# Times are written with all six microsecond digits, always, so a log read
# back and written again is byte-identical.
_TIME_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"
_TIME_PATTERN = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z")


def digest(data: bytes) -> str:
    """BLAKE2b-128 of ``data``, in hex: every hash a log holds."""
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def canonical(obj: Any) -> bytes:
    """The bytes a hash is taken of: JSON with sorted keys, so whitespace
    and key order in a file never matter."""
    return msgspec.json.encode(obj, order="sorted")


def link(previous: str, obj: dict[str, Any]) -> str:
    """The hash of ``obj`` (without its own ``hash`` key) chained to ``previous``."""
    body = {k: v for k, v in obj.items() if k != "hash"}
    return digest(previous.encode("ascii") + canonical(body))


def state_digest(state: Any) -> str:
    """BLAKE2b-128 hex of a game state's canonical JSON (the rules' state,
    not the undo stacks): equal states, equal digests."""
    return digest(canonical(state))


def format_time(t: datetime) -> str:
    """``t`` in UTC as a log writes it, all six microsecond digits."""
    return t.astimezone(timezone.utc).strftime(_TIME_FORMAT)


def parse_time(text: str) -> datetime | None:
    """A time written by ``format_time``, or None for any other text."""
    if not _TIME_PATTERN.fullmatch(text):
        return None
    try:
        return datetime.strptime(text, _TIME_FORMAT).replace(tzinfo=timezone.utc)
    except ValueError:
        return None


def signed_bytes(trailer: dict[str, Any]) -> bytes:
    """What a signature covers: the trailer without its signature and hash.
    Its ``last_hash`` is chained through every line before, so this covers
    the whole log."""
    body = {k: v for k, v in trailer.items() if k not in ("signature", "hash")}
    return SIGNED_PREFIX + canonical(body)
