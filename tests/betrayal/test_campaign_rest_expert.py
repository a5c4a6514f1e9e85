"""The End of Day at Expert difficulty, where a rest costs an item: each
adventurer chooses for itself (REST-2), a party that fell in its battle
heals all the same (facts of END-1c), and a trade needs both sides rested
(REST-3). REST-1 to REST-3 are our IDs for the facts' End of Day
(betrayal-facts "Fills CLEANUP-4c ..."); RULES-COVERAGE.md lists them."""

from types import SimpleNamespace

import pytest
from campaign_arrange import CAMPAIGN, campaign, me, play, run, set_adventurer

from domain.betrayal.adventurer import events as ae
from domain.betrayal.battle.application import PartySpec
from domain.betrayal.battle.state import DieKind, TrackDie
from domain.betrayal.campaign import application as ca
from domain.betrayal.campaign import commands as cc
from domain.betrayal.campaign.narrate import describe
from domain.betrayal.ruleset import ADVENTURERS, BETRAYAL
from domain.betrayal.table.adventurer_sheet import sheet
from domain.kernel.errors import RuleViolation

LIGHT = TrackDie(DieKind.LIGHT_FATIGUE)


def _expert_with_items() -> object:
    """An Expert campaign: Ria holds an oatcake, Tarn a dagger; both hurt,
    each with a die on the track."""
    app = campaign(difficulty="expert")
    run(
        app,
        cc.GainItem(adventurer="Ria", item="honeyed-oatcake"),
        cc.GainItem(adventurer="Tarn", item="notched-dagger"),
    )
    set_adventurer(app, "Ria", hp=1, track=(LIGHT,))
    set_adventurer(app, "Tarn", hp=1, track=(LIGHT,))
    return app


def _refused(app, command) -> str:
    before = (me(app), me(app, "Tarn"), ca.campaign(app, CAMPAIGN))
    with pytest.raises(RuleViolation) as e:
        run(app, command)
    assert (me(app), me(app, "Tarn"), ca.campaign(app, CAMPAIGN)) == before  # nothing written
    return e.value.rule


def _last(app, name: str):
    """The last event of an adventurer's stream."""
    stream = BETRAYAL.stream_of(ADVENTURERS.kind, name)
    return list(app.events(stream))[-1].event


def _wiped_out() -> object:
    """An Expert campaign whose party (Ria and Tarn, at 1 HP) fell in
    battle w1 (with this seed the greedy bot loses it: END-1c)."""
    app = campaign(difficulty="expert")
    set_adventurer(app, "Ria", hp=1)
    set_adventurer(app, "Tarn", hp=1)
    play(app, "w1", setup="fallen-watchtower", seed=2)
    assert app.battle("w1").state.ended_reason.startswith("END-1c")
    return app


@pytest.mark.rule("REST-2")
def test_at_expert_one_who_keeps_its_items_does_not_rest_and_the_others_still_do():
    app = _expert_with_items()
    run(app, cc.Rest(discard=(("Ria", "honeyed-oatcake"),)))
    assert (me(app).hp, me(app).track, me(app).items) == (3, (), ())  # 1 from the rest, 1 from the oatcake
    tarn = me(app, "Tarn")
    assert (tarn.hp, tarn.track, tarn.items) == (1, (LIGHT,), ("notched-dagger",))  # kept the dagger: no rest
    assert ca.campaign(app, CAMPAIGN).day == 2
    last = _last(app, "Tarn")
    assert last == ae.RestForgone(held=1)
    assert describe(last, None) == "REST-2: keeps its items and does not rest (a rest costs one here)"


@pytest.mark.rule("REST-2")
def test_at_expert_a_rest_with_no_item_given_up_ends_the_day_and_heals_no_one():
    app = _expert_with_items()
    run(app, cc.Rest())
    assert (me(app).hp, me(app, "Tarn").hp) == (1, 1)
    assert (me(app).items, me(app, "Tarn").items) == (("honeyed-oatcake",), ("notched-dagger",))
    assert ca.campaign(app, CAMPAIGN).day == 2


@pytest.mark.rule("REST-2")
def test_at_expert_taking_dice_off_without_giving_an_item_up_is_refused():
    app = _expert_with_items()
    assert _refused(app, cc.Rest(remove=(("Tarn", (1,)),), discard=(("Ria", "honeyed-oatcake"),))) == "REST-2"


