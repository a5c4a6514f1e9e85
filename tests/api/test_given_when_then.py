"""Given / when / then (``rulekeeper.testing``) on its own: each check
passes on what happened and fails, saying what happened, on anything else."""

from __future__ import annotations

import pytest

from rulekeeper import Rulekeeper
from rulekeeper.testing import Given

CLASH = {"setup": "waystone-crossing", "party": [{"name": "Ria", "race": "nord"}], "seed": 1}
MOVED = "MOVE-1: Ria moves a1 → b1 → b2"
FAILED = (AssertionError, pytest.fail.Exception)


@pytest.fixture
def start():
    with Rulekeeper() as keeper:
        yield Given(keeper).setup("clash", **CLASH)


def test_then_takes_lines_prefixes_classes_and_events(start):
    then = start.when("move b2")
    (event,) = then.events
    then.then(MOVED).then("MOVE-1: Ria moves...").then(type(event)).then(event)
    with pytest.raises(FAILED, match="the events differ"):
        then.then(MOVED, MOVED)


def test_then_has_finds_events_in_order_among_others(start):
    then = start.after("move b2").when("engage --form heavy --target e1 --dice 1,2")
    then.then_has("Ria engages in heavy form...", "Ria rolls...")
    with pytest.raises(FAILED, match="no event 'Ria engages"):
        then.then_has("Ria rolls...", "Ria engages in heavy form...")


def test_then_lacks_cites_and_state(start):
    then = start.when("move b2").then_lacks("Ria rolls...").then_cites("MOVE-1")
    then.then_state(lambda state: state.round == 1, round=1)
    with pytest.raises(FAILED, match="should not be there"):
        then.then_lacks(MOVED)
    with pytest.raises(FAILED, match="the rules its events cite differ"):
        then.then_cites("MOVE-2")
    with pytest.raises(FAILED, match="the state after it differs"):
        then.then_state(round=2)


def test_a_refusal_is_checked_by_rule_and_reason_and_wrote_nothing(start):
    refused = start.when("move c3").then_refused("MOVE-1", "another unit")
    assert refused.rule == "MOVE-1"
    with pytest.raises(FAILED, match="refused for another reason"):
        start.when("move c3").then_refused("MOVE-1", "too far")
    with pytest.raises(FAILED, match="was refused: MOVE-1"):
        start.when("move c3").then(MOVED)
    with pytest.raises(FAILED, match="refused as MalformedCommand"):
        start.when("fly").then_refused("MOVE-1")
    start.when("fly").then_malformed("not a command")


def test_undo_redo_and_going_on(start):
    start.when("move b2").and_when("engage --form heavy --target e1 --dice 1,2").then_has("Ria rolls...")
    start.when_undo().then_refused("UNDO-2")
    start.when_undo(force=True).then_cites("UNDO-2")
    start.when_redo().then_has("Ria rolls...")


def test_a_command_given_before_that_is_refused_fails_the_test_saying_which(start):
    with pytest.raises(pytest.fail.Exception, match="given: move c3 was refused: MOVE-1"):
        start.after("move c3")


def test_a_log_is_taken_back_to_a_version_to_play_on_from(start):
    start.after("move b2")
    moved = start.game.version
    start.after("engage --form heavy --target e1 --dice 1,2", "resolve")
    with Rulekeeper() as other:
        again = Given(other).log(start.game.export(), at=moved)
        assert again.state == start.game.at(moved).state
        again.when("engage --form heavy --target e1 --dice 1,2").then(*start.game.lines()[moved + 1 : moved + 3])


def test_without_a_game_given_says_how_to_start_one():
    with Rulekeeper() as keeper, pytest.raises(ValueError, match="given.setup"):
        Given(keeper).when("move b2")
