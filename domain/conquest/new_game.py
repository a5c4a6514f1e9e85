"""Setting a Conquest battle up from a request (``surface.NewConquest``):
the one builder behind `rk new conquest`, the API and the lobby."""

from __future__ import annotations

from typing import Any

from domain.kernel.errors import MalformedCommand
from domain.kernel.surface import random_seed

from . import commands as c
from .vocab import SIDES


def start(app: Any, r: Any) -> Any:
    """Start the battle ``r`` asks for; refused with the reason, writing nothing."""
    if len(r.armies) != 2:
        raise MalformedCommand(
            f"name two armies, the first player's then the second's (--army twice), not {len(r.armies)}"
        )
    seed = r.seed if r.seed is not None else random_seed()
    chosen = ["", ""]
    for text in r.warlords:
        side, _, who = text.partition(":")
        chosen[_side(side, "--warlord")] = who.strip()
    pairs = []
    for text in r.assignments:
        character, _, regiment = text.partition(":")
        if not character.strip() or not regiment.strip():
            raise MalformedCommand(f"--assign {text!r}: write CHARACTER:REGIMENT, e.g. ac1:a3")
        pairs.append((character.strip(), regiment.strip()))
    battle_id = r.name or app.new_battle_id(r.scenario)
    command = c.StartConquest(
        battle_id=battle_id,
        scenario=r.scenario.strip(),
        armies=(r.armies[0].strip(), r.armies[1].strip()),
        seed=seed,
        physical_dice=r.physical_dice,
        warlords=(chosen[0], chosen[1]),
        assignments=tuple(pairs),
    )
    return app.start("conquest", command, battle_id=battle_id)


def _side(text: str, option: str) -> int:
    key = text.strip().lower()
    for i, name in enumerate(SIDES):
        if key in (str(i), name):
            return i
    raise MalformedCommand(f"{option}: {text!r} is not a player: a (the first) or b (the second)")
