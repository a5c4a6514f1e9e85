"""The read-model API the command line and the server call.

Every read model is caught up with the application's notification log,
then read in one transaction::

    with reading(app) as db: ...          # any read model's tables
    battles(app)      -> list[BattleRow]  # rk battles (every game)
    audit(app, "b3-1") -> list[AuditLine]  # rk audit

The read models are the kernel's own (the list of games, the audit) and
those each ruleset registers (``Ruleset.read_models``: Betrayal's cooldown
track, enemy pool, skyshards...), which its queries read through
``reading``.

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
import sqlite3
import threading
import weakref
from collections.abc import Callable, Collection, Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from domain.kernel.stores.application import EventSourcedApp
from domain.kernel.errors import NotFound
from domain.kernel.stores.store_setting import DEFAULT_HOME, HOME_VARIABLE

from . import audit as _audit
from . import battles as _battles
from .audit import AuditLine, AuditView
from .battles import BattleRow, BattlesView
from .runner import Catchup

__all__ = [
    "AuditLine",
    "BattleRow",
    "StoreHead",
    "audit",
    "battles",
    "behind",
    "catch_up",
    "close_views",
    "projections",
    "reading",
    "views_for",
    "views_path_for",
]

AUDIT = (AuditView.name,)  # ``only`` for the audit's own catch-up
BATTLES = (BattlesView.name,)  # ``only`` for the list of games
_VIEWS: weakref.WeakKeyDictionary[Any, Catchup] = weakref.WeakKeyDictionary()  # by app (or StoreHead)
_VIEWS_LOCK = threading.Lock()


class StoreHead:
    """An SQLite store's application as reading its views needs it, made
    only when they have events to read: its settings (where the views are,
    ``views_path_for``; which battle is current, ``current_battle``), made
    as the application makes them, and the end of its log, read with one
    query. Most reads find the views up to date: building the library's
    application (its settings, factory, recorder, stores and connection
    pool) would be most of `rk battles`.

    ``head(store, make)`` makes one; ``make`` makes the application
    itself, on the first notification the views have not read (or when the
    query cannot say, so that what is wrong is said as the application
    says it). Close it with ``close_views``; the application is ``make``'s
    to close."""

    def __init__(self, env: Any, make: Callable[[], EventSourcedApp]) -> None:
        self.env = env
        self._make = make
        self._app: EventSourcedApp | None = None

    @property
    def app(self) -> EventSourcedApp:
        """The application itself, made on first use."""
        if self._app is None:
            self._app = self._make()
        return self._app

    def _last(self) -> int | None:
        """The last notification id of the store (0 if none), or None
        when it cannot be read here."""
        if self._app is not None:
            return None
        try:
            db = sqlite3.connect(self.env.get("SQLITE_DBNAME"), uri=True, isolation_level=None)
            with closing(db):
                return int(db.execute("SELECT MAX(rowid) FROM stored_events").fetchone()[0] or 0)
        except sqlite3.Error:
            return None

    def max_notification_id(self) -> int:
        """The application's ``max_notification_id``."""
        last = self._last()
        return self.app.max_notification_id() if last is None else last

    @property
    def recorder(self) -> Any:
        """The application's recorder (a catch-up with events to read pages its rows)."""
        return self.app.recorder

    @property
    def mapper(self) -> Any:
        """The application's mapper (a catch-up decodes each row with it)."""
        return self.app.mapper


def head(store: str | None, make: Callable[[], EventSourcedApp]) -> StoreHead | None:
    """A ``StoreHead`` for the game application (``GameApp``) a command
    would make on ``store`` to read it; None when that is not an SQLite
    file of the library's own recorder (the application is then made as
    always), or when making it would fail (the application says why)."""
    from domain.kernel.games import GameApp
    from domain.kernel.stores.store import store_env

    try:
        settings = store_env(store, app_name=GameApp.name, read_only=True)
    except ValueError:
        return None
    # The settings as the application puts them together (its own defaults,
    # the process environment, the store's): ``construct_env`` reads only the class.
    try:
        env = GameApp.__new__(GameApp).construct_env(GameApp.name, settings)
    except Exception:  # a library that makes them otherwise: the application makes them
        return None
    if env.get("PERSISTENCE_MODULE") != "eventsourcing.sqlite" or env.get("APPLICATION_RECORDER_TOPIC"):
        return None
    return StoreHead(env, make)


