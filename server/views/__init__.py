"""A game as the table view draws it: one JSON answer with everything the
page needs (where the game stands, the seats, the board and units of its
ruleset, the narrated log's tail, and the legal commands marked for the
asking pass). What is a ruleset's own comes from ``server.views.<name>``'s
``board(app, battle_id, game)``; a ruleset without one shows no board."""

from __future__ import annotations

from importlib import import_module
from typing import Any

import msgspec

from domain.kernel.games import GameApp

from .. import rights, tables
from ..passes import Pass

LOG_SHOWN = 40  # narrated events the table view shows


class TableView(msgspec.Struct, kw_only=True):
    """What the table view draws."""

    game: str
    name: str
    ruleset: str
    title: str
    version: int
    summary: Any
    me: Any
    seats: list[Any]
    board: Any
    log: list[Any]
    legal: list[Any]
    can_undo: bool
    can_redo: bool
    may_undo: bool
    may_redo: bool


def table(app: GameApp, p: Pass, battle_id: str) -> TableView:
    """Game ``battle_id`` as pass ``p`` sees it."""
    rs = app.ruleset(battle_id)
    game = app.battle(battle_id)
    summary = tables.summary(app, battle_id, game)
    try:
        module = import_module(f"server.views.{rs.name.replace('-', '_')}")
    except ModuleNotFoundError:
        module = None
    board = module.board(app, battle_id, game) if module is not None else None
    seats = [{"key": s.key, "name": s.name} for s in rs.seats(game.state)]
    return TableView(
        game=battle_id, name=summary.name, ruleset=rs.name, title=rs.title, version=game.version,
        summary=summary, me=tables.whoami(app, p, battle_id), seats=seats, board=board,
        log=tables.log(app, p, battle_id, limit=LOG_SHOWN),
        legal=tables.legal(app, p, battle_id) if summary.over is False else [],
        can_undo=game.can_undo, can_redo=game.can_redo,
        may_undo=game.can_undo and rights.may_take_back(app, rs, p, battle_id, game.done[-1]),
        may_redo=game.can_redo and rights.may_take_back(app, rs, p, battle_id, game.undone[-1]),
    )
