"""Conquest positions (issue 23): a position the rules cannot hold is
refused with its line and reason, and nothing is written. The position is
the golden conquest-round-limit battle's, in its first Action Phase."""

from __future__ import annotations

import pytest
from position_help import changed, golden_position, refusal


@pytest.fixture(scope="module")
def battle() -> tuple[str, str, str]:
    return golden_position("conquest-round-limit.jsonl", 40)


@pytest.mark.rule("CMD-2")
def test_a_command_card_twice_in_a_stack_is_refused_at_its_line(battle):
    ruleset, battle_id, text = battle
    bad, line = changed(text, 'stack = ["a2", "a3", "ac1"]', 'stack = ["a2", "a3", "a2"]')
    refused = refusal(ruleset, battle_id, bad)
    assert refused.line == line
    assert refused.reason == "game.sides[0].stack[2]: CMD-2: 'a2' is in the Command Stack twice"


@pytest.mark.rule("CMD-1")
def test_a_card_of_the_other_side_in_a_stack_is_refused(battle):
    ruleset, battle_id, text = battle
    bad, line = changed(text, 'stack = ["a2", "a3", "ac1"]', 'stack = ["a2", "a3", "b2"]')
    refused = refusal(ruleset, battle_id, bad)
    assert refused.line == line
    assert refused.reason.startswith("game.sides[0].stack[2]: CMD-1: 'b2' is no Command Card of side 0's")


def test_more_stands_than_the_army_list_gives_are_refused_at_their_line(battle):
    ruleset, battle_id, text = battle
    bad, line = changed(text, "stands = 4\n", "stands = 9\n")
    refused = refusal(ruleset, battle_id, bad)
    assert refused.line == line
    assert refused.reason == "game.regiments[0].stands: a1 has 9 stands; a Brine Spears has 0 to 4"


def test_an_unknown_army_is_refused_at_its_line(battle):
    ruleset, battle_id, text = battle
    bad, line = changed(text, 'army = "saltmarch"', 'army = "goblins"')
    refused = refusal(ruleset, battle_id, bad)
    assert refused.line == line
    assert refused.reason == "game.sides[0].army: no army 'goblins' in pack 'conquest-starter'"
