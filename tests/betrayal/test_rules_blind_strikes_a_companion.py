"""A Blind adventurer treats every unit as opposing, companions included
(facts: STATUS-1, "treats every unit as opposing; when it engages it may
target only the strongest adjacent unit"), and damage an adventurer deals a
companion is pooled and lands whole, a chip having no Defense (facts:
ENGAGE-8c; facts §2, companions)."""

from __future__ import annotations

import pytest
from adventurer_arrange import only_foe, restart_turn, status_die
from companion_arrange import clash, with_ally

from domain.betrayal.battle.commands import Engage, Resolve
from domain.betrayal.battle.events import DamageDealt, EngageDeclared
from domain.betrayal.battle.rules import legal_commands
from domain.betrayal.vocab import BattleForm, Status

LIGHT = BattleForm.LIGHT
COMBAT_1 = 1  # the skill die's face that deals 1 Combat damage


def blind_beside_the_golem(golem_hp: int = 6):
    """Blind Ysolda on (2, 1); her Clay Sentinel (``golem_hp`` HP) on (1, 1);
    a Shore Crab (3 HP) on (3, 1): both adjacent to her."""
    given = clash(companions=("golem:Ysolda",), physical_dice=True)
    given = given.with_hero("ysolda", pos=(2, 1), track=(status_die(Status.BLIND),))
    given = only_foe(given, 1, "shore-crab").with_foe("e1", pos=(3, 1))
    given = with_ally(given, "golem", pos=(1, 1), hp=golem_hp)
    return restart_turn(given)


@pytest.mark.rule("STATUS-1")
def test_a_blind_adventurer_beside_a_stronger_companion_must_target_the_companion():
    given = blind_beside_the_golem()
    assert given.state.companion("golem").hp == 6 > given.state.foe("e1").hp == 3
    given.then_violates(Engage(form=LIGHT, target="e1"), "STATUS-1")
    given.when(Engage(form=LIGHT, target="golem")).then_has(EngageDeclared, target="golem")


@pytest.mark.rule("STATUS-1")
def test_a_blind_adventurer_beside_a_weaker_companion_may_not_target_it():
    given = blind_beside_the_golem(golem_hp=2)
    given.then_violates(Engage(form=LIGHT, target="golem"), "STATUS-1")
    given.when(Engage(form=LIGHT, target="e1")).then_has(EngageDeclared, target="e1")


@pytest.mark.rule("STATUS-1")
def test_the_companion_a_blind_adventurer_must_strike_is_among_the_legal_engages():
    given = blind_beside_the_golem()
    targets = {c.target for c in legal_commands(given.state, given.ctx) if isinstance(c, Engage)}
    assert "golem" in targets and "e1" not in targets


@pytest.mark.rule("STATUS-1")
def test_the_enemy_a_blind_adventurer_must_strike_beside_a_weaker_companion_is_among_the_legal_engages():
    given = blind_beside_the_golem(golem_hp=2)  # the crab (3 HP) is the strongest unit beside her
    targets = {c.target for c in legal_commands(given.state, given.ctx) if isinstance(c, Engage)}
    assert "e1" in targets and "golem" not in targets


@pytest.mark.rule("STATUS-1")
@pytest.mark.rule("ENGAGE-8c")
def test_a_blind_adventurers_blow_lands_whole_on_its_companion():
    given = blind_beside_the_golem()
    rolled = given.when(Engage(form=LIGHT, target="golem", dice=(1,), faces=(COMBAT_1,))).next()
    then = rolled.when(Resolve())
    hit = then.then_has(DamageDealt, target="golem", source="ysolda", rule="ENGAGE-8c")
    assert (hit.amount, hit.prevented, hit.to_hp) == (1, 0, 1)
    assert then.state.companion("golem").hp == 5
