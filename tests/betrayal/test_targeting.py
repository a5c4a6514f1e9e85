"""Enemy targeting and movement (ENEMY-5, ENEMY-6a/b/f/g, EMOVE-1 to EMOVE-10)."""

import pytest
from ascii_map import at, board

from domain.betrayal.battle.board import Board
from domain.betrayal.battle.enemies.targeting import Candidate, can_target, designate, move_plan, plan_move, rank
from domain.betrayal.vocab import Priority

STRONGEST, WEAKEST = Priority.STRONGEST, Priority.WEAKEST


def hero(id: str, pos, hp: int = 5, order: int = 0) -> Candidate:
    return Candidate(id, pos, hp, order)


def units(mover, *others):
    """Every unit's hex, the mover's own included (as the caller passes it)."""
    return frozenset([mover, *others])


def move(b: Board, start, reach: int, priority: Priority, heroes, *others, **kw):
    """plan_move with every unit's hex occupied: the mover, the heroes and
    the other units standing at ``others``."""
    occupied = units(start, *others, *(c.pos for c in heroes))
    return plan_move(b, start, reach, priority, heroes, occupied, **kw)


CORRIDOR = board("AAAAAAAAAAA")  # one row, one tile: cols 0..10
OPEN = board(*["AAAAAAA"] * 7)
# Two dead-end pads either side of a corridor, used for EX-12: from at(2, 1)
# an enemy with reach 1 reaches both pads at(2, 0) and at(2, 2); from at(6, 1)
# it reaches the single pad at(7, 0). Both are 2 steps from at(4, 1).
FORK = board(
    "..A....A.",
    "AAAAAAAAA",
    "..A......",
)


# --- can_target (ENEMY-6a) ---------------------------------------------------


@pytest.mark.rule("ENEMY-6a")
def test_a_unit_in_range_and_sight_can_be_targeted_ENEMY_6a():
    assert can_target(CORRIDOR, at(0, 0), at(2, 0), 2)


@pytest.mark.rule("ENEMY-6a")
def test_a_unit_beyond_range_cannot_be_targeted_ENEMY_6a():
    assert not can_target(CORRIDOR, at(0, 0), at(3, 0), 2)


@pytest.mark.rule("ENEMY-6a")
def test_a_unit_in_range_but_out_of_sight_cannot_be_targeted_ENEMY_6a():
    # given tiles A, B, C in a row: A does not see C
    tiles = board("AAABBBCCC")
    # then a unit 4 hexes away on C is out of sight for reach 4
    assert not can_target(tiles, at(2, 0), at(6, 0), 4)


@pytest.mark.rule("ENEMY-6a")
def test_a_unit_never_targets_its_own_hex_ENEMY_6a():
    assert not can_target(CORRIDOR, at(0, 0), at(0, 0), 3)


@pytest.mark.rule("FORM-4")
@pytest.mark.rule("FORM-5")
def test_melee_reach_1_targets_adjacent_units_only_FORM_4_FORM_5():
    assert can_target(CORRIDOR, at(3, 0), at(4, 0), 1)
    assert not can_target(CORRIDOR, at(3, 0), at(5, 0), 1)


@pytest.mark.rule("ENEMY-6a")
def test_range_to_a_target_goes_around_obstacles_ENEMY_6a():
    # given an obstacle between two hexes 2 apart on an open grid
    walled = board("A#A", "AAA")
    # then range 2 is not enough: the count goes around the obstacle
    assert not can_target(walled, at(0, 0), at(2, 0), 2)
    assert can_target(walled, at(0, 0), at(2, 0), 3)


# --- rank (ENEMY-6a, ENEMY-6b, ENEMY-6g) ---------------------------------------


@pytest.mark.rule("ENEMY-6a")
def test_strongest_priority_ranks_the_most_hp_first_ENEMY_6a():
    a, b, c = hero("a", at(0, 0), 3, 0), hero("b", at(1, 0), 7, 1), hero("c", at(2, 0), 5, 2)
    assert rank([a, b, c], STRONGEST) == [b, c, a]


