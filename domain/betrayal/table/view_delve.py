"""A delve as a view shows it beside its map: its progress (objective,
skyshards, the delve deck, the tiles left), a revealed tile waiting to be
placed, what may be explored, the tiles with their cards and what caches
gave; and what ``rk status --json`` adds for a delve."""

from __future__ import annotations

from typing import Any

from domain.kernel.hexes import label
from domain.kernel.hexes import name as hex_name
from domain.kernel.surface.document import Block, Lines, Piece

from domain.betrayal.battle.context import RulesContext
from domain.betrayal.battle.decision import Decision
from domain.betrayal.battle.names import unit_name
from domain.betrayal.battle.state import BattleState
from domain.betrayal.vocab import Objective

from .placings import ghost_letter
from .view_map import open_hexes

GOALS = {Objective.SURVEY: "Survey (OBJ-4)", Objective.UNCOVER: "Uncover, then retreat (OBJ-8)"}


def progress(state: BattleState, ctx: RulesContext) -> Lines:
    """The delve's progress: objective, skyshards gained and drawn, then the
    delve deck and the tiles left by shape."""
    delve = ctx.joined_delve
    first: list[Piece] = [
        (f"{GOALS.get(delve.objective, delve.objective.value)} · skyshards ", ""),
        (f"gained {delve.gained}/{delve.required}", "shard"),
        (f", drawn {delve.drawn}/{delve.required} (SKYSHARD-4)", ""),
    ]
    shapes = sorted({shape for shape, _ in delve.piles} | {shape for shape, _ in delve.bottom})
    left = ", ".join(f"{shape} {len(delve.pile(shape)) + len(delve.under(shape))}" for shape in shapes)
    second: list[Piece] = [
        (f"Delve deck {len(delve.deck)} card{'' if len(delve.deck) == 1 else 's'} · tiles left: {left or 'none'}", "")
    ]
    if delve.concluded:
        second.append((f" · the delve is over: {delve.concluded}", "strong"))
    return Lines((tuple(first), tuple(second)))


def placing(state: BattleState, ctx: RulesContext) -> Lines | None:
    """The revealed tile waiting for the party to place it, and how many
    ways it may go (EXPLORATION-9b: `rk legal` lists them)."""
    from domain.betrayal.battle.exploration import placements

    waiting = ctx.delve.placing if ctx.delve is not None else None
    if waiting is None:
        return None
    tile = ctx.pack.tiles.get(waiting.tile)
    ways = placements(Decision(state, ctx))
    each = [f"  {ghost_letter(n)}: --rotation {p.rotation} --origin {hex_name(p.origin)}" for n, p in enumerate(ways)]
    return Lines(
        (
            (
                ("Tile waiting to be placed: ", "strong"),
                (
                    f"{tile.name if tile else waiting.tile} ({tile.shape if tile else '?'}) against "
                    f"{hex_name(waiting.hex)}, explored by {unit_name(state, ctx.pack, waiting.hero)}",
                    "",
                ),
            ),
            f"  {len(ways)} way{'' if len(ways) == 1 else 's'} to place it (EXPLORATION-9b), each letter"
            " on the map its origin: rk place-tile --rotation N --origin HEX",
            *each,
        )
    )


def details(state: BattleState, ctx: RulesContext) -> tuple[Block, ...]:
    """`rk status` of a delve, below the map: progress, what may be
    explored, the tiles with their cards, and what caches gave."""
    delve = ctx.joined_delve
    pack = ctx.pack
    blocks: list[Block] = [progress(state, ctx)]
    waiting = placing(state, ctx)
    if waiting is not None:
        blocks.append(waiting)
    open_ = open_hexes(state, ctx)
    none = "none until the tile is placed" if delve.pending is not None else "none"
    explorable: list[Piece] = [
        ("Explorable now (EXPLORATION-5): ", ""),
        (", ".join(hex_name(h) for h in open_) or none, "open" if open_ else ""),
    ]
    if open_:
        explorable.append((" — rk explore [HEX], rk move HEX --explore", ""))
    blocks.append(Lines((tuple(explorable),)))
    kept = {k.tile: k for k in delve.kept}
    tiles = ["Tiles:"]
    for placed in ctx.map.tiles:
        content = ctx.map.content(placed)
        line = f"  {placed.key:<3} {content.name}" + (f" ({content.shape})" if placed.key != "E" else "")
        card = kept.get(placed.key)
        if card is not None:
            found = pack.cards.get(card.card)
            notes = []
            if card.skyshards:
                notes.append(f"{card.skyshards} skyshard{'' if card.skyshards == 1 else 's'} to take (SKYSHARD-5)")
            if found is not None and found.environment is not None:
                notes.append(f"{found.environment.kind.value}: {found.environment.text}")
            if found is not None and found.trap is not None:
                notes.append("trap" + (" (tested)" if placed.key in delve.sprung else f": {found.trap.text}"))
            line += f" · card {found.name if found else card.card}" + (": " + "; ".join(notes) if notes else "")
        tiles.append(line)
    blocks.append(Lines(tuple(tiles), hang=6))  # under the tile's name
    if delve.loot:
        names = {h.id: h.name for h in state.heroes}
        loot = ", ".join(
            f"{names.get(hero, hero)}: {pack.items[i].name if i in pack.items else i}" for hero, i in delve.loot
        )
        blocks.append(Lines((f"Found in caches (DELVE-3): {loot}",)))
    return tuple(blocks)


def extra(state: BattleState, ctx: RulesContext) -> dict[str, Any]:
    """What a delve adds to `rk status --json`: its Delve as it stood, the
    hexes explorable then and the legal placements of a waiting tile."""
    if ctx.delve is None:
        return {}
    from domain.betrayal.battle.exploration import placements

    ways = placements(Decision(state, ctx)) if ctx.delve.placing is not None else []
    return {
        "delve": ctx.delve,
        "explorable": [label(h) for h in open_hexes(state, ctx)],
        "placements": [{"rotation": p.rotation, "origin": label(p.origin)} for p in ways],
    }
