"""The Reward Phase of a campaign: rewards of a finished battle, the order
of its steps, the saved-XP cap, and undo across its steps (REWARD-1 to
REWARD-4 are our IDs for the facts' Reward Phase steps; ADVANCE-1,
ADVANCE-12 and EX-24 are the book's)."""

import pytest
from campaign_arrange import CAMPAIGN, campaign, me, play, rewarded, run, set_adventurer

from domain.betrayal.campaign import application as ca
from domain.betrayal.campaign import commands as cc
from domain.kernel.errors import MalformedCommand, RuleViolation


def _refused(app, command) -> str:
    with pytest.raises(RuleViolation) as e:
        run(app, command)
    return e.value.rule


@pytest.mark.rule("REWARD-1")
def test_a_finished_battle_gives_each_party_member_its_xp_and_raises_the_dial():
    app = campaign()
    play(app, "w1")
    dial = ca.campaign(app, CAMPAIGN).dial
    run(app, cc.GainRewards(battle_id="w1", xp=3))
    assert (me(app, "Ria").xp, me(app, "Tarn").xp) == (3, 3)
    assert (me(app, "Ria").earned, ca.campaign(app, CAMPAIGN).dial) == (3, dial + 3)
    assert ca.campaign(app, CAMPAIGN).reward == "w1"


@pytest.mark.rule("REWARD-1")
def test_a_battles_rewards_are_gained_once_and_only_for_a_battle_the_party_finished():
    app = campaign()
    assert _refused(app, cc.GainRewards(battle_id="w1", xp=2)) == "REWARD-1"  # not fought yet
    rewarded(app, 2)
    run(app, cc.EndRewards())
    assert _refused(app, cc.GainRewards(battle_id="w1", xp=2)) == "REWARD-1"
    assert me(app).xp == 2


@pytest.mark.rule("REWARD-1")
def test_the_reward_of_a_battle_is_the_setups_on_success_and_nothing_on_failure():
    app = campaign()
    play(app, "w1")  # the greedy bot wins this one (seed 2)
    assert app.battle("w1").state.outcome.value == "success"
    assert ca.battle_reward(app, "w1") == app.pack.campaign.rewards["waystone-crossing"]
    app2 = campaign(party=(("Ria", "nord", "bastion"),))
    set_adventurer(app2, "Ria", hp=1, max_hp=1)
    play(app2, "lost", names=("Ria",), setup="fallen-watchtower", seed=4)
    assert app2.battle("lost").state.outcome.value == "failure"
    assert ca.battle_reward(app2, "lost") == 0


@pytest.mark.rule("REWARD-1")
def test_a_battle_gives_0_to_40_xp_and_more_is_refused_saying_so():
    app = campaign()
    play(app, "w1")
    with pytest.raises(MalformedCommand, match="^a battle gives 0 to 40 XP$"):
        run(app, cc.GainRewards(battle_id="w1", xp=41))
    assert me(app).xp == 0
    run(app, cc.GainRewards(battle_id="w1", xp=40))
    assert me(app).xp == 40


@pytest.mark.rule("ADVANCE-1")
@pytest.mark.rule("REWARD-3")
def test_advancements_are_bought_only_in_an_open_reward_phase():
    app = campaign()
    assert _refused(app, cc.Advance(adventurer="Ria", what="health")) == "REWARD-3"
    rewarded(app, 4)
    run(app, cc.Advance(adventurer="Ria", what="health"))
    assert me(app).max_hp == 5


@pytest.mark.rule("REWARD-2")
def test_untraining_comes_before_buying_advancements():
    app = rewarded(campaign(), 4)
    run(app, cc.Untrain(adventurer="Ria", uid=4))  # before: allowed
    run(app, cc.Advance(adventurer="Ria", what="stamina"))
    assert _refused(app, cc.Untrain(adventurer="Ria", uid=5)) == "REWARD-2"
    run(app, cc.Untrain(adventurer="Tarn", uid=4))  # Tarn has not advanced yet


@pytest.mark.rule("REWARD-4")
def test_one_reward_phase_at_a_time_and_nothing_else_while_it_is_open():
    app = campaign()
    play(app, "w1")
    for name in ("Ria", "Tarn"):
        set_adventurer(app, name, hp=me(app, name).max_hp)
    play(app, "w2", seed=3)
    run(app, cc.GainRewards(battle_id="w1", xp=2))
    assert _refused(app, cc.GainRewards(battle_id="w2", xp=2)) == "REWARD-4"
    assert _refused(app, cc.Rest()) == "REWARD-4"
    run(app, cc.EndRewards())
    run(app, cc.GainRewards(battle_id="w2", xp=2))
    assert ca.campaign(app, CAMPAIGN).rewarded == ("w1", "w2")


