"""The enemy pool view: how a battle's EP was computed and spent.

Per battle: the EP (EP-2: XP x party size, as ``BattleStarted`` carries it),
each enemy placed in order with its level and the EP left after it (CLASH-7a,
EP-4), quest units marked as outside the EP (EP-8), and how the pool closed:
EP discarded with its reason (EP-7, ``EnemyPoolClosed``) or spent to 0 (EP-6).

A delve has no pool at setup (DELVE-9) but one per tile revealed (DELVE-4):
each ``EnemyPoolOpened`` starts a tile's fresh EP, and the ``EnemyPlaced``
and ``EnemyPoolClosed`` the same command writes after it belong to that tile
(EXPLORATION-11b, EXPLORATION-11c). The card that revealed the tile is the
latest ``Explored`` of the battle; which tile a key names comes from the
Delve stream's ``TilePlaced`` (joined to the battle by ``DelveBegun``).
Enemy, tile and card names are looked up in the content pack when rows are
read.

Undo: ``CommandUndone`` names the undone command, ``c<N>`` where N is the
battle version of its first event; every row written by an event of version
N or later goes (the commands after it were undone before it), and the draws
of foes no longer in the restored state too.
"""

from __future__ import annotations

import re
import sqlite3

import msgspec

from domain.betrayal.battle import events as ev
from domain.betrayal.delve import aggregate as dv
from domain.betrayal.packs.catalog import Pack
from domain.betrayal.vocab import DELVE_OBJECTIVES
from domain.kernel.envelope import Envelope
from domain.kernel.hexes import name

from domain.kernel.read_model import Projection, handles

_RULE_PREFIX = re.compile(r"^([A-Z][A-Z-]*-\d+[a-z]?):\s*(.*)$", re.S)
_COMMAND = re.compile(r"^c(\d+)$")


class PoolRow(msgspec.Struct, frozen=True, kw_only=True):
    """One line of a battle's enemy pool.

    ``kind`` is ``ep`` (the EP computed; ``ep_left`` is the EP), ``draw`` (an
    enemy drawn for the EP), ``quest`` (a quest unit, outside the EP),
    ``discarded`` (EP lost, ``discarded`` says how much), ``spent`` (the EP
    reached 0) or, for a delve with no tile revealed yet, ``none``. ``tile``
    is the delve tile the pool belongs to (DELVE-4: "t1", "t2"...), empty in
    a clash or a dungeon. ``rule`` cites the rule IDs; ``note`` says it in
    words. ``draw`` is the RNG counter of the draw (-1 for quest units).
    """

    tile: str = ""
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


# Tables of the first layout (view "pool"), left behind by older databases.
_OLD_TABLES = ("pool_battles", "pool_draws", "pool_closed")


