"""Writing a game's portable log: the header, every line of its streams
in append order, the trailer (signed when a key is given)."""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any, BinaryIO

import msgspec

from domain.kernel.envelope import Envelope
from domain.kernel.games import GameApp
from domain.kernel.portable.chain import FORMAT, format_time, link, signed_bytes, state_digest, without_skipped_defaults
from domain.kernel.portable.progress import Progress, ticking
from domain.kernel.stores.streams_order import envelopes_in_append_order


def export_battle(app: GameApp, battle_id: str, *, sign: Any = None) -> bytes:
    """The portable log of a game as bytes (``write_log`` into memory; for
    a long game write to a file with ``write_log``). ``sign``: a private
    key from ``domain.kernel.signing.load_private`` to sign the log with."""
    out = io.BytesIO()
    write_log(app, battle_id, out, sign=sign)
    return out.getvalue()


def write_log(
    app: GameApp, battle_id: str, out: BinaryIO, *, sign: Any = None, progress: Progress | None = None
) -> int:
    """Write the portable log of a game to ``out``, one line at a time
    (memory does not grow with the game), and return its line count.
    ``progress`` is told of the lines as they are written (``portable.progress``)."""
    n = 0
    for n, line in enumerate(ticking(export_lines(app, battle_id, sign=sign), progress), start=1):
        out.write(line + b"\n")
    return n


def export_lines(app: GameApp, battle_id: str, *, sign: Any = None) -> Iterator[bytes]:
    """The lines of a game's portable log (without newlines): the header,
    its stream and the other streams its ruleset names (Betrayal: the
    party's adventurers), from version 1 up to the game's last event, in
    append order, then the trailer. What other games wrote to those streams
    after it (an adventurer's next battles) is theirs, not this game's:
    their own logs carry it. Only those streams are read, so a small game
    costs the same in a big store. NotFound when there is no such game."""
    rs = app.ruleset(battle_id)
    game = app.battle(battle_id)
    streams = {rs.game_stream(battle_id): rs.game_kind, **rs.related_streams(game.state)}
    digest = state_digest(game.state)
    header = {
        "format": FORMAT,
        "ruleset": rs.name,
        **{key: getattr(game.state, key) for key in ("rules_version", "pack_id", "pack_hash")},
        "battle_id": battle_id,
        "streams": {str(sid): name for sid, name in streams.items()},
        "final_state_digest": digest,
    }
    own = rs.game_stream(battle_id)
    yield from _chained_lines(header, envelopes_in_append_order(app, streams), {own: game.version}, sign)


def export_group(app: GameApp, lead_id: str, *, sign: Any = None) -> bytes:
    """The group log game ``lead_id`` leads, as bytes (``write_group_log``
    into memory)."""
    out = io.BytesIO()
    write_group_log(app, lead_id, out, sign=sign)
    return out.getvalue()


def write_group_log(
    app: GameApp, lead_id: str, out: BinaryIO, *, sign: Any = None, progress: Progress | None = None
) -> int:
    """Write the group log game ``lead_id`` leads (``portable.group``: a
    campaign with its battles) to ``out``, one line at a time, and return
    its line count. NotFound when the game leads no group."""
    n = 0
    for n, line in enumerate(ticking(group_lines(app, lead_id, sign=sign), progress), start=1):
        out.write(line + b"\n")
    return n


def group_lines(app: GameApp, lead_id: str, *, sign: Any = None) -> Iterator[bytes]:
    """The lines of the group log game ``lead_id`` leads: the header, every
    line of every stream of its games in append order, up to the last of
    their commands (what other games wrote to those streams between them is
    held as history), then the trailer."""
    from domain.kernel.portable import group

    rs = app.ruleset(lead_id)
    ids = group.group_of(app, lead_id)
    games = list(group.games_entries(app, ids))
    streams = group.streams_of(app, ids)
    lead = app.battle(lead_id).state
    header = {
        "format": FORMAT,
        "ruleset": rs.name,
        **{key: getattr(lead, key) for key in ("rules_version", "pack_id", "pack_hash")},
        "battle_id": lead_id,
        "streams": {str(sid): name for sid, name in streams.items()},
        "final_state_digest": group.group_digest([g["final_state_digest"] for g in games]),
        "group": rs.group_kind,
        "games": games,
    }
    last = {app.ruleset(g).game_stream(g): app.battle(g).version for g in ids}
    yield from _chained_lines(header, envelopes_in_append_order(app, streams), last, sign)


def _chained_lines(
    header: dict[str, Any], envelopes: Iterator[Envelope], last: dict[Any, int], sign: Any
) -> Iterator[bytes]:
    """The header, each envelope's line up to the command that writes the
    last version ``last`` gives each game stream, and the trailer, chained."""
    previous = ""

    def chained(obj: dict[str, Any]) -> bytes:
        nonlocal previous
        obj["hash"] = previous = link(previous, obj)
        return msgspec.json.encode(obj)

    yield chained(header)
    n = 1
    remaining = dict(last)
    last_command = None  # once the games' last events are out: the command of the last, whose writes follow it
    for n, env in enumerate(envelopes, start=2):
        if last_command is not None and env.command_id != last_command:
            n -= 1
            break  # past the games' last command: what follows in other streams is other games'
        yield chained(_row(n, env))
        if remaining.get(env.originator_id) == env.originator_version:
            del remaining[env.originator_id]
            if not remaining:
                last_command = env.command_id
    trailer: dict[str, Any] = {
        "n": n + 1,
        "end": True,
        "events": n - 1,
        "last_hash": previous,
        "final_state_digest": header["final_state_digest"],
        "signature": None,
    }
    if sign is not None:
        from domain.kernel import signing

        trailer["signature"] = signing.sign(sign, signed_bytes(trailer))
    yield chained(trailer)


def _row(n: int, env: Envelope) -> dict[str, Any]:
    return {
        "n": n,
        "stream": str(env.originator_id),
        "version": env.originator_version,
        "type": type(env.event).TOPIC,
        "command": env.command_id,
        # Fields added since logs were first written are left out at their
        # defaults (chain.without_skipped_defaults): an old log exports again
        # byte for byte as it was.
        "time": format_time(env.timestamp),
        "data": without_skipped_defaults(env.event),
    }
