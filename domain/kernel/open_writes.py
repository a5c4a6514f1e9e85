"""Opening a store's games to be written: plainly, without the library,
where the store is an SQLite file it would open so and whose tables it made
already; through the library's application otherwise. Kept apart from
``game_writes`` and ``games`` so that neither imports the other.

The library stays the owner of the schema: a store not there yet, or whose
tables are not (`rk new` on a new file), is opened by the library, which
makes them; so is a store it would open otherwise than as a plain SQLite
file (PostgreSQL, memory, a cipher or a compressor: ``plain_settings``), a
file this process may not write (the library says why) and a database
named as a URI.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from domain.kernel.game_reads import NAME
from domain.kernel.game_writes import GameWrites, PlainGameWrites
from domain.kernel.stores.plain import plain_settings
from domain.kernel.stores.store import POSTGRES_BOUNDS, Settings, app_settings, store_env


def open_writes(store: str | None = None) -> GameWrites:
    """Games of ``store`` (a store setting; default: the environment's), to
    be read and written, as ``GameApp(store)`` writes them: without the
    library where ``plain_writer`` allows, through it otherwise. ValueError
    for a store setting of no known form."""
    settings = app_settings(NAME, POSTGRES_BOUNDS, store_env(store, app_name=NAME), snapshots=True)
    plain = plain_writer(settings)
    if plain is not None:
        try:
            if plain.has_tables():
                return plain
        except sqlite3.Error:
            pass  # not a store to write: the library says why, in its words
        plain.close()
    from domain.kernel.games import GameApp  # the library's: imported only for such a store

    return GameApp(store=store)


def plain_writer(settings: Settings) -> PlainGameWrites | None:
    """The games of the store ``settings`` name written without the library,
    when the library would open it as a plain SQLite file that is there and
    this process may write (its tables not checked yet: ``has_tables``);
    None otherwise."""
    if settings.get("PERSISTENCE_MODULE") != "eventsourcing.sqlite":
        return None  # an empty store read in memory is no store to write
    # Tables made when the library opens a store are made only when missing
    # (``CREATE TABLE IF NOT EXISTS``): a store that has them is written as
    # the library would, whether it would make them or not.
    plain = plain_settings(Settings(settings.name, {**settings, f"{NAME.upper()}_CREATE_TABLE": "no"}))
    if plain is None:
        return None
    name, lock_timeout = plain
    if name.startswith("file:"):
        return None
    path = Path(name)
    if not path.is_file() or not os.access(path, os.W_OK) or not os.access(path.parent, os.W_OK | os.X_OK):
        return None  # not there yet (the library makes it), or not to be written here (it says why)
    return PlainGameWrites(settings, name, lock_timeout)
