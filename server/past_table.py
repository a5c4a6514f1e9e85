"""The table view as it stood at an earlier version (``GET
/api/games/{game}/table?at=N``): time travel at a live table. The board
and the log are the game's after event ``at``, read with the asking
pass's rights as they are now: its board is masked as ``state?at=N``
masks it (SEAT-5: what the rules hid from this pass then stays hidden,
and the seed stays the host's while the game goes on, whatever the
version), its log narrated as the live log narrates it; nothing may be
given at a past version, so no command is offered and nothing may be
undone or redone."""

from __future__ import annotations

from domain.kernel.games import GameApp

from . import table_view, tables
from .passes import Pass


def table_at(app: GameApp, p: Pass, battle_id: str, at: int) -> table_view.TableView:
    """Game ``battle_id`` as pass ``p`` sees it, as it stood after event ``at``."""
    game = tables.game_at(app, battle_id, at)
    rs = app.ruleset(battle_id)
    summary = tables.summary(app, battle_id, game)
    board = table_view.board_at(app, p, battle_id, game, at=game.version)
    return table_view.TableView(
        game=battle_id,
        name=summary.name,
        ruleset=rs.name,
        title=rs.title,
        version=game.version,
        summary=summary,
        me=tables.whoami(app, p, battle_id),
        seats=[{"key": s.key, "name": s.name} for s in rs.seats(game.state)],
        board=board,
        log=tables.log(app, p, battle_id, limit=table_view.LOG_SHOWN, upto=game.version),
        legal=[],
        can_undo=False,
        can_redo=False,
        may_undo=False,
        may_redo=False,
    )
