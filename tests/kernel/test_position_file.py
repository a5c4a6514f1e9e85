"""A position file the kernel reads for every ruleset (issue 23): what it
refuses before any ruleset's own checks, each with its line and reason,
and nothing written. The positions are golden games' (Conquest's here: the
kernel's refusals do not depend on the ruleset)."""

from __future__ import annotations

import pytest
from position_help import changed, golden_position, refusal

from domain.kernel.position import codec
from domain.kernel.position.toml_text import dumps

LOG = "conquest-round-limit.jsonl"


@pytest.fixture(scope="module")
def position() -> tuple[str, str, str]:
    return golden_position(LOG, 40)


def test_a_file_that_is_not_toml_is_refused_at_its_line(position):
    ruleset, battle_id, text = position
    bad, line = changed(text, "turn = ", "turn == ")
    refused = refusal(ruleset, battle_id, bad)
    assert refused.line == line
    assert "not TOML" in refused.reason


def test_a_field_the_state_has_not_is_refused_at_its_line_naming_the_fields_there_are(position):
    ruleset, battle_id, text = position
    bad, line = changed(text, "turn = ", "turns = 3\nturn = ")
    refused = refusal(ruleset, battle_id, bad)
    assert refused.line == line
    assert refused.reason.startswith("game.turns: no such field") and "turn" in refused.reason


def test_a_value_of_the_wrong_type_is_refused_at_its_line(position):
    ruleset, battle_id, text = position
    bad, line = changed(
        text,
        "seed = ",
        'seed = "seven"\n# ',
    )
    refused = refusal(ruleset, battle_id, bad)
    assert refused.line == line
    assert refused.reason == "game.seed: a whole number, not 'seven'"


def test_a_word_outside_a_closed_list_is_refused_naming_the_words_there_are(position):
    ruleset, battle_id, text = position
    bad, line = changed(text, 'phase = "', 'phase = "lunch"\n# "')
    refused = refusal(ruleset, battle_id, bad)
    assert refused.line == line
    assert "'lunch' is not one of" in refused.reason


def test_another_rulesets_position_is_refused_at_its_ruleset(position):
    _, battle_id, text = position
    refused = refusal("labyrinth", battle_id, text)
    assert refused.line == text.splitlines().index('ruleset = "conquest"') + 1


def test_a_position_of_another_pack_is_refused_at_its_hash(position):
    ruleset, battle_id, text = position
    bad, line = changed(text, 'pack_hash = "', 'pack_hash = "0')
    refused = refusal(ruleset, battle_id, bad)
    assert refused.line == line
    assert "is not the hash of pack 'conquest-starter'" in refused.reason


def test_a_position_of_other_rules_is_refused_at_their_version(position):
    ruleset, battle_id, text = position
    bad, line = changed(text, 'rules_version = "', 'rules_version = "old-')
    assert refusal(ruleset, battle_id, bad).line == line


def test_a_position_without_its_game_or_its_header_is_refused(position):
    ruleset, battle_id, text = position
    assert "no [game] table" in refusal(ruleset, battle_id, text.split("[game]")[0]).reason
    assert "no [position] table" in refusal(ruleset, battle_id, text.replace("[position]", "[positio]")).reason


def test_a_game_stream_of_another_name_is_refused_at_its_battle_id(position):
    ruleset, battle_id, text = position
    assert refusal(ruleset, "elsewhere", text).line == text.splitlines().index(f'battle_id = "{battle_id}"') + 1


def test_a_value_left_out_takes_its_default_and_none_where_it_may_be_none():
    from domain.betrayal.battle.state import Foe

    foe = codec.from_plain({"id": "e1", "enemy": "bandit", "level": 1, "hp": 2, "max_hp": 3}, Foe)
    assert foe.pos is None and foe.marks == () and foe.quest is False
    assert codec.to_plain(foe, Foe) == {"id": "e1", "enemy": "bandit", "level": 1, "hp": 2, "max_hp": 3}


def test_the_toml_written_reads_back_to_the_same_values():
    import tomllib

    doc = {
        "a": 1,
        "b": 'two "quoted"\nlines',
        "c": [1, 2],
        "d": {"e": True, "f": [{"g": 1}, {"g": 2}]},
        "h": [{"i": {"j": 1}}, {"i": {"j": 2}}],
        "k key": [],
        "l": {},
    }
    assert tomllib.loads(dumps(doc)) == doc
