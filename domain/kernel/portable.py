"""The portable log of any game: export, import and verify (DESIGN: Logs).

A log is JSON Lines. Line 1 is a header naming the format, the ruleset, the
rules version and content pack, the battle and every stream the log holds,
and the digest of the game's final state. Each further line is one stored
event, in append order, with its stream, version, type (the event's stable
TOPIC), command id, time and data. Every line carries a hash chained to the
line before::

    hash = BLAKE2b-128(previous hash as hex ASCII + canonical bytes of the
                       line's object without its "hash" key)

where the canonical bytes are ``msgspec.json.encode(obj, order="sorted")``
of the parsed object, so the check does not depend on whitespace or key
order in the file, and any edit of content breaks the chain at that line.
A line deleted, two lines swapped or a line repeated break it too, at the
first line out of place; the line numbers and hashes the lines record
tell which it was. Nothing after a break is judged: a version gap or a
command cut short there is its consequence, not another divergence.

The header's ``ruleset`` picks the rules everything else is read, checked
and re-decided with. ``import_log`` checks everything before it writes
anything. ``verify_log`` re-decides every recorded command with the current
rules, re-derives every random outcome from (seed, counter), checks every
write to another stream and every undo, and reports the first place the log
and the rules part ways.

The last line is a trailer: the number of event lines, the hash of the
line before it, the final state digest again, and an optional Ed25519
signature (``domain.kernel.signing``) over the trailer's other fields,
which, through ``last_hash``, covers every line. A log without its trailer
was cut, and is reported so.

Which lines belong to which command: a command's events are saved in one
transaction, game stream first, so in append order they are one run of
lines (a setup's prelude, the new party members, just before it). Lines of
other streams outside any command of the game (an adventurer's earlier
battles) are the streams' history.

Limits: a line may hold at most ``MAX_LINE_BYTES`` and nest at most
``MAX_DEPTH`` levels of arrays and objects; a log is read one line at a
time, so export, verify and import take memory for one command, not for
the whole log.
"""

from __future__ import annotations

import hashlib
import io
import os
import re
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from enum import Enum
from typing import Any, BinaryIO, Union
from uuid import UUID

import msgspec

from domain.kernel import ruleset as registry
from domain.kernel.commandlog import CommandIssued, CommandUndone, Game, fold
from domain.kernel.envelope import Envelope, wrap
from domain.kernel.errors import AmbiguousCommand, LogError, MalformedCommand, NotFound, RuleViolation
from domain.kernel.games import INDEX_STREAM, GameApp, GameRegistered
from domain.kernel.messages import event_class
from domain.kernel.ruleset import Aggregate, Outcome, Problem, Ruleset, rules_context
from domain.kernel.streams_order import envelopes_in_append_order

FORMAT = "rulekeeper-log/2"
MAX_LINE_BYTES = 1 << 20  # 1 MiB: the longest event line of a real battle is a few KiB
MAX_DEPTH = 64  # levels of nested arrays and objects in one line; real events nest fewer than 10
PROGRESS_EVERY = 5000  # lines between calls of a progress callback
SIGNED_PREFIX = b"rulekeeper-log/2 signature\n"
_CHAIN_BROKEN = "a hash that does not match: this line (or its hash) was edited"

_HEADER_KEYS = ("format", "ruleset", "rules_version", "pack_id", "pack_hash", "battle_id",
                "streams", "final_state_digest", "hash")
_LINE_KEYS = ("n", "stream", "version", "type", "command", "time", "data", "hash")
# The state attributes the header repeats (the ruleset contract).
_STATE_KEYS = ("battle_id", "rules_version", "pack_id", "pack_hash")

# Times are written with all six microsecond digits, always, so a log read
# back and written again is byte-identical.
_TIME_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"
_TIME_PATTERN = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z")


# --------------------------------------------------------------- hashing


def _digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def _canonical(obj: Any) -> bytes:
    return msgspec.json.encode(obj, order="sorted")


def _link(previous: str, obj: dict[str, Any]) -> str:
    """The hash of ``obj`` (without its own ``hash`` key) chained to ``previous``."""
    body = {k: v for k, v in obj.items() if k != "hash"}
    return _digest(previous.encode("ascii") + _canonical(body))


def state_digest(state: Any) -> str:
    """BLAKE2b-128 hex of a game state's canonical JSON (the rules' state,
    not the undo stacks): equal states, equal digests."""
    return _digest(_canonical(state))


def _format_time(t: datetime) -> str:
    return t.astimezone(timezone.utc).strftime(_TIME_FORMAT)


def _parse_time(text: str) -> datetime | None:
    if not _TIME_PATTERN.fullmatch(text):
        return None
    try:
        return datetime.strptime(text, _TIME_FORMAT).replace(tzinfo=timezone.utc)
    except ValueError:
        return None


# ---------------------------------------------------------------- export


def export_battle(app: GameApp, battle_id: str, *, sign: Any = None) -> bytes:
    """The portable log of a game as bytes (``write_log`` into memory; for
    a long game write to a file with ``write_log``). ``sign``: a private
    key from ``domain.kernel.signing.load_private`` to sign the log with."""
    out = io.BytesIO()
    write_log(app, battle_id, out, sign=sign)
    return out.getvalue()


def write_log(app: GameApp, battle_id: str, out: BinaryIO, *, sign: Any = None,
              progress: Callable[[int], None] | None = None) -> int:
    """Write the portable log of a game to ``out``, one line at a time
    (memory does not grow with the game), and return its line count.
    ``progress(lines)`` is called now and then on a long game."""
    n = 0
    for n, line in enumerate(export_lines(app, battle_id, sign=sign), start=1):
        out.write(line + b"\n")
        if progress and n % PROGRESS_EVERY == 0:
            progress(n)
    return n


def export_lines(app: GameApp, battle_id: str, *, sign: Any = None) -> Iterator[bytes]:
    """The lines of a game's portable log (without newlines): the header,
    its stream and the other streams its ruleset names (Betrayal: the
    party's adventurers), complete from version 1 to the end of the store,
    in append order, then the trailer. Only those streams are read, so a
    small game costs the same in a big store. NotFound when there is no
    such game."""
    rs = app.ruleset(battle_id)
    game = app.battle(battle_id)
    streams = {rs.game_stream(battle_id): rs.game_kind, **rs.related_streams(game.state)}
    digest = state_digest(game.state)
    header = {
        "format": FORMAT, "ruleset": rs.name,
        **{key: getattr(game.state, key) for key in ("rules_version", "pack_id", "pack_hash")},
        "battle_id": battle_id,
        "streams": {str(sid): name for sid, name in streams.items()},
        "final_state_digest": digest,
    }
    previous = ""

    def chained(obj: dict[str, Any]) -> bytes:
        nonlocal previous
        obj["hash"] = previous = _link(previous, obj)
        return msgspec.json.encode(obj)

    yield chained(header)
    n = 1
    for n, env in enumerate(envelopes_in_append_order(app, streams), start=2):
        yield chained(_row(n, env))
    trailer: dict[str, Any] = {"n": n + 1, "end": True, "events": n - 1, "last_hash": previous,
                               "final_state_digest": digest, "signature": None}
    if sign is not None:
        from domain.kernel import signing

        trailer["signature"] = signing.sign(sign, _signed_bytes(trailer))
    yield chained(trailer)


