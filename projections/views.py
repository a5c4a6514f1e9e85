"""The read-model API the command line and the server call.

Each query catches the views up with the application's notification log and
then reads the rows of one battle::

    cooldown_track(app, "b3-1") -> list[TrackRow]   # rk track
    cooldown_slots(app, "b3-1") -> list[SlotRow]    # active and drained dice
    enemy_pool(app, "b3-1")     -> list[PoolRow]    # rk pool
    audit(app, "b3-1")          -> list[AuditLine]  # rk audit
    battles(app)                -> list[BattleRow]  # rk battles (every game)
    adventurers(app)            -> list[AdventurerRow]  # rk adventurers
    skyshards(app, "v1")        -> list[SkyshardRow]  # rk skyshards (a delve's progress)
    skyshard_progress(app, "v1") -> SkyshardProgress  # the same, as numbers

Where the views database is (``views_path_for``), by the app's store:

* SQLite file ``X.sqlite``: ``X.views.sqlite`` beside it (``X.db`` ->
  ``X.views.db``). The library does not share one SQLite file between
  applications, so the views have their own.
* memory (``eventsourcing.popo``) or an in-memory SQLite: an in-memory SQLite
  database that lives as long as the app object.
* PostgreSQL database ``D``: ``$RULEKEEPER_HOME/views-D.sqlite`` (home default
  ``~/.local/share/rulekeeper``). Later the library's ``ProjectionRunner``
  could drive the same projections into PostgreSQL tables instead.

One ``Catchup`` (one connection) is kept per app object, for the app's
lifetime; ``close_views(app)`` drops it (for example before deleting the file).
"""

from __future__ import annotations

import os
import threading
import weakref
from collections.abc import Callable
from pathlib import Path
from urllib.parse import unquote

from domain.kernel.application import EventSourcedApp
from domain.kernel.errors import NotFound
from domain.kernel.store_setting import DEFAULT_HOME, HOME_VARIABLE

from . import adventurers as _adventurers
from . import audit as _audit
from . import battles as _battles
from . import cooldown as _cooldown
from . import pool as _pool
from . import skyshards as _skyshards
from . import xp_ledger as _xp_ledger
from .adventurers import AdventurerRow, AdventurersView
from .audit import AuditLine, AuditView
from .battles import BattleRow, BattlesView
from .cooldown import CooldownView, SlotRow, TrackRow
from .pool import PoolRow, PoolView
from .runner import Catchup
from .skyshards import SkyshardProgress, SkyshardRow, SkyshardView
from .xp_ledger import XpLedgerView, XpLine

__all__ = [
    "AdventurerRow", "AuditLine", "BattleRow", "PoolRow", "SkyshardProgress", "SkyshardRow", "SlotRow", "TrackRow",
    "adventurers", "audit", "battles", "behind", "catch_up", "close_views", "cooldown_slots", "cooldown_track",
    "enemy_pool", "skyshard_progress", "skyshards", "views_for", "views_path_for", "XpLine", "xp_ledger",
]

_VIEWS: weakref.WeakKeyDictionary[EventSourcedApp, Catchup] = weakref.WeakKeyDictionary()
_VIEWS_LOCK = threading.Lock()


def views_path_for(app: EventSourcedApp) -> Path | None:
    """The views database file for ``app``'s store; None for in memory.

    Reads the settings the library itself used (``app.env``, where
    ``domain.kernel.store`` put PERSISTENCE_MODULE and SQLITE_DBNAME or
    POSTGRES_DBNAME). Raises ValueError for a persistence module it does
    not know.
    """
    module = app.env.get("PERSISTENCE_MODULE") or "eventsourcing.popo"
    if module == "eventsourcing.popo":
        return None
    if module == "eventsourcing.sqlite":
        dbname = app.env.get("SQLITE_DBNAME") or ""
        if not dbname or dbname == ":memory:" or "mode=memory" in dbname:
            return None
        if dbname.startswith("file:"):
            dbname = unquote(dbname[len("file:"):].split("?", 1)[0])
        store = Path(dbname).expanduser()
        if store.suffix:
            return store.with_name(f"{store.stem}.views{store.suffix}")
        return store.with_name(f"{store.name}.views.sqlite")
    if module == "eventsourcing.postgres":
        home = Path(app.env.get(HOME_VARIABLE) or DEFAULT_HOME).expanduser()
        return home / f"views-{app.env.get('POSTGRES_DBNAME')}.sqlite"
    raise ValueError(f"no place for views of a store using {module!r}")


def views_for(app: EventSourcedApp) -> Catchup:
    """The ``Catchup`` of ``app``'s views, opened (or created) on first use."""
    with _VIEWS_LOCK:
        views = _VIEWS.get(app)
        if views is None:
            path = views_path_for(app)
            if path is not None and not _writable(path):
                path = None  # a store we may only read: rebuild the views in memory
            views = Catchup(path, (CooldownView(), PoolView(), AuditView(), BattlesView(), SkyshardView(),
                                   AdventurersView(), XpLedgerView()))
            _VIEWS[app] = views
        return views


def _writable(path: Path) -> bool:
    """Whether the views file ``path`` can be written (its directory too,
    for SQLite's journal), or created."""
    folder = path.parent if str(path.parent) else Path(".")
    if not os.access(folder, os.W_OK | os.X_OK):
        return False
    return not path.exists() or os.access(path, os.W_OK)


def close_views(app: EventSourcedApp) -> None:
    """Close ``app``'s views database; the next query reopens (or rebuilds) it."""
    with _VIEWS_LOCK:
        views = _VIEWS.pop(app, None)
    if views is not None:
        views.close()


