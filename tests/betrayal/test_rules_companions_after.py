"""Companions and Hunter's Eye (RACE-WOOD-ELF; facts §2: a companion is a
valid choice; facts STATUS-1: Stealth), and at the end of a battle
(CLEANUP-3c: permanent companion chips, status dice and excess HP removed,
kept by their controller for later battles; STATUS-5)."""

from __future__ import annotations

import pytest
from companion_arrange import at_companions, clash, with_ally
from msgspec.structs import replace

from domain.betrayal.adventurer import aggregate as adv
from domain.betrayal.adventurer.events import CompanionsKept
from domain.betrayal.battle.commands import EndCompanionTurn, EndTurn, StartClash, UseRaceAbility
from domain.betrayal.battle.companions.events import (
    CompanionCleanedUp,
    CompanionJoined,
    CompanionStatusGained,
    CompanionStatusLost,
)
from domain.betrayal.battle.context import context_for
from domain.betrayal.battle.events import EnemyEngaged
from domain.betrayal.battle.evolve import replay
from domain.betrayal.battle.rules import decide
from domain.betrayal.battle.state import Outcome, Phase, Termination
from domain.betrayal.packs.load import starter_pack
from domain.betrayal.vocab import Status
from domain.kernel.hexes import distance

ELF = ("Faen:wood-elf",)


def _next_to(given, foe_id: str, away: int = 1):
    s = given.state
    taken = {u.pos for u in (*s.heroes, *s.foes, *s.companions) if u.pos is not None}
    foe = s.foe(foe_id).pos
    return next(
        h
        for h in given.ctx.board.all_hexes()
        if given.ctx.board.passable(h) and h not in taken and distance(h, foe) == away and given.ctx.board.sees(h, foe)
    )


# --- RACE-WOOD-ELF ----------------------------------------------------------------------------


@pytest.mark.rule("RACE-WOOD-ELF")
def test_hunters_eye_may_choose_a_companion_before_a_companion_s_turn_starts():
    given = at_companions(clash(companions=("fox:Faen",), party=ELF))
    legal = given.legal()
    assert any(isinstance(c, UseRaceAbility) for c in legal)  # before any unit's turn starts
    then = given.when(UseRaceAbility(hero="faen", targets=("faen", "fox")))
    then.then_has(CompanionStatusGained, companion="fox", status=Status.STEALTH, rule="RACE-WOOD-ELF")
    assert Status.STEALTH in then.state.companion("fox").statuses


@pytest.mark.rule("RACE-WOOD-ELF")
def test_hunters_eye_refuses_a_companion_not_deployed():
    given = with_ally(at_companions(clash(companions=("fox:Faen",), party=ELF)), "fox", pos=None)
    given.then_violates(UseRaceAbility(hero="faen", targets=("fox",)), "RACE-WOOD-ELF")


@pytest.mark.rule("RACE-WOOD-ELF")
def test_a_stealthy_companion_is_targeted_only_by_an_enemy_adjacent_at_its_turn_start():
    given = at_companions(clash(companions=("fox:Faen",), party=ELF, physical_dice=True, xp=4))
    shooter = next(f for f in given.state.foes if given.ctx.enemy(f.enemy).range >= 2)
    given = given.without_foes(shooter.id)
    spot = _next_to(given, shooter.id, away=2)  # in its reach without moving, but not adjacent
    far = max(
        (h for h in given.ctx.board.all_hexes() if given.ctx.board.passable(h)), key=lambda h: distance(h, shooter.pos)
    )
    given = with_ally(given.with_hero("faen", pos=far), "fox", pos=spot, statuses=(Status.STEALTH,))
    then = given.when(EndCompanionTurn(companion="fox"))
    assert not [e for e in then.of(EnemyEngaged) if "fox" in e.targets]
    plain = with_ally(given, "fox", statuses=())
    engaged = plain.when(EndCompanionTurn(companion="fox")).of(EnemyEngaged)
    assert any("fox" in e.targets for e in engaged)


