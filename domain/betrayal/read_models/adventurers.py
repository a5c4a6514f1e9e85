"""The adventurers view: one row per Betrayal adventurer of the store, what
`rk adventurers` lists (name, race, HP, battles fought, the last one and
how it ended).

An ``AdventurerCreated`` adds the row, each ``BattleConcluded`` moves its
HP and battles on and records the outcome, an ``AdventurerRestored`` (an
undone command) puts back the state it carries. Outcomes are kept per
battle, so the last battle's outcome is right again after an undo.
"""

from __future__ import annotations

import sqlite3
from typing import Any

import msgspec

from domain.betrayal.adventurer import events as ae
from domain.betrayal.adventurer.aggregate import AdventurerCreated, AdventurerRestored, AdventurerState, BattleConcluded
from domain.kernel.envelope import Envelope

from domain.kernel.read_model import Projection, handles


class AdventurerRow(msgspec.Struct, frozen=True, kw_only=True):
    """One adventurer between battles (``last_battle``: the id of the last
    battle it concluded, "" if none; ``last_outcome``: success or failure)."""

    name: str
    race: str
    hp: int
    max_hp: int
    battles: int
    last_battle: str
    last_outcome: str
    fighting: str = ""  # the battle it is in, not ended yet (BETWEEN-1)


class AdventurersView(Projection):
    """A row per adventurer stream, and the outcome of each battle it fought."""

    name = "adventurers-3"  # adventurers-1 knew nothing of campaigns, adventurers-2 nothing of BETWEEN-1
    tables = ("adventurer_rows3", "adventurer_results")
    schema = (
        "DROP TABLE IF EXISTS adventurer_rows",  # the layout before the ``fighting`` column
        "CREATE TABLE IF NOT EXISTS adventurer_rows3 (stream TEXT PRIMARY KEY, created INTEGER, name TEXT,"
        " race TEXT, hp INTEGER, max_hp INTEGER, battles INTEGER, last_battle TEXT, fighting TEXT)",
        "CREATE TABLE IF NOT EXISTS adventurer_results (stream TEXT, battle TEXT, outcome TEXT,"
        " PRIMARY KEY (stream, battle))",
    )

    @handles(AdventurerCreated)
    def created(self, db: sqlite3.Connection, nid: int, env: Envelope) -> None:
        e: Any = env.event  # the event this handler is for
        _put(db, str(env.originator_id), e.state, nid)

    @handles(ae.AdventurerRecruited)
    def recruited(self, db: sqlite3.Connection, nid: int, env: Envelope) -> None:
        e: Any = env.event  # the event this handler is for
        _put(db, str(env.originator_id), e.state, nid)

    @handles(ae.StatRaised, ae.StatUntrained, ae.Rested, ae.ItemUsed)
    def health(self, db: sqlite3.Connection, nid: int, env: Envelope) -> None:
        """The campaign's events that move HP or the Health stat."""
        e: Any = env.event  # the event this handler is for
        stream = str(env.originator_id)
        if isinstance(e, ae.StatRaised) and e.stat == "health":  # HEALTH-6
            db.execute("UPDATE adventurer_rows3 SET hp = hp + 1, max_hp = max_hp + 1 WHERE stream = ?", (stream,))
        elif isinstance(e, ae.StatUntrained) and e.stat == "health":  # HEALTH-7
            db.execute("UPDATE adventurer_rows3 SET hp = ?, max_hp = max_hp - 1 WHERE stream = ?", (e.hp, stream))
        elif isinstance(e, (ae.Rested, ae.ItemUsed)) and e.healed:
            db.execute("UPDATE adventurer_rows3 SET hp = hp + ? WHERE stream = ?", (e.healed, stream))

    @handles(ae.BattleJoined)
    def joined(self, db: sqlite3.Connection, nid: int, env: Envelope) -> None:
        e: Any = env.event  # the event this handler is for
        db.execute("UPDATE adventurer_rows3 SET fighting = ? WHERE stream = ?", (e.battle_id, str(env.originator_id)))

    @handles(BattleConcluded)
    def concluded(self, db: sqlite3.Connection, nid: int, env: Envelope) -> None:
        e: Any = env.event  # the event this handler is for
        stream = str(env.originator_id)
        db.execute(
            "UPDATE adventurer_rows3 SET hp = ?, battles = battles + 1, last_battle = ?, fighting = ''"
            " WHERE stream = ?",
            (e.hp, e.battle_id, stream),
        )
        db.execute("INSERT OR REPLACE INTO adventurer_results VALUES (?, ?, ?)", (stream, e.battle_id, e.outcome.value))

    @handles(AdventurerRestored)
    def restored(self, db: sqlite3.Connection, nid: int, env: Envelope) -> None:
        e: Any = env.event  # the event this handler is for
        _put(db, str(env.originator_id), e.restored, None)


def _put(db: sqlite3.Connection, stream: str, state: AdventurerState, created: int | None) -> None:
    db.execute(
        "INSERT INTO adventurer_rows3 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (stream) DO UPDATE SET"
        " hp = excluded.hp, max_hp = excluded.max_hp, battles = excluded.battles, last_battle = excluded.last_battle,"
        " fighting = excluded.fighting",
        (
            stream,
            created,
            state.name,
            state.race,
            state.hp,
            state.max_hp,
            len(state.battles),
            state.battles[-1] if state.battles else "",
            state.fighting,
        ),
    )


def adventurer_rows(db: sqlite3.Connection) -> list[AdventurerRow]:
    """Every adventurer, in the order they were created."""
    rows = db.execute(
        "SELECT a.name, a.race, a.hp, a.max_hp, a.battles, a.last_battle, coalesce(r.outcome, ''),"
        " coalesce(a.fighting, '') FROM adventurer_rows3 a"
        " LEFT JOIN adventurer_results r ON r.stream = a.stream AND r.battle = a.last_battle"
        " ORDER BY a.created, a.name"
    )
    return [
        AdventurerRow(
            name=name,
            race=race,
            hp=hp,
            max_hp=max_hp,
            battles=battles,
            last_battle=last,
            last_outcome=outcome,
            fighting=fighting,
        )
        for name, race, hp, max_hp, battles, last, outcome, fighting in rows
    ]