def catch_up(app: EventSourcedApp, progress: Callable[[int], None] | None = None) -> int:
    """Bring every view up to the end of ``app``'s log; the envelopes applied.
    ``progress(n)`` hears of every ``n`` notifications read (see ``behind``)."""
    return views_for(app).catch_up(app, progress=progress)


def behind(app: EventSourcedApp) -> int:
    """About how many notifications the views have still to read: 0 when
    they are up to date, the whole log the first time."""
    return views_for(app).behind(app)


def cooldown_track(app: EventSourcedApp, battle_id: str) -> list[TrackRow]:
    """Every adventurer's cooldown track in battle ``battle_id``: heroes in
    turn order, dice left to right. NotFound if there is no such battle."""
    return _battle_rows(app, battle_id, _cooldown.has_battle, _cooldown.track_rows)


def cooldown_slots(app: EventSourcedApp, battle_id: str) -> list[SlotRow]:
    """Active-slot and drained dice of every adventurer in battle ``battle_id``."""
    return _battle_rows(app, battle_id, _cooldown.has_battle, _cooldown.slot_rows)


def enemy_pool(app: EventSourcedApp, battle_id: str) -> list[PoolRow]:
    """The EP of battle ``battle_id`` and how it was spent (EP-2 to EP-8);
    for a delve, each tile's fresh EP and its draws, tile by tile (DELVE-4)."""
    return _battle_rows(app, battle_id, _pool.has_battle, _pool.pool_rows)


def _battle_rows(app, battle_id, has_battle, rows):
    """Catch up, then read one battle's rows; NotFound if the view has none.
    The cooldown track and the enemy pool are Betrayal's views."""
    ruleset = app.ruleset(battle_id)
    if ruleset.name != "betrayal":
        # The ruleset's name, not its title: the line stays within 80 columns.
        raise NotFound(f"battle {battle_id} ({ruleset.name.title()}) has no cooldown track or enemy pool:"
                       " see `rk status`")
    views, stream = _ready(app, battle_id)
    with views.reading() as db:
        if not has_battle(db, stream):
            raise _missing(battle_id)
        return rows(db, stream, _pack(app))


def skyshards(app: EventSourcedApp, battle_id: str) -> list[SkyshardRow]:
    """The skyshard progress of delve battle ``battle_id``: required, drawn,
    face down, obtained, what the objective still needs (SKYSHARD-*, OBJ-4,
    OBJ-8). NotFound for a battle that is not a delve."""
    views, stream = _delve_ready(app, battle_id)
    with views.reading() as db:
        return _skyshards.skyshard_rows(db, stream, _pack(app))


def skyshard_progress(app: EventSourcedApp, battle_id: str) -> SkyshardProgress:
    """The numbers behind ``skyshards``, named as the Delve aggregate names them."""
    views, stream = _delve_ready(app, battle_id)
    with views.reading() as db:
        found = _skyshards.progress(db, stream)
    assert found is not None
    return found


def _delve_ready(app: EventSourcedApp, battle_id: str) -> tuple[Catchup, str]:
    """Catch up; the Delve stream of delve battle ``battle_id`` (NotFound if
    the battle is no delve: SKYSHARD-1, skyshards lie on delve cards)."""
    ruleset = app.ruleset(battle_id)
    if ruleset.name != "betrayal":
        raise NotFound(f"battle {battle_id} is a {ruleset.name.title()} battle: it has no skyshards (SKYSHARD-1)")
    views = views_for(app)
    views.catch_up(app)
    with views.reading() as db:
        stream = _skyshards.delve_stream_of(db, battle_id)
    if stream is None:
        raise NotFound(f"battle {battle_id} is not a delve: it has no skyshards (SKYSHARD-1)")
    return views, stream


def battles(app: EventSourcedApp) -> list[BattleRow]:
    """Every game of every ruleset, oldest first, with where each stands."""
    views = views_for(app)
    views.catch_up(app)
    with views.reading() as db:
        return _battles.battle_rows(db)


def adventurers(app: EventSourcedApp) -> list[AdventurerRow]:
    """Every Betrayal adventurer of the store, oldest first, as it stands
    between battles."""
    views = views_for(app)
    views.catch_up(app)
    with views.reading() as db:
        return _adventurers.adventurer_rows(db)


def xp_ledger(app: EventSourcedApp, name: str) -> list[XpLine]:
    """The XP ledger of the adventurer called ``name``: each XP gained and
    spent, oldest first, with the balance after each line."""
    from domain.betrayal.application import adventurer, adventurer_stream

    found = adventurer(app, name)  # NotFound names the adventurer
    views = views_for(app)
    views.catch_up(app)
    with views.reading() as db:
        return _xp_ledger.xp_lines(db, str(adventurer_stream(name)), found.name)


def audit(app: EventSourcedApp, battle_id: str) -> list[AuditLine]:
    """One line per event of battle ``battle_id`` (and of the adventurer
    streams its commands wrote), in append order, undos marked."""
    views, stream = _ready(app, battle_id)
    with views.reading() as db:
        lines = _audit.audit_lines(db, stream)
    if not lines:
        raise _missing(battle_id)
    return lines


def _ready(app: EventSourcedApp, battle_id: str) -> tuple[Catchup, str]:
    views = views_for(app)
    views.catch_up(app)
    return views, str(app.ruleset(battle_id).game_stream(battle_id))


def _pack(app: EventSourcedApp):
    # Names and face meanings come from the pack the app loaded (the
    # cooldown track and the enemy pool are Betrayal's views).
    return app.pack_of("betrayal")


def _missing(battle_id: str) -> NotFound:
    return NotFound(f"no battle {battle_id!r}")
