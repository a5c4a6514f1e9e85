"""Scenario tests of the Move action (MOVE-1 to MOVE-3, STAMINA-2) and how
Daze and Stealth bear on moving (facts: STATUS-1).

Waystone Crossing around the Entrance: Ysolda starts on (0, 0), whose only
neighbours are (1, 0) and (0, 1); (2, 3) and (5, 1) are obstacles."""

from __future__ import annotations

import pytest
from adventurer_arrange import chip, mark, restart_turn, skill, status_die
from scenario import Scenario

from domain.betrayal.battle.commands import EndTurn, Engage, Move, Resolve
from domain.betrayal.battle.events import DiceRolled, EngageDeclared, HeroMoved, HeroStatusLost
from domain.betrayal.vocab import BattleForm, Status
from domain.kernel.hexes import distance


def ysolda_alone() -> Scenario:
    """Ysolda (Nord, Stamina 2) on (0, 0), Tarn on (1, 0), e1 out of the way."""
    return Scenario.clash(party=("Ysolda:nord", "Tarn:dark-elf")).with_foe("e1", pos=(4, 4))


# --- MOVE-1 ----------------------------------------------------------------------


@pytest.mark.rule("MOVE-1")
def test_a_move_steps_through_adjacent_hexes_up_to_stamina():
    given = Scenario.clash().with_foe("e1", pos=(4, 4))
    then = given.when(Move(to=(2, 0)))
    then.then_has(HeroMoved, hero="ysolda", path=((1, 0), (2, 0)))
    assert then.state.hero("ysolda").pos == (2, 0)


@pytest.mark.rule("MOVE-1")
def test_a_hex_beyond_stamina_is_refused():
    given = Scenario.clash().with_foe("e1", pos=(4, 4))
    assert given.ctx.board.range_distance((0, 0), (3, 0)) == 3
    given.then_violates(Move(to=(3, 0)), "MOVE-1")


@pytest.mark.rule("MOVE-1")
@pytest.mark.rule("STAMINA-2")
def test_more_stamina_moves_further():
    given = Scenario.clash().with_foe("e1", pos=(4, 4)).with_hero("ysolda", stamina=3)
    then = given.when(Move(to=(3, 0)))
    then.then_has(HeroMoved, hero="ysolda", path=((1, 0), (2, 0), (3, 0)))


@pytest.mark.rule("MOVE-1")
def test_an_obstacle_hex_cannot_be_entered():
    given = Scenario.clash().with_hero("ysolda", pos=(1, 3))
    given.then_violates(Move(to=(2, 3)), "MOVE-1")


@pytest.mark.rule("MOVE-1")
@pytest.mark.parametrize("blocker", ["tarn", "e1"], ids=["ally", "enemy"])
def test_a_move_cannot_end_on_a_hex_holding_another_unit(blocker):
    given = ysolda_alone()
    given = given.with_hero("tarn", pos=(1, 0)) if blocker == "tarn" else given.with_foe("e1", pos=(1, 0))
    given.then_violates(Move(to=(1, 0)), "MOVE-1")


@pytest.mark.rule("MOVE-1")
@pytest.mark.parametrize("blocker", ["tarn", "e1"], ids=["ally", "enemy"])
def test_no_unit_is_passed_through_so_the_way_round_must_fit_in_stamina(blocker):
    # (1, 0) is held, so (2, 0) is 3 steps away by (0, 1), (1, 1)
    given = ysolda_alone().with_hero("tarn", pos=(4, 0))
    given = given.with_hero("tarn", pos=(1, 0)) if blocker == "tarn" else given.with_foe("e1", pos=(1, 0))
    given.then_violates(Move(to=(2, 0)), "MOVE-1")
    then = given.with_hero("ysolda", stamina=3).when(Move(to=(2, 0)))
    then.then_has(HeroMoved, hero="ysolda", path=((0, 1), (1, 1), (2, 0)))


@pytest.mark.rule("MOVE-1")
def test_moving_onto_your_own_hex_is_refused():
    error = Scenario.clash().then_violates(Move(to=(0, 0)), "MOVE-1")
    assert error.message == "you are already on that hex"


@pytest.mark.rule("MOVE-1")
def test_a_hex_off_the_map_cannot_be_moved_to():
    error = Scenario.clash().then_violates(Move(to=(-5, 0)), "MOVE-1")
    assert "not on this map" in error.message


@pytest.mark.rule("MOVE-1")
@pytest.mark.rule("STAMINA-2")
def test_the_legal_moves_are_the_free_hexes_within_stamina():
    given = ysolda_alone().with_hero("tarn", pos=(4, 0))
    moves = {c.to for c in given.legal() if isinstance(c, Move)}
    assert moves == {(1, 0), (0, 1), (2, 0), (1, 1), (0, 2), (-1, 2)}


# --- MOVE-2, MOVE-3 ----------------------------------------------------------------


@pytest.mark.rule("MOVE-2")
def test_two_moves_are_allowed_in_a_turn_without_engaging():
    given = ysolda_alone()
    first = given.when(Move(to=(0, 1))).next()
    second = first.when(Move(to=(0, 3)))
    second.then_has(HeroMoved, hero="ysolda", path=((0, 2), (0, 3)))
    assert second.state.turn.moves == 2


@pytest.mark.rule("MOVE-2")
def test_a_third_move_is_refused():
    given = ysolda_alone().with_turn(moves=2)
    given.then_violates(Move(to=(0, 1)), "MOVE-2")
    assert not [c for c in given.legal() if isinstance(c, Move)]


