"""Board: the map of one battle (MOVE-1, FORM-4 to FORM-6, sight, range;
facts §3)."""

from types import SimpleNamespace

import pytest
from ascii_map import at, board

from domain.betrayal.battle.board import Board
from domain.betrayal.battle.decision import Decision
from domain.betrayal.battle.reach import in_form_range
from domain.betrayal.battle.state import Hero
from domain.betrayal.packs.catalog import MapHex, Setup
from domain.betrayal.vocab import BattleForm, Marker, Objective
from domain.kernel.hexes import distance, neighbours

OPEN = board("AAAAA", "AAAAA", "AAAAA", "AAAAA", "AAAAA")


# --- MOVE-1: movement ------------------------------------------------------


@pytest.mark.rule("MOVE-1")
def test_a_unit_reaches_only_as_many_hexes_as_its_stamina_MOVE_1():
    # given a straight corridor and a unit at its west end
    corridor = board("AAAAAAA")
    # when it may step 3 hexes
    lengths = corridor.reachable(at(0, 0), {at(0, 0)}, 3)
    # then it reaches the next three hexes and no further
    assert lengths == {at(c, 0): c for c in range(4)}


@pytest.mark.rule("MOVE-1")
def test_no_unit_moves_through_a_hex_holding_another_unit_MOVE_1():
    # given a corridor with another unit two hexes ahead
    corridor = board("AAAAAAA")
    # when the mover has plenty of steps
    lengths = corridor.reachable(at(0, 0), {at(0, 0), at(2, 0)}, 10)
    # then it can neither end on nor pass the occupied hex
    assert lengths == {at(0, 0): 0, at(1, 0): 1}


@pytest.mark.rule("MOVE-1")
def test_a_blocked_unit_walks_around_the_other_unit_MOVE_1():
    # given two rows and a unit between the mover and its goal
    two_rows = board("AAAAA", "AAAAA")
    blocker = at(1, 0)
    # when it measures the way to the hex beyond the blocker
    lengths = two_rows.reachable(at(0, 0), {at(0, 0), blocker}, None)
    # then it detours through the second row: one step longer than range
    assert lengths[at(2, 0)] == 3
    assert two_rows.range_distance(at(0, 0), at(2, 0)) == 2


@pytest.mark.rule("MOVE-1")
def test_impassable_hexes_are_never_entered_MOVE_1():
    # given a corridor cut by an obstacle
    cut = board("AA#AA")
    # when a unit may move far
    lengths = cut.reachable(at(0, 0), set(), 10)
    # then it stops before the obstacle
    assert set(lengths) == {at(0, 0), at(1, 0)}
    assert not cut.passable(at(2, 0))
    assert cut.contains(at(2, 0))


@pytest.mark.rule("MOVE-1")
def test_movement_limit_zero_leaves_only_the_start_MOVE_1():
    lengths = OPEN.reachable(at(2, 2), set(), 0)
    assert lengths == {at(2, 2): 0}


# --- range (facts: FORM-4, EMOVE-2) ------------------------------------------


@pytest.mark.rule("FORM-4")
@pytest.mark.rule("FORM-5")
def test_melee_reach_covers_exactly_the_six_adjacent_hexes_FORM_4_FORM_5():
    # given a hex in the middle of an open map
    centre = at(2, 2)
    # when range is measured to every hex of the map
    in_melee = [h for h in OPEN.all_hexes() if OPEN.range_distance(centre, h) == 1]
    # then the hexes at range 1 are its six edge-sharing neighbours
    assert sorted(in_melee) == sorted(neighbours(centre))


@pytest.mark.rule("FORM-6")
def test_range_counts_hexes_up_to_and_including_the_destination_FORM_6():
    # given a corridor
    corridor = board("AAAAAAA")
    # when range is measured from its west end
    ranges = [corridor.range_distance(at(0, 0), at(c, 0)) for c in range(5)]
    # then each hex counts one, the destination included
    assert ranges == [0, 1, 2, 3, 4]


