"""A group log: several games exported together as one portable log (a
campaign with its battles), in the store's append order.

A ruleset whose games lead a group (``Ruleset.group_kind``) names the
other games that go with one (``Ruleset.grouped_games``); the kernel knows
nothing else of them. A group log has the line shapes of a game's log; its
header has two keys more, ``group`` (the lead's ``group_kind``) and
``games``, one object per game, in the order they were set up::

    {"battle_id": ..., "ruleset": ..., "name": ..., "rules_version": ...,
     "pack_id": ..., "pack_hash": ..., "final_state_digest": ...}

(``name``: what the store called the game, so an import calls it so too).
Each game's stream is named ``kind:id`` in the header's streams (a game's
log names its one game stream by its kind alone). The header's own
``ruleset``, ``battle_id``, ``rules_version``, ``pack_*`` are the lead
game's, and its ``final_state_digest`` is ``group_digest`` of the games'
digests, which the trailer repeats. Verify re-decides every game's
commands in one pass; import recreates every game, with its name.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from uuid import UUID

from domain.kernel import ruleset as registry
from domain.kernel.errors import LogError, NotFound
from domain.kernel.portable.chain import canonical, digest
from domain.kernel.ruleset import Ruleset

GAME_KEYS = ("battle_id", "ruleset", "name", "rules_version", "pack_id", "pack_hash", "final_state_digest")


def group_digest(digests: list[str]) -> str:
    """The final state digest of a group: of its games' digests, in order."""
    return digest(canonical(digests))


def game_stream_name(rs: Ruleset, game_id: str) -> str:
    """How a group log's header names a game's stream: ``kind:id``."""
    return f"{rs.game_kind}:{game_id}"


def group_of(app: Any, lead_id: str) -> list[str]:
    """The games of the group game ``lead_id`` leads, the lead first, then
    the others in the order the store set them up. NotFound when the game
    leads no group (its ruleset has no ``group_kind``)."""
    rs = app.ruleset(lead_id)
    if not rs.group_kind:
        raise NotFound(f"{lead_id!r} is a {rs.title} game, which leads no group log")
    state = app.battle(lead_id).state
    others = set(rs.grouped_games(state, lambda stream: (e.event for e in app.events(stream))))
    others.discard(lead_id)
    order = [e.battle_id for e in app.battles() if e.battle_id in others]
    missing = sorted(others - set(order))  # a game the index lacks keeps a place all the same
    return [lead_id, *order, *missing]


def check_games(h: dict[str, Any], lead: Ruleset) -> dict[str, tuple[Ruleset, dict[str, Any]]]:
    """A group header's games, each well formed, of a ruleset of the lead's
    package, named once, the lead among them with the header's values;
    returns game id -> (its ruleset, its entry)."""
    games = h["games"]
    if not isinstance(h["group"], str) or not h["group"] or h["group"] != lead.group_kind:
        raise LogError(1, f'"group" {h["group"]!r} is not what {lead.name} games lead ({lead.group_kind or "none"})')
    found: dict[str, tuple[Ruleset, dict[str, Any]]] = {}
    for i, game in enumerate(games):
        if (
            not isinstance(game, dict)
            or sorted(game) != sorted(GAME_KEYS)
            or not all(isinstance(game[k], str) for k in GAME_KEYS)
        ):
            raise LogError(1, f"games[{i}] must be an object of the strings {', '.join(GAME_KEYS)}")
        try:
            rs = registry.load(game["ruleset"])
        except NotFound as e:
            raise LogError(1, f"games[{i}]: {e}") from None
        if rs.namespace != lead.namespace:
            raise LogError(1, f"games[{i}]: a {rs.name} game cannot be in a {lead.name} group")
        if game["battle_id"] in found:
            raise LogError(1, f"games[{i}]: game {game['battle_id']!r} is named twice")
        found[game["battle_id"]] = (rs, game)
    entry = found.get(h["battle_id"])
    if (
        entry is None
        or entry[0] is not lead
        or any(entry[1][k] != h[k] for k in GAME_KEYS if k in h and k != "final_state_digest")
    ):
        raise LogError(1, f"the games must hold the lead game {h['battle_id']!r} as the header names it")
    digests = [g["final_state_digest"] for _, g in found.values()]
    if h["final_state_digest"] != group_digest(digests):
        raise LogError(1, "final_state_digest is not the digest of the games' digests")
    return found


def expected_stream(games: dict[str, tuple[Ruleset, dict[str, Any]]], name: str) -> UUID | None:
    """The stream id a group header's stream ``name`` must have (None: the
    name is neither a game's ``kind:id`` nor an aggregate's ``kind:key``)."""
    kind, _, key = name.partition(":")
    if not key.strip():
        return None
    game = games.get(key)
    if game is not None and game[0].game_kind == kind:
        return game[0].game_stream(key)
    for rs, _ in games.values():
        if kind in {a.kind for a in rs.aggregates}:
            return rs.stream_of(kind, key)
    return None


def event_base(games: dict[str, tuple[Ruleset, dict[str, Any]]], name: str) -> type:
    """The base class of the events a group log's stream ``name`` holds."""
    kind, _, key = name.partition(":")
    game = games.get(key)
    if game is not None and game[0].game_kind == kind:
        return game[0].event_base
    return next(rs.aggregate(kind).event_base for rs, _ in games.values() if kind in {a.kind for a in rs.aggregates})


def streams_of(app: Any, ids: list[str]) -> dict[UUID, str]:
    """Every stream of the games ``ids``: each game's own (``kind:id``) and
    the others each names (``Ruleset.related_streams``)."""
    streams: dict[UUID, str] = {}
    for game_id in ids:
        rs = app.ruleset(game_id)
        streams[rs.game_stream(game_id)] = game_stream_name(rs, game_id)
    for game_id in ids:
        rs = app.ruleset(game_id)
        for sid, name in rs.related_streams(app.battle(game_id).state).items():
            streams.setdefault(sid, name)
    return streams


def games_entries(app: Any, ids: list[str]) -> Iterator[dict[str, Any]]:
    """The header's ``games``: each game as its state and the index have it."""
    from domain.kernel.portable.chain import state_digest

    for game_id in ids:
        rs = app.ruleset(game_id)
        state = app.battle(game_id).state
        entry = app.index().get(game_id)
        yield {
            "battle_id": game_id,
            "ruleset": rs.name,
            "name": entry.name if entry else game_id,
            **{k: getattr(state, k) for k in ("rules_version", "pack_id", "pack_hash")},
            "final_state_digest": state_digest(state),
        }
