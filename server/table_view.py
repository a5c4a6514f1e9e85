"""A game as the table view draws it: one JSON answer with everything the
page needs (where the game stands, the seats, the board and units of its
ruleset, the narrated log's tail, the legal commands marked for the
asking pass, and why it may not undo or redo now, with the rule). The
board is its ruleset's (``Surface.board``), drawn from the state as the
asking pass may see it (SEAT-5); a ruleset without one shows no board."""

from __future__ import annotations

import re
from typing import Any

import msgspec

from domain.kernel.games import GameApp

from . import rights, tables
from .passes import Pass

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
    undo_note: Any = None  # why this pass may not undo now: the refusal (its rule and reason) it would get
    redo_note: Any = None
    undo_words: str | None = None  # undo_note's reason in players' words: the verb's title for its `rk ...` line
    redo_words: str | None = None
    force_undo: str | None = None  # the host's: the command whose undo needs force (UNDO-2), as typed
    force_undo_title: str | None = None  # that command's verb in players' words ("Engage")


def table(app: GameApp, p: Pass, battle_id: str) -> TableView:
    """Game ``battle_id`` as pass ``p`` sees it."""
    rs = app.ruleset(battle_id)
    game = app.battle(battle_id)
    summary = tables.summary(app, battle_id, game)
    board = board_at(app, p, battle_id, game)
    seats = [{"key": s.key, "name": s.name} for s in rs.seats(game.state)]
    last = game.done[-1] if game.can_undo else None
    forced = last if p.is_host and last is not None and last.random else None
    undone = game.undone[-1] if game.can_redo else None
    undo_note = rights.take_back_refusal(app, rs, p, battle_id, last, "undoing")
    redo_note = rights.take_back_refusal(app, rs, p, battle_id, undone, "redoing")
    return TableView(
        game=battle_id,
        name=summary.name,
        ruleset=rs.name,
        title=rs.title,
        version=game.version,
        summary=summary,
        me=tables.whoami(app, p, battle_id),
        seats=seats,
        board=board,
        log=tables.log(app, p, battle_id, limit=LOG_SHOWN),
        legal=tables.legal(app, p, battle_id) if summary.over is False else [],
        can_undo=game.can_undo,
        can_redo=game.can_redo,
        may_undo=game.can_undo and rights.may_take_back(app, rs, p, battle_id, game.done[-1]),
        may_redo=game.can_redo and rights.may_take_back(app, rs, p, battle_id, game.undone[-1]),
        undo_note=undo_note,
        redo_note=redo_note,
        undo_words=_note_in_words(undo_note, rs.name, last),
        redo_words=_note_in_words(redo_note, rs.name, undone),
        force_undo=f"rk {rs.describe_command(forced.command)}" if forced else None,
        force_undo_title=_verb_title(rs.name, forced.command) if forced else None,
    )


_QUOTED_LINE = re.compile(r"`rk [^`]*`")


def _note_in_words(refusal: Any, ruleset: str, done: Any) -> str | None:
    """A take-back refusal's reason as the page says it: the command line it
    quotes (`rk engage ...`), which the CLI and the API keep, read as the
    verb's title ("the last Engage"); None when there is no refusal."""
    if refusal is None:
        return None
    title = _verb_title(ruleset, done.command) if done is not None else None
    said = f"the last {title}" if title else "the last command"
    return _QUOTED_LINE.sub(said, refusal.reason)


def _verb_title(ruleset: str, command: Any) -> str | None:
    """The title of the verb that gives ``command``, as the Commands panel heads
    it ("Engage"), or None when its ruleset declares no such verb."""
    from domain.kernel.surface import surface_of

    try:
        verb = surface_of(ruleset).grammar.verb_of(command)
    except KeyError:
        return None
    return verb.shown_title if verb is not None else None


def board_at(app: GameApp, p: Pass, battle_id: str, game: Any, at: int | None = None) -> Any:
    """The ruleset's board of the game as ``p`` may see it, or None; ``at``: the
    game as it stood at that version, its companion aggregates (a delve's map)
    with it, not as they are now."""
    from domain.kernel.surface import surface_of
    from domain.kernel.surface.declared import Seen

    rs = app.ruleset(battle_id)
    try:
        draw = surface_of(rs.name).board
    except KeyError:
        return None
    if draw is None:
        return None
    shown = game.state if p.is_host else app.seen(battle_id, game.state, p.seat or None)
    return draw(
        Seen(
            app=app,
            state=shown,
            version=game.version,
            name=app.called(battle_id),
            pack=app.pack_of(rs),
            context=lambda: app.rules_context(battle_id, at),
        )
    )
