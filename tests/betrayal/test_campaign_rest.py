"""The End of Day between battles: Adventurers Rest heals and clears the
cooldown track by difficulty (REST-1, REST-2 are our IDs for the facts'
End of Day; TRACK-7, CLEANUP-4c, CONSUMABLE-2 the book's), so a defeated
adventurer can fight again (HEALTH-5); the session-end EP of a climax
battle (SESSION-EP-1, SESSION-EP-2)."""

import pytest
from campaign_arrange import CAMPAIGN, campaign, me, play, run, set_adventurer

from domain.betrayal.campaign import application as ca
from domain.betrayal.campaign import commands as cc
from domain.betrayal.battle.application import PartySpec
from domain.betrayal.battle.state import DieKind, TrackDie
from domain.kernel.errors import RuleViolation

OVER, LIGHT = TrackDie(DieKind.OVERFATIGUE), TrackDie(DieKind.LIGHT_FATIGUE)


def skill(uid: int) -> TrackDie:
    return TrackDie(DieKind.SKILL, uid, 0)


def _refused(app, command) -> str:
    with pytest.raises(RuleViolation) as e:
        run(app, command)
    return e.value.rule


@pytest.mark.rule("REST-1")
@pytest.mark.rule("TRACK-7")
@pytest.mark.rule("CLEANUP-4c")
def test_an_adept_rest_heals_one_hp_and_takes_one_cooldown_die_off_from_the_front():
    app = campaign()
    set_adventurer(app, "Ria", hp=2, track=(OVER, skill(4), LIGHT))
    run(app, cc.Rest())
    assert (me(app).hp, me(app).track) == (3, (skill(4), LIGHT))
    assert ca.campaign(app, CAMPAIGN).day == 2


@pytest.mark.rule("REST-1")
def test_an_apprentice_rest_heals_two_and_takes_two_dice_of_the_players_choosing():
    app = campaign(difficulty="apprentice")
    set_adventurer(app, "Ria", hp=1, track=(skill(4), OVER, LIGHT, skill(5)))
    run(app, cc.Rest(remove=(("Ria", (2, 4)),)))
    assert (me(app).hp, me(app).track) == (3, (skill(4), LIGHT))
    assert _refused(app, cc.Rest(remove=(("Ria", (1, 2, 3)),))) == "REST-1"


@pytest.mark.rule("REST-1")
def test_rest_never_heals_above_the_maximum():
    app = campaign(difficulty="apprentice")
    run(app, cc.Rest())
    assert me(app).hp == me(app).max_hp


@pytest.mark.rule("REST-2")
@pytest.mark.rule("CONSUMABLE-2")
def test_at_expert_an_adventurer_gives_up_an_item_to_rest_and_a_consumable_may_work_first():
    app = campaign(difficulty="expert")
    run(app, cc.GainItem(adventurer="Ria", item="honeyed-oatcake"))
    set_adventurer(app, "Ria", hp=1)
    run(app, cc.Rest(discard=(("Ria", "honeyed-oatcake"),)))
    assert me(app).items == ()
    assert me(app).hp == 1 + 1 + 1  # the rest's 1 and the oatcake's 1
    tarn = me(app, "Tarn")
    assert tarn.hp == tarn.max_hp  # Tarn had nothing to give up, and nothing to heal


@pytest.mark.rule("HEALTH-5")
def test_a_defeated_adventurer_cannot_join_a_battle_until_a_rest_heals_it():
    app = campaign()
    set_adventurer(app, "Ria", hp=0)
    with pytest.raises(RuleViolation) as e:
        app.new_clash(setup="waystone-crossing", party=[PartySpec("Ria")], xp=1, seed=1, battle_id="w1")
    assert e.value.rule == "HEALTH-5"
    run(app, cc.Rest())
    assert me(app).hp == 1
    app.new_clash(setup="waystone-crossing", party=[PartySpec("Ria")], xp=1, seed=1, battle_id="w1")
    assert app.battle("w1").state.heroes[0].hp == 1


@pytest.mark.rule("EP-3")
@pytest.mark.rule("SESSION-EP-1")
@pytest.mark.rule("SESSION-EP-2")
def test_a_climax_battle_takes_its_ep_from_the_session_table_not_the_dial():
    app = campaign(dial=7)
    state = ca.campaign(app, CAMPAIGN)
    xp = ca.climax_xp(app, state, 2)
    assert xp == 16  # session 1, adept, 2 players: EP 32 (16)
    result = app.new_clash(
        setup="waystone-crossing", party=[PartySpec("Ria"), PartySpec("Tarn")], xp=xp, seed=3, battle_id="climax"
    )
    assert result.events[1].ep == 32
    later = campaign()
    run(later, cc.EndSession())
    assert ca.climax_xp(later, ca.campaign(later, CAMPAIGN), 2) == 29  # session 2, adept, 2 players: 58 (29)


def test_the_party_xp_of_a_battle_defaults_to_its_campaigns_dial():
    app = campaign(dial=5)
    assert ca.party_campaign(app, ["Ria", "Tarn"]).dial == 5
    assert ca.party_campaign(app, ["Ria", "Nobody"]) is None
    play(app, "w1")
    run(app, cc.GainRewards(battle_id="w1", xp=2))
    assert ca.party_campaign(app, ["Ria"]).dial == 7


@pytest.mark.rule("BETWEEN-1")
def test_an_adventurer_in_a_battle_not_ended_is_that_battles_until_it_ends():
    app = campaign()
    app.new_clash(setup="waystone-crossing", party=[PartySpec("Ria")], xp=1, seed=1, battle_id="w1")
    assert me(app).fighting == "w1"
    for command in (
        cc.Rest(),
        cc.GainItem(adventurer="Ria", item="notched-dagger"),
        cc.EndSession(),
        cc.TrainLine(adventurer="Ria", line="bow"),
    ):
        assert _refused(app, command) == "BETWEEN-1"
    run(app, cc.GainItem(adventurer="Tarn", item="notched-dagger"))  # Tarn is not in it
    with pytest.raises(RuleViolation) as e:
        app.new_clash(setup="fallen-watchtower", party=[PartySpec("Ria")], xp=1, seed=1, battle_id="w2")
    assert e.value.rule == "BETWEEN-1"
    app2 = campaign()
    play(app2, "w1")  # a battle played to its end frees its party
    assert me(app2).fighting == "" and me(app2, "Tarn").fighting == ""
    run(app2, cc.Rest())
