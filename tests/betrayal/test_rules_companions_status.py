"""Status effects on companions (facts: STATUS-1, one of each at a time;
ESKILL-3: an enemy's skill acts on each target it damages, a companion
too; STATUS-5 is in test_rules_companions_after.py)."""

from __future__ import annotations

import pytest
from adventurer_arrange import mark
from companion_arrange import at_companions, clash, with_ally

from domain.betrayal.battle.commands import CompanionEngage, CompanionMove, EndCompanionTurn, RollEnemyDice
from domain.betrayal.battle.companions.events import CompanionStatusGained, CompanionStatusLost
from domain.betrayal.battle.events import DamageDealt, DiceRolled, EnemyEngaged
from domain.betrayal.vocab import Status
from domain.kernel.hexes import distance

TWO_DAMAGE = 5  # the enemy die's face that deals 2 (ENEMY_DIE_FACES)
ONE_DAMAGE = 2


def _free(given, near, away: int = 1):
    s = given.state
    taken = {u.pos for u in (*s.heroes, *s.foes, *s.companions) if u.pos is not None}
    return next(
        h
        for h in given.ctx.board.all_hexes()
        if given.ctx.board.passable(h)
        and h not in taken
        and distance(h, near) == away
        and given.ctx.board.sees(h, near)
    )


def _far(given, pos):
    return max((h for h in given.ctx.board.all_hexes() if given.ctx.board.passable(h)), key=lambda h: distance(h, pos))


def _beside_e1(companion: str, *statuses: Status):
    """The Companion Turns step, ``companion`` next to e1 with ``statuses``,
    the adventurer far away, dice typed."""
    given = at_companions(clash(companions=(f"{companion}:Ysolda",), physical_dice=True))
    e1 = given.state.foe("e1").pos
    given = given.with_hero("ysolda", pos=_far(given, e1))
    return with_ally(given, companion, pos=_free(given, e1), statuses=tuple(statuses))


@pytest.mark.rule("ESKILL-3")
@pytest.mark.rule("STATUS-1")
def test_an_enemy_skill_puts_its_status_on_a_companion_it_damages():
    given = _beside_e1("golem").with_foe("e1", enemy="tunnel-rat")  # venom: Bane on whom it damages
    then = given.when(EndCompanionTurn(companion="golem"))
    then.then_has(EnemyEngaged, foe="e1", targets=("golem",))
    struck = then.next().when(RollEnemyDice(faces=(TWO_DAMAGE,)))
    struck.then_has(CompanionStatusGained, companion="golem", status=Status.BANE, rule="ESKILL-3")
    assert struck.state.companion("golem").statuses == (Status.BANE,)


@pytest.mark.rule("STATUS-1")
def test_bane_deals_a_companion_one_true_damage_as_its_turn_starts():
    given = _beside_e1("golem", Status.BANE)
    then = given.when(EndCompanionTurn(companion="golem"))
    then.then_has(DamageDealt, target="golem", amount=1, true_damage=True, rule="STATUS-1")


@pytest.mark.rule("STATUS-1")
def test_a_companion_felled_by_bane_can_only_end_its_turn():
    given = with_ally(_beside_e1("fox", Status.BANE), "fox", hp=1)
    given.then_violates(CompanionEngage(companion="fox", targets=("e1",), faces=(0,)), "STATUS-1")
    given.when(EndCompanionTurn(companion="fox")).then_has(DamageDealt, target="fox", hp=0)


@pytest.mark.rule("STATUS-1")
def test_a_dazed_companion_cannot_move_and_roll_in_one_turn_and_daze_comes_off_at_its_end():
    given = _beside_e1("golem", Status.DAZE)
    golem = given.state.companion("golem")
    s = given.state
    taken = {u.pos for u in (*s.heroes, *s.foes)}
    step = next(
        h
        for h, n in given.ctx.board.reachable(golem.pos, taken, 1).items()
        if n == 1 and distance(h, s.foe("e1").pos) == 1
    )
    moved = given.when(CompanionMove(companion="golem", to=step)).next()
    refused = moved.then_violates(CompanionEngage(targets=("e1",), faces=(0, 0)), "STATUS-1")
    assert refused.message == "Clay Sentinel is dazed: it cannot move and roll dice in the same turn"
    ended = moved.when(EndCompanionTurn())
    ended.then_has(CompanionStatusLost, companion="golem", status=Status.DAZE, rule="STATUS-1")
    # without moving it may roll
    given.when(CompanionEngage(companion="golem", targets=("e1",), faces=(0, 0)))


@pytest.mark.rule("STATUS-1")
def test_maim_halves_a_companion_s_damage_rounding_down():
    plain = _beside_e1("fox").when(CompanionEngage(companion="fox", targets=("e1",), faces=(TWO_DAMAGE,)))
    maimed = _beside_e1("fox", Status.MAIM).when(CompanionEngage(companion="fox", targets=("e1",), faces=(TWO_DAMAGE,)))
    plain.then_has(DamageDealt, target="e1", amount=2)
    maimed.then_has(DamageDealt, target="e1", amount=1)


