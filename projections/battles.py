"""The battles view: one row per game of every ruleset, what `rk battles` lists.

Each row keeps where the game stands (its ruleset's ``summary()``: setup,
round, where, who), its version, and its latest state (msgpack), so the next
event is folded into it without replaying the game: a game-stream event is
``evolve``d into the state, a ``CommandUndone`` brings back the state it
carries, a ``CommandIssued`` moves only the version. The index's
``GameRegistered`` (or a legacy ``BattleRegistered``) gives the order the
games are listed in, as ``GameApp.battles()`` does; its ``BattleRenamed``,
``BattleDeleted`` and ``BattleRestored`` give each game's name and whether
it was deleted, as ``domain.kernel.battle_index`` folds them.

Listing the games then costs one read of this table, however long each
game is.
"""

from __future__ import annotations

import sqlite3
from typing import Any

import msgspec

from domain.kernel import ruleset as registry
from domain.kernel.commandlog import CommandIssued, CommandUndone
from domain.kernel.envelope import Envelope
from domain.kernel.battle_index import BattleDeleted, BattleRenamed, BattleRestored
from domain.kernel.games import BattleRegistered, GameRegistered
from domain.kernel.messages import Event

from .audit import owner
from .runner import Projection, handles


class BattleRow(msgspec.Struct, frozen=True, kw_only=True):
    """One game as `rk battles` lists it (``battle``: its id, fixed in its
    log; ``name``: what it is called in this store, its id unless renamed;
    ``phase``: the phase, or the outcome once it is over)."""

    battle: str
    name: str
    ruleset: str
    setup: str
    round: int
    phase: str
    over: bool
    who: str
    version: int
    deleted: bool = False


class BattlesView(Projection):
    """A row per game stream, upserted by its setup, its events and the index."""

    name = "battles-3"  # battles-2 kept a Betrayal battle's phase id where it waits; the words now
    tables = ("battle_list",)
    schema = (
        "CREATE TABLE IF NOT EXISTS battle_list (stream TEXT PRIMARY KEY, battle TEXT, ruleset TEXT,"
        " registered INTEGER, version INTEGER, state BLOB, setup TEXT, round INTEGER, phase TEXT,"
        " over INTEGER, who TEXT, name TEXT, deleted INTEGER NOT NULL DEFAULT 0)",
    )

    @handles(GameRegistered, BattleRegistered)
    def registered(self, db: sqlite3.Connection, nid: int, env: Envelope) -> None:
        e: Any = env.event  # a GameRegistered, or an old BattleRegistered: both name ruleset and battle
        rs = registry.load(e.ruleset)
        # A game imported under an id another goes by as a name: the name yields (BattleIndex.apply).
        db.execute(
            "UPDATE battle_list SET name = battle WHERE lower(name) = lower(?) AND lower(name) != lower(battle)",
            (e.battle_id,),
        )
        db.execute(
            "INSERT INTO battle_list (stream, battle, ruleset, registered, version, name) VALUES (?, ?, ?, ?, 0, ?)"
            " ON CONFLICT (stream) DO UPDATE SET battle = excluded.battle, ruleset = excluded.ruleset,"
            " registered = excluded.registered, name = excluded.name",
            (str(rs.game_stream(e.battle_id)), e.battle_id, rs.name, nid, e.battle_id),
        )

    @handles(BattleRenamed)
    def renamed(self, db: sqlite3.Connection, nid: int, env: Envelope) -> None:
        e: Any = env.event
        db.execute("UPDATE battle_list SET name = ? WHERE battle = ? AND registered IS NOT NULL", (e.name, e.battle_id))

    @handles(BattleDeleted, BattleRestored)
    def deleted(self, db: sqlite3.Connection, nid: int, env: Envelope) -> None:
        e: Any = env.event
        db.execute(
            "UPDATE battle_list SET deleted = ? WHERE battle = ? AND registered IS NOT NULL",
            (int(isinstance(e, BattleDeleted)), e.battle_id),
        )

    @handles(Event)
    def game_event(self, db: sqlite3.Connection, nid: int, env: Envelope) -> None:
        found = owner(type(env.event))
        if found is None or found[1] is not None:  # the kernel's index, or another aggregate's stream
            return
        rs = found[0]
        e = env.event
        stream = str(env.originator_id)
        row = db.execute("SELECT state FROM battle_list WHERE stream = ?", (stream,)).fetchone()
        state: Any = None if row is None or row[0] is None else msgspec.msgpack.decode(row[0], type=rs.state_type)
        if isinstance(e, CommandIssued):
            if isinstance(e.command, rs.setup_commands):
                db.execute(
                    "INSERT INTO battle_list (stream, battle, ruleset, version) VALUES (?, ?, ?, ?)"
                    " ON CONFLICT (stream) DO UPDATE SET version = excluded.version",
                    (stream, str(getattr(e.command, "battle_id", "")), rs.name, env.originator_version),
                )
            else:
                db.execute("UPDATE battle_list SET version = ? WHERE stream = ?", (env.originator_version, stream))
            return
        if isinstance(e, CommandUndone):
            state = e.restored
        elif row is None:
            return  # an event before any setup: not a game this view knows
        else:
            state = rs.evolve(state, e)
        summary = rs.summary(state)
        db.execute(
            "UPDATE battle_list SET version = ?, state = ?, setup = ?, round = ?, phase = ?, over = ?, who = ?"
            " WHERE stream = ?",
            (
                env.originator_version,
                msgspec.msgpack.encode(state),
                summary.setup,
                summary.round,
                summary.where,
                int(summary.over),
                summary.who,
                stream,
            ),
        )


def battle_rows(db: sqlite3.Connection) -> list[BattleRow]:
    """Every registered game with a state, deleted ones too, in the order
    they were registered."""
    rows = db.execute(
        "SELECT battle, name, ruleset, setup, round, phase, over, who, version, deleted FROM battle_list"
        " WHERE registered IS NOT NULL AND state IS NOT NULL ORDER BY registered"
    )
    return [
        BattleRow(
            battle=battle,
            name=name or battle,
            ruleset=ruleset,
            setup=setup or "",
            round=rnd,
            phase=phase,
            over=bool(over),
            who=who,
            version=version,
            deleted=bool(deleted),
        )
        for battle, name, ruleset, setup, rnd, phase, over, who, version, deleted in rows
    ]
