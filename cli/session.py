"""One command's session: the store and battle it acts on, how it prints,
and how a refused command becomes one line on stderr and an exit status.

The application is built lazily, on first use, so commands that never
touch the store (``--help``, ``rk setups``) never import eventsourcing;
nor do the reads and writes of one game ``cli.direct`` runs on an SQLite
store (``plain``: ``domain.kernel.open_reads``, ``domain.kernel.open_writes``). A
shell (``rk play``) keeps its applications open across commands; a single
command closes them when it is done.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Literal, cast

import msgspec

from domain.kernel.errors import MalformedCommand, NotFound, RulekeeperError, RuleViolation
from domain.kernel.stores.store_setting import masked

from .output import Output

if TYPE_CHECKING:
    from domain.kernel.games import GameApp
    from domain.kernel.ruleset import Ruleset


class StoreUnavailable(RulekeeperError):
    """The event store could not be reached or read (exit status 1)."""


class Refused(SystemExit):
    """A refused command's exit status, once its one line is printed:
    ``cli.main.main`` (and ``cli.direct``) return it as the status. Not
    typer's ``Exit``, so that a command run without typer (``cli.direct``)
    never imports it."""


RULE_BROKEN = 2  # exit status of a RuleViolation
REFUSED = 1  # exit status of every other refusal (malformed, not found, ...)
# Commands that only read the store: they open it read-only (an SQLite file
# they cannot write still works, and a missing one is never created).
READS = frozenset(
    {
        "status",
        "legal",
        "log",
        "links",
        "battles",
        "adventurer",
        "adventurers",
        "use",
        "export",
        "verify",
        "track",
        "pool",
        "audit",
        "skyshards",
        "rule",
        "why",
        "xp",
        "classes",
        "items",
    }
)


# Reads that, on an SQLite store, need not the eventsourcing library
# (``domain.kernel.open_reads.open_reads``): run by ``cli.direct``.
PLAIN_READS = frozenset({"status", "legal", "log"})
# Writes that, on an SQLite store whose tables the library made, need not
# it either (``domain.kernel.open_writes.open_writes``): run by
# ``cli.direct``, as is a verb of a game (`rk move b1`).
PLAIN_WRITES = frozenset({"undo", "redo"})


class Defaults(msgspec.Struct):
    """Options given before the command (``rk --store x status``) or by the
    shell; a command's own options win over them."""

    store: str | None = None
    battle: str | None = None
    json: bool = False
    keep_open: bool = False  # the shell reuses applications between commands
    apps: dict[Any, Any] = msgspec.field(default_factory=dict)  # by store, or (store, "read") for a read-only one

    def close(self) -> None:
        """Close the applications (and any read models opened on them)."""
        views = sys.modules.get("projections.views")
        for app in self.apps.values():
            if views is not None:
                views.close_views(app)
            app.close()
        self.apps.clear()