class PoolView(Projection):
    """Per battle stream: the EP, the draws, the close; per delve tile too.

    Rows carry the battle version (``version``) of the event that wrote
    them, so an undo can take back exactly its command's rows."""

    name = "pool-2"  # pool-1 ("pool") had one pool per battle and no delve tiles
    tables = (
        "pool2_battles",
        "pool2_explored",
        "pool2_opened",
        "pool2_draws",
        "pool2_closed",
        "pool2_delves",
        "pool2_tiles",
    )
    schema = (
        *(f"DROP TABLE IF EXISTS {t}" for t in _OLD_TABLES),
        "CREATE TABLE IF NOT EXISTS pool2_battles (stream TEXT PRIMARY KEY, battle_id TEXT,"
        " setup TEXT, xp INTEGER, party INTEGER, ep INTEGER, pack_hash TEXT, delve INTEGER)",
        # The cards revealed (EXPLORATION-6), for the note of the tile they reveal.
        "CREATE TABLE IF NOT EXISTS pool2_explored (stream TEXT, version INTEGER, card TEXT,"
        " PRIMARY KEY (stream, version))",
        # A delve tile's fresh EP (DELVE-4); ``command`` ties its draws to it.
        "CREATE TABLE IF NOT EXISTS pool2_opened (stream TEXT, tile TEXT, ep INTEGER, card TEXT,"
        " command TEXT, version INTEGER, PRIMARY KEY (stream, tile))",
        "CREATE TABLE IF NOT EXISTS pool2_draws (stream TEXT, number INTEGER, tile TEXT, foe TEXT,"
        " q INTEGER, r INTEGER, enemy TEXT, level INTEGER, quest INTEGER, draw INTEGER,"
        " ep_left INTEGER, version INTEGER, PRIMARY KEY (stream, number))",
        "CREATE TABLE IF NOT EXISTS pool2_closed (stream TEXT, tile TEXT, discarded INTEGER,"
        " reason TEXT, version INTEGER, PRIMARY KEY (stream, tile))",
        # Delve stream -> battle id, and each tile key's tile id (by battle id).
        "CREATE TABLE IF NOT EXISTS pool2_delves (stream TEXT PRIMARY KEY, battle TEXT)",
        "CREATE TABLE IF NOT EXISTS pool2_tiles (battle TEXT, key TEXT, tile TEXT, PRIMARY KEY (battle, key))",
    )

    # -- the battle stream ---------------------------------------------------------

    @handles(ev.BattleStarted)
    def started(self, db: sqlite3.Connection, nid: int, env: Envelope) -> None:
        e: ev.BattleStarted = env.event  # type: ignore[assignment]
        stream = str(env.originator_id)
        for table in ("pool2_explored", "pool2_opened", "pool2_draws", "pool2_closed"):
            db.execute(f"DELETE FROM {table} WHERE stream = ?", (stream,))
        db.execute(
            "INSERT OR REPLACE INTO pool2_battles VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (stream, e.battle_id, e.setup, e.xp, len(e.party), e.ep, e.pack_hash, int(e.objective in DELVE_OBJECTIVES)),
        )

    @handles(ev.Explored)
    def explored(self, db: sqlite3.Connection, nid: int, env: Envelope) -> None:
        e: ev.Explored = env.event  # type: ignore[assignment]
        db.execute(
            "INSERT OR REPLACE INTO pool2_explored VALUES (?, ?, ?)",
            (str(env.originator_id), env.originator_version, e.card),
        )

    @handles(ev.EnemyPoolOpened)
    def opened(self, db: sqlite3.Connection, nid: int, env: Envelope) -> None:
        # DELVE-4: the tile's own EP; the card is the latest one revealed.
        e: ev.EnemyPoolOpened = env.event  # type: ignore[assignment]
        stream = str(env.originator_id)
        card = db.execute(
            "SELECT card FROM pool2_explored WHERE stream = ? ORDER BY version DESC LIMIT 1", (stream,)
        ).fetchone()
        db.execute(
            "INSERT OR REPLACE INTO pool2_opened VALUES (?, ?, ?, ?, ?, ?)",
            (stream, e.tile, e.ep, card[0] if card else "", env.command_id, env.originator_version),
        )

    @handles(ev.EnemyPlaced)
    def placed(self, db: sqlite3.Connection, nid: int, env: Envelope) -> None:
        e: ev.EnemyPlaced = env.event  # type: ignore[assignment]
        stream = str(env.originator_id)
        db.execute(
            "INSERT OR REPLACE INTO pool2_draws VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                stream,
                e.number,
                _tile_of(db, stream, env),
                e.foe,
                e.hex[0],
                e.hex[1],
                e.enemy,
                e.level,
                int(e.quest),
                e.draw,
                e.ep_left,
                env.originator_version,
            ),
        )

    @handles(ev.EnemyPoolClosed)
    def closed(self, db: sqlite3.Connection, nid: int, env: Envelope) -> None:
        e: ev.EnemyPoolClosed = env.event  # type: ignore[assignment]
        stream = str(env.originator_id)
        db.execute(
            "INSERT OR REPLACE INTO pool2_closed VALUES (?, ?, ?, ?, ?)",
            (stream, _tile_of(db, stream, env), e.discarded, e.reason, env.originator_version),
        )

    @handles(ev.CommandUndone)
    def undone(self, db: sqlite3.Connection, nid: int, env: Envelope) -> None:
        e: ev.CommandUndone = env.event  # type: ignore[assignment]
        stream = str(env.originator_id)
        found = _COMMAND.match(e.command_id)
        if found is not None:
            # The undone command's events have versions from N on ("c<N>").
            first = int(found.group(1))
            for table in ("pool2_explored", "pool2_opened", "pool2_draws", "pool2_closed"):
                db.execute(f"DELETE FROM {table} WHERE stream = ? AND version >= ?", (stream, first))
        kept = [f.id for f in e.restored.foes]
        marks = ",".join("?" * len(kept))
        db.execute(
            f"DELETE FROM pool2_draws WHERE stream = ? AND foe NOT IN ({marks})",
            (stream, *kept),
        )

    # -- the Delve stream ----------------------------------------------------------

    @handles(dv.DelveBegun)
    def begun(self, db: sqlite3.Connection, nid: int, env: Envelope) -> None:
        e: dv.DelveBegun = env.event  # type: ignore[assignment]
        battle = e.state.battle_id
        db.execute("INSERT OR REPLACE INTO pool2_delves VALUES (?, ?)", (str(env.originator_id), battle))
        _tiles(db, battle, e.state)

    @handles(dv.TilePlaced)
    def tile_placed(self, db: sqlite3.Connection, nid: int, env: Envelope) -> None:
        e: dv.TilePlaced = env.event  # type: ignore[assignment]
        battle = _battle_of_delve(db, env)
        if battle is not None:
            db.execute("INSERT OR REPLACE INTO pool2_tiles VALUES (?, ?, ?)", (battle, e.placed.key, e.placed.tile))

    @handles(dv.DelveRestored)
    def restored(self, db: sqlite3.Connection, nid: int, env: Envelope) -> None:
        e: dv.DelveRestored = env.event  # type: ignore[assignment]
        battle = _battle_of_delve(db, env)
        if battle is not None and e.restored is not None:
            _tiles(db, battle, e.restored)


