"""The geometry of a growing delve map (delve/map.py): which Connection
hexes are explorable (EXPLORATION-5 to 5b), where a revealed tile may be
connected (EXPLORATION-9 to 9e) and in which order caches and enemies are
placed (EXPLORATION-10a, EXPLORATION-11).

Besides hand-picked maps, the engine's answers are compared with a second,
brute-force reading of the same rules (``delve_arrange.reference_*``) on
every map a few seeded delves grow, for every tile shape."""

from __future__ import annotations

import random

import pytest
from delve_arrange import (
    ENTRANCE_LINKS,
    DelveScenario,
    laid,
    reference_explorable,
    reference_placements,
)

from domain.betrayal.delve.aggregate import PlacedTile
from domain.betrayal.delve.map import ENTRANCE_ORIGIN, TABLE, DelveMap, delve_map, entrance, lay, rotate
from domain.betrayal.packs.load import starter_pack
from domain.betrayal.vocab import TileIcon
from domain.kernel.hexes import distance, from_offset, neighbours


def fresh() -> DelveMap:
    return DelveScenario.start().map


def with_tiles(*placed: PlacedTile) -> DelveMap:
    return DelveScenario.start().with_tiles(*placed).map


def as_cells(m: DelveMap, tile_id: str, placements) -> set[frozenset]:
    tile = m.pack.tiles[tile_id]
    return {laid(tile, p.rotation, p.origin) for p in placements}


def grown_maps(seeds=range(6)) -> list[DelveMap]:
    """Maps grown tile by tile as a delve grows them: an explorable hex and a
    tile still in the piles picked at random (seeded), laid in one of the
    ways the engine offers; every map on the way is kept."""
    maps = []
    for seed in seeds:
        rnd = random.Random(seed)
        m = fresh()
        left = sorted(m.pack.tiles)
        while left:
            tile = m.pack.tiles[left.pop(rnd.randrange(len(left)))]
            open_ = m.open_connections()
            if not open_:
                break
            options = m.placements(tile, rnd.choice(open_))
            if options:
                p = rnd.choice(options)
                m = m.with_tile(PlacedTile(f"t{len(m.tiles)}", tile.id, p.rotation, p.origin))
                maps.append(m)
    return maps


GROWN: list[DelveMap] = []


def grown() -> list[DelveMap]:
    if not GROWN:
        GROWN.extend(grown_maps())
    return GROWN


# --- DELVE-2, DELVE-7: tiles and their icons --------------------------------------------