@pytest.mark.rule("ENEMY-6a")
def test_weakest_priority_ranks_the_fewest_hp_first_ENEMY_6a():
    a, b, c = hero("a", at(0, 0), 3, 0), hero("b", at(1, 0), 7, 1), hero("c", at(2, 0), 5, 2)
    assert rank([a, b, c], WEAKEST) == [a, c, b]


@pytest.mark.rule("ENEMY-6b")
def test_tied_priorities_go_by_the_party_order_ENEMY_6b():
    # given two units equally strong; the party's default choice is turn order
    first, second = hero("first", at(0, 0), 5, 0), hero("second", at(1, 0), 5, 1)
    # then the earlier one ranks first, whatever the icon
    assert rank([second, first], STRONGEST) == [first, second]
    assert rank([second, first], WEAKEST) == [first, second]


# --- designate (ENEMY-6a, ENEMY-6f, ENEMY-6g) -------------------------------------


@pytest.mark.rule("ENEMY-6a")
def test_an_enemy_designates_up_to_its_target_value_by_priority_ENEMY_6a():
    # given three adventurers in reach of an enemy with target value 2
    heroes = [hero("a", at(1, 0), 3, 0), hero("b", at(2, 0), 8, 1), hero("c", at(3, 0), 6, 2)]
    # when it designates
    chosen = designate(CORRIDOR, at(0, 0), 3, STRONGEST, 2, heroes)
    # then it takes the two strongest
    assert [c.id for c in chosen] == ["b", "c"]


@pytest.mark.rule("ENEMY-6a")
def test_target_value_0_designates_every_targetable_unit_ENEMY_6a():
    heroes = [hero("a", at(1, 0), 3, 0), hero("b", at(2, 0), 8, 1), hero("far", at(9, 0), 9, 2)]
    chosen = designate(CORRIDOR, at(0, 0), 3, STRONGEST, 0, heroes)
    assert [c.id for c in chosen] == ["b", "a"]


@pytest.mark.rule("ENEMY-6a")
def test_units_out_of_range_are_never_designated_even_if_preferred_ENEMY_6a():
    heroes = [hero("near", at(1, 0), 2, 0), hero("strong-but-far", at(5, 0), 9, 1)]
    chosen = designate(CORRIDOR, at(0, 0), 1, STRONGEST, 1, heroes)
    assert [c.id for c in chosen] == ["near"]


@pytest.mark.rule("ENEMY-6f")
def test_damage_resolves_from_the_highest_priority_target_down_ENEMY_6f():
    # given targets listed in turn order, weakest icon
    heroes = [hero("a", at(1, 0), 6, 0), hero("b", at(2, 0), 2, 1), hero("c", at(3, 0), 4, 2)]
    # when designated
    chosen = designate(CORRIDOR, at(0, 0), 3, WEAKEST, 0, heroes)
    # then the resolution order is the priority order
    assert [c.id for c in chosen] == ["b", "c", "a"]


@pytest.mark.rule("ENEMY-6g")
def test_targets_with_equal_hp_are_hit_in_the_party_order_ENEMY_6g():
    heroes = [hero("late", at(1, 0), 4, 3), hero("early", at(2, 0), 4, 1)]
    chosen = designate(CORRIDOR, at(0, 0), 3, STRONGEST, 0, heroes)
    assert [c.id for c in chosen] == ["early", "late"]


# --- moving: when (ENEMY-5, ENEMY-5a, EMOVE-1) --------------------------------------


@pytest.mark.rule("ENEMY-5")
def test_an_enemy_moves_at_most_2_hexes_ENEMY_5():
    # given an adventurer far down the corridor
    target = hero("far", at(9, 0))
    # when the enemy moves
    moved = move(CORRIDOR, at(0, 0), 1, STRONGEST, [target])
    # then it takes two steps
    assert moved == [at(1, 0), at(2, 0)]


@pytest.mark.rule("ENEMY-5a")
@pytest.mark.rule("EMOVE-1")
def test_an_enemy_with_a_target_in_range_does_not_move_ENEMY_5a_EMOVE_1():
    # given a weak adventurer in range and a stronger one out of range
    near, far = hero("near", at(2, 0), 2, 0), hero("far", at(6, 0), 9, 1)
    # when the enemy plans its move
    moved = move(CORRIDOR, at(0, 0), 2, STRONGEST, [near, far])
    # then it skips movement entirely
    assert moved == []


