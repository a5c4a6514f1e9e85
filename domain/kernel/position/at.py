"""The position of a stored game at any version (``rk position --at N``).

The game stream gives the state at version N. Each other stream the game
needs (``Ruleset.position_streams``) is folded up to the same moment: the
events saved no later than the game's event at N. A command saves its
writes to other streams before its own events, and each later command
after, so that moment parts what came before N from what came after, in
streams other games write too (a campaign's adventurers).
"""

from __future__ import annotations

from typing import Any

from domain.kernel.errors import NotFound
from domain.kernel.position.document import Other, Position, ruleset_of, write


def position_of(app: Any, battle_id: str, version: int | None = None) -> Position:
    """Game ``battle_id`` of ``app`` (a ``GameApp``) as it stood at
    ``version`` (None: now)."""
    rs = app.ruleset(battle_id)
    if rs.positioned is None:
        raise NotFound(f"{rs.title} games have no positions")
    game = app.battle(battle_id, version)
    mine = app.events(rs.game_stream(battle_id), gt=game.version - 1, lte=game.version)
    moment = mine[-1].timestamp
    others = []
    for stream, label in rs.position_streams(game.state).items():
        kind, _, name = label.partition(":")
        aggregate = rs.aggregate(kind)
        state = None
        for envelope in app.events(stream):
            if envelope.timestamp > moment:
                break
            state = aggregate.evolve(state, envelope.event)
        if state is not None:
            others.append(Other(kind, name, stream, state))
    return Position(rs.name, game.state, tuple(others))


def start(app: Any, text: str) -> Any:
    """Start the game position ``text`` holds in ``app`` (a ``GameApp``),
    under the ruleset and the name the position gives: the ``Result`` of
    its setup. ``PositionRefused`` names the line and the reason, and
    nothing is written."""
    from domain.kernel import ruleset as registry
    from domain.kernel.position.messages import StartFromPosition
    from domain.kernel.position.rules import checked

    rs = registry.load(ruleset_of(text))
    battle_id = checked(rs, app.pack_of(rs), text).state.battle_id
    return app.start(rs.name, StartFromPosition(position=text), battle_id=battle_id)


def position_text(app: Any, battle_id: str, version: int | None = None) -> str:
    """The position file of game ``battle_id`` at ``version`` (None: now)."""
    return write(app.ruleset(battle_id), position_of(app, battle_id, version))