def _row(n: int, env: Envelope) -> dict[str, Any]:
    return {
        "n": n, "stream": str(env.originator_id), "version": env.originator_version,
        "type": type(env.event).TOPIC, "command": env.command_id,
        "time": _format_time(env.timestamp), "data": env.event,
    }


def _signed_bytes(trailer: dict[str, Any]) -> bytes:
    """What a signature covers: the trailer without its signature and hash.
    Its ``last_hash`` is chained through every line before, so this covers
    the whole log."""
    body = {k: v for k, v in trailer.items() if k not in ("signature", "hash")}
    return SIGNED_PREFIX + _canonical(body)


# --------------------------------------------------------------- reading


Source = Union[bytes, bytearray, str, "os.PathLike[str]", BinaryIO]


@contextmanager
def _opened(source: Source) -> Iterator[BinaryIO]:
    """A binary file of ``source``: bytes, a path, or an open binary file
    (read from where it stands)."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        yield io.BytesIO(source)
    elif isinstance(source, (str, os.PathLike)):
        with open(source, "rb") as f:
            yield f
    else:
        yield source


def _lines(f: BinaryIO) -> Iterator[tuple[int, bytes]]:
    """(line number, line without its newline), one at a time. A line over
    ``MAX_LINE_BYTES`` is refused after reading that much of it, never
    loaded whole."""
    n = 0
    while True:
        raw = f.readline(MAX_LINE_BYTES + 2)
        if not raw:
            break
        n += 1
        if raw.endswith(b"\n"):
            raw = raw[:-1]
        if len(raw) > MAX_LINE_BYTES:
            raise LogError(n, f"the line is longer than {MAX_LINE_BYTES:,} bytes, the most a log line may hold")
        yield n, raw
    if n == 0:
        raise LogError(1, "the log is empty")


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
    reader = _Reader()
    entries: list[Entry] = []
    trailer = None
    with _opened(data) as f:
        for _, item in reader.read(_lines(f)):
            if isinstance(item, Entry):
                entries.append(item)
            elif item is not None:
                trailer = item
    assert reader.ruleset is not None
    return ParsedLog(reader.header, reader.ruleset, entries, reader.lines, trailer)


class _Reader:
    """Checks lines one at a time, keeping what the next line needs: the
    previous hash, the ruleset and streams named, each stream's last
    version, whether the trailer was read."""

    def __init__(self) -> None:
        self.previous = ""
        self.before_trailer = ""  # the hash of the line before the trailer
        self.header: dict[str, Any] = {}
        self.ruleset: Ruleset | None = None
        self.streams: dict[str, str] = {}
        self.versions: dict[str, int] = {}
        self.lines = 0
        self.ended = 0  # the trailer's line

    def read(self, lines: Iterable[tuple[int, bytes]]) -> Iterator[tuple[int, Entry | dict[str, Any] | None]]:
        """Each line with what it holds: its entry, the trailer (a dict), or
        None for the header. The first line that does not chain from the
        one before ends the log (``_ChainBroken``, the line after it read to
        tell why): what follows it, or follows from it, is not judged."""
        lines = iter(lines)
        for n, text in lines:
            self.lines = n
            if self.ended:
                raise LogError(n, f"a line after the trailer (line {self.ended} ends the log)")
            obj = self._object(n, text)
            before = self.previous
            if _link(before, obj) != obj["hash"]:
                raise _ChainBroken(n, _unchained(n, obj, before, _peek(lines)))
            self.previous = obj["hash"]
            yield n, self._item(n, obj, before)

    def _object(self, n: int, text: bytes) -> dict[str, Any]:
        try:
            return _json_object(n, text, _types(text, header=n == 1))
        except LogError:
            # A well-formed line of the other kind (an event line first, a
            # header later) that does not chain from the line before: a
            # line missing, moved or repeated, reported as the chain's break.
            other = _well_formed(text, header=n != 1)
            if other is None or _link(self.previous, other) == other["hash"]:
                raise
            return other

    def _item(self, n: int, obj: dict[str, Any], before: str) -> Entry | dict[str, Any] | None:
        if n == 1:
            self.header = obj
            self.ruleset, self.streams = _check_header(obj)
            return None
        if "end" in obj:
            if obj["n"] != n:
                raise LogError(n, f"\"n\" is {obj['n']}, but this is line {n}")
            if obj["end"] is not True:
                raise LogError(n, "\"end\" must be true")
            if obj["signature"] is not None and not _is_signature(obj["signature"]):
                raise LogError(n, "\"signature\" must be null or {\"alg\": \"ed25519\", \"key\": hex, \"sig\": hex}")
            self.ended, self.before_trailer = n, before
            return obj
        return self._entry(n, obj)

    def _entry(self, n: int, obj: dict[str, Any]) -> Entry:
        assert self.ruleset is not None
        if obj["n"] != n:
            raise LogError(n, f"\"n\" is {obj['n']}, but this is line {n}")
        sid = obj["stream"]
        name = self.streams.get(sid)
        if name is None:
            raise LogError(n, f"stream {sid} is not named in the header")
        version = obj["version"]
        expected = self.versions.get(sid, 0) + 1
        if version != expected:
            raise LogError(n, f"stream {sid} ({name}): version {version} where {expected} was due"
                              " (versions run 1, 2, 3... with no gap)")
        self.versions[sid] = version
        event = _decode_event(n, self.ruleset, obj["type"], obj["data"], name)
        at = _parse_time(obj["time"])
        if at is None:
            raise LogError(n, f"time {obj['time']!r} is not ISO-8601 UTC as YYYY-MM-DDTHH:MM:SS.ffffffZ")
        if not obj["command"]:
            raise LogError(n, "the command id is empty")
        envelope = Envelope(originator_id=UUID(sid), originator_version=version,
                            timestamp=at, command_id=obj["command"], event=event)
        return Entry(n, name, envelope)


def _looks_like_trailer(text: bytes) -> bool:
    # Decided before decoding, to pick the keys the line must have; an
    # event line whose data holds the text is still checked against the
    # trailer's keys and refused.
    return b'"end"' in text and b'"stream"' not in text


class _ChainBroken(LogError):
    """A line whose hash does not chain from the line before: the log was
    changed there (a line edited, missing, moved or repeated). Verify
    reports it as the CHAIN divergence it carries; import refuses with the
    same line and words."""

    def __init__(self, line: int, found: str) -> None:
        self.divergence = _divergence(line, None, "CHAIN", "the hash chained from the previous line", found)
        super().__init__(line, _reason(self.divergence))


def _unchained(n: int, obj: dict[str, Any], previous: str, after: dict[str, Any] | None) -> str:
    """Why line ``n`` does not chain from the line before (hash
    ``previous``), as far as the line numbers and hashes recorded in it,
    and in the line ``after`` it, tell."""
    recorded = _number(obj)
    if obj["hash"] == previous:
        return f"line {n - 1} again (the same line, hash and all): a line was repeated"
    if recorded is not None and recorded > n:
        if after is not None and _number(after) == n and _link(previous, after) == after.get("hash"):
            return (f"{_called(obj, recorded)} of the log as written, then its line {n}:"
                    " the two lines were swapped")
        missing = (f"line {n}{' (the header)' if n == 1 else ''} is" if recorded == n + 1
                   else f"lines {n} to {recorded - 1} are")
        return f"{_called(obj, recorded)} of the log as written: its {missing} missing (deleted or moved)" + (
            f"; {_closes(n, obj, previous)}" if "end" in obj else "")
    if recorded is not None and recorded < n:
        return f"{_called(obj, recorded)} of the log as written: a line was moved, repeated or inserted before it"
    if "end" in obj and (obj["events"] != n - 2 or obj["last_hash"] != previous):
        extra = n - 2 - obj["events"]
        return f"{_closes(n, obj, previous)}: " + (
            f"{-extra} event line(s) before it are missing (deleted)" if extra < 0 else
            f"{extra} event line(s) before it were added" if extra > 0 else "the line before it was changed")
    return _CHAIN_BROKEN


def _closes(n: int, trailer: dict[str, Any], previous: str) -> str:
    """What the trailer at line ``n`` closes against what it follows."""
    return (f"the trailer counts {trailer['events']} event lines, the last of hash {trailer['last_hash']},"
            f" but follows {n - 2}, the last of hash {previous or '(none)'}")


def _number(obj: dict[str, Any]) -> int | None:
    """The line number a line records (the header is line 1)."""
    if "format" in obj:
        return 1
    number = obj.get("n")
    return number if _is(number, int) else None


def _called(obj: dict[str, Any], number: int) -> str:
    return f"line {number}" + (" (the trailer)" if "end" in obj else " (the header)" if number == 1 else "")


def _types(text: bytes, *, header: bool) -> dict[str, Any]:
    """The keys and types a line must have: the header's, or an event line's or the trailer's."""
    return _HEADER_TYPES if header else _TRAILER_TYPES if _looks_like_trailer(text) else _LINE_TYPES


