"""A battle's hex map as a view draws it (``HexMap``): each hex its tile's
letter, or what stands on it now (an adventurer, an enemy, a cache, an
obstacle), so the tiles read without colour.

A delve's map grows on a large table from its middle, far from ``a1``: it
is drawn cropped to the tiles placed so far, still labelled with the
table's own letters and numbers, each hex showing its tile (``E`` the
Entrance, ``1`` tile t1...) and what matters on it now."""

from __future__ import annotations

from domain.kernel.hexes import Hex, as_hex
from domain.kernel.surface.document import HexCell, HexMap, Tone

from domain.betrayal.battle.context import RulesContext
from domain.betrayal.battle.decision import Decision
from domain.betrayal.battle.names import marks
from domain.betrayal.battle.state import BattleState
from domain.betrayal.delve.aggregate import DelveState
from domain.betrayal.vocab import Marker, TileIcon

from .placings import ghost_letter, placements

ENTRANCE = "E"
OBSTACLE = "#"

CLASH_LEGEND = (
    ("    ", ""),
    ("e1..", "foe"),
    (" enemies  E entrance  a b.. tiles (| between two)  # obstacle  $ cache  $$ legendary  * special", "dim"),
)
DELVE_LEGEND = (
    ("    ", ""),
    ("e1..", "foe"),
    (" enemies  E 1 2.. tiles (| between two)  + connection  ", "dim"),
    ("?", "open"),
    (" explorable  ", "dim"),
    ("!", "open"),
    (" exploring  $ $$ caches  ", "dim"),
    ("*", "shard"),
    (" skyshard  ", "dim"),
    ("A", "open"),
    (" a placement's origin", "dim"),
)


def board(state: BattleState, ctx: RulesContext) -> HexMap:
    """The battle's map: a clash's or dungeon's whole diagram, or a delve's
    tiles so far."""
    if ctx.delve is not None:
        return delve_board(state, ctx, ctx.delve)
    b = ctx.board
    units = _units(state)
    caches = {as_hex(c.hex): c.kind for c in state.caches}
    specials = set(b.special_hexes())
    cells = []
    for h in b.all_hexes():
        tile = b.tile_of(h)
        text, tone = _cell(h, tile, b.passable(h), units, caches, specials)
        cells.append(HexCell(h, text, tone, tile))
    tiles = tuple(sorted({t for h in b.all_hexes() if (t := b.tile_of(h)) not in (ENTRANCE, OBSTACLE, None)}))
    return HexMap(tuple(cells), CLASH_LEGEND, tiles)


def _cell(
    h: Hex,
    tile: str | None,
    passable: bool,
    units: dict[Hex, tuple[str, Tone]],
    caches: dict[Hex, Marker],
    specials: set[Hex],
) -> tuple[str, Tone]:
    if h in units:
        return units[h]
    if not passable:
        return OBSTACLE, "dim"
    if h in caches:
        return _cache(caches[h]), "cache"
    if h in specials:
        return "*", "special"
    if tile == ENTRANCE:
        return ENTRANCE, "entrance"
    return tile or "", "tile"


def _cache(kind: Marker) -> str:
    return "$$" if kind is Marker.LEGENDARY_CACHE else "$"


def _units(state: BattleState) -> dict[Hex, tuple[str, Tone]]:
    """What each unit standing on the map shows: its mark, in its side's tone."""
    m = marks(state)
    units: dict[Hex, tuple[str, Tone]] = {}
    for hero in state.heroes:
        if hero.pos is not None and not hero.defeated:
            units[tuple(hero.pos)] = (m[hero.id], "ally")  # type: ignore[index]
    for foe in state.foes:
        if foe.pos is not None and not foe.defeated:
            units[tuple(foe.pos)] = (m[foe.id], "foe")  # type: ignore[index]
    for ally in state.companions:  # companions: lower-case marks on the party's side (ROUND-6)
        if ally.pos is not None and not ally.defeated:
            units[tuple(ally.pos)] = (m[ally.id], "ally")  # type: ignore[index]
    return units


# --- delves ----------------------------------------------------------------------


def tile_tag(key: str) -> str:
    """How a delve tile is marked on its hexes: ``E`` the Entrance, ``3`` tile t3."""
    return key[1:] if key.startswith("t") else key


def open_hexes(state: BattleState, ctx: RulesContext) -> list[Hex]:
    """The hexes that may be explored now (EXPLORATION-5), as the rules list
    them; none while a revealed tile waits to be placed (EXPLORATION-9)."""
    if state is None or ctx.delve is None or ctx.delve.pending is not None:
        return []
    from domain.betrayal.battle.exploration import explorable  # the rules, for a delve's map only

    return explorable(Decision(state, ctx))


def delve_board(state: BattleState, ctx: RulesContext, delve: DelveState) -> HexMap:
    """The map of ``delve`` (``ctx``'s) so far, cropped to its tiles: each
    hex shows its tile's tag (``E``, ``1``, ``2``...), ``+`` on a
    Connection hex, ``?`` on one explorable now, ``!`` on the one being
    explored, ``*`` on a tile whose skyshard waits to be taken; units and
    caches over all of it."""
    m = ctx.map
    units = _units(state)
    caches = {as_hex(c.hex): c.kind for c in state.caches}
    open_ = set(open_hexes(state, ctx))
    exploring = as_hex(delve.pending.hex) if delve.pending is not None else None
    skyshards = {k.tile for k in delve.kept if k.skyshards}
    cells = []
    for h, key in m.tile_of.items():
        tag = tile_tag(key)
        own: Tone = "entrance" if key == ENTRANCE else "tile"  # the Entrance in its own colour
        if h in units:
            text, tone = units[h]
        elif h in caches:
            text, tone = _cache(caches[h]), "cache"
        elif h == exploring:
            text, tone = tag + "!", "open"
        elif h in open_:
            text, tone = tag + "?", "open"
        elif m.icon.get(h) is TileIcon.CONNECTION:
            text, tone = tag + "+", own
        elif key in skyshards:
            text, tone = tag + "*", "shard"
        else:
            text, tone = tag, own
        cells.append(HexCell(h, text, tone, key))
    cells.extend(ghost_origins(state, ctx))
    return HexMap(tuple(cells), DELVE_LEGEND, tuple(t.key for t in m.tiles))


def ghost_origins(state: BattleState, ctx: RulesContext) -> list[HexCell]:
    """While a revealed tile waits (EXPLORATION-9b), each legal placement's
    letter on its origin hex, off the tiles placed so far (letters sharing
    an origin together: ``AB``, or ``AB+`` for more than two); `rk status`
    lists what each letter is."""
    at: dict[Hex, list[str]] = {}
    for n, p in enumerate(placements(state, ctx)):
        at.setdefault(p.origin, []).append(ghost_letter(n))
    return [
        HexCell(h, "".join(marks) if len("".join(marks)) <= 3 else "".join(marks[:2]) + "+", "open", None)
        for h, marks in at.items()
        if h not in ctx.map.tile_of
    ]
