"""Edges that mutation testing (tests/MUTATION.md) found unguarded: what a
refusal says, not only that it comes."""

from __future__ import annotations

import pytest
from companion_arrange import at_companions, clash
from delve_arrange import DelveScenario

from domain.betrayal.battle.commands import CompanionMove, EndCompanionTurn, EndTurn, Explore
from domain.betrayal.battle.rules import decide
from domain.betrayal.campaign import commands as cc
from domain.betrayal.campaign import rules as campaign_rules
from domain.betrayal.campaign.game import CampaignContext
from domain.betrayal.packs.load import starter_pack
from domain.kernel.errors import MalformedCommand
from domain.kernel.hexes import distance, name


@pytest.mark.rule("ROUND-6")
def test_a_companion_command_naming_no_one_asks_who_acts_next():
    given = at_companions(clash(companions=("fox:Ysolda",)))
    with pytest.raises(MalformedCommand) as caught:
        decide(given.state, EndCompanionTurn(), given.ctx)
    assert str(caught.value) == "name the companion who acts next (`rk legal` lists them)"


@pytest.mark.rule("ROUND-6")
def test_a_companion_move_out_of_reach_says_where_and_how_far_it_may_go():
    given = at_companions(clash(companions=("fox:Ysolda",)))
    fox = given.state.companion("fox")
    far = next(h for h in given.ctx.board.all_hexes() if distance(h, fox.pos) > fox.move + 1)
    rv = given.then_violates(CompanionMove(companion="fox", to=far), "ROUND-6")
    assert rv.message == f"{fox.name} cannot reach {name(far)}: up to {fox.move} hexes by a free route"


def _campaign(state, command):
    return campaign_rules.decide(state, command, CampaignContext(pack=starter_pack()), "test")


@pytest.mark.rule("EP-2")
def test_a_campaign_starts_only_under_a_name_that_can_be_shown():
    """The campaign keeps the XP dial EP-2 reads; its name is shown in
    every listing, so a blank one is refused saying which name."""
    with pytest.raises(MalformedCommand) as caught:
        _campaign(None, cc.StartCampaign(campaign_id=" "))
    assert str(caught.value) == "campaign name: give a name"


@pytest.mark.rule("EP-2")
def test_nothing_is_done_in_a_campaign_that_has_not_begun():
    with pytest.raises(MalformedCommand) as caught:
        _campaign(None, cc.Recruit(name="Ria", race="nord", class_id="bastion"))
    assert str(caught.value) == "the campaign has not begun"


def at_the_entrance() -> DelveScenario:
    """Ysolda on (16, 30), next to the Entrance's Connection hex (17, 30)."""
    return DelveScenario.start(placements=((16, 30),))


@pytest.mark.rule("EXPLORATION-6")
def test_exploring_with_the_delve_deck_empty_is_refused_saying_so():
    given = at_the_entrance().with_delve(deck=())
    rv = given.then_violates(Explore(hex=(17, 30)), "EXPLORATION-6")
    assert rv.message == "the delve deck is empty: no card is left to draw"


@pytest.mark.rule("ROUND-5")
def test_ending_a_turn_outside_the_adventurers_turns_is_refused_naming_the_step():
    given = at_companions(clash(companions=("fox:Ysolda",)))
    rv = given.then_violates(EndTurn(), "ROUND-5")
    assert rv.message == "it is not an adventurer's turn (now: Companion Turns)"