def _well_formed(text: bytes, *, header: bool) -> dict[str, Any] | None:
    """``text`` as a well-formed header (or event line or trailer), or None."""
    try:
        return _json_object(0, text, _types(text, header=header))
    except LogError:
        return None


def _peek(lines: Iterator[tuple[int, bytes]]) -> dict[str, Any] | None:
    """The next line as a JSON object with a hash, or None (the end, or a
    line that is not one): read only to say why the chain broke."""
    try:
        _, text = next(lines)
    except (StopIteration, LogError):
        return None
    if _too_deep(text):
        return None
    try:
        obj = msgspec.json.decode(text)
    except (msgspec.DecodeError, RecursionError):
        return None
    return obj if isinstance(obj, dict) and isinstance(obj.get("hash"), str) else None


def _is_signature(value: Any) -> bool:
    return (isinstance(value, dict) and set(value) == {"alg", "key", "sig"} and value["alg"] == "ed25519"
            and all(isinstance(value[k], str) for k in ("key", "sig")))


_STRINGS = re.compile(rb'"(?:[^"\\]|\\.)*"')
_BRACKETS = re.compile(rb"[\[\]{}]")


def _too_deep(text: bytes) -> bool:
    """Whether ``text`` nests arrays and objects deeper than ``MAX_DEPTH``
    (decoding and comparing recurse once per level)."""
    if text.count(b"[") + text.count(b"{") <= MAX_DEPTH:
        return False  # the common case, at C speed
    depth = 0
    for m in _BRACKETS.finditer(_STRINGS.sub(b'""', text)):
        if m.group() in (b"[", b"{"):
            depth += 1
            if depth > MAX_DEPTH:
                return True
        else:
            depth -= 1
    return False


def _json_object(n: int, text: bytes, types: dict[str, Any]) -> dict[str, Any]:
    """The line as a JSON object with exactly the keys of ``types``, each of its type."""
    if _too_deep(text):
        raise LogError(n, f"nested deeper than {MAX_DEPTH} levels, the most a log line may nest")
    try:
        obj = msgspec.json.decode(text)
    except (msgspec.DecodeError, RecursionError) as e:
        raise LogError(n, f"not JSON ({e})") from None
    if not isinstance(obj, dict):
        raise LogError(n, f"not a JSON object but {type(obj).__name__}")
    missing = [k for k in types if k not in obj]
    extra = sorted(k for k in obj if k not in types)
    if missing:
        raise LogError(n, f"missing key(s): {', '.join(missing)}")
    if extra:
        raise LogError(n, f"unexpected key(s): {', '.join(extra)}")
    for key, kind in types.items():
        if kind is not None and not _is(obj[key], kind):
            raise LogError(n, f"\"{key}\" must be {_KIND_NAMES.get(kind, getattr(kind, '__name__', kind))}")
    return obj


_HEADER_TYPES: dict[str, Any] = {k: (dict if k == "streams" else str) for k in _HEADER_KEYS}
_LINE_TYPES: dict[str, Any] = {"n": int, "stream": str, "version": int, "type": str, "command": str,
                               "time": str, "data": dict, "hash": str}
_TRAILER_TYPES: dict[str, Any] = {"n": int, "end": bool, "events": int, "last_hash": str,
                                  "final_state_digest": str, "signature": None, "hash": str}
_KIND_NAMES = {dict: "an object", bool: "true or false"}


def _is(value: Any, kind: type) -> bool:
    # JSON true/false decode to bool, a subclass of int: not a number here.
    return isinstance(value, kind) and not (kind is int and isinstance(value, bool))


def _check_header(h: dict[str, Any]) -> tuple[Ruleset, dict[str, str]]:
    """The header's own rules; returns its ruleset and streams (uuid text -> name)."""
    if h["format"] != FORMAT:
        raise LogError(1, f"format {h['format']!r} is not {FORMAT!r}")
    try:
        rs = registry.load(h["ruleset"])
    except NotFound as e:
        raise LogError(1, str(e)) from None
    streams: dict[str, str] = h["streams"]
    for sid, name in streams.items():
        _check_stream(rs, sid, name, h["battle_id"])
    if list(streams.values()).count(rs.game_kind) != 1:
        raise LogError(1, f"the header must name exactly one {rs.game_kind} stream")
    return rs, streams