@pytest.mark.rule("MOVE-3")
def test_after_moving_twice_the_adventurer_cannot_engage():
    given = ysolda_alone().when(Move(to=(0, 1))).next().when(Move(to=(0, 2))).next()
    given.then_violates(Engage(form=BattleForm.LIGHT), "MOVE-3")
    assert not [c for c in given.legal() if isinstance(c, Engage)]


@pytest.mark.rule("MOVE-3")
def test_after_engaging_only_one_move_is_left():
    given = ysolda_alone().when(Engage(form=BattleForm.LIGHT)).next()
    moved = given.when(Move(to=(0, 1))).next()
    moved.then_violates(Move(to=(0, 2)), "MOVE-3")
    assert not [c for c in moved.legal() if isinstance(c, Move)]


# --- Daze (facts: STATUS-1): cannot move and roll dice in the same turn ----------


def dazed() -> Scenario:
    return ysolda_alone().with_hero("ysolda", track=(status_die(Status.DAZE),))


@pytest.mark.rule("STATUS-1")
def test_a_dazed_adventurer_who_rolled_dice_cannot_move():
    rolled = dazed().when(Engage(form=BattleForm.LIGHT, dice=(1,))).next().when(Resolve()).next()
    rolled.then_violates(Move(to=(0, 1)), "STATUS-1")


@pytest.mark.rule("STATUS-1")
def test_a_dazed_adventurer_who_moved_cannot_roll_dice():
    moved = dazed().when(Move(to=(0, 1))).next()
    moved.then_violates(Engage(form=BattleForm.LIGHT, dice=(1,)), "STATUS-1")


@pytest.mark.rule("STATUS-1")
def test_a_dazed_adventurer_who_moved_may_still_engage_without_dice():
    moved = dazed().when(Move(to=(0, 1))).next()
    then = moved.when(Engage(form=BattleForm.HEAVY))
    then.then_has(EngageDeclared, hero="ysolda", number=1, form=BattleForm.HEAVY)
    then.then_lacks(DiceRolled)


@pytest.mark.rule("STATUS-1")
def test_a_dazed_adventurer_may_move_twice_when_rolling_nothing():
    moved = dazed().when(Move(to=(0, 1))).next()
    moved.when(Move(to=(0, 3))).then_has(HeroMoved, hero="ysolda", path=((0, 2), (0, 3)))


@pytest.mark.rule("STATUS-1")
def test_without_daze_moving_then_rolling_is_allowed():
    moved = ysolda_alone().when(Move(to=(0, 1))).next()
    moved.when(Engage(form=BattleForm.LIGHT, dice=(1,))).then_has(DiceRolled, unit="ysolda")


@pytest.mark.rule("STATUS-1")
def test_daze_comes_off_at_the_end_of_the_dazed_adventurers_own_turn():
    given = Scenario.clash(party=("Ysolda:nord", "Tarn:dark-elf")).with_foe("e1", pos=(6, 5))
    given = given.with_hero("tarn", track=(skill(3, 1), skill(4, 1), status_die(Status.DAZE)))
    turn = given.when(EndTurn()).next()
    assert turn.state.turn.hero == "tarn" and turn.state.hero("tarn").track == (status_die(Status.DAZE),)
    after_turn = turn.when(EndTurn())
    after_turn.then_has(HeroStatusLost, hero="tarn", status=Status.DAZE, rule="STATUS-1", track=())


# --- Stealth (facts: STATUS-1): targetable only by units adjacent at turn start ----


def stealthy_foe(hero_at, foe_at) -> Scenario:
    """e1 (a Shore Crab) in Stealth from Ysolda's Shield Bash (uid 4)."""
    given = ysolda_alone().with_hero("tarn", pos=(0, 4)).with_hero("ysolda", pos=hero_at)
    given = given.with_foe("e1", pos=foe_at, marks=(mark(Status.STEALTH, 4),), **chip(given, "shore-crab"))
    return restart_turn(given)


@pytest.mark.rule("STATUS-1")
def test_moving_next_to_a_stealthed_enemy_does_not_make_it_targetable():
    given = stealthy_foe(hero_at=(1, 1), foe_at=(3, 1))
    moved = given.when(Move(to=(2, 1))).next()
    assert distance((2, 1), (3, 1)) == 1
    moved.then_violates(Engage(form=BattleForm.LIGHT, target="e1"), "STATUS-1")


@pytest.mark.rule("STATUS-1")
def test_an_enemy_without_stealth_is_targetable_after_moving_next_to_it():
    given = stealthy_foe(hero_at=(1, 1), foe_at=(3, 1)).with_foe("e1", marks=())
    moved = given.when(Move(to=(2, 1))).next()
    moved.when(Engage(form=BattleForm.LIGHT, target="e1")).then_has(EngageDeclared, target="e1")


@pytest.mark.rule("STATUS-1")
def test_an_adventurer_next_to_a_stealthed_enemy_at_turn_start_may_step_back_and_target_it():
    given = stealthy_foe(hero_at=(2, 1), foe_at=(3, 1))
    moved = given.when(Move(to=(1, 1))).next()
    assert given.ctx.board.range_distance((1, 1), (3, 1)) == 2
    moved.when(Engage(form=BattleForm.RANGED, target="e1")).then_has(
        EngageDeclared, target="e1", form=BattleForm.RANGED
    )
