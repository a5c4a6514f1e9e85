"""What the rules always set is read as set, and a state that breaks that
is a bug, not a refusal: the narrowing helpers of the battle state raise
``InternalError``, which no adapter shows as a refused command."""

import pytest
from msgspec.structs import replace
from scenario import Scenario

from domain.betrayal.battle.commands import EndTurn
from domain.betrayal.battle.ruleset import BETRAYAL
from domain.kernel.errors import InternalError, MalformedCommand, RulekeeperError


def test_what_waits_in_a_phase_is_read_where_it_is_set():
    state = Scenario.clash().state
    hero = state.heroes[0]
    assert hero.at == hero.pos
    assert state.acting.hero == hero.id


@pytest.mark.parametrize("read", ["engage_waiting", "roll_waiting", "defense_waiting", "ally_acting", "final_outcome"])
def test_reading_as_set_what_the_state_has_not_is_an_internal_error(read):
    state = Scenario.clash().state  # nothing waits, no companion acts, the battle goes on
    with pytest.raises(InternalError):
        getattr(state, read)
    assert not issubclass(InternalError, RulekeeperError)


def test_an_adventurer_off_the_map_has_no_hex_to_read():
    hero = replace(Scenario.clash().state.heroes[0], pos=None, defeated=True)
    with pytest.raises(InternalError, match="not on the map"):
        hero.at


def test_a_setup_context_is_asked_for_a_setup_command_only():
    with pytest.raises(MalformedCommand, match="does not set up a battle"):
        BETRAYAL.setup_context(BETRAYAL.pack(), EndTurn())
