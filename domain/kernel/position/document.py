"""A position file: a game as it stands, in TOML, one format for every
ruleset.

::

    [position]
    format = 1
    ruleset = "betrayal"

    [game]              # the game state, field by field (``codec``)
    round = 2
    [[game.heroes]]
    ...

    [[streams]]         # every other stream the game needs (a delve, the
    kind = "delve"      # party's adventurers), each as it stands
    name = "barrow-1"
    [streams.state]
    ...

``write`` gives the text of a position, ``read`` the position of a text
or ``PositionRefused`` naming the line and the reason. Pure.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from domain.kernel.errors import MalformedCommand
from domain.kernel.position.codec import CodecError, from_plain, to_plain
from domain.kernel.position.toml_text import dumps
from domain.kernel.toml_lines import line_of

FORMAT = 1
GAME = "game"
STREAMS = "streams"


@dataclass(frozen=True)
class Other:
    """Another aggregate's stream as a position holds it."""

    kind: str
    name: str
    stream: UUID
    state: Any


@dataclass(frozen=True)
class Position:
    """A game's state and the other streams it needs, as they stand."""

    ruleset: str
    state: Any
    others: tuple[Other, ...] = ()


class PositionRefused(MalformedCommand):
    """A position file that cannot be read or that the rules cannot hold:
    ``line`` (1-based; None when no line is at fault) and ``reason``."""

    def __init__(self, line: int | None, reason: str) -> None:
        super().__init__(f"line {line}: {reason}" if line else reason)
        self.line = line
        self.reason = reason


def write(rs: Any, position: Position) -> str:
    """The text of ``position`` of a game of ruleset ``rs``."""
    doc: dict[str, Any] = {
        "position": {"format": FORMAT, "ruleset": rs.name},
        GAME: to_plain(position.state, rs.state_type, rs.position_hexes),
    }
    streams = []
    for other in position.others:
        aggregate = rs.aggregate(other.kind)
        entry: dict[str, Any] = {"kind": other.kind, "name": other.name}
        if rs.stream_of(other.kind, other.name) != other.stream:
            entry["id"] = str(other.stream)
        entry["state"] = to_plain(other.state, aggregate.state_type, rs.position_hexes)
        streams.append(entry)
    if streams:
        doc[STREAMS] = streams
    head = (
        f"# A {rs.title} position (rulekeeper). Start a game from it with\n"
        f"# `rk new {rs.name} --position FILE`; `rk position` writes one.\n\n"
    )
    return head + dumps(doc)


def read(rs: Any, text: str) -> Position:
    """The position ``text`` holds for a game of ruleset ``rs``: every
    value of the type its field takes; ``PositionRefused`` otherwise."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        line, reason = _syntax(str(e))
        raise PositionRefused(line, f"not TOML: {reason}") from None
    header = doc.get("position")
    if not isinstance(header, dict):
        raise PositionRefused(None, "no [position] table (format and ruleset)")
    if header.get("format") != FORMAT:
        raise refused(text, "position.format", f"format {header.get('format')!r}: this rulekeeper reads {FORMAT}")
    if header.get("ruleset") != rs.name:
        raise refused(text, "position.ruleset", f"a position of {header.get('ruleset')!r}, not of {rs.name!r}")
    for key in doc:
        if key not in ("position", GAME, STREAMS):
            raise refused(text, key, f"no such table (there are: position, {GAME}, {STREAMS})")
    if GAME not in doc:
        raise PositionRefused(None, f"no [{GAME}] table: the game's state")
    try:
        state = from_plain(doc[GAME], rs.state_type, GAME, rs.position_hexes)
        others = tuple(_other(rs, entry, f"{STREAMS}[{i}]") for i, entry in enumerate(doc.get(STREAMS, [])))
    except CodecError as e:
        raise refused(text, e.path, e.reason) from None
    return Position(rs.name, state, others)


def ruleset_of(text: str) -> str:
    """The ruleset a position's ``[position]`` table names."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        line, reason = _syntax(str(e))
        raise PositionRefused(line, f"not TOML: {reason}") from None
    header = doc.get("position")
    found = header.get("ruleset") if isinstance(header, dict) else None
    if not isinstance(found, str) or not found:
        raise PositionRefused(None, "no [position] table naming its ruleset")
    return found


def _other(rs: Any, entry: Any, path: str) -> Other:
    if not isinstance(entry, dict):
        raise CodecError(path, "a table with kind, name and state")
    kinds = [a.kind for a in rs.aggregates]
    kind, name = str(entry.get("kind")), entry.get("name")
    if kind not in kinds:
        raise CodecError(f"{path}.kind", f"{kind!r} is not one of {', '.join(map(repr, kinds)) or 'nothing'}")
    if not isinstance(name, str) or not name:
        raise CodecError(f"{path}.name", "the stream's name, a string")
    for key in entry:
        if key not in ("kind", "name", "id", "state"):
            raise CodecError(f"{path}.{key}", "no such field (there are: kind, name, id, state)")
    try:
        stream = UUID(entry["id"]) if "id" in entry else rs.stream_of(kind, name)
    except (ValueError, TypeError, AttributeError):
        raise CodecError(f"{path}.id", f"{entry['id']!r} is not a stream id") from None
    if "state" not in entry:
        raise CodecError(path, "no state")
    state = from_plain(entry["state"], rs.aggregate(kind).state_type, f"{path}.state", rs.position_hexes)
    return Other(kind, name, stream, state)


def refused(text: str, path: str, reason: str) -> PositionRefused:
    """``reason`` at the line where ``path`` is written (``toml_lines``)."""
    return PositionRefused(line_of(text, path), f"{path}: {reason}" if path else reason)


def _syntax(message: str) -> tuple[int | None, str]:
    """tomllib's "reason (at line N, column M)" as (N, reason)."""
    reason, _, where = message.rpartition(" (at line ")
    if not reason:
        return None, message
    line = where.split(",")[0].rstrip(")")
    return (int(line) if line.isdigit() else None), reason
