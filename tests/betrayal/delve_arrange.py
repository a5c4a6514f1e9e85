"""Arranging delves for the rules tests (test_rules_delve_*.py,
test_rules_exploration.py, test_rules_skyshard.py, test_delve_map.py).

A ``DelveScenario`` is a delve set up by the real ``StartDelve`` and then
adjusted field by field, like ``scenario.Scenario`` for clashes, but it
carries both streams: the battle state and the rules context whose
``delve`` is the Delve as it stands (its map grows with the placed tiles).
``when`` runs the pure ``rules.decision`` and folds the events of both
streams.

To force what an exploration reveals, ``next_card`` leaves one card in the
deck and ``only_tile`` one tile in its shape's pile: a draw from one choice
is always that choice, whatever the seed.

The starter pack's Entrance ("The Fallen Stair") sits at (15, 30):

    row 30:  (15,30) (16,30) (17,30)C
    row 31:     (15,31) (16,31) (17,31)C
    row 32:  .       (15,32)

Its two Connection hexes are (17, 30) and (17, 31).
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from msgspec.structs import replace
from scenario import new_party

from domain.betrayal.packs.catalog import Pack
from domain.betrayal.battle.commands import StartDelve
from domain.betrayal.battle.context import RulesContext
from domain.betrayal.delve.aggregate import DelveEvent, DelveState, PlacedTile, evolve_delve
from domain.betrayal.delve.map import DelveMap
from domain.betrayal.battle.events import BattleEvent
from domain.betrayal.battle.evolve import replay
from domain.betrayal.packs.load import starter_pack
from domain.betrayal.battle.rules import decision, legal_commands
from domain.betrayal.battle.state import BattleState
from domain.kernel.errors import RuleViolation
from domain.kernel.hexes import Hex

SURVEY = "whispering-barrow"
UNCOVER = "drowned-cistern"
ENTRANCE_LINKS: tuple[Hex, Hex] = ((17, 30), (17, 31))  # the Entrance's Connection hexes


@dataclass(frozen=True)
class DelveScenario:
    state: BattleState
    ctx: RulesContext

    @classmethod
    def start(
        cls,
        delve: str = SURVEY,
        party: tuple[str, ...] = ("Ysolda:nord",),
        xp: int = 1,
        seed: int = 1,
        placements: tuple[Hex, ...] = (),
        pack: Pack | None = None,
    ) -> DelveScenario:
        """A freshly set-up delve: round 1, the first adventurer's turn."""
        pack = pack or starter_pack()
        cmd = StartDelve(
            battle_id="test", delve=delve, party=new_party(*party), xp=xp, seed=seed, placements=placements
        )
        d = decision(None, cmd, RulesContext(pack, delve))
        return cls(replay(d.events), d.ctx)

    # --- looking ------------------------------------------------------------------

    @property
    def delve(self) -> DelveState:
        return self.ctx.delve

    @property
    def map(self) -> DelveMap:
        return self.ctx.map

    @property
    def pack(self) -> Pack:
        return self.ctx.pack

    def hero(self, hero_id: str):
        return self.state.hero(hero_id)

    def legal(self):
        return legal_commands(self.state, self.ctx)

    # --- arranging ----------------------------------------------------------------

    def with_state(self, **changes) -> DelveScenario:
        return DelveScenario(replace(self.state, **changes), self.ctx)

    def with_hero(self, hero_id: str, **changes) -> DelveScenario:
        heroes = tuple(replace(h, **changes) if h.id == hero_id else h for h in self.state.heroes)
        return self.with_state(heroes=heroes)

    def with_turn(self, **changes) -> DelveScenario:
        return self.with_state(turn=replace(self.state.turn, **changes))

    def with_delve(self, **changes) -> DelveScenario:
        return DelveScenario(self.state, self.ctx.with_delve(replace(self.delve, **changes)))

    def with_tiles(self, *placed: PlacedTile) -> DelveScenario:
        """More tiles on the map (taken out of their piles)."""
        used = {p.tile for p in placed}
        piles = tuple((shape, tuple(t for t in ids if t not in used)) for shape, ids in self.delve.piles)
        return self.with_delve(tiles=(*self.delve.tiles, *placed), piles=piles)

    def next_card(self, card: str, *more: str) -> DelveScenario:
        """The deck holds only these cards (one card: the next draw is it)."""
        return self.with_delve(deck=(card, *more))

    def only_tile(self, tile: str) -> DelveScenario:
        """The pile of ``tile``'s shape holds only ``tile``."""
        shape = self.pack.tiles[tile].shape
        return self.with_delve(piles=tuple((s, (tile,) if s == shape else ids) for s, ids in self.delve.piles))

    def empty_pile(self, shape: str) -> DelveScenario:
        return self.with_delve(piles=tuple((s, () if s == shape else ids) for s, ids in self.delve.piles))

    # --- acting -------------------------------------------------------------------

    def when(self, command) -> DelveThen:
        d = decision(self.state, command, self.ctx)
        return DelveThen(self, d.events, d.delve_events, replay(d.events, self.state), d.ctx)

    def then_violates(self, command, rule: str) -> RuleViolation:
        """Refused citing ``rule``; a refusal decides nothing at all."""
        with pytest.raises(RuleViolation) as caught:
            decision(self.state, command, self.ctx)
        assert caught.value.rule == rule, f"expected {rule}, got {caught.value.rule}: {caught.value.message}"
        return caught.value