@pytest.mark.rule("ENEMY-5a")
def test_a_unit_in_range_but_out_of_sight_does_not_stop_the_enemy_moving_ENEMY_5a():
    # given tiles A, B, C: the enemy on A, the adventurer on C, 4 hexes apart
    tiles = board("AAABBBCCC")
    target = hero("h", at(6, 0))
    # when an enemy with reach 4 plans its move
    moved = move(tiles, at(2, 0), 4, STRONGEST, [target])
    # then it moves, since it could not designate that unit
    assert moved != []


# --- moving: where (ENEMY-5b, EMOVE-2 to EMOVE-9) -------------------------------------


@pytest.mark.rule("ENEMY-5b")
def test_an_enemy_moves_to_the_nearest_hex_with_a_target_in_range_and_sight_ENEMY_5b():
    # given tiles A, B, C: the enemy on A's last hex, the adventurer on C
    tiles = board("AAABBBCCC")
    target = hero("h", at(6, 0))
    # when an enemy with reach 4 moves
    moved = move(tiles, at(2, 0), 4, STRONGEST, [target])
    # then one step onto tile B, which sees C, is enough
    assert moved == [at(3, 0)]


@pytest.mark.rule("EMOVE-2")
def test_the_nearest_destination_wins_over_a_higher_priority_target_EMOVE_2():
    # given a weak adventurer 3 hexes west and a strong one 4 hexes east
    weak, strong = hero("weak", at(2, 0), 2, 0), hero("strong", at(9, 0), 9, 1)
    # when a strongest-first enemy with reach 1 moves
    moved = move(CORRIDOR, at(5, 0), 1, STRONGEST, [weak, strong])
    # then it heads for the nearer destination (at(3, 0), 2 steps)
    assert moved == [at(4, 0), at(3, 0)]


@pytest.mark.rule("EMOVE-2")
def test_an_occupied_hex_is_never_a_destination_EMOVE_2():
    # given an adventurer with two equally near attack hexes, the first of
    # which (in reading order) holds another enemy
    h = at(3, 3)
    first, second = (h[0] + 1, h[1]), (h[0], h[1] + 1)
    start = (h[0] + 2, h[1] + 1)
    target = hero("h", h)
    # when the enemy with reach 1 moves
    moved = move(OPEN, start, 1, STRONGEST, [target], first)
    # then it goes to the empty one
    assert moved[-1] == second
    assert len(moved) == 2


@pytest.mark.rule("EMOVE-3")
def test_the_route_to_the_destination_must_be_empty_EMOVE_3():
    # given an adventurer 3 hexes east behind another enemy, and one 5 hexes west
    east, west = hero("east", at(8, 0), 9, 0), hero("west", at(0, 0), 1, 1)
    ally = at(6, 0)
    # when the enemy with reach 1 moves
    moved = move(CORRIDOR, at(5, 0), 1, STRONGEST, [east, west], ally)
    # then the blocked east is no destination; it walks west
    assert moved == [at(4, 0), at(3, 0)]


@pytest.mark.rule("EMOVE-4")
def test_an_enemy_that_cannot_reach_its_destination_still_moves_toward_it_EMOVE_4():
    # given a destination 4 steps away around an obstacle
    walled = board("A#AAA", "AAAAA")
    target = hero("h", at(4, 0))
    start = at(0, 0)
    # when the enemy with reach 1 moves
    moved = move(walled, start, 1, STRONGEST, [target])
    # then it takes 2 steps along a shortest route: each step 1 hex nearer
    goal = at(3, 0)
    before = walled.range_distance(start, goal)
    assert len(moved) == 2
    assert [walled.range_distance(h, goal) for h in moved] == [before - 1, before - 2]