@pytest.mark.rule("END-1c")
@pytest.mark.rule("REST-2")
def test_at_expert_a_party_that_fell_heals_1_hp_at_its_next_rest_without_giving_an_item_up():
    app = _wiped_out()
    assert (me(app).hp, me(app).wiped, me(app, "Tarn").wiped) == (0, "w1", "w1")
    assert _last(app, "Ria") == ae.PartyFell(battle_id="w1")
    assert "its whole party fell in w1: its next rest is owed (END-1c" in str(sheet(SimpleNamespace(app=app), "Ria"))
    run(app, cc.GainItem(adventurer="Tarn", item="notched-dagger"))
    run(app, cc.Rest())
    assert (me(app).hp, me(app, "Tarn").hp) == (1, 1)  # Ria had no item, Tarn kept his: both heal 1
    assert me(app, "Tarn").items == ("notched-dagger",)
    assert me(app).wiped == ""  # owed once
    assert "next rest is owed" not in str(sheet(SimpleNamespace(app=app), "Ria"))
    app.new_clash(setup="waystone-crossing", party=[PartySpec("Ria")], xp=1, seed=1, battle_id="w2")  # HEALTH-5


@pytest.mark.rule("END-1c")
def test_the_rest_a_fall_is_owed_is_had_once():
    app = _wiped_out()
    run(app, cc.Rest())
    run(app, cc.Rest())
    assert (me(app).hp, me(app, "Tarn").hp) == (1, 1)  # the second rest costs an item, which they lack


@pytest.mark.rule("END-1c")
def test_a_party_that_fell_may_still_give_an_item_up_for_the_whole_rest():
    app = _wiped_out()
    run(app, cc.GainItem(adventurer="Tarn", item="notched-dagger"))
    set_adventurer(app, "Tarn", track=(LIGHT,))
    run(app, cc.Rest(discard=(("Tarn", "notched-dagger"),)))
    assert (me(app, "Tarn").hp, me(app, "Tarn").track) == (1, ())


@pytest.mark.rule("REST-3")
def test_at_expert_both_sides_of_a_trade_must_have_rested():
    app = _expert_with_items()
    hand_over = (("Ria", "honeyed-oatcake", "Tarn"),)
    assert _refused(app, cc.Rest(trade=hand_over)) == "REST-3"  # neither rested
    give = (("Tarn", "notched-dagger", "Ria"),)
    assert _refused(app, cc.Rest(discard=(("Ria", "honeyed-oatcake"),), trade=give)) == "REST-3"  # Tarn did not
    run(app, cc.GainItem(adventurer="Tarn", item="bitterroot-draught"))
    run(app, cc.Rest(discard=(("Ria", "honeyed-oatcake"), ("Tarn", "bitterroot-draught")), trade=give))
    assert (me(app).items, me(app, "Tarn").items) == (("notched-dagger",), ())


@pytest.mark.rule("REST-3")
def test_a_trade_at_the_end_of_day_hands_an_item_over_into_the_pack():
    app = campaign()
    run(app, cc.GainItem(adventurer="Ria", item="notched-dagger", ready=True))
    run(app, cc.Rest(trade=(("Ria", "notched-dagger", "tarn"),)))
    assert (me(app).items, me(app, "Tarn").packed) == ((), ("notched-dagger",))
    with pytest.raises(Exception) as e:
        run(app, cc.Rest(trade=(("Ria", "notched-dagger", "Tarn"),)))  # Ria holds it no more
    assert "holds no" in str(e.value)


@pytest.mark.rule("REST-3")
def test_trades_at_the_end_of_day_go_in_order_so_an_item_handed_over_may_be_handed_on():
    """Each trade acts on the adventurers as the trades before it left them
    (found by mutation testing: the second trade read the receiver of the
    first as it stood before it)."""
    app = campaign()
    run(app, cc.GainItem(adventurer="Ria", item="notched-dagger", ready=True))
    run(app, cc.Rest(trade=(("Ria", "notched-dagger", "Tarn"), ("Tarn", "notched-dagger", "Ria"))))
    assert (me(app).packed, me(app, "Tarn").items) == (("notched-dagger",), ())
