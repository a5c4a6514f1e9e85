"""A dispute replayed from a log: in the Waystone Crossing battle (the
golden log won-waystone-crossing.jsonl), Tarn shot the Shore Crab from two
hexes away. The other side of the table says he was too far; Tarn's
player says he could have charged it with his axe anyway. Both are
settled by the log and the rules, without replaying a thing by hand."""

import pytest

from rulekeeper import Rulekeeper

LOG = "won-waystone-crossing.jsonl"
DISPUTED = "rk engage --form ranged --target e1 --dice 1,2"


@pytest.fixture
def battle(golden_log):
    """The battle of the log, in a store of its own (the test's store stays free to load it too)."""
    with Rulekeeper() as keeper:
        yield keeper.load(golden_log(LOG).path)


def disputed_step(battle):
    return next(step for step in battle.history() if step.line == DISPUTED)


def test_the_log_holds_under_the_current_rules(golden_log):
    report = golden_log(LOG).verify()
    assert report.ok, report.summary()


def test_the_shot_was_legal_where_it_was_taken(battle):
    moment = battle.at(disputed_step(battle).before)
    assert moment.refusal(DISPUTED.removeprefix("rk ")) is None
    assert DISPUTED.removeprefix("rk ") in moment.legal_lines()


def test_the_axe_would_not_have_reached(battle):
    moment = battle.at(disputed_step(battle).before)
    refused = moment.refusal("engage --form heavy --target e1 --dice 1,2")
    assert refused is not None and refused.rule == "FORM-4"


def test_played_again_from_that_moment_the_shot_rolls_as_recorded(given, golden_log, battle):
    step = disputed_step(battle)
    recorded = battle.lines()[step.before + 1 : step.after]  # its events' lines, after the command's own
    again = given.log(golden_log(LOG).path, at=step.before)  # imported, then undone back to that moment
    again.when(DISPUTED.removeprefix("rk ")).then(*recorded)
