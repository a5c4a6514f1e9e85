"""The Conquest starter pack loads and bad content is refused, naming file,
field and reason."""

from __future__ import annotations

import pytest

from domain.conquest.catalog import AUTO, NO
from domain.conquest.packs import parse_pack, starter_files, starter_pack
from domain.conquest.vocab import AbilityKind, RegimentClass
from domain.kernel.errors import ContentError


def test_the_starter_pack_loads_with_an_id_and_a_content_hash():
    pack = starter_pack()
    assert pack.id == "conquest-starter" and len(pack.hash) == 32
    assert parse_pack(starter_files()).hash == pack.hash
    assert {a.kind for a in pack.abilities.values()} == set(AbilityKind)
    for army in pack.armies.values():
        assert {r.cls for r in army.regiments} == set(RegimentClass) and len(army.characters) >= 2


@pytest.mark.rule("REINF-9")
def test_the_reinforcement_table_is_the_facts_default_and_the_last_row_holds_later():
    pack = starter_pack()
    assert pack.cell(1, RegimentClass.LIGHT) == 4 and pack.cell(1, RegimentClass.MEDIUM) == NO
    assert pack.cell(3, RegimentClass.LIGHT) == AUTO and pack.cell(9, RegimentClass.HEAVY) == AUTO


def _broken(file: str, old: bytes, new: bytes) -> ContentError:
    files = starter_files()
    assert old in files[file]
    files[file] = files[file].replace(old, new, 1)
    with pytest.raises(ContentError) as caught:
        parse_pack(files)
    return caught.value


@pytest.mark.parametrize(
    "file, old, new, field, reason",
    [
        ("pack.toml", b'[4, "no", "no"]', b'[4, "no", "never"]', "reinforcement[0][2]", "a cell is"),
        ("pack.toml", b'["auto", "auto", "auto"]', b'["auto", "auto", "no"]', "reinforcement[4]", "no cell"),
        ("pack.toml", b'["auto", "auto", 4]', b'[4, "auto", 4]', "reinforcement[3][0]", "stays automatic"),
        ("pack.toml", b"rounds = 10", b'rounds = "ten"', "scenarios.border-clash.rounds", "integer"),
        ("pack.toml", b'kind = "always"', b'kind = "sometimes"', "abilities.deep-reserves.kind", "unknown value"),
        (
            "pack.toml",
            b'effect = "march-bonus"\namount = 3',
            b'effect = "reinforcement-bonus"\namount = 3',
            "abilities.kindled-fury.effect",
            "march-bonus",
        ),
        (
            "armies.toml",
            b'class = "light"',
            b'class = "huge"',
            "armies.saltmarch.regiments.brine-spears.class",
            "unknown",
        ),
        ("armies.toml", b"depth = 5\n", b"depth = 9\n", "armies.cinderpact.regiments.forge-colossus.depth", "exceeds"),
        ("armies.toml", b'warlord = "tide-warden"', b'warlord = "sea-king"', "armies.saltmarch.warlord", "SUP-5"),
        (
            "armies.toml",
            b'abilities = ["deep-reserves"]',
            b'abilities = ["deep-sleep"]',
            "armies.saltmarch.characters.tide-warden.abilities[0]",
            "unknown Supremacy Ability",
        ),
        (
            "armies.toml",
            b"stands = 4\nmarch = 6",
            b"stand = 4\nmarch = 6",
            "armies.saltmarch.regiments.brine-spears.stand",
            "unknown key",
        ),
    ],
)
def test_bad_content_is_refused_naming_file_field_and_reason(file, old, new, field, reason):
    error = _broken(file, old, new)
    assert (error.file, error.field) == (file, field) and reason in error.reason


def test_a_missing_file_and_a_syntax_error_are_refused():
    files = starter_files()
    del files["armies.toml"]
    with pytest.raises(ContentError) as caught:
        parse_pack(files)
    assert caught.value.file == "armies.toml"
    error = _broken("pack.toml", b'id = "conquest-starter"', b'id = = "x"')
    assert error.file == "pack.toml" and "syntax" in error.reason