@pytest.mark.rule("REWARD-4")
def test_while_a_reward_phase_is_open_each_other_step_is_refused_naming_itself_and_how_to_close_it():
    app = campaign()
    play(app, "w1")
    run(app, cc.GainRewards(battle_id="w1", xp=2))
    for command, what in ((cc.EndSession(), "end the session"), (cc.Rest(), "rest")):
        with pytest.raises(RuleViolation) as e:
            run(app, command)
        assert (e.value.rule, e.value.message) == (
            "REWARD-4",
            f"the Reward Phase of w1 is open: end it (rk reward done) before you {what}",
        )


@pytest.mark.rule("REWARD-3")
def test_out_of_a_reward_phase_its_steps_are_refused_naming_themselves_and_how_to_open_one():
    app = campaign()
    for command, what in (
        (cc.Untrain(adventurer="Ria", uid=4), "untraining"),
        (cc.Advance(adventurer="Ria", what="health"), "buying advancements (ADVANCE-1)"),
        (cc.EndRewards(), "ending it"),
    ):
        with pytest.raises(RuleViolation) as e:
            run(app, command)
        assert (e.value.rule, e.value.message) == (
            "REWARD-3",
            f"{what} happens in a Reward Phase: gain a battle's rewards first (rk reward BATTLE)",
        )


@pytest.mark.rule("ADVANCE-12")
@pytest.mark.rule("EX-24")
def test_unspent_xp_above_three_buys_tenacity_at_the_end_and_the_rest_is_lost():
    app = rewarded(campaign(), 9)
    set_adventurer(app, "Ria", tenacity=7)
    set_adventurer(app, "Tarn", tenacity=0)
    run(app, cc.EndRewards())
    ria, tarn = me(app, "Ria"), me(app, "Tarn")
    assert (ria.xp, ria.tenacity) == (3, 10)  # 6 over the cap: 3 fill Tenacity to 10, 3 are lost
    assert (tarn.xp, tarn.tenacity) == (3, 6)


@pytest.mark.rule("ADVANCE-12")
def test_three_or_less_unspent_xp_is_kept_whole():
    app = rewarded(campaign(), 3)
    before = me(app).tenacity
    run(app, cc.EndRewards())
    assert (me(app).xp, me(app).tenacity) == (3, before)


@pytest.mark.rule("UNDO-1")
def test_undo_goes_back_across_the_reward_steps_exactly():
    app = rewarded(campaign(), 6)
    states = [(ca.campaign(app, CAMPAIGN), me(app, "Ria"), me(app, "Tarn"))]
    for command in (
        cc.Advance(adventurer="Ria", what="health"),
        cc.Advance(adventurer="Tarn", what="cooldown"),
        cc.EndRewards(),
    ):
        run(app, command)
        states.append((ca.campaign(app, CAMPAIGN), me(app, "Ria"), me(app, "Tarn")))
    for expected in reversed(states[:-1]):
        app.undo(CAMPAIGN)
        assert (ca.campaign(app, CAMPAIGN), me(app, "Ria"), me(app, "Tarn")) == expected
    app.redo(CAMPAIGN)
    assert me(app, "Ria") == states[1][1]


@pytest.mark.rule("UNDO-3")
def test_a_battles_end_cannot_be_undone_once_the_campaign_spent_its_rewards():
    app = rewarded(campaign(), 2)
    with pytest.raises(RuleViolation) as e:
        app.undo("w1", force=True)
    assert e.value.rule == "UNDO-3" and "Ria" in e.value.message
    app.undo(CAMPAIGN)  # the rewards undone, the battle's end may be undone again
    app.undo("w1", force=True)
    assert app.battle("w1").state.outcome is None


@pytest.mark.rule("ITEM-1")
def test_the_item_cards_a_delves_caches_gave_go_to_those_who_opened_them():
    app = campaign()
    play(app, "w1")
    run(app, cc.GainRewards(battle_id="w1", xp=1, loot=(("Tarn", "notched-dagger"), ("tarn", "tarred-rope"))))
    assert me(app, "Tarn").packed == ("notched-dagger", "tarred-rope") and me(app, "Ria").items == ()
    assert ca.battle_loot(app, "w1") == ()  # a clash has no caches' loot of its own


@pytest.mark.rule("READY-1")
def test_loot_beyond_eight_items_is_refused_whole():
    app = campaign()
    play(app, "w1")
    set_adventurer(app, "Ria", packed=("sooty-lamp",) * 8)
    with pytest.raises(RuleViolation) as e:
        run(app, cc.GainRewards(battle_id="w1", xp=1, loot=(("Ria", "notched-dagger"),)))
    assert e.value.rule == "READY-1" and me(app).xp == 0
