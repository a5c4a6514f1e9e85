"""Betrayal's read models as the tests read them: the generic views API
(``projections.views``) and each of Betrayal's queries
(``domain.betrayal.read_models.queries``) called with the app and a battle,
each catching the views up first."""

from __future__ import annotations

from typing import Any

from domain.betrayal.read_models import queries
from projections.views import audit, battles, behind, catch_up, close_views, projections, reading, views_for
from projections.views import views_path_for

__all__ = ["audit", "battles", "behind", "catch_up", "close_views", "projections", "views_for", "views_path_for"]


def _read(query: Any, app: Any, *args: Any) -> Any:
    with reading(app) as db:
        return query(db, app, *args)


def cooldown_track(app: Any, battle_id: str) -> Any:
    return _read(queries.cooldown_track, app, battle_id)


def cooldown_slots(app: Any, battle_id: str) -> Any:
    return _read(queries.cooldown_slots, app, battle_id)


def enemy_pool(app: Any, battle_id: str) -> Any:
    return _read(queries.enemy_pool, app, battle_id)


def skyshards(app: Any, battle_id: str) -> Any:
    return _read(queries.skyshards, app, battle_id)


def skyshard_progress(app: Any, battle_id: str) -> Any:
    return _read(queries.skyshard_progress, app, battle_id)


def xp_ledger(app: Any, name: str) -> Any:
    return _read(queries.xp_ledger, app, name)


def adventurers(app: Any) -> Any:
    with reading(app) as db:
        return queries.adventurers(db)
