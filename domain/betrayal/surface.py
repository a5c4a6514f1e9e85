"""Betrayal as the table sees it, declared for the adapters
(``domain.kernel.surface``): its battles' surface (verbs, setups, queries,
views) and its campaign's (``campaign_surface``). Light imports only: the
rules load when a command is decided."""

from __future__ import annotations

from typing import Any

from domain.kernel.surface import Surface

from .campaign_surface import CAMPAIGN_SURFACE
from .read_models.declared import READ_MODEL_QUERIES

def _board(seen: Any) -> Any:
    from .board_view import board

    return board(seen)


BATTLE_SURFACE = Surface(ruleset="betrayal", title="Betrayal of the Second Era", queries=READ_MODEL_QUERIES,
                         board=_board)

SURFACES = (BATTLE_SURFACE, CAMPAIGN_SURFACE)
