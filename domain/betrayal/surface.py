"""Betrayal as the table sees it, declared for the adapters
(``domain.kernel.surface``): its battles' surface (``battle_surface``:
verbs, setups, listings, views, the read models' queries) and its
campaign's (``campaign_surface``). Light imports only: the rules load when
a command is decided."""

from __future__ import annotations

from .table.battle_surface import BATTLE_SURFACE
from .table.campaign_surface import CAMPAIGN_SURFACE

SURFACES = (BATTLE_SURFACE, CAMPAIGN_SURFACE)
