"""A bot's choices, checked: "Brawler" plays a Betrayal clash for one
adventurer. It hits what it can reach in heavy form, resolves what it
rolled, otherwise steps in, and ends its turn when nothing is left.

The bot reads only what the API gives (the legal commands, as lines), so
whatever it picks is legal by construction; the tests check that it picks
well, and that a whole game it plays holds as a log."""

import pytest

from rulekeeper import Game, Rulekeeper

PARTY = {"setup": "waystone-crossing", "party": [{"name": "Ria", "race": "nord"}], "seed": 1}
PREFERENCES = ("engage --form heavy --target", "resolve", "next-round", "move", "end-turn")


def brawler(game: Game) -> str:
    """The bot: the first legal line by its preferences (else the first legal one)."""
    lines = game.legal_lines()
    for wanted in PREFERENCES:
        for line in lines:
            if line.startswith(wanted):
                return line
    return lines[0]


@pytest.mark.rulekeeper_setup("clash", **PARTY)
def test_with_no_enemy_in_reach_it_steps_in(game):
    assert brawler(game).startswith("move ")


def test_with_the_tunnel_rat_next_to_it_it_hits_in_heavy_form(given):
    beside = given.setup("clash", **PARTY).after("move b2")
    choice = brawler(beside.game)
    assert choice == "engage --form heavy --target e1 --dice 1,2"
    beside.when(choice).then_has("Ria engages in heavy form at e1 Tunnel Rat...").and_when(
        brawler(beside.game)
    ).then_has("ENGAGE-8c: e1 Tunnel Rat takes 2 damage from Ria, 0 HP left")


def test_what_it_would_not_do_is_refused_anyway(given):
    # Having stepped in and hit, it may not step out again (ENGAGE-3): the rules, not the bot, say so.
    fought = given.setup("clash", **PARTY).after("move b2", "engage --form heavy --target e1 --dice 1,2", "resolve")
    assert not any(line.startswith("move") for line in fought.legal_lines())
    fought.when("move b3").then_refused("ENGAGE-3", "moved before engaging")


@pytest.mark.rulekeeper_setup("clash", **PARTY)
def test_a_game_it_plays_to_the_end_verifies_as_a_log(game):
    for _ in range(100):
        if game.over:
            break
        game.play(brawler(game))
    assert game.over and game.summary.where == "success"
    report = game.verify()
    assert report.ok, report.summary()
    with Rulekeeper() as elsewhere:  # another store: this one holds a game of that id already
        assert elsewhere.load(game.export()).digest() == game.digest()
