"""Advancements and untraining in the Reward Phase (ADVANCE-2 to
ADVANCE-14, HEALTH-6/7/9, STAMINA-3, MAGICKA-3, COMBAT-2, COMBAT-7 and the
worked examples EX-21 to EX-23). Ria is a Nord: Health 4, Stamina 2,
Magicka 2, 3 Combat dice, Cooldown 2, lines One Hand and Shield (dice 4, 5)
and Heavy Armor (6, 7). The starter mat has 8 squares a row, white-box
costs 1 1 2 2 3 3 4 5 from the left and black-box costs 5 4 3 3 2 2 1 1."""

import pytest
from campaign_arrange import campaign, me, rewarded, run, set_adventurer

from domain.betrayal.campaign import commands as cc
from domain.betrayal.adventurer.state import MatRow
from domain.betrayal.adventurer.mat import next_slot
from domain.betrayal.battle.state import DieKind, TrackDie
from domain.kernel.errors import RuleViolation


def _refused(app, command) -> str:
    with pytest.raises(RuleViolation) as e:
        run(app, command)
    return e.value.rule


def advance(who: str, what: str, amount: int = 1) -> cc.Advance:
    return cc.Advance(adventurer=who, what=what, amount=amount)


@pytest.fixture
def app():
    return rewarded(campaign(), 12)


@pytest.mark.rule("ADVANCE-2")
@pytest.mark.rule("ADVANCE-3")
@pytest.mark.rule("ADVANCE-4")
@pytest.mark.rule("HEALTH-6")
def test_a_health_token_fills_the_square_next_to_its_round_token_at_the_white_box_cost(app):
    hp = me(app).hp
    result = run(app, advance("Ria", "health"))
    ((_, (bought,)),) = result.written
    assert (bought.stat, bought.column, bought.cost) == ("health", 0, 1)
    ria = me(app)
    assert (ria.max_hp, ria.hp, ria.xp) == (5, hp + 1, 11)
    run(app, advance("Ria", "health"), advance("Ria", "health"))
    assert me(app).max_hp == 7 and me(app).xp == 12 - 1 - 1 - 2  # columns 1, 2, 3: 1 + 1 + 2


@pytest.mark.rule("HEALTH-6")
def test_a_wounded_adventurer_gains_the_hp_of_the_raised_health_too(app):
    set_adventurer(app, "Ria", hp=1)
    run(app, advance("Ria", "health"))
    assert (me(app).hp, me(app).max_hp) == (2, 5)


@pytest.mark.rule("ADVANCE-4")
def test_an_attribute_at_the_right_end_pays_the_black_box_cost_from_the_right(app):
    # One Hand and Shield sits at the right of row 1 with 2 dice: its next
    # square is column 6 (from 1), black box 2.
    slot = next_slot(me(app), "one-hand-shield", app.pack)
    assert (slot.column, slot.cost) == (5, 2)
    result = run(app, advance("Ria", "shield-bash"))
    ((_, (added,)),) = result.written
    assert (added.column, added.cost, added.uid) == (5, 2, 8)
    assert (8, "shield-bash") in me(app).dice


@pytest.mark.rule("ADVANCE-2")
def test_a_full_row_takes_no_more_tokens_or_dice(app):
    set_adventurer(app, "Ria", max_hp=4 + 6, hp=10)  # 6 red tokens + 2 One Hand and Shield dice fill the 8 squares
    assert _refused(app, advance("Ria", "health")) == "ADVANCE-2"
    assert _refused(app, advance("Ria", "shield-bash")) == "ADVANCE-2"


@pytest.mark.rule("ADVANCE-5")
@pytest.mark.rule("EX-21")
def test_dice_on_the_track_or_drained_keep_their_slot_for_the_cost(app):
    before = next_slot(me(app), "one-hand-shield", app.pack)
    set_adventurer(app, "Ria", track=(TrackDie(DieKind.SKILL, 4, 1), TrackDie(DieKind.SKILL, 5, 0)))
    assert next_slot(me(app), "one-hand-shield", app.pack) == before
    result = run(app, advance("Ria", "guard-up"))
    ((_, (added,)),) = result.written
    assert added.cost == before.cost