@pytest.mark.rule("EMOVE-5")
def test_an_enemy_stops_as_soon_as_it_reaches_its_destination_EMOVE_5():
    # given an adventurer whose attack hex is 1 step away
    target = hero("h", at(2, 0))
    # when the enemy with 2 hexes of movement moves
    moved = move(CORRIDOR, at(0, 0), 1, STRONGEST, [target])
    # then it stops there with movement left
    assert moved == [at(1, 0)]


@pytest.mark.rule("EMOVE-6")
@pytest.mark.rule("EMOVE-5")
def test_EX_11_an_enemy_stops_at_the_first_valid_destination_EMOVE_6():
    # given (EX-11) hex A one step away puts one adventurer in reach 2 and
    # hex B one step further would put two in reach
    one, two = hero("one", at(3, 0), 5, 0), hero("two", at(4, 0), 5, 1)
    heroes = [one, two]
    hex_a, hex_b = at(1, 0), at(2, 0)
    assert len(designate(CORRIDOR, hex_a, 2, STRONGEST, 0, heroes)) == 1
    assert len(designate(CORRIDOR, hex_b, 2, STRONGEST, 0, heroes)) == 2
    # when the enemy moves
    moved = move(CORRIDOR, at(0, 0), 2, STRONGEST, heroes)
    # then it stops on A
    assert moved == [hex_a]


@pytest.mark.rule("EMOVE-7")
def test_among_equally_near_destinations_the_priority_icon_chooses_EMOVE_7():
    # given a 3 HP adventurer on a west pad and a 7 HP one on the east pad
    west, east = hero("west", at(2, 0), 3, 0), hero("east", at(7, 0), 7, 1)
    # when a strongest-first and a weakest-first enemy move from the middle
    strongest = move(FORK, at(4, 1), 1, STRONGEST, [west, east])
    weakest = move(FORK, at(4, 1), 1, WEAKEST, [west, east])
    # then they part ways
    assert strongest == [at(5, 1), at(6, 1)]
    assert weakest == [at(3, 1), at(2, 1)]


@pytest.mark.rule("EMOVE-8")
def test_fully_tied_destinations_go_by_reading_order_EMOVE_8():
    # given one adventurer with two attack hexes equally near the enemy
    h = at(3, 3)
    upper, lower = (h[0] + 1, h[1]), (h[0], h[1] + 1)
    start = (h[0] + 2, h[1] + 1)
    target = hero("h", h)
    # when the enemy with reach 1 moves
    moved = move(OPEN, start, 1, STRONGEST, [target])
    # then the party's default choice is the hex first in reading order
    assert OPEN.range_distance(start, upper) == OPEN.range_distance(start, lower) == 2
    assert moved[-1] == upper


@pytest.mark.rule("EMOVE-9")
@pytest.mark.rule("EMOVE-7")
def test_EX_12_priority_not_the_number_of_targets_picks_the_destination_EMOVE_9():
    # given (EX-12) D1 reaches two adventurers, D2 one that outranks both
    pair = [hero("a", at(2, 0), 5, 0), hero("b", at(2, 2), 4, 1)]
    best = hero("best", at(7, 0), 9, 2)
    heroes = [*pair, best]
    d1, d2 = at(2, 1), at(6, 1)
    assert len(designate(FORK, d1, 1, STRONGEST, 0, heroes)) == 2
    assert len(designate(FORK, d2, 1, STRONGEST, 0, heroes)) == 1
    # when a strongest-first enemy chooses between the equally near D1 and D2
    moved = move(FORK, at(4, 1), 1, STRONGEST, heroes)
    # then it goes to D2
    assert moved[-1] == d2


def test_the_movers_own_hex_does_not_block_it():
    target = hero("h", at(5, 0))
    moved = plan_move(CORRIDOR, at(0, 0), 1, STRONGEST, [target], {at(0, 0), target.pos})
    assert moved == [at(1, 0), at(2, 0)]


# --- no valid destination (EMOVE-10) ------------------------------------------------


@pytest.mark.rule("EMOVE-10")
def test_with_no_valid_destination_an_enemy_closes_in_on_the_nearest_hostile_EMOVE_10():
    # given the only attack hex next to the adventurer holds another enemy
    target = hero("h", at(7, 0))
    ally = at(6, 0)
    # when the enemy with reach 1 moves
    moved = move(CORRIDOR, at(0, 0), 1, STRONGEST, [target], ally)
    # then it gets as close as its 2 hexes allow
    assert moved == [at(1, 0), at(2, 0)]


