"""Recruiting and enlisting a campaign's party: an adventurer that exists
already (made by a battle of its own) is enlisted, never recruited again
over its record, and it brings its own mat, or the pack's starting mat
when it has none yet (the mat holds the rows ADVANCE-2 to ADVANCE-4 fill)."""

from __future__ import annotations

import random

import pytest
from campaign_arrange import campaign, me, run, set_adventurer

from domain.betrayal.adventurer.mat import starting_mat
from domain.betrayal.battle import bots
from domain.betrayal.battle.application import BetrayalApp, PartySpec
from domain.betrayal.campaign import commands as cc
from domain.kernel.errors import MalformedCommand


def with_bo() -> BetrayalApp:
    """The campaign of Ria and Tarn, and Bo, a Nord made by a clash of his
    own played to its end (not in the campaign)."""
    app = campaign()
    app.new_clash(setup="waystone-crossing", party=[PartySpec("Bo", race="nord")], xp=2, seed=2, battle_id="b1")
    rnd = random.Random(2)
    while (state := app.battle("b1").state).outcome is None:
        app.execute("b1", bots.greedy_choice(state, app.context(state), rnd))
    return app


# Which adventurer a name means is the campaign's bookkeeping, no rule of the game.
def test_recruiting_under_the_name_of_an_adventurer_that_exists_is_refused_saying_to_enlist_it():
    app = with_bo()
    bo = me(app, "Bo")
    with pytest.raises(
        MalformedCommand, match=r"^an adventurer named Bo exists already: enlist it \(rk campaign enlist Bo\)$"
    ):
        run(app, cc.Recruit(name="Bo", race="nord", class_id="bastion"))
    assert me(app, "Bo") == bo  # his record is not made again


@pytest.mark.rule("ADVANCE-2")
def test_an_enlisted_adventurer_without_a_mat_gets_the_packs_starting_mat():
    app = with_bo()
    assert me(app, "Bo").mat == ()
    run(app, cc.Enlist(name="Bo", class_id="bastion"))
    bo = me(app, "Bo")
    assert bo.mat == starting_mat(app.pack, bo.lines) and bo.class_id == "bastion"


@pytest.mark.rule("ADVANCE-2")
def test_an_enlisted_adventurer_keeps_the_mat_it_has():
    app = with_bo()
    own = tuple(reversed(starting_mat(app.pack, me(app, "Bo").lines)))
    set_adventurer(app, "Bo", mat=own)
    run(app, cc.Enlist(name="Bo", class_id="bastion"))
    assert me(app, "Bo").mat == own


@pytest.mark.rule("ADVANCE-2")
def test_a_party_member_is_neither_recruited_nor_enlisted_again_and_is_told_so():
    app = campaign()
    with pytest.raises(MalformedCommand, match=r"^Ria is in the party already$"):
        run(app, cc.Recruit(name="Ria", race="nord", class_id="bastion"))
    with pytest.raises(MalformedCommand, match=r"^Ria is in the party already$"):
        run(app, cc.Enlist(name="Ria"))


@pytest.mark.rule("ADVANCE-2")
def test_an_adventurer_of_another_campaign_cannot_be_enlisted():
    """Found by mutation testing: the check that an adventurer belongs to no
    other campaign was never run."""
    from domain.betrayal.campaign import application as ca

    app = campaign()
    ca.new_campaign(app, "other")
    with pytest.raises(MalformedCommand, match=r"^Ria is in campaign saga$"):
        ca.command(app, "other", cc.Enlist(name="Ria"))
    ca.command(app, "other", cc.Recruit(name="Bo", race="nord", class_id="bastion"))
    assert [m.name for m in ca.campaign(app, "other").party] == ["Bo"]
