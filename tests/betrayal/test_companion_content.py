"""Companion chips as content (ROUND-6, CLEANUP-3c; facts §2): what the
starter pack holds and how a malformed companions.toml is refused, naming
its line, field and reason."""

from __future__ import annotations

from importlib import resources

import pytest

from domain.betrayal.packs.companions import COMPANION_MOVE, CompanionSkill
from domain.betrayal.packs.load import ALL_FILES, EXTRA_FILES, parse_pack, starter_pack
from domain.kernel.errors import ContentError


def starter_files() -> dict[str, bytes]:
    content = resources.files("domain.betrayal.content")
    return {name: content.joinpath(name).read_bytes() for name in ALL_FILES + EXTRA_FILES}


def with_companions(text: str) -> dict[str, bytes]:
    files = starter_files()
    files["companions.toml"] = text.encode()
    return files


def refused(text: str) -> ContentError:
    with pytest.raises(ContentError) as caught:
        parse_pack(with_companions(text))
    return caught.value


GOOD = '[[companions]]\nid = "hound"\nname = "A Hound"\nhp = 3\ncombat = 1\nrange = 1\n'


@pytest.mark.rule("ROUND-6")
def test_the_starter_pack_has_companion_chips_with_hp_combat_range_targets_and_move():
    chips = starter_pack().companions
    assert len(chips) >= 2
    for chip in chips.values():
        assert chip.hp >= 1 and chip.combat >= 0 and chip.range >= 1 and chip.targets >= 1
        assert chip.move == COMPANION_MOVE
    assert CompanionSkill.BRUTAL in chips["golem"].skills


@pytest.mark.rule("CLEANUP-3c")
def test_a_companion_chip_may_be_permanent():
    assert starter_pack().companions["archer"].permanent
    assert not starter_pack().companions["fox"].permanent


def test_a_chip_defaults_to_one_target_a_move_of_two_and_no_skills():
    chip = parse_pack(with_companions(GOOD)).companions["hound"]
    assert (chip.targets, chip.move, chip.skills, chip.permanent) == (1, 2, (), False)


def test_the_companions_file_changes_no_pack_hash_so_old_logs_still_play():
    plain = {n: b for n, b in starter_files().items() if n != "companions.toml"}
    before, after = parse_pack(plain), parse_pack(with_companions(GOOD))
    assert (before.hash, before.delve_hash, before.campaign_hash) == (after.hash, after.delve_hash, after.campaign_hash)
    assert before.companions == {}


def test_a_missing_hp_is_refused_naming_the_field():
    error = refused('[[companions]]\nid = "hound"\nname = "A Hound"\ncombat = 1\nrange = 1\n')
    assert (error.file, error.field) == ("companions.toml", "companions[0].hp")
    assert "required" in error.reason


def test_a_move_beyond_two_hexes_is_refused_on_its_line():
    error = refused(GOOD + "move = 3\n")
    assert error.file == "companions.toml" and error.line == 7
    assert "from 0 to 2" in error.reason


def test_an_unknown_skill_is_refused_with_the_skills_allowed():
    error = refused(GOOD + 'skills = ["fly"]\n')
    assert error.field == "companions[0].skills[0]"
    assert "brutal" in error.reason


def test_a_skill_named_twice_is_refused():
    error = refused(GOOD + 'skills = ["brutal", "brutal"]\n')
    assert error.field == "companions[0].skills" and "twice" in error.reason


def test_two_chips_with_one_id_are_refused():
    error = refused(GOOD + GOOD)
    assert error.field == "companions[1].id" and "duplicate" in error.reason


def test_an_unknown_key_is_refused_with_a_suggestion():
    error = refused(GOOD + "hpp = 2\n")
    assert "did you mean 'hp'?" in error.reason