@pytest.mark.rule("DELVE-2")
@pytest.mark.rule("DELVE-7")
def test_a_delve_starts_as_the_entrance_alone_in_the_middle_of_the_table():
    m = fresh()
    assert [t.key for t in m.tiles] == ["E"]
    assert m.tiles[0] == entrance(starter_pack()) and m.tiles[0].origin == ENTRANCE_ORIGIN
    assert ENTRANCE_ORIGIN == from_offset(TABLE // 2, TABLE // 2)
    assert sorted(h for h, i in m.icon.items() if i is TileIcon.CONNECTION) == sorted(ENTRANCE_LINKS)
    assert set(m.tile_of.values()) == {"E"} and len(m.icon) == len(starter_pack().entrance.hexes)


@pytest.mark.rule("DELVE-2")
def test_a_placed_tile_brings_its_icons_onto_the_map_where_it_lies():
    placed = PlacedTile("t1", "long-drain", 0, (18, 30))
    m = with_tiles(placed)
    tile = starter_pack().tiles["long-drain"]
    mine = {(h, m.icon[h]) for h in m.hexes_of("t1")}
    assert mine == set(laid(tile, 0, (18, 30)))
    assert m.icon[(18, 30)] is TileIcon.CONNECTION and m.icon[(21, 30)] is TileIcon.COMMON
    assert m.icon[(19, 30)] is TileIcon.ENEMY


@pytest.mark.rule("EXPLORATION-9b")
def test_a_tile_may_be_turned_to_any_of_six_orientations():
    tile = starter_pack().tiles["crooked-stair"]
    shapes = {frozenset(c.hex for c in lay(tile, r, (0, 0))) for r in range(6)}
    assert len(shapes) == 6  # six different orientations
    for h in [(1, 0), (2, -1), (0, 3)]:
        assert rotate(h, 6) == h and distance(rotate(h, 1), (0, 0)) == distance(h, (0, 0))
        assert rotate(rotate(h, 2), 4) == h


# --- EXPLORATION-5: explorable hexes -------------------------------------------------------


@pytest.mark.rule("EXPLORATION-5")
@pytest.mark.rule("EXPLORATION-1")
def test_at_the_start_the_explorable_hexes_are_the_two_entrance_connection_hexes():
    assert sorted(fresh().open_connections()) == sorted(ENTRANCE_LINKS)


@pytest.mark.rule("EXPLORATION-5")
def test_only_hexes_with_a_connection_icon_can_be_explored():
    m = with_tiles(PlacedTile("t1", "long-drain", 0, (18, 30)))
    for h in m.open_connections():
        assert m.icon[h] is TileIcon.CONNECTION
    plain_edge = [h for h in m.icon if m.icon[h] is not TileIcon.CONNECTION and m.is_edge(h)]
    assert plain_edge and not set(plain_edge) & set(m.open_connections())


@pytest.mark.rule("EXPLORATION-5a")
def test_a_connection_hex_with_no_outer_edge_cannot_be_explored():
    # Dripping Cell and Torchlit Passage wall in t2's Connection hex (16, 29)
    m = with_tiles(PlacedTile("t1", "dripping-cell", 1, (19, 27)), PlacedTile("t2", "torchlit-passage", 2, (19, 26)))
    h = (16, 29)
    assert m.icon[h] is TileIcon.CONNECTION and m.tile_of[h] == "t2"
    assert all(n in m.tile_of for n in neighbours(h)) and not m.is_edge(h)
    assert not m.is_explored(h)  # 5b alone would let it be explored
    assert h not in m.open_connections()
    assert (15, 29) in m.open_connections()  # t2's other Connection hex still has an outer edge


@pytest.mark.rule("EXPLORATION-5b")
def test_connection_hexes_touching_a_connection_hex_of_another_tile_count_as_explored():
    m = with_tiles(PlacedTile("t1", "long-drain", 0, (18, 30)))
    for link in ENTRANCE_LINKS:  # both touch t1's Connection hex (18, 30)
        assert m.is_edge(link) and m.is_explored(link)
    assert (18, 30) not in m.open_connections()
    assert not set(ENTRANCE_LINKS) & set(m.open_connections())
    assert (21, 31) in m.open_connections()  # t1's far Connection hex is the way on


@pytest.mark.rule("EXPLORATION-5b")
def test_touching_only_plain_hexes_of_another_tile_leaves_a_connection_hex_explorable():
    # Guard Alcove turned so its Connection hex (16, 29) rests against the
    # Entrance's plain hexes (15, 30) and (16, 30): our default (facts) is that
    # only a Connection hex of another tile makes a hex explored
    m = with_tiles(PlacedTile("t1", "ossuary-niche", 0, (18, 28)), PlacedTile("t2", "guard-alcove", 3, (17, 29)))
    h = (16, 29)
    assert m.icon[h] is TileIcon.CONNECTION and m.tile_of[h] == "t2"
    assert {m.tile_of.get(n) for n in neighbours(h)} >= {"E"}
    assert h in m.open_connections()


@pytest.mark.rule("EXPLORATION-5")
@pytest.mark.rule("EXPLORATION-5a")
@pytest.mark.rule("EXPLORATION-5b")
def test_the_explorable_hexes_of_every_grown_map_follow_exploration_5():
    maps = grown()
    assert len(maps) > 10
    for m in maps:
        assert set(m.open_connections()) == reference_explorable(m)


# --- EXPLORATION-9: connecting a tile --------------------------------------------------------


@pytest.mark.rule("EXPLORATION-9")
@pytest.mark.rule("EXPLORATION-9a")
def test_every_placement_touches_the_explored_hex_with_a_connection_hex_and_overlaps_nothing():
    m = with_tiles(PlacedTile("t1", "long-drain", 0, (18, 30)))
    for tile_id, tile in m.pack.tiles.items():
        if tile_id == "long-drain":
            continue
        options = m.placements(tile, (21, 31))
        assert options, tile_id
        for p in options:
            cells = laid(tile, p.rotation, p.origin)
            assert not {h for h, _ in cells} & set(m.tile_of)  # no overlap
            assert (p.touching, TileIcon.CONNECTION) in cells
            assert distance(p.touching, (21, 31)) == 1  # they share a complete edge


@pytest.mark.rule("EXPLORATION-9e")
@pytest.mark.rule("EX-17")
def test_the_first_tile_touches_both_entrance_connection_hexes_with_one_connection_hex():
    m = fresh()
    for tile_id, tile in m.pack.tiles.items():
        for explored in ENTRANCE_LINKS:
            options = m.placements(tile, explored)
            assert options, tile_id
            for p in options:
                cells = laid(tile, p.rotation, p.origin)
                assert (p.touching, TileIcon.CONNECTION) in cells
                assert all(distance(p.touching, link) == 1 for link in ENTRANCE_LINKS)


@pytest.mark.rule("EXPLORATION-9e")
def test_a_first_tile_touching_only_one_entrance_connection_hex_is_refused():
    # without 9e a Guard Alcove could hang off (17, 30) alone, touching it at (17, 29) or (18, 29)
    m = fresh()
    tile = m.pack.tiles["guard-alcove"]
    allowed = as_cells(m, "guard-alcove", m.placements(tile, (17, 30)))
    for cells in reference_placements(m, tile, (17, 30)):
        assert cells in allowed
    one_sided = [
        laid(tile, r, o)
        for r in range(6)
        for o in [(dq, dr) for dq in range(10, 26) for dr in range(22, 38)]
        if not {h for h, _ in laid(tile, r, o)} & set(m.tile_of)
        and any(i is TileIcon.CONNECTION and h in ((17, 29), (18, 29)) for h, i in laid(tile, r, o))
        and ((18, 30), TileIcon.CONNECTION) not in laid(tile, r, o)
    ]
    assert one_sided
    assert not set(one_sided) & allowed


@pytest.mark.rule("EXPLORATION-9d")
def test_placements_that_leave_no_new_connection_hex_explorable_are_refused_when_another_exists():
    # with Ossuary Niche as t1, a Dripping Cell explored from (18, 32) has
    # one placement that would wall in both of its Connection hexes
    m = with_tiles(PlacedTile("t1", "ossuary-niche", 0, (18, 30)))
    tile = m.pack.tiles["dripping-cell"]
    options = m.placements(tile, (18, 32))
    for p in options:
        grown_ = m.with_tile(PlacedTile("t2", "dripping-cell", p.rotation, p.origin))
        assert set(grown_.hexes_of("t2")) & set(grown_.open_connections())
    closing = []
    for cells in _unfiltered(m, tile, (18, 32)):
        grown_ = m.with_tile(_placed_from(tile, cells))
        if not set(grown_.hexes_of("t2")) & set(grown_.open_connections()):
            closing.append(cells)
    assert closing, "the arrangement must offer a closing placement"
    assert not set(closing) & as_cells(m, "dripping-cell", options)


@pytest.mark.rule("EXPLORATION-9d")
def test_when_every_placement_closes_the_new_tile_it_may_still_be_placed():
    # "where possible": here the only way to lay a Guard Alcove leaves none
    # of its Connection hexes explorable, and it is still allowed
    m = with_tiles(PlacedTile("t1", "ossuary-niche", 5, (18, 30)), PlacedTile("t2", "broken-aqueduct", 1, (21, 29)))
    tile = m.pack.tiles["guard-alcove"]
    options = m.placements(tile, (19, 32))
    assert len(options) == 1
    grown_ = m.with_tile(PlacedTile("t3", "guard-alcove", options[0].rotation, options[0].origin))
    assert not set(grown_.hexes_of("t3")) & set(grown_.open_connections())


@pytest.mark.rule("EXPLORATION-9")
@pytest.mark.rule("EXPLORATION-9a")
@pytest.mark.rule("EXPLORATION-9b")
@pytest.mark.rule("EXPLORATION-9d")
@pytest.mark.rule("EXPLORATION-9e")
def test_the_placements_offered_on_every_grown_map_are_exactly_those_the_rules_allow():
    checked = 0
    for m in grown()[:8]:
        for explored in m.open_connections():
            for tile_id, tile in m.pack.tiles.items():
                if any(t.tile == tile_id for t in m.tiles):
                    continue
                assert as_cells(m, tile_id, m.placements(tile, explored)) == reference_placements(m, tile, explored)
                checked += 1
    assert checked > 100


@pytest.mark.rule("EXPLORATION-9")
def test_a_tile_that_fits_nowhere_has_no_placement():
    # t1 leaves (18, 30) free but no room behind it for a cavern
    m = with_tiles(PlacedTile("t1", "ossuary-niche", 3, (19, 29)))
    assert (17, 30) in m.open_connections()
    assert m.placements(m.pack.tiles["flooded-vault"], (17, 30)) == []
    assert m.placements(m.pack.tiles["dripping-cell"], (17, 30))  # a smaller tile fits


@pytest.mark.rule("EXPLORATION-9c")
def test_touching_hexes_of_two_tiles_are_connected_whether_or_not_they_have_icons():
    m = with_tiles(PlacedTile("t1", "guard-alcove", 0, (18, 29)))
    board = m.board
    # (17, 31) plain-side Entrance Connection hex and (18, 31), a Common item hex of t1
    assert m.icon[(18, 31)] is TileIcon.COMMON
    assert board.path((17, 31), (18, 31), ()) == [(17, 31), (18, 31)]
    # (16, 30), a plain Entrance hex, to (18, 29), an enemy hex, through (17, 30): two steps
    assert board.range_distance((16, 30), (18, 29)) == 2
    assert board.sees((15, 32), (20, 30))  # touching tiles see each other (facts: sight)


# --- EXPLORATION-10a, EXPLORATION-11: farthest first ----------------------------------------


@pytest.mark.rule("EXPLORATION-10a")
@pytest.mark.rule("EXPLORATION-11")
def test_item_and_enemy_hexes_are_taken_farthest_from_the_explored_hex_first():
    m = with_tiles(PlacedTile("t1", "long-drain", 0, (18, 30)))
    assert m.farthest_first("t1", TileIcon.COMMON, (17, 30)) == [(21, 30), (18, 31)]
    assert m.farthest_first("t1", TileIcon.ENEMY, (17, 30)) == [(20, 31), (19, 30)]
    # measured from the hex explored: from (17, 31) (18, 31) is nearer still
    assert m.farthest_first("t1", TileIcon.COMMON, (17, 31))[0] == (21, 30)


def _unfiltered(m: DelveMap, tile, explored) -> set[frozenset]:
    """Every placement EXPLORATION-9 to 9c (and 9e) allow, before 9d."""
    import delve_arrange as da

    keep = da.reference_explorable
    da.reference_explorable = lambda grown_: set(grown_.icon)
    try:
        return da.reference_placements(m, tile, explored)
    finally:
        da.reference_explorable = keep


def _placed_from(tile, cells) -> PlacedTile:
    for r in range(6):
        for h, _ in cells:
            for c in tile.hexes:
                q, rr = rotate(c.hex, r)
                origin = (h[0] - q, h[1] - rr)
                if laid(tile, r, origin) == cells:
                    return PlacedTile("t2", tile.id, r, origin)
    raise AssertionError("no placement lays these cells")


def test_delve_maps_are_shared_per_placed_tiles():
    pack = starter_pack()
    tiles = (entrance(pack), PlacedTile("t1", "long-drain", 0, (18, 30)))
    assert delve_map(pack, tiles) is delve_map(pack, tiles)
