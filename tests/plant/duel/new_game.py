"""Setting a duel up from a request (``surface.NewDuel``): the one builder
behind `rk new duel`, the API and the lobby."""

from __future__ import annotations

from typing import Any

from domain.kernel.surface import random_seed

from .commands import StartDuel


def start(app: Any, r: Any) -> Any:
    """Start the duel ``r`` asks for; refused with the reason, writing nothing."""
    seed = r.seed if r.seed is not None else random_seed()
    battle_id = r.name or app.new_battle_id("duel")
    return app.start("duel", StartDuel(battle_id=battle_id, width=r.width, seed=seed), battle_id=battle_id)
