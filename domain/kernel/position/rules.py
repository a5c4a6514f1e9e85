"""Deciding ``StartFromPosition``: the position read, held to the rules,
and turned into the events that set the game up. Pure: the same text and
pack give the same outcome, so ``verify`` re-decides it as any command.

What the kernel checks of every position: the ruleset, its rules version
and the content pack in use (by id and hash) are the game's; the pack
knows the game's setup; every stream the game needs is given, and none it
does not. What only a ruleset knows (HP within its maximum, a unit on the
map, a die in one place) it checks itself (``Ruleset.check_position``),
each flaw named by its field.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.kernel.errors import MalformedCommand, NotFound
from domain.kernel.position.document import GAME, STREAMS, Position, PositionRefused, read, refused
from domain.kernel.position.messages import StartFromPosition
from domain.kernel.ruleset import Outcome, Write

SETUP_COMMAND_ID = "c1"  # the setup is a game's first command


@dataclass(frozen=True)
class Flaw:
    """Something in a position the rules cannot hold: ``path`` of the field
    in the game's state (``heroes[0].hp``), or in another stream's when
    ``stream`` names it (``delve:barrow-1``), and why (rule ID first when
    a rule says so)."""

    path: str
    reason: str
    stream: str = ""


def checked(rs: Any, pack: Any, text: str) -> Position:
    """The position ``text`` holds, held to the rules of ``rs`` with
    ``pack``; ``PositionRefused`` names the line and the reason."""
    position = read(rs, text)
    state = position.state
    if state.rules_version != rs.rules_version:
        raise refused(text, f"{GAME}.rules_version", f"{state.rules_version!r}: these rules are {rs.rules_version!r}")
    if state.pack_id != pack.id:
        raise refused(text, f"{GAME}.pack_id", f"{state.pack_id!r}: the pack in use is {pack.id!r}")
    if state.pack_hash not in rs.pack_hashes(pack):
        raise refused(
            text,
            f"{GAME}.pack_hash",
            f"{state.pack_hash!r} is not the hash of pack {pack.id!r} (it has {', '.join(rs.pack_hashes(pack))})",
        )
    try:
        rs.context(pack, state)
    except (NotFound, MalformedCommand, KeyError) as e:
        raise refused(text, f"{GAME}.setup", f"pack {pack.id!r} cannot hold this game: {e}") from None
    _check_streams(rs, text, position)
    for flaw in rs.check_position(state, position.others, pack):
        raise refused(text, _path(position, flaw), flaw.reason)
    return position


def decide(rs: Any, pack: Any, command: StartFromPosition) -> Outcome:
    """The outcome of starting a game of ``rs`` from ``command``'s
    position: its ``PositionTaken``, and each other stream put where the
    position says it stands (its aggregate's ``restored`` event)."""
    position = checked(rs, pack, command.position)
    writes = tuple(
        Write(o.kind, o.stream, (rs.aggregate(o.kind).restored(SETUP_COMMAND_ID, o.state),)) for o in position.others
    )
    return Outcome(events=[rs.positioned(state=position.state)], writes=writes)


def _check_streams(rs: Any, text: str, position: Position) -> None:
    wanted = rs.position_streams(position.state)
    seen: set[Any] = set()
    for i, other in enumerate(position.others):
        if other.stream in seen:
            raise refused(text, f"{STREAMS}[{i}].name", f"{other.kind} {other.name!r} is given twice")
        seen.add(other.stream)
        if other.stream not in wanted:
            raise refused(
                text,
                f"{STREAMS}[{i}].name",
                f"the game has no {other.kind} {other.name!r} (it has: {', '.join(sorted(wanted.values())) or 'none'})",
            )
    missing = [label for stream, label in wanted.items() if stream not in seen]
    if missing:
        raise PositionRefused(
            None,
            f"the game needs {', '.join(sorted(missing))}: give each as a"
            f" [[{STREAMS}]] entry with its kind, name and state",
        )


def _path(position: Position, flaw: Flaw) -> str:
    if not flaw.stream:
        return f"{GAME}.{flaw.path}" if flaw.path else GAME
    for i, other in enumerate(position.others):
        if f"{other.kind}:{other.name}" == flaw.stream:
            return f"{STREAMS}[{i}].state.{flaw.path}" if flaw.path else f"{STREAMS}[{i}]"
    return STREAMS
