"""Labyrinth positions (issue 23): a position the rules cannot hold is
refused with its line and reason, and nothing is written. The position is
the golden labyrinth-won battle's, in its second turn."""

from __future__ import annotations

import pytest
from position_help import changed, golden_position, refusal


@pytest.fixture(scope="module")
def battle() -> tuple[str, str, str]:
    return golden_position("labyrinth-won.jsonl", 100)


@pytest.mark.rule("BUFF-MAXHP-UP")
def test_hp_over_the_maximum_is_refused_at_its_line(battle):
    ruleset, battle_id, text = battle
    bad, line = changed(text, "hp = 6\n", "hp = 13\n")
    refused = refusal(ruleset, battle_id, bad)
    assert refused.line == line
    assert refused.reason == "game.combatants[0].hp: p1 has 13 HP; it holds at most 12 (BUFF-MAXHP-UP)"


@pytest.mark.rule("BUFF-MAXHP-UP")
def test_a_max_hp_up_buff_raises_what_a_position_may_hold(battle):
    ruleset, battle_id, text = battle
    bad, _ = changed(text, "hp = 6\n", 'hp = 13\nbuffs = [{kind = "maxhp-up", amount = 2}]\n')
    assert "it holds at most 14" in refusal(ruleset, battle_id, bad.replace("hp = 13\n", "hp = 15\n", 1)).reason
    from domain.kernel.games import GameApp
    from domain.kernel.position.messages import StartFromPosition

    with GameApp("memory") as app:
        app.start(ruleset, StartFromPosition(position=bad), battle_id=battle_id)
        assert app.battle(battle_id).state.combatants[0].hp == 13


def test_two_combatants_in_one_place_are_refused_at_the_second(battle):
    ruleset, battle_id, text = battle
    bad, line = changed(text, "order = 2\n", "order = 1\n")
    refused = refusal(ruleset, battle_id, bad)
    assert refused.line == line
    assert refused.reason == "game.combatants[1].order: p2 stands in the front row at 1, where p1 is"


def test_an_unknown_skill_is_refused_at_its_line(battle):
    ruleset, battle_id, text = battle
    bad, line = changed(text, '"riposte"', '"moonbeam"')
    refused = refusal(ruleset, battle_id, bad)
    assert refused.line == line
    assert refused.reason == "game.combatants[0].skills[1]: p1: no skill 'moonbeam' in pack 'labyrinth-starter'"


@pytest.mark.rule("SCALE-1")
def test_more_than_six_a_side_are_refused(battle):
    ruleset, battle_id, text = battle
    first = text.index("[[game.combatants]]")
    second = text.index("[[game.combatants]]", first + 1)
    one = text[first:second]
    extra = "".join(
        one.replace('id = "p1"', f'id = "p{n}"').replace("order = 1\n", f"order = {n}\n") for n in range(5, 8)
    )
    bad = text[:first] + one + extra + text[second:]
    refused = refusal(ruleset, battle_id, bad)
    assert refused.reason == "game.combatants: SCALE-1: 7 combatants on the party side; a battle is at most 6 a side"