@pytest.mark.rule("EMOVE-10")
def test_an_enemy_closes_in_on_a_hostile_it_cannot_target_EMOVE_10():
    # given a hostile unit the caller left out of the targets (e.g. Stealth)
    hidden = hero("hidden", at(6, 0))
    # when the enemy moves with nothing to target
    moved = move(CORRIDOR, at(0, 0), 1, STRONGEST, [], hidden.pos, hostiles=[hidden])
    # then it still moves toward that unit
    assert moved == [at(1, 0), at(2, 0)]


@pytest.mark.rule("EMOVE-10")
def test_the_nearest_hostile_is_approached_whatever_its_priority_EMOVE_10():
    # given a weak adventurer 4 hexes west and a strong one 5 hexes east,
    # both walled in by other enemies
    weak, strong = hero("weak", at(0, 0), 1, 0), hero("strong", at(9, 0), 9, 1)
    walls = (at(1, 0), at(8, 0))
    # when a strongest-first enemy with reach 1 moves
    moved = move(CORRIDOR, at(4, 0), 1, STRONGEST, [weak, strong], *walls)
    # then it approaches the nearer one
    assert moved == [at(3, 0), at(2, 0)]


@pytest.mark.rule("EMOVE-10")
def test_equally_near_hostiles_are_chosen_by_priority_EMOVE_10():
    # given two walled-in adventurers 4 hexes either side
    weak, strong = hero("weak", at(0, 0), 1, 0), hero("strong", at(8, 0), 9, 1)
    walls = (at(1, 0), at(7, 0))
    # when enemies of each icon move
    strongest = move(CORRIDOR, at(4, 0), 1, STRONGEST, [weak, strong], *walls)
    weakest = move(CORRIDOR, at(4, 0), 1, WEAKEST, [weak, strong], *walls)
    # then each approaches the one its icon prefers
    assert strongest == [at(5, 0), at(6, 0)]
    assert weakest == [at(3, 0), at(2, 0)]


@pytest.mark.rule("EMOVE-10")
def test_equally_near_hostiles_it_cannot_target_are_chosen_by_its_priority_too_EMOVE_10():
    # given two walled-in adventurers 4 hexes either side, neither targetable
    # (Stealth, say): the enemy only approaches them (found by mutation testing)
    weak, strong = hero("weak", at(0, 0), 1, 0), hero("strong", at(8, 0), 9, 1)
    walls = (at(1, 0), at(7, 0), weak.pos, strong.pos)
    # when enemies of each icon move
    strongest = move(CORRIDOR, at(4, 0), 1, STRONGEST, [], *walls, hostiles=[weak, strong])
    weakest = move(CORRIDOR, at(4, 0), 1, WEAKEST, [], *walls, hostiles=[weak, strong])
    # then each approaches the one its icon prefers
    assert strongest == [at(5, 0), at(6, 0)]
    assert weakest == [at(3, 0), at(2, 0)]


@pytest.mark.rule("EMOVE-10")
def test_an_enemy_that_cannot_get_closer_stays_put_EMOVE_10():
    # given an enemy hemmed in by another enemy
    target = hero("h", at(3, 0))
    moved = move(CORRIDOR, at(0, 0), 1, STRONGEST, [target], at(1, 0))
    # then it does not move
    assert moved == []
    # and its plan still names the unit it approaches, ending where it stands
    occupied = units(at(0, 0), at(1, 0), target.pos)
    approach = move_plan(CORRIDOR, at(0, 0), 1, STRONGEST, [target], occupied).approach
    assert approach is not None and (approach.unit, approach.end) == (target, at(0, 0))


@pytest.mark.rule("EMOVE-10")
def test_an_enemy_with_no_hostile_in_any_range_stays_put_EMOVE_10():
    cut = board("AA#AA")
    target = hero("h", at(4, 0))
    assert move(cut, at(0, 0), 1, STRONGEST, [target]) == []
