"""Promotion between battles (ADVANCE-15, ADVANCE-16): a battle in which
an adventurer met its sheet's requirement writes that back; the campaign
then turns the sheet to its Master side, and the next battle copies it in."""

import pytest
from campaign_arrange import campaign, me, run, set_adventurer
from msgspec.structs import replace

from domain.betrayal import adventurer as adv
from domain.betrayal import adventurer_events as ae
from domain.betrayal import campaign_commands as cc
from domain.betrayal.application import PartySpec
from domain.kernel.errors import RuleViolation


@pytest.mark.rule("ADVANCE-16")
def test_a_battle_where_the_requirement_was_met_writes_the_promotion_back():
    app = campaign()
    app.new_clash(setup="waystone-crossing", party=[PartySpec("Ria")], xp=1, seed=1, battle_id="w1")
    battle = app.battle("w1").state
    hero = replace(battle.heroes[0], promotion=True)
    written = adv.concluded(battle, hero)
    assert [type(e) for e in written] == [adv.BattleConcluded, ae.PromotionEarned]
    assert adv.concluded(battle, replace(hero, promotion=False)) == written[:1]
    assert adv.concluded(battle, replace(hero, master=True)) == written[:1]  # promoted already


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