@pytest.mark.rule("ADVANCE-4")
def test_an_advancement_costing_more_than_the_unspent_xp_is_refused(app):
    before = set_adventurer(app, "Ria", xp=1)
    assert _refused(app, advance("Ria", "shield-bash")) == "ADVANCE-5"
    assert me(app) == before  # nothing written


@pytest.mark.rule("ADVANCE-6")
@pytest.mark.rule("ADVANCE-7")
def test_a_skill_die_needs_its_line_trained_and_a_trainer_trains_it(app):
    assert _refused(app, advance("Ria", "steady-shot")) == "ADVANCE-6"
    run(app, cc.EndRewards(), cc.TrainLine(adventurer="Ria", line="bow"))
    assert "bow" in me(app).lines
    assert MatRow("magicka", "bow") == me(app).mat[2]  # the first empty round slot in reading order


@pytest.mark.rule("ADVANCE-8")
@pytest.mark.rule("EX-22")
def test_a_level_3_die_needs_a_level_2_or_3_die_of_its_line(app):
    assert _refused(app, advance("Tarn", "heartseeker")) == "ADVANCE-8"  # Tarn's Bow dice are level 1
    run(app, advance("Tarn", "twin-shafts"))  # level 2: a level-1 Bow die is enough
    run(app, advance("Tarn", "heartseeker"))
    assert [d for _, d in me(app, "Tarn").dice][-2:] == ["twin-shafts", "heartseeker"]


@pytest.mark.rule("ADVANCE-8")
def test_a_level_2_die_needs_a_level_1_or_2_die_of_its_line(app):
    # No Bow die left (an arrangement: the line still trained, its dice gone).
    set_adventurer(app, "Tarn", dice=tuple(d for d in me(app, "Tarn").dice if d[1] == "combat"), track=())
    assert _refused(app, advance("Tarn", "twin-shafts")) == "ADVANCE-8"
    run(app, advance("Tarn", "steady-shot"))  # level 1 needs nothing
    run(app, advance("Tarn", "twin-shafts"))


@pytest.mark.rule("ADVANCE-9")
@pytest.mark.rule("ADVANCE-10")
@pytest.mark.rule("EX-23")
def test_cooldown_rises_one_slot_at_a_time_for_the_value_above_the_new_slot(app):
    run(app, advance("Ria", "cooldown"))
    assert (me(app).cooldown, me(app).xp) == (3, 12 - 3)
    run(app, advance("Ria", "cooldown"))  # again in the same Reward Phase
    assert (me(app).cooldown, me(app).xp) == (4, 12 - 3 - 4)
    set_adventurer(app, "Ria", cooldown=6, xp=12)
    assert _refused(app, advance("Ria", "cooldown")) == "ADVANCE-9"  # the highest (facts default 6)


@pytest.mark.rule("ADVANCE-11")
def test_tenacity_costs_one_xp_a_point_up_to_its_maximum(app):
    set_adventurer(app, "Ria", tenacity=5)
    run(app, advance("Ria", "tenacity", 3))
    assert (me(app).tenacity, me(app).xp) == (8, 9)
    assert _refused(app, advance("Ria", "tenacity", 3)) == "ADVANCE-11"
    assert me(app).tenacity == 8


@pytest.mark.rule("ADVANCE-13")
def test_a_trainer_puts_a_line_on_an_empty_round_slot_at_either_end(app):
    run(app, cc.EndRewards())
    run(app, cc.TrainLine(adventurer="Ria", line="two-handed", row=5, left=False))
    assert me(app).mat[4] == MatRow("", "two-handed")
    assert _refused(app, cc.TrainLine(adventurer="Ria", line="two-handed")) == "ADVANCE-13"  # trained already
    assert _refused(app, cc.TrainLine(adventurer="Ria", line="bow", row=1, left=True)) == "ADVANCE-13"  # taken


