"""Betrayal as the table sees it, declared for the adapters
(``domain.kernel.surface``): its battles' surface (``battle_surface``:
verbs, setups, listings, views, the read models' queries) and its
campaign's (``campaign_surface``), given by where it is (``LATER``) and
imported when first asked for: a battle's command never loads it. Light
imports only: the rules load when a command is decided."""

from __future__ import annotations

from .table.battle_surface import BATTLE_SURFACE

SURFACES = (BATTLE_SURFACE,)
LATER = {"betrayal-campaign": "domain.betrayal.table.campaign_surface:CAMPAIGN_SURFACE"}