def _check_stream(rs: Ruleset, sid: str, name: Any, battle_id: str) -> None:
    """Each stream id must be the one the application derives from its
    name, so an import lands where the application will look (and a log
    cannot write into the game index or someone else's stream)."""
    if not isinstance(name, str):
        raise LogError(1, f"stream {sid}: its name must be a string")
    kind, _, key = name.partition(":")
    if name == rs.game_kind:
        expected = rs.game_stream(battle_id)
    elif key.strip() and kind in {a.kind for a in rs.aggregates}:
        expected = rs.stream_of(kind, key)
    else:
        kinds = ", ".join(f'"{a.kind}:<name>"' for a in rs.aggregates)
        raise LogError(1, f"stream {sid}: name {name!r} is neither \"{rs.game_kind}\""
                          + (f" nor {kinds}" if kinds else ""))
    if sid != str(expected):
        raise LogError(1, f"stream {sid} is not the stream of {name!r} ({expected})")


def _decode_event(n: int, rs: Ruleset, topic: str, data: dict[str, Any], stream: str) -> Any:
    """The event of class ``topic``, decoded strictly from ``data``, which
    must be exactly the event's fields (nothing silently dropped or added)."""
    try:
        cls = event_class(topic)
    except KeyError:
        raise LogError(n, f"unknown event type {topic!r}") from None
    kind = stream.partition(":")[0]
    base = rs.event_base if stream == rs.game_kind else rs.aggregate(kind).event_base
    if not issubclass(cls, base):
        raise LogError(n, f"{topic} does not belong in a {kind} stream")
    try:
        event = msgspec.convert(data, cls)
    except msgspec.ValidationError as e:
        raise LogError(n, f"data does not decode as {cls.__name__}: {e}") from None
    again = _builtins(event)
    if again != data:
        where = _difference(again, data) or "data"
        raise LogError(n, f"data is not exactly the fields of {cls.__name__}: {where}")
    return event


# ---------------------------------------------------------------- import


def import_log(app: GameApp, data: Source, *, progress: Callable[[int], None] | None = None) -> str:
    """Import a log into ``app``'s store and return the battle id.

    Everything ``verify_log`` checks is checked first, in a streaming pass
    (each line, the hash chain, the trailer, every command re-decided with
    the loaded pack, every write and undo, the final state, a signature if
    there is one), and that none of the log's streams exists yet; LogError
    names the first problem and nothing is written. Then a second pass
    appends the events as recorded (stream ids, versions, times, command
    ids) with the game's index entry, in one transaction. ``data``: bytes,
    a path, or a seekable binary file.
    """
    with _opened(data) as f:
        start = f.tell() if not isinstance(data, (bytes, bytearray, memoryview)) else 0
        check = _Check(None, strict=True, app=app, progress=progress)
        check.run(_lines(f))
        assert check.rs is not None and check.reader.ruleset is not None
        rs, header, last = check.rs, check.reader.header, check.reader.previous
        f.seek(start)
        setup_name = check.setup_name
        index = app.events.last(INDEX_STREAM)
        entry = wrap(INDEX_STREAM, index.originator_version if index else 0,
                     [GameRegistered(battle_id=header["battle_id"], ruleset=rs.name, setup=setup_name)], "import")
        batches = _batches(f, last, entry)
        append_batches = getattr(app, "append_batches", None)
        if append_batches is not None:
            append_batches(batches)  # one transaction: a LogError from the generator rolls it all back
        else:
            app.append([e for batch in batches for e in batch])
    return header["battle_id"]


def _batches(f: BinaryIO, last_hash: str, index: list[Envelope], size: int = 1000) -> Iterator[list[Envelope]]:
    """The log's envelopes read again, ``size`` at a time, then the index
    entry. The hash chain is followed again and must end where the
    checking pass ended: a file changed in between is refused (LogError,
    raised before the last batch, so nothing is committed)."""
    reader = _Reader()
    batch: list[Envelope] = []
    for _, item in reader.read(_lines(f)):
        if isinstance(item, Entry):
            batch.append(item.envelope)
            if len(batch) == size:
                yield batch
                batch = []
    if reader.previous != last_hash:
        raise LogError(reader.lines, "the file changed while it was being imported")
    yield batch + index


def _check_new_streams(app: GameApp, rs: Ruleset, header: dict[str, Any]) -> None:
    for sid, name in header["streams"].items():
        if app.events(UUID(sid), lte=1):
            raise LogError(1, f"stream {sid} ({name}) already exists in this store;"
                              " importing never merges into existing streams")
    battle_id = header["battle_id"]
    for other in registry.all_rulesets():
        if other is not rs and app.events(other.game_stream(battle_id), lte=1):
            raise LogError(1, f"a {other.title} battle {battle_id!r} already exists in this store")


# ------------------------------------------------------ folding the game


@dataclass
class _Step:
    """One command of the game stream, with the game before and after it
    and its lines in other streams."""

    group: list[Entry]
    before: Game | None
    after: Game
    writes: list[Entry] = field(default_factory=list)

    @property
    def command_id(self) -> str:
        return self.group[0].envelope.command_id


# ---------------------------------------------------------------- verify


class Divergence(msgspec.Struct, frozen=True, kw_only=True):
    """Where a log and the rules part ways: the line, the command (its id
    and a readable form), the rule ID, what the rules expected, what the
    log holds."""

    line: int
    command_id: str
    command: str
    rule: str
    expected: str
    found: str


class Report(msgspec.Struct, frozen=True, kw_only=True):
    """The outcome of verifying a log: ``ok`` when nothing diverges.
    ``signed_by``: the public key (hex) whose signature over the log
    checked, "" when it is not signed."""

    ok: bool
    lines: int
    commands: int
    divergence: Divergence | None = None
    signed_by: str = ""

    def summary(self) -> str:
        """One or two lines a person can read."""
        if self.divergence is None:
            signed = f"; signed by key {self.signed_by}" if self.signed_by else "; not signed"
            return f"ok: {self.lines} lines, {self.commands} commands checked, no divergence{signed}"
        d = self.divergence
        where = f"line {d.line}"
        if d.command_id:
            where += f", command {d.command_id}" + (f" ({d.command})" if d.command else "")
        return f"{where}: {d.rule}: expected {d.expected},\n  found {d.found}"