@pytest.mark.rule("MAGICKA-3")
@pytest.mark.rule("ADVANCE-14")
def test_magicka_may_be_untrained_whole_and_a_trainer_adds_it_back(app):
    run(app, cc.Untrain(adventurer="Ria", what="magicka-line"))
    assert me(app).magicka == 0 and all("magicka" not in (r.left, r.right) for r in me(app).mat)
    assert _refused(app, advance("Ria", "magicka")) == "ADVANCE-14"
    run(app, cc.EndRewards(), cc.TrainLine(adventurer="Ria", line="magicka"))
    assert any("magicka" in (r.left, r.right) for r in me(app).mat)


@pytest.mark.rule("MAGICKA-3")
def test_magicka_tokens_may_be_untrained_one_by_one(app):
    run(app, cc.Untrain(adventurer="Ria", what="magicka"))
    assert me(app).magicka == 1


@pytest.mark.rule("HEALTH-9")
@pytest.mark.rule("HEALTH-7")
def test_a_bought_health_token_may_be_untrained_and_the_hp_above_the_new_maximum_goes(app):
    set_adventurer(app, "Ria", max_hp=6, hp=6)
    run(app, cc.Untrain(adventurer="Ria", what="health"))
    assert (me(app).max_hp, me(app).hp) == (5, 5)
    assert me(app).xp == 12  # no refund
    run(app, cc.Untrain(adventurer="Ria", what="health"))
    assert _refused(app, cc.Untrain(adventurer="Ria", what="health")) == "HEALTH-9"  # only the printed 4 left
    assert _refused(app, cc.Untrain(adventurer="Ria", what="health-line")) == "HEALTH-9"


@pytest.mark.rule("STAMINA-3")
def test_only_the_stamina_tokens_that_raised_it_may_be_untrained(app):
    assert _refused(app, cc.Untrain(adventurer="Ria", what="stamina")) == "STAMINA-3"
    set_adventurer(app, "Ria", stamina=3)
    run(app, cc.Untrain(adventurer="Ria", what="stamina"))
    assert me(app).stamina == 2
    assert _refused(app, cc.Untrain(adventurer="Ria", what="stamina-line")) == "STAMINA-3"


@pytest.mark.rule("COMBAT-7")
def test_combat_dice_may_be_untrained_but_the_combat_line_stays(app):
    set_adventurer(app, "Ria", track=())
    for uid in (1, 2, 3):
        run(app, cc.Untrain(adventurer="Ria", uid=uid))
    assert not any(d == "combat" for _, d in me(app).dice)
    assert any("combat" in (r.left, r.right) for r in me(app).mat)
    assert _refused(app, cc.Untrain(adventurer="Ria", what="combat-line")) == "COMBAT-7"
    run(app, advance("Ria", "combat"))  # the line is still there to buy into
    assert sum(d == "combat" for _, d in me(app).dice) == 1


@pytest.mark.rule("COMBAT-2")
def test_no_more_than_fourteen_combat_dice(app):
    set_adventurer(app, "Ria", dice=tuple((i, "combat") for i in range(1, 15)), xp=40)
    assert _refused(app, advance("Ria", "combat")) == "COMBAT-2"


def test_a_skill_lines_last_die_untrained_untrains_the_line(app):
    run(app, cc.Untrain(adventurer="Ria", uid=6), cc.Untrain(adventurer="Ria", uid=7))
    assert "heavy-armor" not in me(app).lines
    assert me(app).mat[1] == MatRow("stamina", "")


@pytest.mark.rule("REWARD-2")
def test_a_die_on_the_cooldown_track_is_away_from_the_mat_and_cannot_be_untrained(app):
    set_adventurer(app, "Ria", track=(TrackDie(DieKind.SKILL, 4, 1),))
    assert _refused(app, cc.Untrain(adventurer="Ria", uid=4)) == "REWARD-2"