def views_path_for(app: EventSourcedApp | StoreHead) -> Path | None:
    """The views database file for ``app``'s store; None for in memory.

    Reads the settings the library itself used (``app.env``, where
    ``domain.kernel.stores.store`` put PERSISTENCE_MODULE and SQLITE_DBNAME or
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
            dbname = unquote(dbname[len("file:") :].split("?", 1)[0])
        store = Path(dbname).expanduser()
        if store.suffix:
            return store.with_name(f"{store.stem}.views{store.suffix}")
        return store.with_name(f"{store.name}.views.sqlite")
    if module == "eventsourcing.postgres":
        home = Path(app.env.get(HOME_VARIABLE) or DEFAULT_HOME).expanduser()
        return home / f"views-{app.env.get('POSTGRES_DBNAME')}.sqlite"
    raise ValueError(f"no place for views of a store using {module!r}")


def views_for(app: EventSourcedApp | StoreHead) -> Catchup:
    """The ``Catchup`` of ``app``'s views, opened (or created) on first use."""
    with _VIEWS_LOCK:
        views = _VIEWS.get(app)
        if views is None:
            path = views_path_for(app)
            if path is not None and not _writable(path):
                path = None  # a store we may only read: rebuild the views in memory
            views = Catchup(path, projections())
            _VIEWS[app] = views
        return views


def projections() -> tuple:
    """Every read model: the kernel's own (the list of games, the audit),
    then each ruleset's (``Ruleset.read_models``), each once."""
    from domain.kernel.ruleset import all_rulesets

    classes: list[type] = [AuditView, BattlesView]
    for ruleset in all_rulesets():
        classes += [c for c in ruleset.read_models() if c not in classes]
    return tuple(c() for c in classes)


@contextmanager
def reading(app: EventSourcedApp, progress: Callable[[int], None] | None = None) -> Iterator[sqlite3.Connection]:
    """The views database of ``app``, caught up with its log (``progress``
    as ``catch_up`` takes it), for one consistent read."""
    views = views_for(app)
    views.catch_up(app, progress=progress)
    with views.reading() as db:
        yield db


def _writable(path: Path) -> bool:
    """Whether the views file ``path`` can be written (its directory too,
    for SQLite's journal), or created."""
    folder = path.parent if str(path.parent) else Path(".")
    if not os.access(folder, os.W_OK | os.X_OK):
        return False
    return not path.exists() or os.access(path, os.W_OK)


def close_views(app: EventSourcedApp | StoreHead) -> None:
    """Close ``app``'s views database; the next query reopens (or rebuilds) it."""
    with _VIEWS_LOCK:
        views = _VIEWS.pop(app, None)
    if views is not None:
        views.close()


def catch_up(
    app: EventSourcedApp, progress: Callable[[int], None] | None = None, only: Collection[str] | None = None
) -> int:
    """Bring every view (those named in ``only``, when given) up to the end
    of ``app``'s log; the envelopes applied. ``progress(n)`` hears of every
    ``n`` notifications read (see ``behind``)."""
    return views_for(app).catch_up(app, progress=progress, only=only)


def behind(app: EventSourcedApp, only: Collection[str] | None = None) -> int:
    """About how many notifications the views (of ``only``) have still to
    read: 0 when they are up to date, the whole log the first time."""
    return views_for(app).behind(app, only)


def battles(app: EventSourcedApp | StoreHead) -> list[BattleRow]:
    """Every game of every ruleset, oldest first, with where each stands
    (only this view is caught up: a listing does not wait for the others;
    ``app`` may be a ``StoreHead``)."""
    views = views_for(app)
    views.catch_up(app, only=BATTLES)
    with views.reading() as db:
        return _battles.battle_rows(db)


def audit(app: EventSourcedApp, battle_id: str, progress: Callable[[int], None] | None = None) -> list[AuditLine]:
    """One line per event of battle ``battle_id`` (and of the adventurer
    streams its commands wrote), in append order, undos marked; the audit's
    read model caught up first (``progress`` as ``catch_up`` takes it).
    When that catch-up built the read model from the first event, the lines
    it built are the answer, not read back from the table."""
    views = views_for(app)
    view = next(p for p in views.projections if isinstance(p, AuditView))
    with views.alone(), view.keeping():
        views.catch_up(app, progress=progress, only=AUDIT)
        if view.unindexed():
            with views.writing() as db:
                view.index(db)
        stream = str(app.ruleset(battle_id).game_stream(battle_id))  # type: ignore[attr-defined]  # a GameApp
        lines = view.kept(stream, views.position(AUDIT))
    if lines is None:
        with views.reading() as db:
            lines = _audit.audit_lines(db, stream)
    if not lines:
        raise _missing(battle_id)
    return lines


def _missing(battle_id: str) -> NotFound:
    return NotFound(f"no battle {battle_id!r}")