def verify_battle(app: GameApp, battle_id: str, *, key: str | None = None) -> Report:
    """Verify a stored game through its export (so exactly what a log
    would hold is checked), with the packs ``app`` uses, streaming."""
    rs = app.ruleset(battle_id)
    lines = enumerate(export_lines(app, battle_id), start=1)
    return _Check(app.pack_of(rs), key=key).run(lines)


def verify_log(data: Source, pack: Any = None, *, key: str | None = None,
               progress: Callable[[int], None] | None = None) -> Report:
    """Replay a log through the current rules of its ruleset, one line at a
    time, and report the first divergence: a malformed line (FORMAT), a
    broken hash chain (CHAIN: a line edited, deleted, moved or repeated, at
    the first line that does not chain), another content pack (PACK), a
    command the rules now refuse (its rule ID) or decide otherwise, a die
    face or draw the RNG would not give (RNG), a setup whose adventurers or
    party the rules would not make (SETUP), a line of another stream the
    rules would not write (HISTORY), an undo that does not restore the
    earlier state (UNDO), a write to another stream that is not the
    command's (WRITE), a log that ends without its trailer (CUT) or whose
    trailer does not close it (TRAILER), a final state digest that differs
    (DIGEST), and a signature that does not check (SIGNATURE). ``key``: the
    public key (hex) the log must be signed with. ``pack`` defaults to the
    ruleset's own. ``data``: bytes, a path or a binary file."""
    with _opened(data) as f:
        return _Check(pack, key=key, progress=progress).run(_lines(f))


def _unreadable(error: LogError) -> Divergence:
    """A line that cannot be read, or does not chain from the line before,
    ends verification."""
    if isinstance(error, _ChainBroken):
        return error.divergence
    return _divergence(error.line, None, "FORMAT", "a well-formed log line", error.reason)


def _reason(d: Divergence) -> str:
    """A divergence in the words of an import's refusal (LogError)."""
    return f"{d.rule}: expected {d.expected}, found {d.found}"


class _Found(Exception):
    """A divergence: checking stops at the first (lines are checked in order)."""

    def __init__(self, divergence: Divergence) -> None:
        super().__init__(divergence.rule)
        self.divergence = divergence


# Game states kept whole for the wording of an UNDO divergence (a digest of
# every other one is kept: an undo is checked against it).
_RECENT_STATES = 16


