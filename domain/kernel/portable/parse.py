"""Reading a log's bytes: one line at a time, each a JSON object of the
keys and types its kind of line must have; the header's streams checked
against its ruleset; an event decoded strictly from a line's data."""

from __future__ import annotations

import io
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, BinaryIO, Union

import msgspec

from domain.kernel import ruleset as registry
from domain.kernel.errors import LogError, NotFound
from domain.kernel.messages import event_class
from domain.kernel.portable.chain import FORMAT, without_skipped_defaults
from domain.kernel.portable.diff import difference, plain
from domain.kernel.ruleset import Ruleset

MAX_LINE_BYTES = 1 << 20  # 1 MiB: the longest event line of a real battle is a few KiB
MAX_DEPTH = 64  # levels of nested arrays and objects in one line; real events nest fewer than 10

_HEADER_KEYS = (
    "format",
    "ruleset",
    "rules_version",
    "pack_id",
    "pack_hash",
    "battle_id",
    "streams",
    "final_state_digest",
    "hash",
)


Source = Union[bytes, bytearray, str, "os.PathLike[str]", BinaryIO]


@contextmanager
def opened(source: Source) -> Iterator[BinaryIO]:
    """A binary file of ``source``: bytes, a path, or an open binary file
    (read from where it stands)."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        yield io.BytesIO(source)
    elif isinstance(source, (str, os.PathLike)):
        with open(source, "rb") as f:
            yield f
    else:
        yield source


def read_lines(f: BinaryIO) -> Iterator[tuple[int, bytes]]:
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


def _looks_like_trailer(text: bytes) -> bool:
    # Decided before decoding, to pick the keys the line must have; an
    # event line whose data holds the text is still checked against the
    # trailer's keys and refused.
    return b'"end"' in text and b'"stream"' not in text


def line_types(text: bytes, *, header: bool) -> dict[str, Any]:
    """The keys and types a line must have: the header's, or an event line's or the trailer's."""
    if header:
        # A group log's header (``portable.group``) has its games besides.
        return _GROUP_HEADER_TYPES if b'"games"' in text else _HEADER_TYPES
    return _TRAILER_TYPES if _looks_like_trailer(text) else _LINE_TYPES


def well_formed(text: bytes, *, header: bool) -> dict[str, Any] | None:
    """``text`` as a well-formed header (or event line or trailer), or None."""
    try:
        return json_object(0, text, line_types(text, header=header))
    except LogError:
        return None


def is_signature(value: Any) -> bool:
    """Whether a trailer's ``signature`` has the shape of an Ed25519 one."""
    return (
        isinstance(value, dict)
        and set(value) == {"alg", "key", "sig"}
        and value["alg"] == "ed25519"
        and all(isinstance(value[k], str) for k in ("key", "sig"))
    )


_STRINGS = re.compile(rb'"(?:[^"\\]|\\.)*"')
_BRACKETS = re.compile(rb"[\[\]{}]")


def too_deep(text: bytes) -> bool:
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


def json_object(n: int, text: bytes, types: dict[str, Any]) -> dict[str, Any]:
    """The line as a JSON object with exactly the keys of ``types``, each of its type."""
    if too_deep(text):
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
        if kind is not None and not is_kind(obj[key], kind):
            raise LogError(n, f'"{key}" must be {_KIND_NAMES.get(kind, getattr(kind, "__name__", kind))}')
    return obj


_HEADER_TYPES: dict[str, Any] = {k: (dict if k == "streams" else str) for k in _HEADER_KEYS}
_GROUP_HEADER_TYPES: dict[str, Any] = {**_HEADER_TYPES, "group": str, "games": list}
_LINE_TYPES: dict[str, Any] = {
    "n": int,
    "stream": str,
    "version": int,
    "type": str,
    "command": str,
    "time": str,
    "data": dict,
    "hash": str,
}
_TRAILER_TYPES: dict[str, Any] = {
    "n": int,
    "end": bool,
    "events": int,
    "last_hash": str,
    "final_state_digest": str,
    "signature": None,
    "hash": str,
}
_KIND_NAMES = {dict: "an object", bool: "true or false", list: "an array"}


def is_kind(value: Any, kind: type) -> bool:
    """Whether a decoded JSON value is of ``kind``."""
    # JSON true/false decode to bool, a subclass of int: not a number here.
    return isinstance(value, kind) and not (kind is int and isinstance(value, bool))


def check_header(h: dict[str, Any]) -> tuple[Ruleset, dict[str, str]]:
    """The header's own rules; returns its ruleset and streams (uuid text -> name)."""
    if h["format"] != FORMAT:
        raise LogError(1, f"format {h['format']!r} is not {FORMAT!r}")
    try:
        rs = registry.load(h["ruleset"])
    except NotFound as e:
        raise LogError(1, str(e)) from None
    streams: dict[str, str] = h["streams"]
    if "games" in h:
        _check_group_streams(rs, h, streams)
        return rs, streams
    for sid, name in streams.items():
        _check_stream(rs, sid, name, h["battle_id"])
    if list(streams.values()).count(rs.game_kind) != 1:
        raise LogError(1, f"the header must name exactly one {rs.game_kind} stream")
    return rs, streams


def _check_group_streams(rs: Ruleset, h: dict[str, Any], streams: dict[str, str]) -> None:
    """A group header's streams: each one's id derived from its name, each
    game's stream named (``portable.group``)."""
    from domain.kernel.portable import group

    games = group.check_games(h, rs)
    for sid, name in streams.items():
        if not isinstance(name, str):
            raise LogError(1, f"stream {sid}: its name must be a string")
        expected = group.expected_stream(games, name)
        if expected is None:
            raise LogError(
                1, f'stream {sid}: name {name!r} is neither a game\'s "kind:id" nor an aggregate\'s "kind:name"'
            )
        if sid != str(expected):
            raise LogError(1, f"stream {sid} is not the stream of {name!r} ({expected})")
    named = set(streams.values())
    for game_id, (game_rs, _) in games.items():
        if group.game_stream_name(game_rs, game_id) not in named:
            raise LogError(1, f"the header must name the stream of game {game_id!r}")


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
        raise LogError(
            1, f'stream {sid}: name {name!r} is neither "{rs.game_kind}"' + (f" nor {kinds}" if kinds else "")
        )
    if sid != str(expected):
        raise LogError(1, f"stream {sid} is not the stream of {name!r} ({expected})")


def decode_event(n: int, rs: Ruleset, topic: str, data: dict[str, Any], stream: str, base: type | None = None) -> Any:
    """The event of class ``topic``, decoded strictly from ``data``, which
    must be exactly the event's fields (nothing silently dropped or added).
    ``base``: the class its stream's events have (default: as ``rs`` names
    ``stream``)."""
    try:
        cls = event_class(topic)
    except KeyError:
        raise LogError(n, f"unknown event type {topic!r}") from None
    kind = stream.partition(":")[0]
    if base is None:
        base = rs.event_base if stream == rs.game_kind else rs.aggregate(kind).event_base
    if not issubclass(cls, base):
        raise LogError(n, f"{topic} does not belong in a {kind} stream")
    try:
        event = msgspec.convert(data, cls)
    except msgspec.ValidationError as e:
        raise LogError(n, f"data does not decode as {cls.__name__}: {e}") from None
    again = plain(event)
    # A log written before a field listed in __digest_skip_default__ existed
    # holds the event without it (chain.state_digest).
    if again != data and plain(without_skipped_defaults(event)) != data:
        where = difference(again, data) or "data"
        raise LogError(n, f"data is not exactly the fields of {cls.__name__}: {where}")
    return event