def _tile_of(db: sqlite3.Connection, stream: str, env: Envelope) -> str:
    """The delve tile whose pool an event of ``env``'s command belongs to:
    the last one that command opened; "" for a clash or a dungeon."""
    found = db.execute(
        "SELECT tile FROM pool2_opened WHERE stream = ? AND command = ? ORDER BY version DESC LIMIT 1",
        (stream, env.command_id),
    ).fetchone()
    return found[0] if found else ""


def _battle_of_delve(db: sqlite3.Connection, env: Envelope) -> str | None:
    found = db.execute("SELECT battle FROM pool2_delves WHERE stream = ?", (str(env.originator_id),)).fetchone()
    return found[0] if found else None


def _tiles(db: sqlite3.Connection, battle: str, state: dv.DelveState) -> None:
    """The tile keys of ``battle``'s map as ``state`` has them."""
    db.execute("DELETE FROM pool2_tiles WHERE battle = ?", (battle,))
    db.executemany("INSERT INTO pool2_tiles VALUES (?, ?, ?)", [(battle, t.key, t.tile) for t in state.tiles])


# -- reading -------------------------------------------------------------------


def has_battle(db: sqlite3.Connection, stream: str) -> bool:
    """Whether the view knows the battle stream ``stream``."""
    return db.execute("SELECT 1 FROM pool2_battles WHERE stream = ?", (stream,)).fetchone() is not None


def pool_rows(db: sqlite3.Connection, stream: str, pack: Pack | None) -> list[PoolRow]:
    """The pool of battle ``stream``: the EP row, the draws in order, the close;
    for a delve, that for each tile in the order revealed (``delve_rows``).
    Empty if the battle is unknown."""
    battle = db.execute(
        "SELECT battle_id, xp, party, ep, pack_hash, setup, delve FROM pool2_battles WHERE stream = ?",
        (stream,),
    ).fetchone()
    if battle is None:
        return []
    battle_id, xp, party, ep, pack_hash, setup, delve = battle
    if delve:
        return delve_rows(
            db, stream, battle_id, xp, party, pack if pack is not None and pack_hash == pack.delve_hash else None
        )
    # a dungeon (or delve) records the hash of the pack with its delve content
    names = pack.enemies if pack is not None and pack_hash in (pack.hash, pack.delve_hash) else {}
    dungeon = pack is not None and setup in pack.dungeons  # DUNGEON-8: numbered and special hexes
    rows = [
        PoolRow(
            kind="ep",
            rule="EP-2",
            ep_left=ep,
            note=f"EP = XP {xp} x party size {party} = {ep}",
        )
    ]
    left = ep
    for common in _draws(db, stream, "", names):
        if common["quest"]:
            rows.append(
                PoolRow(
                    kind="quest",
                    rule="DUNGEON-8d, EP-8" if dungeon else "EP-8",
                    note="quest unit: placed outside the EP",
                    **common,
                )
            )
        else:
            note = f"EP {left} - level {common['level']} = {common['ep_left']}"
            rows.append(
                PoolRow(kind="draw", rule="DUNGEON-8a, EP-4" if dungeon else "CLASH-7a, EP-4", note=note, **common)
            )
            left = common["ep_left"]
    rows.extend(_close(db, stream, "", left, "EP-7", "no more enemies are placed"))
    return rows