class _Check:
    """Verifies a log in one pass over its lines, holding only the command
    being checked, the game so far, a digest of the game after each command
    (what an undo must restore) and the other streams' states.

    A command's lines are checked once its last line is read (the next
    command, a line of no command, or the trailer). Within a command the
    divergence on the earliest line is reported; a command's lines all come
    after the previous command's, so the first command that diverges holds
    the log's first divergence. A line that does not chain from the one
    before ends the pass: the command it would close is not judged, the
    break is. With ``strict`` (import) a problem raises LogError instead:
    a line that cannot be read with the reader's words, any divergence
    (a broken chain too) as its rule and words.
    """

    def __init__(self, pack: Any, *, strict: bool = False, key: str | None = None, app: GameApp | None = None,
                 progress: Callable[[int], None] | None = None) -> None:
        self.pack = pack
        self.strict = strict
        self.key = key
        self.app = app
        self.progress = progress
        self.reader = _Reader()
        self.rs: Ruleset | None = None
        self.commands = 0
        self.game: Game | None = None
        self.pending: list[Entry] = []  # other streams' lines before the setup
        self.group: list[Entry] = []  # the game-stream lines of the command being read
        self.writes: list[Entry] = []  # its lines in other streams, after them
        self.closed = True  # no command is open to take writes
        self.history: dict[str, list[Any]] = {}  # other stream -> its state at each version (index)
        self.digests: dict[int, str] = {0: state_digest(None)}
        self.recent: OrderedDict[int, Any] = OrderedDict()
        self.trailer: dict[str, Any] | None = None
        self.setup_name = ""
        self.signed_by = ""

    # -- the pass --------------------------------------------------------------

    def run(self, lines: Iterable[tuple[int, bytes]]) -> Report:
        try:
            try:
                for n, item in self.reader.read(lines):
                    if n == 1:
                        self._header()
                    elif isinstance(item, Entry):
                        self._entry(item)
                    elif item is not None:
                        self.trailer = item
                        self._close()
                    if self.progress and n % PROGRESS_EVERY == 0:
                        self.progress(n)
                if self.reader.lines == 0:
                    raise LogError(1, "the log is empty")
                self._end()
            except LogError as e:
                if self.strict:
                    raise
                return self._report(_unreadable(e))
        except _Found as f:
            if self.strict:
                raise LogError(f.divergence.line, _reason(f.divergence)) from None
            return self._report(f.divergence)
        return self._report(None)

    def _report(self, found: Divergence | None) -> Report:
        return Report(ok=found is None, lines=self.reader.lines, commands=self.commands, divergence=found,
                      signed_by=self.signed_by if found is None else "")

    def _header(self) -> None:
        header, rs = self.reader.header, self.reader.ruleset
        assert rs is not None
        self.rs = rs
        if self.pack is None:
            self.pack = self.app.pack_of(rs) if self.app is not None else rs.pack()
        if header["pack_hash"] not in rs.pack_hashes(self.pack):
            if self.strict:
                raise LogError(1, f"the log was played with pack {header['pack_id']} ({header['pack_hash']}),"
                                  f" not the loaded pack {self.pack.id} ({self.pack.hash})")
            raise _Found(_divergence(1, None, "PACK", f"pack {self.pack.id} ({self.pack.hash}), the one loaded",
                                     f"pack {header['pack_id']} ({header['pack_hash']}):"
                                     " the log cannot be re-decided"))
        if self.app is not None:
            _check_new_streams(self.app, rs, header)

    def _entry(self, entry: Entry) -> None:
        rs = self.rs
        assert rs is not None
        if entry.stream == rs.game_kind:
            if isinstance(entry.event, (CommandIssued, CommandUndone)):
                self.commands += 1
                self._close()
                if self.game is None:
                    self._setup_opens(entry)
                self.group, self.writes, self.closed = [entry], [], False
            elif self.closed or self.writes:
                if self.game is None and not self.group:
                    self._setup_opens(entry)
                raise _Found(_divergence(entry.line, None, "LOG", "a game event right after its command's"
                                         " other game events", "a game event outside its command's run of lines"))
            else:
                self.group.append(entry)
        elif not self.closed and entry.envelope.command_id == self.group[0].envelope.command_id:
            self.writes.append(entry)
        elif self.game is None and not self.group:
            self.pending.append(entry)
        else:
            self._close()
            self._other(entry)

    def _setup_opens(self, first: Entry) -> None:
        """The game stream must open with a setup command."""
        rs = self.rs
        assert rs is not None
        if not (isinstance(first.event, CommandIssued) and isinstance(first.event.command, rs.setup_commands)):
            setups = " or ".join(c.__name__ for c in rs.setup_commands)
            raise LogError(first.line, f"the {rs.game_kind} stream must open with the {setups} command")

    def _end(self) -> None:
        rs = self.rs
        assert rs is not None
        last = self.reader.lines
        if self.game is None and not self.group:
            raise LogError(last + (0 if self.trailer else 1),
                           f"the {rs.game_kind} stream is missing or has no setup")
        if self.trailer is None:
            # The last command may be missing lines: it is not judged, the cut is.
            raise _Found(_divergence(last, None, "CUT", f"a trailer closing the log ({FORMAT})",
                                     f"the log ends at line {last} without one: it was cut"))
        t = self.trailer
        line = self.reader.ended
        header_digest = self.reader.header["final_state_digest"]
        for what, want, got in (("events", line - 2, t["events"]),
                                ("last_hash", self.reader.before_trailer, t["last_hash"]),
                                ("final_state_digest", header_digest, t["final_state_digest"])):
            if want != got:
                raise _Found(_divergence(line, None, "TRAILER", f"{what} {want}", f"{what} {got}"))
        assert self.game is not None
        digest = state_digest(self.game.state)
        if digest != header_digest:
            raise _Found(_divergence(1, None, "DIGEST", f"final_state_digest {digest} (the replayed final state)",
                                     header_digest))
        self._signature(line, t)

    def _signature(self, line: int, trailer: dict[str, Any]) -> None:
        sig = trailer["signature"]
        if sig is None:
            if self.key:
                raise _Found(_divergence(line, None, "SIGNATURE", f"a signature by key {self.key}",
                                         "the log is not signed"))
            return
        from domain.kernel import signing

        if self.key and sig["key"] != self.key:
            raise _Found(_divergence(line, None, "SIGNATURE", f"a signature by key {self.key}",
                                     f"a signature by key {sig['key']}"))
        if not signing.check(sig, _signed_bytes(trailer)):
            raise _Found(_divergence(line, None, "SIGNATURE", f"a signature of this log by key {sig['key']}",
                                     "a signature that does not check: the log or its signature was changed"))
        self.signed_by = sig["key"]

    # -- one command -------------------------------------------------------------

    def _close(self) -> None:
        """Check the command just read, all its lines."""
        group, writes = self.group, self.writes
        self.group, self.writes, self.closed = [], [], True
        if not group:
            return
        rs = self.rs
        assert rs is not None
        before = self.game
        prelude: list[Entry] = []
        if before is None:
            prelude = self._split_pending(group[0])
        try:
            after = fold(rs, before, [e.envelope for e in group])
        except Exception as e:  # noqa: BLE001 - a log's events may be anything
            after, error = None, f"the game cannot replay this command's events: {e!r}"
        else:
            error = "the game has no state after this command"
        if before is None:
            if after is None:
                raise LogError(group[0].line, f"the setup does not replay: {error}")
            self._check_setup_state(group, after)
        if after is None:
            raise _Found(_divergence(group[0].line, None, "REPLAY", "events that replay", error))
        step = _Step(group, before, after, writes)
        found = [d for d in (self._check_prelude(step, prelude), self._check_command(step),
                             self._replay_writes(step)) if d is not None]
        if found:
            raise _Found(min(found, key=lambda d: d.line))  # min() keeps the first of a tie
        self.game = after
        self.digests[after.version] = state_digest(after.state)
        self.recent[after.version] = after.state
        if len(self.recent) > _RECENT_STATES:
            self.recent.popitem(last=False)

    def _split_pending(self, setup: Entry) -> list[Entry]:
        """The other streams' lines before the setup: the run just before it
        with its command id is its prelude (returned); those before are the
        streams' history, checked now, in order."""
        cut = len(self.pending)
        while cut and self.pending[cut - 1].envelope.command_id == setup.envelope.command_id:
            cut -= 1
        history, prelude = self.pending[:cut], self.pending[cut:]
        self.pending = []
        for entry in history:
            self._other(entry)
        return prelude

    def _check_setup_state(self, group: list[Entry], after: Game) -> None:
        """The setup's outcome is the game the header names."""
        header = self.reader.header
        for key in _STATE_KEYS:
            if getattr(after.state, key, None) != header[key]:
                raise LogError(group[-1].line, f"the setup's {key} {getattr(after.state, key, None)!r}"
                                               f" is not the header's {header[key]!r}")
        command = group[0].event.command
        self.setup_name = str(getattr(command, "setup", "") or getattr(command, "scenario", ""))

    def _check_prelude(self, step: _Step, prelude: list[Entry]) -> Divergence | None:
        """What the setup takes from other streams, re-decided by the
        ruleset (``Ruleset.check_setup``); then the prelude is folded in."""
        if step.before is not None:
            return None
        rs = self.rs
        assert rs is not None
        issued: CommandIssued = step.group[0].event
        by_stream: dict[UUID, list[Any]] = {}
        for e in prelude:
            by_stream.setdefault(e.envelope.originator_id, []).append(e.event)
        states = {UUID(sid): self._state_of(name) for sid, name in self.reader.streams.items()
                  if name != rs.game_kind}
        label = self._label(issued)
        try:
            problem = rs.check_setup(issued.command, by_stream, states, self.pack)
        except Exception as e:  # noqa: BLE001 - forged events may break a check
            problem = Problem("a setup the rules can check", repr(e))
        if problem is not None:
            line = next((e.line for e in prelude if e.envelope.originator_id == problem.stream),
                        step.group[0].line)
            return _divergence(line, label, "SETUP", problem.expected, problem.found)
        for e in prelude:
            found = self._fold_other(e)
            if found:
                return found
        return None

    def _companion(self, kind: str, stream: UUID) -> Any:
        """A companion aggregate as this log has it so far (None if the log
        holds no line of it)."""
        name = self.reader.streams.get(str(stream))
        return self._state_of(name) if name is not None else None

    def _state_of(self, stream: str) -> Any:
        states = self.history.get(stream)
        return states[-1] if states else None

    def _other(self, entry: Entry) -> None:
        """A line of another stream that no command of this game wrote:
        what the ruleset can re-decide of it (``Ruleset.check_other``)."""
        rs = self.rs
        assert rs is not None
        kind = entry.stream.partition(":")[0]
        try:
            problem = rs.check_other(kind, entry.envelope.originator_id, entry.event,
                                     self._state_of(entry.stream), self.pack)
        except Exception as e:  # noqa: BLE001
            problem = Problem("an event the rules can check", repr(e))
        if problem is not None:
            raise _Found(_divergence(entry.line, None, "HISTORY", problem.expected, problem.found))
        found = self._fold_other(entry)
        if found:
            raise _Found(found)

    def _fold_other(self, entry: Entry) -> Divergence | None:
        assert self.rs is not None
        kind = self.rs.aggregate(entry.stream.partition(":")[0])
        states = self.history.setdefault(entry.stream, [None])
        try:
            states.append(kind.evolve(states[-1], entry.event))
        except Exception as e:  # noqa: BLE001 - any failure means a bad event
            return _divergence(entry.line, None, "REPLAY", "events that replay",
                               f"this event cannot be applied to {entry.stream}: {e!r}")
        return None

    def _replay_writes(self, step: _Step) -> Divergence | None:
        """The command's writes fold into their streams, and an undo's
        restore each stream it wrote to as it was before the undone command."""
        undo = isinstance(step.group[0].event, CommandUndone)
        if undo and step.before is not None and step.before.done:
            # Every stream the undone command wrote to is restored, in order.
            undone = step.before.done[-1]
            want = [sid for sid, _ in undone.touched]
            got = [str(e.envelope.originator_id) for e in step.writes]
            if got[:len(want)] != want[:len(got)] or len(got) < len(want):
                line = step.writes[-1].line if step.writes else step.group[-1].line
                return _divergence(line, _Label(step.command_id, f"undo of {undone.command_id}"), "UNDO",
                                   f"restores of {', '.join(want) or 'no stream'}",
                                   f"restores of {', '.join(got) or 'no stream'}")
        for entry in step.writes:
            if undo:
                assert self.rs is not None
                kind = self.rs.aggregate(entry.stream.partition(":")[0])
                found = self._check_restored(entry, kind, step, self.history.setdefault(entry.stream, [None]))
                if found:
                    return found
            found = self._fold_other(entry)
            if found:
                return found
        return None

    def _check_command(self, step: _Step) -> Divergence | None:
        head = step.group[0]
        found = self._check_issued(step) if isinstance(head.event, CommandIssued) else self._check_undone(step)
        if found:
            return found
        # Ids are given by the application (c or u and the version of the
        # command's first line): one edited by hand is an edit.
        expected_id = ("c" if isinstance(head.event, CommandIssued) else "u") + str(head.envelope.originator_version)
        if head.envelope.command_id != expected_id:
            return _divergence(head.line, None, "LOG", f"command id {expected_id!r}"
                               " (c or u and the version of its first line)",
                               f"command id {head.envelope.command_id!r}")
        return None

    def _label(self, issued: CommandIssued) -> _Label:
        return _Label(issued.command_id, self._spell(issued.command))

    def _spell(self, command: Any) -> str:
        try:
            return _clip(self.rs.describe_command(command), 100)
        except Exception:  # noqa: BLE001 - a forged command may not spell
            return _describe_command(command)

    def _check_issued(self, step: _Step) -> Divergence | None:
        issued: CommandIssued = step.group[0].event
        line, cmd, label = step.group[0].line, issued.command, self._label(issued)
        state = step.before.state if step.before else None
        stray = next((e for e in step.group if e.envelope.command_id != issued.command_id), None)
        if stray is not None:
            return _divergence(stray.line, label, "LOG", f"an event of command {issued.command_id}",
                               f"command id {stray.envelope.command_id!r} on an event of that command")
        if issued.redo_of:
            found = _check_redo(step, issued, label)
            if found:
                return found
        try:
            if step.before is None:
                if not isinstance(cmd, self.rs.setup_commands):
                    return _divergence(line, label, "LOG", "a setup command first", self._spell(cmd))
                ctx = self.rs.setup_context(self.pack, cmd)
            else:
                ctx = rules_context(self.rs, self.pack, state, self._companion)
            produced = self.rs.decide(state, cmd, ctx)  # a second setup: the ruleset's own rule refuses it
            if step.before is not None and isinstance(cmd, self.rs.setup_commands):
                return _divergence(line, label, "LOG", "a command of a game already set up", "a second setup")
        except RuleViolation as v:
            return _divergence(line, label, v.rule, "a command legal under the rules",
                               f"this command is illegal under the rules: {v.message}")
        except (MalformedCommand, AmbiguousCommand, NotFound) as m:
            return _divergence(line, label, "MALFORMED", "a command the rules understand", str(m))
        return self._compare(issued, label, state, produced, step)

    def _compare(self, issued: CommandIssued, label: _Label, state: Any, produced: Outcome,
                 step: _Step) -> Divergence | None:
        """The recorded outcome against the re-decided one, event by event;
        each random outcome is also re-derived on its own (RNG)."""
        running = state
        recorded = step.group[1:]
        for i, entry in enumerate(recorded):
            found = self._check_random(entry, running, label)
            if found:
                return found
            if i >= len(produced.events):
                return _divergence(entry.line, label, "DECIDE", "no more events from this command",
                                   _describe_event(entry.event))
            if produced.events[i] != entry.event:
                return _mismatch(entry, label, produced.events[i])
            running = self.rs.evolve(running, entry.event)
        if len(produced.events) > len(recorded):
            last = (recorded or step.group)[-1].line
            return _divergence(last, label, "DECIDE", _describe_event(produced.events[len(recorded)]),
                               "the command's recorded events end here")
        found = self._compare_writes(label, step, [
            (w.stream, event) for w in produced.writes for event in w.events
        ], step.group[-1].line)
        if found:
            return found
        touched = tuple((str(e.envelope.originator_id), e.envelope.originator_version - 1)
                        for e in step.writes if e is _first_of_stream(step.writes, e))
        if issued.touched != touched:
            return _divergence(step.group[0].line, label, "WRITE", f"touched={list(touched)}",
                               f"touched={list(issued.touched)}")
        return None

    def _compare_writes(self, label: _Label, step: _Step, expected: list[tuple[UUID, Any]],
                        last_line: int) -> Divergence | None:
        """The command's lines in other streams must be exactly the writes
        the rules give, in order (WRITE)."""
        for i, entry in enumerate(step.writes):
            if i >= len(expected):
                return _divergence(entry.line, label, "WRITE", "no more writes from this command",
                                   f"{entry.stream}: {_describe_event(entry.event)}")
            stream, event = expected[i]
            if entry.envelope.originator_id != stream:
                return _divergence(entry.line, label, "WRITE", f"a write to stream {stream}",
                                   f"a write to {entry.stream}")
            if event != entry.event:
                return _unequal(entry.line, label, "WRITE", f"{entry.stream}: the command's write", event,
                                entry.event)
        if len(expected) > len(step.writes):
            stream, event = expected[len(step.writes)]
            return _divergence(step.writes[-1].line if step.writes else last_line, label, "WRITE",
                               f"a write to {stream}: {_describe_event(event)}",
                               "the command's writes end here")
        return None

    def _check_random(self, entry: Entry, state: Any, label: _Label) -> Divergence | None:
        """Re-derive a roll or a draw from (seed, counter), without the rules."""
        check = self.rs.check_random(state, entry.event)
        if check is None:
            return None
        return _divergence(entry.line, label, "RNG", check.expected, check.found)

    def _check_undone(self, step: _Step) -> Divergence | None:
        head = step.group[0]
        undone: CommandUndone = head.event
        done = step.before.done if step.before else ()
        if len(done) < 2:
            return _divergence(head.line, None, "UNDO-1", "nothing to undo", "an undo")
        last = done[-1]
        label = _Label(head.envelope.command_id, f"undo of {last.command_id}: {self._spell(last.command)}")
        if undone.command_id != last.command_id:
            return _divergence(head.line, label, "UNDO", f"an undo of {last.command_id}, the last command",
                               f"an undo of {undone.command_id}")
        if undone.forced != last.random:
            return _divergence(head.line, label, "UNDO-2", f"forced={last.random}"
                               " (undoing a roll or a draw needs force)", f"forced={undone.forced}")
        digest = self.digests.get(last.version_before)
        if state_digest(undone.restored) != digest:
            what = f"the state at version {last.version_before}"
            if last.version_before in self.recent:
                return _unequal(head.line, label, "UNDO", what, self.recent[last.version_before], undone.restored)
            return _divergence(head.line, label, "UNDO", f"{what} (digest {digest})",
                               f"a state of digest {state_digest(undone.restored)}")
        if len(step.group) > 1:
            return _divergence(step.group[1].line, label, "UNDO", "nothing else in the game stream",
                               _describe_event(step.group[1].event))
        return None

    def _check_restored(self, entry: Entry, kind: Aggregate, step: _Step, states: list[Any]) -> Divergence | None:
        """An undo restores each stream the undone command wrote to as it was
        before that command. ``states[v]`` is the stream at version v."""
        undone = step.before.done[-1] if step.before and step.before.done else None
        label = _Label(step.command_id, f"undo of {undone.command_id}: {self._spell(undone.command)}"
                       if undone else "undo")
        version = dict(undone.touched).get(str(entry.envelope.originator_id)) if undone else None
        if version is None:
            return _divergence(entry.line, label, "UNDO", "a stream the undone command wrote to", entry.stream)
        back = states[version] if version < len(states) else None
        expected = kind.restored(undone.command_id, back)  # type: ignore[union-attr]
        if entry.event == expected:
            return None
        return _unequal(entry.line, label, "UNDO", f"{entry.stream} as at its version {version}",
                        expected, entry.event)