@pytest.mark.rule("RACE-WOOD-ELF")
def test_a_companion_loses_stealth_once_it_deals_damage():
    from domain.betrayal.battle.commands import CompanionEngage

    given = at_companions(clash(companions=("golem:Faen",), party=ELF))
    given = with_ally(given, "golem", pos=_next_to(given, "e1"), statuses=(Status.STEALTH,))
    for seed in range(40):  # a seed whose roll deals damage
        tried = given.with_state(seed=seed)
        then = tried.when(CompanionEngage(companion="golem", targets=("e1",)))
        if then.of(CompanionStatusLost):
            then.then_has(CompanionStatusLost, companion="golem", status=Status.STEALTH, rule="STATUS-1")
            assert not then.state.companion("golem").statuses
            return
    raise AssertionError("no seed dealt damage")


# --- the end of the battle: CLEANUP-3c, STATUS-5 ----------------------------------------------


def _won(given):
    """The battle as its last round ends with every enemy defeated."""
    given = given.without_foes().with_state(phase=Phase.COMPANION_TURN, turn=None)
    return given.when(EndCompanionTurn(companion=given.state.companions[0].id))


@pytest.mark.rule("CLEANUP-3c")
def test_a_permanent_companion_leaves_the_battle_without_status_effects():
    given = with_ally(clash(companions=("archer:Ysolda",)), "archer", statuses=(Status.STEALTH,), hp=2)
    then = _won(given)
    assert then.state.outcome is Outcome.SUCCESS
    then.then_has(CompanionCleanedUp, companion="archer", hp=2, rule="CLEANUP-3c")
    assert then.state.companion("archer").statuses == ()


@pytest.mark.rule("STATUS-5")
def test_status_effects_on_a_companion_come_off_when_the_battle_ends():
    given = with_ally(clash(companions=("fox:Ysolda",)), "fox", statuses=(Status.STEALTH,))
    _won(given).then_has(CompanionCleanedUp, companion="fox", rule="STATUS-5")


@pytest.mark.rule("CLEANUP-3c")
def test_the_controller_keeps_a_permanent_companion_and_brings_it_to_the_next_battle():
    then = _won(clash(companions=("archer:Ysolda", "fox:Ysolda")))
    hero = then.state.hero("ysolda")
    ended = replace(then.state, outcome=Outcome.SUCCESS)  # the write-back reads a battle that has ended
    written = adv.concluded(ended, hero)
    kept = [e for e in written if isinstance(e, CompanionsKept)]
    assert [e.companions for e in kept] == [("archer",)]  # the fox is not permanent
    # the adventurer now holds it, and its next battle brings it without being told
    created = adv.create(starter_pack(), "adv-ysolda", "Ysolda", "nord", ())
    state = adv.evolve_adventurer(created.state, kept[0])
    assert state.companions == ("archer",)
    member = adv.member(state)
    cmd = StartClash(battle_id="next", setup="waystone-crossing", party=(member,), xp=1, seed=2)
    events = decide(None, cmd, context_for(starter_pack(), "waystone-crossing"))
    joined = [e.companion for e in events if isinstance(e, CompanionJoined)]
    assert [(a.chip, a.controller, a.carried, a.hp) for a in joined] == [("archer", "ysolda", True, 4)]
    # it comes back at full chip HP (facts §2), and nothing changes if it comes home again
    again = _won(scenario_of(events))
    assert not [e for e in adv.concluded(again.state, again.state.hero("ysolda")) if isinstance(e, CompanionsKept)]


@pytest.mark.rule("CLEANUP-3c")
def test_a_defeated_permanent_companion_leaves_its_controller_for_good():
    member = adv.member(
        adv.evolve_adventurer(
            adv.create(starter_pack(), "adv-ysolda", "Ysolda", "nord", ()).state,
            CompanionsKept(battle_id="b0", companions=("archer",)),
        )
    )
    cmd = StartClash(battle_id="b1", setup="waystone-crossing", party=(member,), xp=1, seed=2)
    given = scenario_of(decide(None, cmd, context_for(starter_pack(), "waystone-crossing")))
    given = with_ally(given, "archer", defeated=True, pos=None, hp=0)
    then = given.without_foes().with_state(phase=Phase.ADVENTURER_TURN).when(EndTurn())
    assert then.state.termination is Termination.OBJECTIVE_MET
    kept = [e for e in adv.concluded(then.state, then.state.hero("ysolda")) if isinstance(e, CompanionsKept)]
    assert [e.companions for e in kept] == [()]


def scenario_of(events):
    from scenario import Scenario

    return Scenario(replay(events), context_for(starter_pack(), "waystone-crossing"))
