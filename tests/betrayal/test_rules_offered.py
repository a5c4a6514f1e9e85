"""What the table is offered (issue 24): nothing legal is a trap, and a
command says what it gives up.

An Engage that could roll no die and wields no Weapon is still legal
(ENGAGE-7: gathering and rolling is optional) but is not offered; the
Move, Engage and End Turn listed say what they give up (MOVE-3, TURN-6).
Ysolda (Nord) has no die a Magic Engage could roll."""

from __future__ import annotations

import pytest
from scenario import Scenario

from domain.betrayal.battle.commands import EndTurn, Engage, Move, Retreat
from domain.betrayal.battle.state import Phase
from domain.betrayal.battle.events import BattleEnded, DiceRolled, EngageDeclared
from domain.betrayal.ruleset import BETRAYAL
from domain.betrayal.vocab import BattleForm


def _gives_up(given: Scenario, command) -> list[tuple[str, str]]:
    legal = given.legal()
    assert command in legal or any(type(c) is type(command) for c in legal)
    return [(g.what, g.rule) for g in BETRAYAL.gives_up(given.state, given.ctx, command, legal)]


@pytest.mark.rule("ENGAGE-7")
def test_an_engage_that_would_roll_nothing_is_legal_but_not_offered():
    given = Scenario.clash().with_foe("e1", pos=(4, 4))
    then = given.when(Engage(form=BattleForm.MAGIC))  # the rules still take it (ENGAGE-7 is optional)
    then.then_has(EngageDeclared, hero="ysolda", form=BattleForm.MAGIC)
    then.then_lacks(DiceRolled)
    engages = [c for c in given.legal() if isinstance(c, Engage)]
    assert engages and all(c.dice or c.weapon for c in engages)
    assert BattleForm.MAGIC not in {c.form for c in engages}


@pytest.mark.rule("MOVE-3")
def test_a_second_move_says_it_gives_up_the_engage():
    given = Scenario.clash().with_foe("e1", pos=(4, 4)).when(Move(to=(1, 0))).next()
    second = next(c for c in given.legal() if isinstance(c, Move))
    assert ("your Engage this turn (a second Move)", "MOVE-3") in _gives_up(given, second)


@pytest.mark.rule("MOVE-3")
def test_a_first_move_gives_up_nothing_and_an_engage_gives_up_the_second_move():
    given = Scenario.clash().with_foe("e1", pos=(4, 4))
    first = next(c for c in given.legal() if isinstance(c, Move))
    assert _gives_up(given, first) == []
    engage = next(c for c in given.legal() if isinstance(c, Engage))
    assert _gives_up(given, engage) == [("a second Move this turn", "MOVE-3")]


@pytest.mark.rule("MOVE-3")
def test_once_engaged_a_move_gives_up_nothing_more():
    given = Scenario.clash().with_foe("e1", pos=(4, 4)).with_turn(engages=1)
    moves = [c for c in given.legal() if isinstance(c, Move)]
    assert moves and all(_gives_up(given, m) == [] for m in moves)


@pytest.mark.rule("TURN-6")
def test_ending_the_turn_says_which_actions_are_left_unused():
    given = Scenario.clash().with_foe("e1", pos=(4, 4))
    assert _gives_up(given, EndTurn()) == [("your unused Move, Engage", "TURN-6")]
    spent = given.with_turn(moves=2)
    assert _gives_up(spent, EndTurn()) == []


@pytest.mark.rule("RETREAT-2")
def test_a_retreat_says_it_gives_up_the_encounter_which_it_ends_at_once():
    given = Scenario.clash(xp=1).with_state(phase=Phase.END_OF_ROUND, turn=None)
    assert _gives_up(given, Retreat()) == [("the encounter: it ends at once", "RETREAT-2")]
    given.when(Retreat()).then_has(BattleEnded)  # as it says
