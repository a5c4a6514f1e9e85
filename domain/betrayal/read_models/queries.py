"""Reading Betrayal's read models: each function takes the views database,
already caught up with the log (``projections.views.reading``), the
application (for the stream of a game and the content pack names and faces
come from) and what to read, and refuses with ``NotFound`` what the views
do not hold."""

from __future__ import annotations

import sqlite3
from typing import Any

from domain.kernel.errors import NotFound

from . import adventurers as _adventurers
from . import cooldown as _cooldown
from . import pool as _pool
from . import skyshards as _skyshards
from . import xp_ledger as _xp_ledger
from .adventurers import AdventurerRow
from .cooldown import SlotRow, TrackRow
from .pool import PoolRow
from .skyshards import SkyshardProgress, SkyshardRow
from .xp_ledger import XpLine

RULESET = "betrayal"


def _battle(db: sqlite3.Connection, app: Any, battle_id: str, has_battle: Any) -> str:
    """The stream of Betrayal battle ``battle_id``; NotFound for a game of
    another ruleset (it has no track nor pool) or one the views lack."""
    ruleset = app.ruleset(battle_id)
    if ruleset.name != RULESET:
        raise NotFound(f"{app.called(battle_id)} is not a Betrayal battle: it has no cooldown track or pool")
    stream = str(ruleset.game_stream(battle_id))
    if not has_battle(db, stream):
        raise NotFound(f"no battle {battle_id!r}")
    return stream


def _pack(app: Any) -> Any:
    return app.pack_of(RULESET)


def cooldown_track(db: sqlite3.Connection, app: Any, battle_id: str) -> list[TrackRow]:
    """Every adventurer's cooldown track in battle ``battle_id``: heroes in
    turn order, dice left to right."""
    return _cooldown.track_rows(db, _battle(db, app, battle_id, _cooldown.has_battle), _pack(app))


def cooldown_slots(db: sqlite3.Connection, app: Any, battle_id: str) -> list[SlotRow]:
    """Active-slot and drained dice of every adventurer in battle ``battle_id``."""
    return _cooldown.slot_rows(db, _battle(db, app, battle_id, _cooldown.has_battle), _pack(app))


def enemy_pool(db: sqlite3.Connection, app: Any, battle_id: str) -> list[PoolRow]:
    """The EP of battle ``battle_id`` and how it was spent (EP-2 to EP-8);
    for a delve, each tile's fresh EP and its draws, tile by tile (DELVE-4)."""
    return _pool.pool_rows(db, _battle(db, app, battle_id, _pool.has_battle), _pack(app))


def _delve(db: sqlite3.Connection, app: Any, battle_id: str) -> str:
    """The Delve stream of delve battle ``battle_id`` (NotFound if the battle
    is no delve: SKYSHARD-1, skyshards lie on delve cards)."""
    ruleset = app.ruleset(battle_id)
    if ruleset.name != RULESET:
        raise NotFound(f"{app.called(battle_id)} is not a Betrayal battle: it has no skyshards (SKYSHARD-1)")
    stream = _skyshards.delve_stream_of(db, battle_id)
    if stream is None:
        raise NotFound(f"battle {battle_id} is not a delve: it has no skyshards (SKYSHARD-1)")
    return stream


def skyshards(db: sqlite3.Connection, app: Any, battle_id: str) -> list[SkyshardRow]:
    """The skyshard progress of delve battle ``battle_id``: required, drawn,
    face down, obtained, what the objective still needs (SKYSHARD-*, OBJ-4,
    OBJ-8)."""
    return _skyshards.skyshard_rows(db, _delve(db, app, battle_id), _pack(app))


def skyshard_progress(db: sqlite3.Connection, app: Any, battle_id: str) -> SkyshardProgress:
    """The numbers behind ``skyshards``, named as the Delve aggregate names them."""
    found = _skyshards.progress(db, _delve(db, app, battle_id))
    assert found is not None
    return found


def adventurers(db: sqlite3.Connection) -> list[AdventurerRow]:
    """Every adventurer of the store, oldest first, as it stands between battles."""
    return _adventurers.adventurer_rows(db)


def xp_ledger(db: sqlite3.Connection, app: Any, name: str) -> list[XpLine]:
    """The XP ledger of the adventurer called ``name``: each XP gained and
    spent, oldest first, with the balance after each line."""
    from domain.betrayal.battle.application import adventurer, adventurer_stream

    found = adventurer(app, name)  # NotFound names the adventurer
    return _xp_ledger.xp_lines(db, str(adventurer_stream(name)), found.name)
