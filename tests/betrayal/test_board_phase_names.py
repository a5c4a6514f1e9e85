"""Every phase of a battle has the name the round sequence gives its step
(ROUND-5 to ROUND-8), which the table shows instead of the phase's id."""

from __future__ import annotations

import pytest

from domain.betrayal.battle.state import Phase
from domain.betrayal.table.board_view import PHASE_NAMES


def test_every_phase_is_named_by_its_step_of_the_round():
    assert set(PHASE_NAMES) == set(Phase)
    assert PHASE_NAMES[Phase.ADVENTURER_TURN] == "Adventurer Turns"
    assert PHASE_NAMES[Phase.COMPANION_TURN] == "Companion Turns"
    assert PHASE_NAMES[Phase.ENEMY_ROLL].startswith("Enemy Turns")
    assert PHASE_NAMES[Phase.END_OF_ROUND] == "End of Round"
    assert not any("-" in name for name in PHASE_NAMES.values())


@pytest.mark.rule("ROUND-5")
def test_an_adventurers_move_out_of_its_step_is_refused_naming_the_step_in_players_words():
    from companion_arrange import at_companions, clash

    from domain.betrayal.battle.commands import Move

    given = at_companions(clash())
    refused = given.then_violates(Move(to=(2, 2)), "ROUND-5")
    assert str(refused).endswith("it is not an adventurer's turn (now: Companion Turns)")
