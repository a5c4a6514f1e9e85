"""A log read line by line in order: each line's hash must chain from the
line before, each event line's stream and version follow on; where the
chain breaks, the line numbers and hashes the lines record tell why."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any
from uuid import UUID

import msgspec

from domain.kernel.envelope import Envelope
from domain.kernel.errors import LogError
from domain.kernel.portable.chain import link, parse_time
from domain.kernel.portable.diff import divergence, reason
from domain.kernel.portable.parse import (
    Source,
    check_header,
    decode_event,
    is_kind,
    is_signature,
    json_object,
    line_types,
    opened,
    read_lines,
    too_deep,
    well_formed,
)
from domain.kernel.ruleset import Ruleset

_CHAIN_BROKEN = "a hash that does not match: this line (or its hash) was edited"


@dataclass(frozen=True)
class Entry:
    """One event line of a log, decoded."""

    line: int
    stream: str  # the header's name for it: the game's kind, or "kind:key"
    envelope: Envelope

    @property
    def event(self) -> Any:
        return self.envelope.event


@dataclass(frozen=True)
class ParsedLog:
    """A log whose every line is well formed, read whole into memory (for
    tests and tools on small logs; verify and import stream instead)."""

    header: dict[str, Any]
    ruleset: Ruleset
    entries: list[Entry]
    lines: int
    trailer: dict[str, Any] | None = None

    @property
    def battle(self) -> list[Entry]:
        """The game stream's entries, in order."""
        kind = self.ruleset.game_kind
        return [e for e in self.entries if e.stream == kind]


def read_log(data: Source) -> ParsedLog:
    """Parse and check every line of a log (format, chain, versions, event
    types); LogError names the first bad line. Holds every entry."""
    reader = Reader()
    entries: list[Entry] = []
    trailer = None
    with opened(data) as f:
        for _, item in reader.read(read_lines(f)):
            if isinstance(item, Entry):
                entries.append(item)
            elif item is not None:
                trailer = item
    assert reader.ruleset is not None
    return ParsedLog(reader.header, reader.ruleset, entries, reader.lines, trailer)


class Reader:
    """Checks lines one at a time, keeping what the next line needs: the
    previous hash, the ruleset and streams named, each stream's last
    version, whether the trailer was read. ``chained=False`` reads lines
    as they are, whether or not their hashes chain: to show what a log
    says past the place verify rejects it (the dispute page), never to
    judge it."""

    def __init__(self, *, chained: bool = True) -> None:
        self.chained = chained
        self.previous = ""
        self.before_trailer = ""  # the hash of the line before the trailer
        self.header: dict[str, Any] = {}
        self.ruleset: Ruleset | None = None
        self.streams: dict[str, str] = {}
        self.bases: dict[str, type] = {}  # a group log's streams: the class of each one's events
        self.versions: dict[str, int] = {}
        self.lines = 0
        self.ended = 0  # the trailer's line

    def read(self, lines: Iterable[tuple[int, bytes]]) -> Iterator[tuple[int, Entry | dict[str, Any] | None]]:
        """Each line with what it holds: its entry, the trailer (a dict), or
        None for the header. The first line that does not chain from the
        one before ends the log (``ChainBroken``, the line after it read to
        tell why): what follows it, or follows from it, is not judged."""
        lines = iter(lines)
        for n, text in lines:
            self.lines = n
            if self.ended:
                raise LogError(n, f"a line after the trailer (line {self.ended} ends the log)")
            obj = self._object(n, text)
            before = self.previous
            if self.chained and link(before, obj) != obj["hash"]:
                raise ChainBroken(n, _unchained(n, obj, before, _peek(lines)))
            self.previous = obj["hash"]
            yield n, self._item(n, obj, before)

    def _object(self, n: int, text: bytes) -> dict[str, Any]:
        try:
            return json_object(n, text, line_types(text, header=n == 1))
        except LogError:
            # A well-formed line of the other kind (an event line first, a
            # header later) that does not chain from the line before: a
            # line missing, moved or repeated, reported as the chain's break.
            other = well_formed(text, header=n != 1)
            if other is None or link(self.previous, other) == other["hash"]:
                raise
            return other

    def _item(self, n: int, obj: dict[str, Any], before: str) -> Entry | dict[str, Any] | None:
        if n == 1:
            self.header = obj
            self.ruleset, self.streams = check_header(obj)
            if "games" in obj:
                from domain.kernel.portable import group

                games = group.check_games(obj, self.ruleset)
                self.bases = {name: group.event_base(games, name) for name in self.streams.values()}
            return None
        if "end" in obj:
            if obj["n"] != n:
                raise LogError(n, f'"n" is {obj["n"]}, but this is line {n}')
            if obj["end"] is not True:
                raise LogError(n, '"end" must be true')
            if obj["signature"] is not None and not is_signature(obj["signature"]):
                raise LogError(n, '"signature" must be null or {"alg": "ed25519", "key": hex, "sig": hex}')
            self.ended, self.before_trailer = n, before
            return obj
        return self._entry(n, obj)

    def _entry(self, n: int, obj: dict[str, Any]) -> Entry:
        assert self.ruleset is not None
        if obj["n"] != n:
            raise LogError(n, f'"n" is {obj["n"]}, but this is line {n}')
        sid = obj["stream"]
        name = self.streams.get(sid)
        if name is None:
            raise LogError(n, f"stream {sid} is not named in the header")
        version = obj["version"]
        expected = self.versions.get(sid, 0) + 1
        if version != expected:
            raise LogError(
                n,
                f"stream {sid} ({name}): version {version} where {expected} was due"
                " (versions run 1, 2, 3... with no gap)",
            )
        self.versions[sid] = version
        event = decode_event(n, self.ruleset, obj["type"], obj["data"], name, self.bases.get(name))
        at = parse_time(obj["time"])
        if at is None:
            raise LogError(n, f"time {obj['time']!r} is not ISO-8601 UTC as YYYY-MM-DDTHH:MM:SS.ffffffZ")
        if not obj["command"]:
            raise LogError(n, "the command id is empty")
        envelope = Envelope(
            originator_id=UUID(sid), originator_version=version, timestamp=at, command_id=obj["command"], event=event
        )
        return Entry(n, name, envelope)