@dataclass(frozen=True)
class DelveThen:
    given: DelveScenario
    events: list[BattleEvent]
    delve_events: list[DelveEvent]
    state: BattleState
    ctx: RulesContext

    @property
    def delve(self) -> DelveState:
        return self.ctx.delve

    def of(self, kind: type) -> list:
        return [e for e in (*self.events, *self.delve_events) if isinstance(e, kind)]

    def has(self, kind: type, /, **fields):
        """The first event (either stream) of ``kind`` whose fields match."""
        for e in self.of(kind):
            if all(getattr(e, k) == v for k, v in fields.items()):
                return e
        names = [type(e).__name__ for e in (*self.events, *self.delve_events)]
        raise AssertionError(f"no {kind.__name__} with {fields} in {names}")

    def lacks(self, kind: type) -> None:
        assert not self.of(kind), f"unexpected {kind.__name__}: {self.of(kind)}"

    def next(self) -> DelveScenario:
        return DelveScenario(self.state, self.ctx)


def fold_delve(events, state: DelveState | None = None) -> DelveState | None:
    for e in events:
        state = evolve_delve(state, e)
    return state


# --- reference readings of the rules, written independently of delve/map.py --------


def laid(tile, rotation: int, origin: Hex) -> frozenset:
    """The (hex, icon) pairs of ``tile`` turned ``rotation`` sixths clockwise
    about its hex (0, 0), then moved so (0, 0) lands on ``origin``."""
    out = set()
    for cell in tile.hexes:
        q, r = cell.hex
        for _ in range(rotation):
            q, r = -r, q + r
        out.add(((q + origin[0], r + origin[1]), cell.icon))
    return frozenset(out)


def reference_explorable(m: DelveMap) -> set[Hex]:
    """EXPLORATION-5a/5b as the rules and the facts default read: a
    Connection hex with an edge shared with no tile, touching no Connection
    hex of another tile (the skyshard condition 5d is the caller's)."""
    from domain.betrayal.vocab import TileIcon
    from domain.kernel.hexes import neighbours

    out = set()
    for h, icon in m.icon.items():
        if icon is not TileIcon.CONNECTION:
            continue
        around = neighbours(h)
        edge = any(n not in m.tile_of for n in around)
        explored = any(m.icon.get(n) is TileIcon.CONNECTION and m.tile_of[n] != m.tile_of[h] for n in around)
        if edge and not explored:
            out.add(h)
    return out


def reference_placements(m: DelveMap, tile, explored: Hex) -> set[frozenset]:
    """Every way to lay ``tile`` by EXPLORATION-9 to 9e, as sets of (hex,
    icon): no overlap (9), a new Connection hex sharing an edge with the
    explored hex (9a), any rotation (9b); the first tile's such hex touches
    both Entrance Connection hexes (9e); where possible a new Connection
    hex stays explorable (9d). Brute force: every rotation, with each of
    the tile's Connection hexes put on each neighbour of the explored hex."""
    from domain.betrayal.delve.map import on_table
    from domain.betrayal.vocab import TileIcon
    from domain.kernel.hexes import distance, neighbours

    first = len(m.tiles) == 1
    links = [h for h, i in m.icon.items() if i is TileIcon.CONNECTION and m.tile_of[h] == "E"]
    legal = set()
    origins = set()
    for rotation in range(6):
        for h, icon in laid(tile, rotation, (0, 0)):
            if icon is TileIcon.CONNECTION:  # some Connection hex of the tile onto each neighbour
                origins |= {(rotation, (n[0] - h[0], n[1] - h[1])) for n in neighbours(explored)}
    for rotation, origin in origins:
        cells = laid(tile, rotation, origin)
        if any(h in m.tile_of or not on_table(h) for h, _ in cells):
            continue
        touching = [h for h, i in cells if i is TileIcon.CONNECTION and distance(h, explored) == 1]
        if first:
            touching = [h for h in touching if all(distance(h, e) == 1 for e in links)]
        if touching:
            legal.add(cells)
    keeping = set()
    for cells in legal:
        grown = _grown(m, cells)
        mine = {h for h, i in cells if i is TileIcon.CONNECTION}
        if mine & reference_explorable(grown):
            keeping.add(cells)
    return keeping or legal


class _Grown:
    def __init__(self, icon, tile_of, tiles):
        self.icon, self.tile_of, self.tiles = icon, tile_of, tiles


def _grown(m: DelveMap, cells) -> _Grown:
    icon = dict(m.icon)
    tile_of = dict(m.tile_of)
    for h, i in cells:
        icon[h] = i
        tile_of[h] = "?new"
    return _Grown(icon, tile_of, (*m.tiles, None))


def pack_with(file: str, edit) -> Pack:
    """The starter pack with one of its files' text passed through ``edit``."""
    from importlib import resources

    from domain.betrayal.packs.load import PACK_FILES, parse_pack

    content = resources.files("domain.betrayal.content")
    files = {name: content.joinpath(name).read_bytes() for name in PACK_FILES}
    files[file] = edit(files[file].decode()).encode()
    return parse_pack(files)