@pytest.mark.rule("FORM-6")
def test_with_stamina_3_units_2_and_3_hexes_away_are_in_ranged_reach_FORM_6():
    # given a corridor and a ranged adventurer with Stamina 3 at one end
    corridor = board("AAAAAAA")
    archer = Hero(
        id="archer",
        name="Archer",
        race="nord",
        adventurer_id="archer",
        pos=at(0, 0),
        hp=5,
        max_hp=5,
        stamina=3,
        magicka=0,
        cooldown=0,
    )
    d = Decision(None, SimpleNamespace(board=corridor))  # reach reads the board only
    # when the engine is asked, hex by hex, whether the Ranged form reaches
    why = {c: in_form_range(d, archer, BattleForm.RANGED, at(c, 0)) for c in range(1, 7)}
    # then it reaches the hexes 2 and 3 away, neither the adjacent one nor past Stamina (EX of FORM-6)
    assert [c for c, reason in why.items() if reason is None] == [2, 3]
    assert all(why[c].startswith("FORM-6: ") for c in (1, 4, 5, 6))


@pytest.mark.rule("FORM-6")
def test_range_is_never_counted_through_impassable_hexes_FORM_6():
    # given an obstacle in the first row with an open row below it
    walled = board("AA#AA", "AAAAA")
    # when range is measured across the obstacle
    d = walled.range_distance(at(0, 0), at(4, 0))
    # then it goes around: longer than the open-grid count
    assert d == 5
    assert distance(at(0, 0), at(4, 0)) == 4


@pytest.mark.rule("FORM-6")
def test_range_to_a_hex_cut_off_by_obstacles_is_none_FORM_6():
    cut = board("AA#AA")
    assert cut.range_distance(at(0, 0), at(4, 0)) is None
    assert cut.range_distance(at(0, 0), at(2, 0)) is None


@pytest.mark.rule("FORM-6")
def test_range_ignores_units_standing_in_the_way_FORM_6():
    # given a corridor where a unit blocks movement
    corridor = board("AAAAA")
    blocked = corridor.reachable(at(0, 0), {at(1, 0)}, None)
    # when range is measured along the same corridor
    d = corridor.range_distance(at(0, 0), at(4, 0))
    # then the unit does not matter for range, only for movement
    assert at(4, 0) not in blocked
    assert d == 4


@pytest.mark.rule("FORM-6")
def test_range_is_the_same_both_ways_FORM_6():
    walled = board("AA#AA", "AAAAA", "A#A#A")
    hexes = [h for h in walled.all_hexes() if walled.passable(h)]
    for a in hexes:
        for b in hexes:
            assert walled.range_distance(a, b) == walled.range_distance(b, a)


# --- sight (facts: EXPLORE-1, ENEMY-5b) --------------------------------------


@pytest.mark.rule("ENEMY-5b")
def test_units_on_the_same_tile_see_each_other_ENEMY_5b():
    tiles = board("AAABBBCCC")
    assert tiles.sees(at(0, 0), at(2, 0))


@pytest.mark.rule("ENEMY-5b")
def test_units_on_touching_tiles_see_each_other_ENEMY_5b():
    # given tiles A, B, C in a row: A touches B, B touches C
    tiles = board("AAABBBCCC")
    # then A and B see each other from their far ends
    assert tiles.sees(at(0, 0), at(5, 0))
    assert tiles.sees(at(5, 0), at(0, 0))


@pytest.mark.rule("ENEMY-5b")
def test_units_on_tiles_that_do_not_touch_cannot_see_each_other_ENEMY_5b():
    # given tiles A, B, C in a row: A does not touch C
    tiles = board("AAABBBCCC")
    # then even the nearest A and C hexes do not see each other
    assert not tiles.sees(at(2, 0), at(6, 0))


@pytest.mark.rule("ENEMY-5b")
def test_tiles_separated_only_by_obstacle_hexes_do_not_touch_ENEMY_5b():
    # given tiles A and B joined only through obstacle hexes
    split = board("AA##BB")
    # then obstacle hexes belong to no tile and link nothing
    assert not split.sees(at(1, 0), at(4, 0))
    assert not split.sees(at(2, 0), at(1, 0))


@pytest.mark.rule("ENEMY-5b")
def test_a_unit_always_sees_itself_ENEMY_5b():
    assert OPEN.sees(at(1, 1), at(1, 1))


@pytest.mark.rule("ENEMY-5b")
def test_hexes_off_the_map_see_nothing_ENEMY_5b():
    assert not OPEN.sees(at(0, 0), (99, 99))