def _first_of_stream(writes: list[Entry], entry: Entry) -> Entry:
    """The first of ``writes`` in ``entry``'s stream."""
    return next(e for e in writes if e.envelope.originator_id == entry.envelope.originator_id)


def _check_redo(step: _Step, issued: CommandIssued, label: _Label) -> Divergence | None:
    undone = step.before.undone if step.before else ()
    if undone and undone[-1].command_id == issued.redo_of and undone[-1].command == issued.command:
        return None
    last = undone[-1].command_id if undone else "nothing"
    return _divergence(step.group[0].line, label, "REDO-1",
                       f"a redo of the last undone command ({last})", f"a redo of {issued.redo_of}")


def _mismatch(entry: Entry, label: _Label, expected: Any) -> Divergence:
    found = entry.event
    rule = getattr(expected, "rule", "") or "DECIDE"
    first = _first_difference(_builtins(expected), _builtins(found), type(found).__name__)
    if type(found) is type(expected) and first:
        where, a, b = first
        return _divergence(entry.line, label, rule, f"{where} = {a}", f"{where} = {b}")
    return _divergence(entry.line, label, rule, _describe_event(expected), _describe_event(found))


# --------------------------------------------------------------- wording


@dataclass(frozen=True)
class _Label:
    command_id: str
    text: str