def delve_rows(
    db: sqlite3.Connection, stream: str, battle_id: str, xp: int, party: int, pack: Pack | None
) -> list[PoolRow]:
    """A delve's pools, tile by tile in the order revealed: the tile's fresh
    EP (DELVE-4, raised by a When Revealed effect, EXPLORATION-8), each
    enemy drawn for it (EXPLORATION-11b), the EP discarded
    (EXPLORATION-11c) or spent (EP-6). ``pack``: the delve's pack, for names."""
    names = pack.enemies if pack is not None else {}
    tiles = dict(db.execute("SELECT key, tile FROM pool2_tiles WHERE battle = ?", (battle_id,)).fetchall())
    base = xp * party
    rows: list[PoolRow] = []
    for tile, ep, card in db.execute(
        "SELECT tile, ep, card FROM pool2_opened WHERE stream = ? ORDER BY version", (stream,)
    ).fetchall():
        raised = f" + {ep - base} When Revealed (EXPLORATION-8)" if ep != base else ""
        rows.append(
            PoolRow(
                tile=tile,
                kind="ep",
                rule="DELVE-4",
                ep_left=ep,
                note=(
                    f"{_tile_name(pack, tiles.get(tile, ''), tile)} (card {_card_name(pack, card)}):"
                    f" fresh EP = XP {xp} x party size {party}{raised} = {ep}"
                ),
            )
        )
        left = ep
        for common in _draws(db, stream, tile, names):
            rows.append(
                PoolRow(
                    tile=tile,
                    kind="draw",
                    rule="EXPLORATION-11b",
                    note=f"EP {left} - level {common['level']} = {common['ep_left']}",
                    **common,
                )
            )
            left = common["ep_left"]
        rows.extend(_close(db, stream, tile, left, "EXPLORATION-11c", "no more enemies on this tile"))
    if not rows:
        rows.append(
            PoolRow(
                kind="none", rule="DELVE-9", note=f"no tile revealed yet: each will get a fresh EP of {base} (DELVE-4)"
            )
        )
    return rows


def _draws(db: sqlite3.Connection, stream: str, tile: str, names: dict) -> list[dict]:
    """The fields of each draw for ``tile``'s pool, in order."""
    return [
        dict(
            number=number,
            foe=foe,
            hex=name((q, r)),
            enemy=enemy,
            name=names[enemy].name if enemy in names else enemy,
            level=level,
            ep_left=ep_left,
            quest=bool(quest),
            draw=draw,
        )
        for number, foe, q, r, enemy, level, quest, draw, ep_left in db.execute(
            "SELECT number, foe, q, r, enemy, level, quest, draw, ep_left FROM pool2_draws"
            " WHERE stream = ? AND tile = ? ORDER BY number",
            (stream, tile),
        )
    ]


def _close(db: sqlite3.Connection, stream: str, tile: str, left: int, rule: str, spent: str) -> list[PoolRow]:
    """How ``tile``'s pool closed: EP discarded with its reason (``rule``
    when the reason cites none) or spent to 0 (EP-6); nothing while open."""
    closed = db.execute(
        "SELECT discarded, reason FROM pool2_closed WHERE stream = ? AND tile = ?", (stream, tile)
    ).fetchone()
    if closed is not None:
        discarded, reason = closed
        cited, why = _split_rule(reason, rule)
        return [PoolRow(tile=tile, kind="discarded", rule=cited, discarded=discarded, note=why)]
    if left <= 0:
        return [PoolRow(tile=tile, kind="spent", rule="EP-6", note=f"the EP reached 0: {spent}")]
    return []


def _tile_name(pack: Pack | None, tile: str, key: str) -> str:
    """The tile's name in the pack, else its id, else its key on the map."""
    if pack is not None and pack.entrance is not None and tile == pack.entrance.id:
        return pack.entrance.name
    found = pack.tiles.get(tile) if pack is not None else None
    return found.name if found else (tile or key)


def _card_name(pack: Pack | None, card: str) -> str:
    found = pack.cards.get(card) if pack is not None else None
    return found.name if found else card


def _split_rule(text: str, default: str) -> tuple[str, str]:
    """("EP-7", "no chip left...") from "EP-7: no chip left..."."""
    found = _RULE_PREFIX.match(text)
    return (found.group(1), found.group(2)) if found else (default, text)