# --- routes (EMOVE-3) ----------------------------------------------------------


@pytest.mark.rule("EMOVE-3")
def test_a_route_goes_only_through_empty_hexes_EMOVE_3():
    # given two rows and a unit between start and goal
    two_rows = board("AAAAA", "AAAAA")
    # when a route is asked for
    route = two_rows.path(at(0, 0), at(2, 0), {at(0, 0), at(1, 0)})
    # then it detours through the second row, start and goal included
    assert route == [at(0, 0), at(0, 1), at(1, 1), at(2, 0)]


@pytest.mark.rule("EMOVE-3")
def test_there_is_no_route_onto_an_occupied_hex_EMOVE_3():
    assert OPEN.path(at(0, 0), at(2, 0), {at(2, 0)}) is None


@pytest.mark.rule("EMOVE-3")
def test_there_is_no_route_through_a_wall_of_units_EMOVE_3():
    corridor = board("AAAAA")
    assert corridor.path(at(0, 0), at(4, 0), {at(2, 0)}) is None


@pytest.mark.rule("EMOVE-3")
def test_a_route_is_shortest_and_the_same_every_time_EMOVE_3():
    # given an open map with many equally short routes
    start, goal = at(0, 0), at(4, 4)
    # when a route is asked for twice
    first = OPEN.path(start, goal, set())
    second = OPEN.path(start, goal, set())
    # then it is a chain of adjacent hexes of the shortest length, always the same
    assert first == second
    assert len(first) - 1 == OPEN.range_distance(start, goal)
    assert all(distance(a, b) == 1 for a, b in zip(first, first[1:]))


def test_a_route_to_the_start_is_the_start_alone():
    assert OPEN.path(at(1, 1), at(1, 1), {at(1, 1)}) == [at(1, 1)]


# --- setup hexes (CLASH-6, CLASH-7, CLASH-8) -----------------------------------


def _diagram() -> list[MapHex]:
    return [
        MapHex(hex=at(2, 1), tile="E"),
        MapHex(hex=at(0, 1), tile="E"),
        MapHex(hex=at(1, 1), tile="E", impassable=True),
        MapHex(hex=at(0, 0), tile="A", marker=Marker.ENEMY, number=2),
        MapHex(hex=at(1, 0), tile="A", marker=Marker.ENEMY, number=1),
        MapHex(hex=at(2, 0), tile="A", marker=Marker.LEGENDARY_CACHE),
        MapHex(hex=at(3, 0), tile="A", marker=Marker.COMMON_CACHE),
        MapHex(hex=at(3, 1), tile="A", marker=Marker.SPECIAL),
    ]


@pytest.mark.rule("CLASH-8")
def test_entrance_hexes_are_the_passable_entrance_hexes_in_reading_order_CLASH_8():
    assert Board.from_hexes(_diagram()).entrance_hexes() == [at(0, 1), at(2, 1)]


@pytest.mark.rule("CLASH-7")
def test_numbered_hexes_come_in_number_order_CLASH_7():
    assert Board.from_hexes(_diagram()).numbered_hexes() == [at(1, 0), at(0, 0)]


@pytest.mark.rule("CLASH-6")
def test_cache_hexes_carry_their_face_CLASH_6():
    assert Board.from_hexes(_diagram()).cache_hexes() == [
        (at(2, 0), Marker.LEGENDARY_CACHE),
        (at(3, 0), Marker.COMMON_CACHE),
    ]


def test_special_hexes_and_tiles_are_read_from_the_diagram():
    b = Board.from_hexes(_diagram())
    assert b.special_hexes() == [at(3, 1)]
    assert b.tile_of(at(0, 1)) == "E"
    assert b.tile_of((99, 99)) is None
    assert len(b.all_hexes()) == 8


def test_a_board_is_built_from_a_setup_diagram():
    setup = Setup(id="s", name="S", objective=Objective.CONQUER, rows=(), hexes=tuple(_diagram()))
    assert Board.from_setup(setup).all_hexes() == Board.from_hexes(_diagram()).all_hexes()


def test_a_hex_listed_twice_is_refused():
    with pytest.raises(ValueError):
        Board.from_hexes([MapHex(hex=(0, 0), tile="A"), MapHex(hex=(0, 0), tile="B")])
