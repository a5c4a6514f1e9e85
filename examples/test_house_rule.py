"""A house rule, checked: at our table light Regiments never roll to
arrive, they march on from Round 1 (Conquest's Reinforcement Table, REINF-9,
is a fact a content pack may change; the rules themselves stay).

The house pack is the starter pack with one table row changed; the game
records its hash, plays, undoes and verifies with it."""

import pytest

from rulekeeper import ContentError, Rulekeeper, verify

ARMIES = {"scenario": "border-clash", "armies": ["saltmarch", "cinderpact"], "seed": 7}
STARTER_ROWS = '  [4, "no", "no"],\n  [4, 2, "no"],'
HOUSE_ROWS = '  ["auto", "no", "no"],\n  ["auto", 2, "no"],'


def house_pack(rows: str = HOUSE_ROWS) -> dict[str, bytes]:
    files = Rulekeeper.starter_pack("conquest")
    table = files["pack.toml"].decode()
    assert STARTER_ROWS in table, "the starter pack's Reinforcement Table changed: update the house rule"
    return {**files, "pack.toml": table.replace(STARTER_ROWS, rows).encode()}


def test_with_the_house_pack_light_regiments_arrive_without_a_roll(given):
    house = given.setup("conquest", **ARMIES, pack=house_pack())
    house.when("choose-arrival").then(
        "REINF-5: saltmarch: a1, a2, a3 will arrive (forced)",
        "ROUND-4: Reinforcement Phase: cinderpact to decide",
    )


def test_without_it_they_roll_as_the_rules_say(given):
    usual = given.setup("conquest", **ARMIES)
    usual.when("choose-arrival").then_cites("REINF-6", "REINF-8", "ROUND-4")


def test_a_house_game_undoes_exports_and_verifies_with_its_pack(rulekeeper):
    game = rulekeeper.new("conquest", **ARMIES, pack=house_pack())
    game.play("choose-arrival")
    game.undo()  # nothing was rolled: no force needed
    game.redo()
    assert game.verify().ok
    log = game.export()
    assert verify(log, pack=house_pack()).ok
    assert not verify(log).ok  # with the starter pack, the log is not the same game


def test_a_house_rule_the_rules_cannot_hold_is_refused_with_its_line():
    # Automatic arrival must stay automatic (REINF-5): a pack that takes it back is no pack.
    with pytest.raises(ContentError) as refused:
        Rulekeeper().new("conquest", **ARMIES, pack=house_pack('  ["auto", "no", "no"],\n  [4, 2, "no"],'))
    assert refused.value.file == "pack.toml" and refused.value.line == 12