@pytest.mark.rule("STATUS-1")
def test_fear_silences_a_companion_s_skills():
    brutal = _beside_e1("golem").when(CompanionEngage(companion="golem", targets=("e1",), faces=(ONE_DAMAGE, 0)))
    feared = _beside_e1("golem", Status.FEAR).when(
        CompanionEngage(companion="golem", targets=("e1",), faces=(ONE_DAMAGE, 0))
    )
    brutal.then_has(DamageDealt, target="e1", amount=2)  # 1 rolled, +1 brutal
    feared.then_has(DamageDealt, target="e1", amount=1)


@pytest.mark.rule("ROUND-6")
@pytest.mark.rule("ENGAGE-8c")
def test_a_true_strike_companion_deals_true_damage_that_its_target_s_defense_does_not_prevent():
    """A companion's true-strike skill (facts §2: its damage is true damage,
    ENGAGE-8c) against an enemy of Defense 1; the same engage without the
    skill loses 1 to that Defense (found by mutation testing)."""
    given = _beside_e1("golem").with_foe("e1", enemy="bandit-bruiser")  # Defense 1
    hp = given.state.foe("e1").hp
    engage = CompanionEngage(companion="golem", targets=("e1",), faces=(TWO_DAMAGE, 0))
    true = with_ally(given, "golem", skills=("true-strike",)).when(engage)
    true.then_has(DamageDealt, source="golem", target="e1", amount=2, prevented=0, true_damage=True, to_hp=2)
    assert true.state.foe("e1").hp == hp - 2
    plain = with_ally(given, "golem", skills=()).when(engage)
    plain.then_has(DamageDealt, source="golem", target="e1", amount=2, prevented=1, true_damage=False, to_hp=1)


@pytest.mark.rule("STATUS-1")
def test_a_blind_companion_may_target_only_the_strongest_adjacent_unit_even_an_ally():
    given = _beside_e1("golem", Status.BLIND)
    golem = given.state.companion("golem")
    ally_spot = _free(given, golem.pos)
    given = given.with_hero("ysolda", pos=ally_spot)  # 4 HP next to it, stronger than e1's 2
    given.then_violates(CompanionEngage(companion="golem", targets=("e1",), faces=(0, 0)), "STATUS-1")
    then = given.when(CompanionEngage(companion="golem", targets=("ysolda",), faces=(ONE_DAMAGE, 0)))
    then.then_has(DamageDealt, target="ysolda", source="golem", rule="ROUND-6")


@pytest.mark.rule("END-1c")
def test_a_blind_companion_felling_the_last_adventurer_ends_the_round_and_the_battle():
    given = at_companions(clash(companions=("golem:Ysolda", "fox:Ysolda"), physical_dice=True))
    golem = given.state.companion("golem")
    assert distance(given.state.foe("e1").pos, golem.pos) > 1  # Ysolda will be the one unit beside it
    given = with_ally(given, "fox", pos=_far(given, golem.pos))
    given = given.with_hero("ysolda", pos=_free(given, golem.pos), hp=1)
    given = with_ally(given, "golem", statuses=(Status.BLIND,))
    then = given.when(CompanionEngage(companion="golem", targets=("ysolda",), faces=(ONE_DAMAGE, 0)))
    assert then.state.hero("ysolda").defeated
    assert then.state.phase.value == "ended"  # the fox's turn is skipped (facts default for END-1c)
    assert then.state.companion("fox").withdrawn


@pytest.mark.rule("STATUS-1")
def test_a_companion_not_beside_a_stealthy_enemy_as_its_turn_began_may_not_target_it_and_is_told_why():
    # the Wayward Archer (range 3) two hexes from e1, which is in Stealth
    given = at_companions(clash(companions=("archer:Ysolda",), physical_dice=True))
    e1 = given.state.foe("e1").pos
    given = given.with_hero("ysolda", pos=_far(given, e1)).with_foe("e1", marks=(mark(Status.STEALTH, 2),))
    away = with_ally(given, "archer", pos=_free(given, e1, away=2))
    refused = away.then_violates(CompanionEngage(companion="archer", targets=("e1",), faces=(0, 0)), "STATUS-1")
    assert refused.message == "e1 is in Stealth: only units adjacent to it when the turn began may target it"
    # beside it as its turn begins, it may
    beside = with_ally(given, "archer", pos=_free(given, e1))
    beside.when(CompanionEngage(companion="archer", targets=("e1",), faces=(0, 0))).then_has(DiceRolled, unit="archer")


@pytest.mark.rule("STATUS-1")
@pytest.mark.rule("ROUND-6")
def test_a_blind_companion_whose_one_neighbour_is_another_companion_strikes_it():
    given = at_companions(clash(companions=("golem:Ysolda", "fox:Ysolda"), physical_dice=True))
    golem = given.state.companion("golem")
    given = given.with_hero("ysolda", pos=_far(given, golem.pos))
    given = with_ally(given, "golem", pos=_far(given, given.state.foe("e1").pos), statuses=(Status.BLIND,))
    golem = given.state.companion("golem")
    assert all(distance(f.pos, golem.pos) > 1 for f in given.state.foes if f.pos is not None)
    given = with_ally(given, "fox", pos=_free(given, golem.pos))
    hp = given.state.companion("fox").hp
    then = given.when(CompanionEngage(companion="golem", targets=("fox",), faces=(ONE_DAMAGE, 0)))
    then.then_has(DamageDealt, target="fox", source="golem", rule="ROUND-6")
    assert then.state.companion("fox").hp < hp
