"""Hunter's Eye before an enemy's turn (RACE-WOOD-ELF): an enemy's turn
starts without waiting for a command, so a Wood Elf readies the ability on
its own turn (``arm``) and it acts before the next enemy's turn starts.
Its use at an adventurer's turn start or at the end of a round is tested in
test_rules_race.py."""

from __future__ import annotations

import pytest
from scenario import Scenario

from domain.betrayal.battle.commands import EndTurn, Move, UseRaceAbility
from domain.betrayal.battle.events import EnemyTurnStarted, HeroStatusGained, HuntersEyeArmed, RaceAbilityUsed
from domain.betrayal.battle.rules import legal_commands
from domain.betrayal.vocab import Status
from domain.kernel.errors import MalformedCommand

ARM = UseRaceAbility(targets=("faen", "ysolda"), arm=True)


def clash(*party: str) -> Scenario:
    return Scenario.clash(party=party, physical_dice=True)


def moved(*party: str) -> Scenario:
    """Faen, first in turn order, has moved: its turn is under way."""
    if len(party) < 3:
        return clash(*party).when(Move(to=(1, 1))).next()
    return clash(*party).with_turn(moves=1)  # boxed in at the Entrance: as if it had moved


def stealthy(state, hero: str) -> bool:
    return Status.STEALTH in {t.status for t in state.hero(hero).track}


@pytest.mark.rule("RACE-WOOD-ELF")
def test_hunters_eye_readied_on_your_turn_acts_before_the_next_enemy_turn_starts():
    given = moved("Faen:wood-elf", "Ysolda:nord")
    armed = given.when(ARM)
    armed.then_has(HuntersEyeArmed, hero="faen", targets=("faen", "ysolda"), rule="RACE-WOOD-ELF")
    armed.then_lacks(HeroStatusGained)
    assert not stealthy(armed.state, "faen")
    then = armed.next().when(EndTurn()).next().when(EndTurn())  # Ysolda's turn ends: the enemies' turns
    kinds = [type(e) for e in then.events if isinstance(e, (RaceAbilityUsed, HeroStatusGained, EnemyTurnStarted))]
    assert kinds[:4] == [RaceAbilityUsed, HeroStatusGained, HeroStatusGained, EnemyTurnStarted]
    assert kinds.count(RaceAbilityUsed) == 1  # once per battle: not again before the next enemy
    then.then_has(RaceAbilityUsed, hero="faen", rule="RACE-WOOD-ELF")
    assert stealthy(then.state, "faen") and stealthy(then.state, "ysolda")
    assert then.state.hero("faen").race_used


@pytest.mark.rule("RACE-WOOD-ELF")
def test_hunters_eye_is_readied_only_on_your_own_turn_once_and_with_two_targets_at_most():
    given = moved("Faen:wood-elf", "Ysolda:nord", "Tam:orc")
    assert UseRaceAbility(targets=("faen", "ysolda"), arm=True) in legal_commands(given.state, given.ctx)
    given.then_violates(UseRaceAbility(targets=("faen", "ysolda", "tam"), arm=True), "RACE-WOOD-ELF")
    armed = given.when(ARM).next()
    armed.then_violates(ARM, "RACE-WOOD-ELF")
    assert ARM not in legal_commands(armed.state, armed.ctx)
    others = clash("Ysolda:nord", "Faen:wood-elf")  # Ysolda's turn
    others.then_violates(UseRaceAbility(hero="faen", targets=("faen",), arm=True), "RACE-WOOD-ELF")
    with pytest.raises(MalformedCommand):  # only Hunter's Eye is readied this way
        others.when(UseRaceAbility(arm=True))