class ChainBroken(LogError):
    """A line whose hash does not chain from the line before: the log was
    changed there (a line edited, missing, moved or repeated). Verify
    reports it as the CHAIN divergence it carries; import refuses with the
    same line and words."""

    def __init__(self, line: int, found: str) -> None:
        self.divergence = divergence(line, None, "CHAIN", "the hash chained from the previous line", found)
        super().__init__(line, reason(self.divergence))


def _unchained(n: int, obj: dict[str, Any], previous: str, after: dict[str, Any] | None) -> str:
    """Why line ``n`` does not chain from the line before (hash
    ``previous``), as far as the line numbers and hashes recorded in it,
    and in the line ``after`` it, tell."""
    recorded = _number(obj)
    if obj["hash"] == previous:
        return f"line {n - 1} again (the same line, hash and all): a line was repeated"
    if recorded is not None and recorded > n:
        if after is not None and _number(after) == n and link(previous, after) == after.get("hash"):
            return f"{_called(obj, recorded)} of the log as written, then its line {n}: the two lines were swapped"
        missing = (
            f"line {n}{' (the header)' if n == 1 else ''} is"
            if recorded == n + 1
            else f"lines {n} to {recorded - 1} are"
        )
        return f"{_called(obj, recorded)} of the log as written: its {missing} missing (deleted or moved)" + (
            f"; {_closes(n, obj, previous)}" if "end" in obj else ""
        )
    if recorded is not None and recorded < n:
        return f"{_called(obj, recorded)} of the log as written: a line was moved, repeated or inserted before it"
    if "end" in obj and (obj["events"] != n - 2 or obj["last_hash"] != previous):
        extra = n - 2 - obj["events"]
        return f"{_closes(n, obj, previous)}: " + (
            f"{-extra} event line(s) before it are missing (deleted)"
            if extra < 0
            else f"{extra} event line(s) before it were added"
            if extra > 0
            else "the line before it was changed"
        )
    return _CHAIN_BROKEN


def _closes(n: int, trailer: dict[str, Any], previous: str) -> str:
    """What the trailer at line ``n`` closes against what it follows."""
    return (
        f"the trailer counts {trailer['events']} event lines, the last of hash {trailer['last_hash']},"
        f" but follows {n - 2}, the last of hash {previous or '(none)'}"
    )


def _number(obj: dict[str, Any]) -> int | None:
    """The line number a line records (the header is line 1)."""
    if "format" in obj:
        return 1
    number = obj.get("n")
    return number if is_kind(number, int) else None


def _called(obj: dict[str, Any], number: int) -> str:
    return f"line {number}" + (" (the trailer)" if "end" in obj else " (the header)" if number == 1 else "")


def _peek(lines: Iterator[tuple[int, bytes]]) -> dict[str, Any] | None:
    """The next line as a JSON object with a hash, or None (the end, or a
    line that is not one): read only to say why the chain broke."""
    try:
        _, text = next(lines)
    except (StopIteration, LogError):
        return None
    if too_deep(text):
        return None
    try:
        obj = msgspec.json.decode(text)
    except (msgspec.DecodeError, RecursionError):
        return None
    return obj if isinstance(obj, dict) and isinstance(obj.get("hash"), str) else None