class Session:
    """What a command works with. Use as a context manager: errors of the
    rules and of the store are printed and turned into an exit status."""

    def __init__(
        self,
        defaults: Defaults,
        store: str | None,
        battle: str | None,
        json: bool,
        reads: bool | None = None,
        *,
        plain: bool = False,
    ) -> None:
        self.defaults = defaults
        self.reads = reads  # whether the command only reads (default: by its name, READS)
        # A read or a write of a game alone (PLAIN_READS, PLAIN_WRITES, a
        # verb): no library where the store allows; never kept open for
        # other commands (``cli.direct``'s sessions are of one command).
        self.plain = plain
        self.store = store if store is not None else defaults.store
        self.battle = battle if battle is not None else defaults.battle
        self.json = json or defaults.json
        self.out = Output(self.json)
        self._battle_id: str | None = None

    @property
    def app(self) -> GameApp:
        """The application on this session's store (built once), for games
        of every ruleset."""
        app = self.defaults.apps.get(self.store)  # a writable one serves reads too
        read = self.reads if self.reads is not None else _command() in READS
        key = (self.store, "read") if read else self.store
        if app is None:
            app = self.defaults.apps.get(key)
        if app is None:
            if not read:
                _check_store_file(self.store)
            try:
                app = self._open(read)
            except ValueError as e:  # an unknown form of store setting
                raise MalformedCommand(str(e)) from None
            self.defaults.apps[key] = app
        return app

    def _open(self, read: bool) -> GameApp:
        if read and self.plain:
            from domain.kernel.open_reads import open_reads

            # Typed as the application: a plain read's commands call only
            # its reads (``GameReads``), which both have.
            return cast("GameApp", open_reads(self.store))
        if self.plain:
            from domain.kernel.open_writes import open_writes

            # As above: a plain write's commands call only its reads and
            # writes (``GameWrites``), which both have.
            return cast("GameApp", open_writes(self.store))
        from domain.kernel.games import GameApp

        return GameApp(store=self.store, read_only=read)

    @property
    def battle_id(self) -> str:
        """The id of the battle acted on: the one --battle names (by id or
        name), else the current one (`rk use`, `rk new`; ``domain.kernel.stores.current_battle``),
        else the latest. A deleted battle can still be read, not changed."""
        if self._battle_id is None:
            if not self.battle:
                from domain.kernel.stores.current_battle import current

                self._battle_id = current(self.app)
            else:
                entry = self.app.find_battle(self.battle)
                if entry.deleted and not (self.reads if self.reads is not None else _command() in READS):
                    raise NotFound(f"battle {self.battle!r} is deleted: `rk restore {entry.name}` brings it back")
                self._battle_id = entry.battle_id
        return self._battle_id

    @property
    def ruleset(self) -> Ruleset:
        """The ruleset of the battle acted on."""
        return self.app.ruleset(self.battle_id)

    @property
    def game_id(self) -> str:
        """The id of the game acted on (a battle or a campaign)."""
        return self.battle_id

    def set_game(self, game_id: str) -> None:
        """Act on game ``game_id`` (found by the command, not named)."""
        self._battle_id = game_id

    @contextmanager
    def read_models(self) -> Iterator[Any]:
        """The read models' database, caught up with the log (a progress
        display on stderr while a long log is read the first time)."""
        from projections import views

        from .progress import progress

        with progress("reading the log into the read models", total=views.behind(self.app), json=self.json) as step:
            views.catch_up(self.app, progress=step)
        with views.views_for(self.app).reading() as db:
            yield db

    @property
    def called(self) -> str:
        """The game acted on as this store calls it."""
        return self.app.called(self.battle_id)

    def __enter__(self) -> Session:
        return self

    def __exit__(self, kind, error, tb) -> Literal[False]:
        if not self.defaults.keep_open:
            self.defaults.close()
        if error is None:
            return False
        if _store_failed(error):  # the database could not be reached or read
            where = masked(self.store) if self.store else "the store"
            said = "; ".join(line.strip() for line in str(error).splitlines() if line.strip())
            if "does not exist" in said and "relation" in said:  # PostgreSQL, tables not made yet
                said = "it holds no battle yet (a command that writes, such as `rk new`, makes its tables)"
            elif "readonly" in said or "read-only" in said:
                said += " (this store can only be read here)"
            error = StoreUnavailable(f"cannot use {where}: {said or type(error).__name__}")
        if not isinstance(error, RulekeeperError):
            return False
        self.out.error(error)
        raise Refused(RULE_BROKEN if isinstance(error, RuleViolation) else REFUSED) from None


def _check_store_file(store: str | None) -> None:
    """Refuse, in one line with the reason, an SQLite store a command that
    writes could not write (no such folder, a folder named as the file; a
    store that is there but can only be read, as on a read-only mount —
    commands that only read are never checked here and still read it)."""
    from domain.kernel.stores.store_setting import store_form

    from .paths import why_not

    try:
        form, path = store_form(store or "")
    except ValueError:
        return  # said by the application, as an unknown form of store
    if form != "sqlite":
        return
    file = os.path.expanduser(path)
    reason = why_not(file)
    if reason is None:
        return
    if os.path.isfile(file) and os.access(file, os.R_OK):  # there to be read, not written: say so
        reason = f"this store can only be read here, not written ({reason})"
    raise StoreUnavailable(f"cannot use {masked(store or '')}: {reason}")


def _store_failed(error: BaseException) -> bool:
    """An error of the event store's database (unreachable, unreadable),
    as opposed to a bug, which should show its traceback."""
    bases = []
    for module, name in (("eventsourcing.persistence", "PersistenceError"), ("sqlite3", "Error"), ("psycopg", "Error")):
        base = getattr(sys.modules.get(module), name, None)
        if base is not None:
            bases.append(base)
    # The library lets some of the drivers' own errors through (SQLite's
    # journal-mode pragma on a read-only file, for one).
    return bool(bases) and isinstance(error, tuple(bases))


def _command() -> str | None:
    """The command word of the command being run (``status``), from click."""
    from typer._click.globals import get_current_context  # typer vendors click

    ctx = get_current_context(silent=True)
    names = []
    while ctx is not None:
        names.append(ctx.info_name)
        ctx = ctx.parent
    return names[-2] if len(names) >= 2 else None
