"""What a delve adds to the board the page draws ("hexes"): on each hex its
tile's tag, its icon (a Connection, Common item or enemy hex), whether it may
be explored now (``?``) or is being explored (``!``) and whether its tile
holds skyshards to take; beside the map the objective's progress (skyshards
gained of those required, drawn); and, while a revealed tile waits to be
placed, every legal placement (EXPLORATION-9b) as a ghost: its letter, its
rotation and origin, the hexes and icons it would cover, and the command
that chooses it (``verb`` and ``args``, as the legal list gives them)."""

from __future__ import annotations

from typing import Any

from domain.kernel.hexes import Hex
from domain.kernel.hexes import name as hex_name

from domain.betrayal.battle.context import RulesContext
from domain.betrayal.battle.names import unit_name
from domain.betrayal.battle.state import BattleState
from domain.betrayal.delve.map import lay

from .placings import ghost_letter, placements
from .view_delve import GOALS
from .view_map import open_hexes, tile_tag

PLACE_VERB = "place-tile"  # the command a ghost gives (EXPLORATION-9b)


def hex_marks(state: BattleState, ctx: RulesContext) -> dict[Hex, dict[str, Any]]:
    """What each hex of the delve's map shows beyond its tile: its tag, its
    icon, explorable, exploring, its tile's skyshards."""
    delve = ctx.joined_delve
    m = ctx.map
    open_ = set(open_hexes(state, ctx))
    exploring = tuple(delve.pending.hex) if delve.pending is not None else None
    shards = {k.tile: k.skyshards for k in delve.kept if k.skyshards}
    return {
        h: {
            "tag": tile_tag(key),
            "icon": m.icon[h].value,
            "explorable": h in open_,
            "exploring": h == exploring,
            "shards": shards.get(key, 0),
        }
        for h, key in m.tile_of.items()
    }


def progress(state: BattleState, ctx: RulesContext, label: Any) -> dict[str, Any]:
    """The delve beside its map: the objective and its skyshards, and the
    tile waiting to be placed with its ghosts (``label`` names a hex)."""
    delve = ctx.joined_delve
    out: dict[str, Any] = {
        "objective": GOALS.get(delve.objective, delve.objective.value),
        "gained": delve.gained,
        "required": delve.required,
        "drawn": delve.drawn,
        "deck": len(delve.deck),
        "over": delve.concluded or None,
        "placing": None,
    }
    waiting = ctx.delve.placing if ctx.delve is not None else None
    if waiting is None:
        return out
    tile = ctx.pack.tiles.get(waiting.tile)
    ways = []
    for n, p in enumerate(placements(state, ctx)):
        cells = lay(tile, p.rotation, p.origin) if tile is not None else ()
        ways.append(
            {
                "mark": ghost_letter(n),
                "rotation": p.rotation,
                "origin": label(p.origin),
                "touching": label(p.touching),
                "hexes": [{"q": c.hex[0], "r": c.hex[1], "label": label(c.hex), "icon": c.icon.value} for c in cells],
                "verb": PLACE_VERB,
                "args": {"rotation": p.rotation, "origin": [p.origin[0], p.origin[1]]},
            }
        )
    out["placing"] = {
        "tile": tile.name if tile else waiting.tile,
        "shape": tile.shape if tile else None,
        "against": hex_name(waiting.hex),
        "by": unit_name(state, ctx.pack, waiting.hero),
        "ways": ways,
    }
    return out
