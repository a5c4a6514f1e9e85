"""A Conquest battle for the table view: each side's regiments (where they
stand, stands left), the round, the phase and whose decision it is. The
battlefield is measured in inches, so the page lists rather than draws."""

from __future__ import annotations

from typing import Any

from domain.kernel.commandlog import Game
from domain.kernel.games import GameApp


def board(app: GameApp, battle_id: str, game: Game) -> dict[str, Any]:
    s = game.state
    return {"kind": "regiments", "round": s.round, "phase": s.phase.value, "turn": "ab"[s.turn] if s.turn in (0, 1) else None,
            "sides": [{"key": "ab"[i], "army": side.army, "vp": side.vp, "stack": len(side.stack),
                       "regiments": [{"id": r.id, "name": r.name, "class": r.cls.value, "stands": r.stands,
                                      "where": r.where.value, "front": r.front}
                                     for r in s.regiments if r.side == i]}
                      for i, side in enumerate(s.sides)]}