def _divergence(line: int, label: _Label | None, rule: str, expected: str, found: str) -> Divergence:
    command_id, text = (label.command_id, label.text) if label else ("", "")
    return Divergence(line=line, command_id=command_id, command=text, rule=rule,
                      expected=_clip(expected), found=_clip(found))


def _unequal(line: int, label: _Label, rule: str, what: str, expected: Any, found: Any) -> Divergence:
    """A divergence between two values, showing the first field that differs."""
    first = _first_difference(_builtins(expected), _builtins(found), "")
    where, a, b = first or ("", "", "")
    return _divergence(line, label, rule, f"{what} ({where} = {a})", f"{where} = {b}")


def _describe_command(cmd: Any) -> str:
    """``Engage form=light target=e1``: the fields not at their default (for
    a command the ruleset cannot spell)."""
    parts = [type(cmd).__name__]
    for f in msgspec.structs.fields(cmd):
        value = getattr(cmd, f.name)
        if value == f.default:
            continue
        parts.append(f"{f.name}={_short(value)}")
    return _clip(" ".join(parts), 100)


def _short(value: Any) -> str:
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, tuple):
        return ",".join(_short(v) for v in value)
    return str(value)


def _describe_event(event: Any) -> str:
    return f"{type(event).__name__} {msgspec.json.encode(event).decode()}"


def _builtins(value: Any) -> Any:
    """``value`` as plain JSON values (lists, not tuples), as a log holds it."""
    return msgspec.json.decode(msgspec.json.encode(value))


def _difference(expected: Any, found: Any, path: str = "") -> str:
    """The first place two plain values differ, as ``path: X expected, found Y``."""
    first = _first_difference(expected, found, path)
    if first is None:
        return ""
    where, a, b = first
    return f"{where}: {a} expected, found {b}"


def _first_difference(expected: Any, found: Any, path: str) -> tuple[str, str, str] | None:
    """(path, expected, found) where two plain values first differ, or None."""
    if isinstance(expected, dict) and isinstance(found, dict):
        for key in [*expected, *(k for k in found if k not in expected)]:
            if key not in found or key not in expected:
                return f"{path}.{key}".lstrip("."), _present(expected, key), _present(found, key)
            inner = _first_difference(expected[key], found[key], f"{path}.{key}")
            if inner:
                return inner
        return None
    if isinstance(expected, list) and isinstance(found, list):
        for i, (a, b) in enumerate(zip(expected, found)):
            inner = _first_difference(a, b, f"{path}[{i}]")
            if inner:
                return inner
        if len(expected) != len(found):
            return path.lstrip("."), f"{len(expected)} items", f"{len(found)} items"
        return None
    if expected == found and type(expected) is type(found):
        return None
    return path.lstrip("."), _clip(repr(expected), 80), _clip(repr(found), 80)


def _present(obj: dict[str, Any], key: str) -> str:
    return _clip(repr(obj[key]), 80) if key in obj else "(no such field)"


def _clip(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
