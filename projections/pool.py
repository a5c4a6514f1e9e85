"""The enemy pool view: how a battle's EP was computed and spent.

Per battle: the EP (EP-2: XP x party size, as ``BattleStarted`` carries it),
each enemy placed in order with its level and the EP left after it (CLASH-7a,
EP-4), quest units marked as outside the EP (EP-8), and how the pool closed:
EP discarded with its reason (EP-7, ``EnemyPoolClosed``) or spent to 0 (EP-6).
Enemy names are looked up in the content pack when rows are read.
"""

from __future__ import annotations

import re
import sqlite3

import msgspec

from domain.betrayal import events as ev
from domain.betrayal.catalog import Pack
from domain.kernel.envelope import Envelope
from domain.kernel.hexes import name

from .runner import Projection, handles

_RULE_PREFIX = re.compile(r"^([A-Z][A-Z-]*-\d+[a-z]?):\s*(.*)$", re.S)


class PoolRow(msgspec.Struct, frozen=True, kw_only=True):
    """One line of a battle's enemy pool.

    ``kind`` is ``ep`` (the EP computed; ``ep_left`` is the EP), ``draw`` (an
    enemy drawn for the EP), ``quest`` (a quest unit, outside the EP),
    ``discarded`` (EP lost, ``discarded`` says how much) or ``spent`` (the EP
    reached 0). ``rule`` cites the rule IDs; ``note`` says it in words.
    ``draw`` is the RNG counter of the draw (-1 for quest units).
    """

    kind: str
    rule: str
    number: int = 0
    foe: str = ""
    hex: str = ""
    enemy: str = ""
    name: str = ""
    level: int = 0
    ep_left: int = 0
    quest: bool = False
    draw: int = -1
    discarded: int = 0
    note: str = ""


class PoolView(Projection):
    """Per battle stream: the EP, the draws, the close."""

    name = "pool"
    tables = ("pool_battles", "pool_draws", "pool_closed")
    schema = (
        "CREATE TABLE IF NOT EXISTS pool_battles (stream TEXT PRIMARY KEY, battle_id TEXT,"
        " setup TEXT, xp INTEGER, party INTEGER, ep INTEGER, pack_hash TEXT)",
        "CREATE TABLE IF NOT EXISTS pool_draws (stream TEXT, number INTEGER, foe TEXT,"
        " q INTEGER, r INTEGER, enemy TEXT, level INTEGER, quest INTEGER, draw INTEGER,"
        " ep_left INTEGER, PRIMARY KEY (stream, number))",
        "CREATE TABLE IF NOT EXISTS pool_closed (stream TEXT PRIMARY KEY, discarded INTEGER,"
        " reason TEXT)",
    )

    @handles(ev.BattleStarted)
    def started(self, db: sqlite3.Connection, nid: int, env: Envelope) -> None:
        e: ev.BattleStarted = env.event  # type: ignore[assignment]
        db.execute(
            "INSERT OR REPLACE INTO pool_battles VALUES (?, ?, ?, ?, ?, ?, ?)",
            (str(env.originator_id), e.battle_id, e.setup, e.xp, len(e.party), e.ep, e.pack_hash),
        )

    @handles(ev.EnemyPlaced)
    def placed(self, db: sqlite3.Connection, nid: int, env: Envelope) -> None:
        e: ev.EnemyPlaced = env.event  # type: ignore[assignment]
        db.execute(
            "INSERT OR REPLACE INTO pool_draws VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (str(env.originator_id), e.number, e.foe, e.hex[0], e.hex[1], e.enemy, e.level,
             int(e.quest), e.draw, e.ep_left),
        )

    @handles(ev.EnemyPoolClosed)
    def closed(self, db: sqlite3.Connection, nid: int, env: Envelope) -> None:
        e: ev.EnemyPoolClosed = env.event  # type: ignore[assignment]
        db.execute(
            "INSERT OR REPLACE INTO pool_closed VALUES (?, ?, ?)",
            (str(env.originator_id), e.discarded, e.reason),
        )

    @handles(ev.CommandUndone)
    def undone(self, db: sqlite3.Connection, nid: int, env: Envelope) -> None:
        # Today only the setup places enemies and it cannot be undone (UNDO-1);
        # should a command ever place more, its undo removes them here.
        e: ev.CommandUndone = env.event  # type: ignore[assignment]
        kept = [f.id for f in e.restored.foes]
        marks = ",".join("?" * len(kept))
        db.execute(
            f"DELETE FROM pool_draws WHERE stream = ? AND foe NOT IN ({marks})",
            (str(env.originator_id), *kept),
        )


# -- reading -------------------------------------------------------------------


def has_battle(db: sqlite3.Connection, stream: str) -> bool:
    """Whether the view knows the battle stream ``stream``."""
    return db.execute("SELECT 1 FROM pool_battles WHERE stream = ?", (stream,)).fetchone() is not None


def pool_rows(db: sqlite3.Connection, stream: str, pack: Pack | None) -> list[PoolRow]:
    """The pool of battle ``stream``: the EP row, the draws in order, the close.
    Empty if the battle is unknown."""
    battle = db.execute(
        "SELECT xp, party, ep, pack_hash FROM pool_battles WHERE stream = ?", (stream,)
    ).fetchone()
    if battle is None:
        return []
    xp, party, ep, pack_hash = battle
    names = pack.enemies if pack is not None and pack.hash == pack_hash else {}
    rows = [PoolRow(
        kind="ep", rule="EP-2", ep_left=ep,
        note=f"EP = XP {xp} x party size {party} = {ep}",
    )]
    left = ep
    for number, foe, q, r, enemy, level, quest, draw, ep_left in db.execute(
        "SELECT number, foe, q, r, enemy, level, quest, draw, ep_left FROM pool_draws"
        " WHERE stream = ? ORDER BY number",
        (stream,),
    ):
        common = dict(
            number=number, foe=foe, hex=name((q, r)), enemy=enemy,
            name=names[enemy].name if enemy in names else enemy, level=level,
            ep_left=ep_left, quest=bool(quest), draw=draw,
        )
        if quest:
            rows.append(PoolRow(kind="quest", rule="EP-8", note="quest unit: placed outside the EP", **common))
        else:
            note = f"EP {left} - level {level} = {ep_left}"
            rows.append(PoolRow(kind="draw", rule="CLASH-7a, EP-4", note=note, **common))
            left = ep_left
    closed = db.execute("SELECT discarded, reason FROM pool_closed WHERE stream = ?", (stream,)).fetchone()
    if closed is not None:
        discarded, reason = closed
        rule, why = _split_rule(reason, "EP-7")
        rows.append(PoolRow(kind="discarded", rule=rule, discarded=discarded, note=why))
    elif left <= 0:
        rows.append(PoolRow(kind="spent", rule="EP-6", note="the EP reached 0: no more enemies are placed"))
    return rows


def _split_rule(text: str, default: str) -> tuple[str, str]:
    """("EP-7", "no chip left...") from "EP-7: no chip left..."."""
    found = _RULE_PREFIX.match(text)
    return (found.group(1), found.group(2)) if found else (default, text)
