"""Promotion between battles (ADVANCE-15, ADVANCE-16): a battle in which
an adventurer met its sheet's requirement writes that back; the campaign
then turns the sheet to its Master side, and the next battle copies it in."""

import pytest
from campaign_arrange import campaign, me, run, set_adventurer
from msgspec.structs import replace

from domain.betrayal.adventurer import aggregate as adv
from domain.betrayal.adventurer import events as ae
from domain.betrayal.campaign import commands as cc
from domain.betrayal.battle.application import PartySpec
from domain.betrayal.battle.state import Outcome
from domain.kernel.errors import RuleViolation


@pytest.mark.rule("ADVANCE-16")
def test_a_battle_where_the_requirement_was_met_writes_the_promotion_back():
    app = campaign()
    app.new_clash(setup="waystone-crossing", party=[PartySpec("Ria")], xp=1, seed=1, battle_id="w1")
    battle = replace(app.battle("w1").state, outcome=Outcome.SUCCESS)  # the write-back reads a battle that has ended
    hero = replace(battle.heroes[0], promotion=True)
    written = adv.concluded(battle, hero)
    assert [type(e) for e in written] == [adv.BattleConcluded, ae.PromotionEarned]
    assert adv.concluded(battle, replace(hero, promotion=False)) == written[:1]
    turned = adv.concluded(battle, replace(hero, master=True))  # the sheet was turned in the battle
    assert [type(e) for e in turned] == [adv.BattleConcluded, ae.ClassPromoted]


@pytest.mark.rule("ADVANCE-16")
def test_the_sheet_may_be_turned_in_the_battle_once_the_requirement_is_met():
    from domain.betrayal.battle.commands import TurnClassSheet
    from domain.betrayal.battle.events import ClassSheetTurned
    from domain.betrayal.battle.rules import legal_commands
    from scenario import Scenario

    given = Scenario.clash(party=("Tam:nord",), physical_dice=True).with_hero("tam", class_id="bastion")
    given.then_violates(TurnClassSheet(), "ADVANCE-16")  # not met yet
    assert TurnClassSheet(hero="tam") not in legal_commands(given.state, given.ctx)
    met = given.with_hero("tam", promotion=True)
    assert TurnClassSheet(hero="tam") in legal_commands(met.state, met.ctx)
    then = met.when(TurnClassSheet())
    then.then_has(ClassSheetTurned, hero="tam", class_id="bastion", rule="ADVANCE-16")
    assert then.state.hero("tam").master
    then.next().then_violates(TurnClassSheet(), "ADVANCE-15")  # turned already


@pytest.mark.rule("ADVANCE-15")
def test_the_sheet_turns_to_its_master_side_once_the_requirement_is_met():
    app = campaign()
    with pytest.raises(RuleViolation) as e:
        run(app, cc.Promote(adventurer="Ria"))
    assert e.value.rule == "ADVANCE-15" and "requirement" in e.value.message
    set_adventurer(app, "Ria", promotable=True)
    run(app, cc.Promote(adventurer="Ria"))
    assert me(app).master and not me(app).promotable
    with pytest.raises(RuleViolation):
        run(app, cc.Promote(adventurer="Ria"))
    app.new_clash(setup="waystone-crossing", party=[PartySpec("Ria")], xp=1, seed=1, battle_id="w1")
    assert app.battle("w1").state.heroes[0].master
    assert app.battle("w1").state.pack_hash == app.pack.campaign_hash  # the party brings campaign content
