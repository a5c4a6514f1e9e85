"""Opening a store's games to be read only: plainly, without the library,
where the store is an SQLite file it would read so, through the library's
application otherwise. Kept apart from ``game_reads`` and ``games`` so that
neither imports the other."""

from __future__ import annotations

from domain.kernel.game_reads import NAME, GameReads, PlainGames
from domain.kernel.stores.plain import plain_settings
from domain.kernel.stores.store import POSTGRES_BOUNDS, app_settings, store_env


def open_reads(store: str | None = None) -> GameReads:
    """Games of ``store`` (a store setting; default: the environment's),
    to be read only, as ``GameApp(store, read_only=True)`` reads them:
    without the library where the store is an SQLite file it would read
    plainly (``plain_settings``), through it otherwise. ValueError for a
    store setting of no known form."""
    settings = app_settings(NAME, POSTGRES_BOUNDS, store_env(store, app_name=NAME, read_only=True), snapshots=True)
    plain = plain_settings(settings)
    if plain is None:
        from domain.kernel.games import GameApp  # the library's: imported only for such a store

        return GameApp(store=store, read_only=True)
    return PlainGames(settings, *plain)
