"""The cooldown track (domain/betrayal/battle/track.py): placement, overflow,
refreshing status dice and the Recovery step."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.betrayal.battle.state import DieKind, TrackDie
from domain.betrayal.battle.track import (
    TRACK_LIMIT,
    count,
    is_on_track,
    place,
    place_all,
    recover,
    remove,
    remove_status,
    statuses,
)
from domain.betrayal.vocab import Status

LIGHT = TrackDie(DieKind.LIGHT_FATIGUE)
OVER = TrackDie(DieKind.OVERFATIGUE)


def skill(uid: int) -> TrackDie:
    return TrackDie(DieKind.SKILL, uid=uid, face=0)


def status(s: Status) -> TrackDie:
    return TrackDie(DieKind.STATUS, status=s)


def skills(*uids: int) -> tuple[TrackDie, ...]:
    return tuple(skill(u) for u in uids)


def full_of_skills() -> tuple[TrackDie, ...]:
    return skills(*range(1, TRACK_LIMIT + 1))


# --- Placement -------------------------------------------------------------


@pytest.mark.rule("TRACK-3")
def test_a_placed_die_goes_right_after_the_last_die_TRACK_3() -> None:
    # given a track with two dice
    track = skills(1, 2)
    # when a third is placed
    result = place(track, LIGHT)
    # then it is the rightmost die and nothing else happened
    assert result.track == (skill(1), skill(2), LIGHT)
    assert not result.overflowed and not result.refreshed
    assert result.drained == () and result.returned == ()


@pytest.mark.rule("TRACK-3")
def test_placing_does_not_change_the_given_track_TRACK_3() -> None:
    track = skills(1, 2)
    place(track, skill(3))
    assert track == skills(1, 2)


@pytest.mark.rule("TRACK-4")
def test_several_dice_are_placed_one_at_a_time_in_the_order_given_TRACK_4() -> None:
    # given an empty track, when the player places two dice in either order
    one_way = place_all((), (skill(1), LIGHT))
    other_way = place_all((), (LIGHT, skill(1)))
    # then the track follows the chosen order
    assert one_way.track == (skill(1), LIGHT)
    assert other_way.track == (LIGHT, skill(1))


@pytest.mark.rule("TRACK-4")
@pytest.mark.rule("TRACK-9a")
def test_placing_several_dice_collects_everything_that_overflowed_TRACK_4() -> None:
    # given a track with one free space
    track = full_of_skills()[:-1]
    # when three dice are placed
    result = place_all(track, (skill(20), skill(21), LIGHT))
    # then the first fits, the second and third overflow (TRACK-9a, 9c)
    assert result.overflowed
    assert len(result.track) == TRACK_LIMIT
    assert result.drained == (21, 20, 12)
    assert result.returned == (LIGHT,)


@pytest.mark.rule("TRACK-8")
def test_the_track_holds_thirteen_dice_TRACK_8() -> None:
    # given twelve dice, when the thirteenth is placed, then it fits
    result = place(full_of_skills()[:-1], skill(13))
    assert TRACK_LIMIT == 13
    assert len(result.track) == 13
    assert not result.overflowed


@pytest.mark.rule("TRACK-9")
@pytest.mark.rule("TRACK-8")
def test_a_die_added_to_a_full_track_overflows_TRACK_9() -> None:
    result = place(full_of_skills(), skill(99))
    assert result.overflowed
    assert len(result.track) == TRACK_LIMIT


@pytest.mark.rule("TRACK-9a")
def test_an_overflowing_skill_die_is_drained_TRACK_9a() -> None:
    # given a full track, when a skill die must be added
    result = place(full_of_skills(), skill(99))
    # then it is drained and not on the track
    assert 99 in result.drained
    assert not is_on_track(result.track, 99)


@pytest.mark.rule("TRACK-9a")
@pytest.mark.rule("DRAINED-4")
def test_an_overflowing_fatigue_die_is_returned_not_drained_DRAINED_4() -> None:
    result = place(full_of_skills(), LIGHT)
    assert result.returned == (LIGHT,)
    assert result.drained == (13,)  # only the die replaced by TRACK-9b


@pytest.mark.rule("TRACK-9a")
@pytest.mark.rule("DRAINED-4")
def test_an_overflowing_status_die_is_returned_not_drained_DRAINED_4() -> None:
    result = place(full_of_skills(), status(Status.BANE))
    assert result.returned == (status(Status.BANE),)
    assert Status.BANE not in statuses(result.track)


@pytest.mark.rule("TRACK-9b")
def test_overflow_turns_the_rightmost_non_overfatigue_die_into_overfatigue_TRACK_9b() -> None:
    # given a full track whose two rightmost dice are Overfatigue
    track = (*skills(*range(1, 12)), OVER, OVER)
    # when a die overflows
    result = place(track, LIGHT)
    # then the die left of them (skill 11) becomes Overfatigue in place
    assert result.track == (*skills(*range(1, 11)), OVER, OVER, OVER)


@pytest.mark.rule("TRACK-9c")
def test_a_skill_die_replaced_by_overfatigue_is_drained_TRACK_9c() -> None:
    result = place(full_of_skills(), LIGHT)
    assert result.drained == (13,)
    assert not is_on_track(result.track, 13)


@pytest.mark.rule("TRACK-9c")
@pytest.mark.rule("DRAINED-4")
def test_a_fatigue_or_status_die_replaced_by_overfatigue_is_returned_DRAINED_4() -> None:
    # given a full track ending with a status die after a Light fatigue
    track = (*skills(*range(1, 12)), LIGHT, status(Status.MAIM))
    # when two skill dice overflow
    result = place_all(track, (skill(20), skill(21)))
    # then both replaced dice go back to the supply, nothing of them drains
    assert result.returned == (status(Status.MAIM), LIGHT)
    assert result.drained == (20, 21)
    assert result.track[-2:] == (OVER, OVER)


@pytest.mark.rule("TRACK-9c")
def test_facts_default_a_full_track_of_overfatigue_only_drains_the_incoming_die_TRACK_9c() -> None:
    # given a track of thirteen Overfatigue
    track = (OVER,) * TRACK_LIMIT
    # when a skill die must be added
    result = place(track, skill(7))
    # then only that die is drained and the track is unchanged
    assert result.drained == (7,)
    assert result.returned == ()
    assert result.track == track
    assert result.overflowed


@pytest.mark.rule("TRACK-9a")
@pytest.mark.rule("TRACK-9b")
def test_an_overflowing_overfatigue_is_returned_and_still_replaces_a_die_TRACK_9b() -> None:
    # given a full track, when an Overfatigue must be added
    result = place(full_of_skills(), OVER)
    # then it goes back to the supply (9a) and the rightmost die still
    # becomes Overfatigue (9b), draining it (9c)
    assert result.returned == (OVER,)
    assert result.drained == (13,)
    assert result.track == (*skills(*range(1, 13)), OVER)


# --- Status dice -----------------------------------------------------------


@pytest.mark.rule("TRACK-10")
@pytest.mark.rule("STATUS-8")
def test_a_duplicate_status_moves_the_existing_die_to_the_end_TRACK_10_STATUS_8() -> None:
    # given Daze in the middle of the track
    track = (skill(1), status(Status.DAZE), skill(2))
    # when Daze is gained again
    result = place(track, status(Status.DAZE))
    # then no second Daze is added; the existing one moves to the end
    assert result.track == (skill(1), skill(2), status(Status.DAZE))
    assert result.refreshed
    assert count(result.track, DieKind.STATUS) == 1


@pytest.mark.rule("TRACK-10")
@pytest.mark.rule("TRACK-9")
def test_refreshing_a_status_on_a_full_track_is_not_an_overflow_TRACK_10() -> None:
    # given a full track holding Fear
    track = (status(Status.FEAR), *skills(*range(1, TRACK_LIMIT)))
    # when Fear is gained again
    result = place(track, status(Status.FEAR))
    # then it is refreshed and nothing drains or returns
    assert result.refreshed and not result.overflowed
    assert result.track == (*skills(*range(1, TRACK_LIMIT)), status(Status.FEAR))
    assert result.drained == () and result.returned == ()


@pytest.mark.rule("STATUS-7")
def test_different_statuses_stack_STATUS_7() -> None:
    result = place_all((), (status(Status.BANE), status(Status.BLIND)))
    assert statuses(result.track) == {Status.BANE, Status.BLIND}
    assert not result.refreshed


@pytest.mark.rule("STATUS-6")
def test_an_adventurer_has_the_statuses_on_its_track_STATUS_6() -> None:
    track = (skill(1), status(Status.MAIM), LIGHT, status(Status.STEALTH))
    assert statuses(track) == {Status.MAIM, Status.STEALTH}
    assert statuses(()) == frozenset()


@pytest.mark.rule("STATUS-6")
@pytest.mark.rule("TRACK-6")
def test_removing_a_status_die_ends_the_status_and_slides_left_STATUS_6() -> None:
    # given Daze on the track, when Daze is removed at the end of the turn
    track = (skill(1), status(Status.DAZE), skill(2))
    new_track, removed = remove_status(track, Status.DAZE)
    # then the die comes off and the rest slide left
    assert removed == status(Status.DAZE)
    assert new_track == skills(1, 2)
    assert Status.DAZE not in statuses(new_track)


@pytest.mark.rule("STATUS-6")
def test_removing_a_status_that_is_not_there_changes_nothing_STATUS_6() -> None:
    track = skills(1, 2)
    assert remove_status(track, Status.FEAR) == (track, None)


def test_a_status_die_without_a_status_is_refused() -> None:
    with pytest.raises(ValueError):
        place((), TrackDie(DieKind.STATUS))


# --- Removing, reading -----------------------------------------------------


@pytest.mark.rule("TRACK-6")
def test_removing_a_die_slides_the_rest_left_TRACK_6() -> None:
    assert remove((skill(1), LIGHT, skill(2)), 1) == skills(1, 2)


@pytest.mark.rule("TRACK-6")
def test_removing_from_an_empty_place_is_an_error_TRACK_6() -> None:
    with pytest.raises(IndexError, match="^no die at 1 on a track of 1$"):
        remove(skills(1), 1)


@pytest.mark.rule("TRACK-5")
def test_a_skill_die_on_the_track_cannot_be_used_TRACK_5() -> None:
    track = (skill(3), LIGHT)
    assert is_on_track(track, 3)
    assert not is_on_track(track, 4)
    assert not is_on_track(track, 0)  # fatigue dice carry uid 0 but are not skill dice


def test_count_counts_dice_of_one_kind() -> None:
    track = (skill(1), LIGHT, OVER, LIGHT)
    assert count(track, DieKind.LIGHT_FATIGUE) == 2
    assert count(track, DieKind.OVERFATIGUE) == 1
    assert count(track, DieKind.STATUS) == 0


# --- Recovery --------------------------------------------------------------


@pytest.mark.rule("RECOVER-1")
@pytest.mark.rule("COOLDOWN-3")
def test_recovery_removes_cooldown_dice_from_the_left_and_slides_RECOVER_1() -> None:
    # given four dice, when an adventurer with Cooldown 2 recovers
    result = recover(skills(1, 2, 3, 4), 2)
    # then the two leftmost leave and the rest slide left (COOLDOWN-3)
    assert result.track == skills(3, 4)


@pytest.mark.rule("RECOVER-2")
def test_a_removed_skill_die_is_recovered_RECOVER_2() -> None:
    result = recover((skill(5), LIGHT), 1)
    assert result.recovered == (5,)
    assert result.discarded == ()


@pytest.mark.rule("RECOVER-3")
def test_a_removed_light_fatigue_is_discarded_RECOVER_3() -> None:
    result = recover((LIGHT, skill(1)), 1)
    assert result.discarded == (LIGHT,)
    assert result.track == skills(1)


@pytest.mark.rule("RECOVER-4")
def test_a_removed_overfatigue_goes_to_the_end_of_the_queue_RECOVER_4() -> None:
    # given Overfatigue leftmost, when one die is recovered
    result = recover((OVER, skill(1), skill(2)), 1)
    # then it is placed right after the last die, not discarded
    assert result.track == (skill(1), skill(2), OVER)
    assert result.replaced_overfatigue == 1
    assert result.discarded == () and result.recovered == ()


@pytest.mark.rule("RECOVER-5")
def test_a_removed_status_die_is_discarded_RECOVER_5() -> None:
    result = recover((status(Status.BLIND), skill(1)), 1)
    assert result.discarded == (status(Status.BLIND),)
    assert Status.BLIND not in statuses(result.track)


@pytest.mark.rule("RECOVER-1")
@pytest.mark.rule("RECOVER-2")
@pytest.mark.rule("RECOVER-3")
@pytest.mark.rule("RECOVER-4")
@pytest.mark.rule("RECOVER-5")
def test_recovery_handles_each_kind_in_one_step_RECOVER_1_to_5() -> None:
    track = (skill(1), OVER, LIGHT, status(Status.BANE), skill(2))
    result = recover(track, 4)
    assert result.track == (skill(2), OVER)
    assert result.recovered == (1,)
    assert result.discarded == (LIGHT, status(Status.BANE))
    assert result.replaced_overfatigue == 1


@pytest.mark.rule("COOLDOWN-2")
@pytest.mark.rule("TRACK-2")
def test_cooldown_is_the_most_dice_removed_TRACK_2_COOLDOWN_2() -> None:
    # given fewer dice than the Cooldown stat, all of them leave
    assert recover(skills(1, 2), 5).recovered == (1, 2)
    # and with more dice than the stat, only that many leave
    assert recover(skills(1, 2, 3), 2).track == skills(3)


@pytest.mark.rule("COOLDOWN-2")
def test_cooldown_zero_removes_nothing_COOLDOWN_2() -> None:
    track = skills(1, 2)
    assert recover(track, 0).track == track


def test_a_negative_cooldown_is_refused() -> None:
    with pytest.raises(ValueError):
        recover((), -1)


@pytest.mark.rule("RECOVER-1")
@pytest.mark.rule("RECOVER-4")
def test_facts_default_a_replaced_overfatigue_leaves_once_per_step_RECOVER_4() -> None:
    # given two Overfatigue and a skill die, when Cooldown is larger than that
    result = recover((OVER, skill(1), OVER), 6)
    # then each die leaves once: the skill die recovers, both Overfatigue
    # go round once and stay, in their order
    assert result.recovered == (1,)
    assert result.track == (OVER, OVER)
    assert result.replaced_overfatigue == 2


@pytest.mark.rule("RECOVER-1")
def test_facts_default_the_full_cooldown_count_is_always_removed_RECOVER_1() -> None:
    result = recover(skills(1, 2, 3, 4), 3)
    assert result.recovered == (1, 2, 3)


# --- Property --------------------------------------------------------------

SKILL_UIDS = tuple(range(1, 21))
OTHER_DICE = (LIGHT, OVER, *(status(s) for s in Status))


@pytest.mark.rule("TRACK-8")
@pytest.mark.rule("TRACK-6")
@pytest.mark.rule("TRACK-9")
@pytest.mark.rule("STATUS-7")
@settings(max_examples=300)
@given(st.data())
def test_placements_and_recoveries_conserve_dice_TRACK_8(data: st.DataObject) -> None:
    """TRACK-8, TRACK-9, STATUS-7: over any run the track holds at most 13
    dice, at most one per status, and every die put in is exactly one of on
    the track, drained, returned, recovered or discarded."""
    track: tuple[TrackDie, ...] = ()
    available = set(SKILL_UIDS)  # skill dice off the track and not drained
    drained: list[int] = []
    put_in: Counter[DieKind] = Counter()  # non-skill dice actually added
    gone: Counter[DieKind] = Counter()  # non-skill dice returned or discarded
    overflows = 0

    for _ in range(data.draw(st.integers(0, 60), label="steps")):
        # Mostly placements, so that the track often fills and overflows.
        if data.draw(st.integers(0, 3), label="recover?") == 0:
            result = recover(track, data.draw(st.integers(0, 6), label="cooldown"))
            track = result.track
            available.update(result.recovered)
            gone.update(d.kind for d in result.discarded)
        else:
            choices = [*(skill(u) for u in sorted(available)), *OTHER_DICE]
            die = data.draw(st.sampled_from(choices), label="die")
            placed = place(track, die)
            track = placed.track
            if die.kind is DieKind.SKILL:
                available.discard(die.uid)
            elif not placed.refreshed:
                put_in[die.kind] += 1
            drained.extend(placed.drained)
            gone.update(d.kind for d in placed.returned)
            overflows += placed.overflowed

        assert len(track) <= TRACK_LIMIT
        status_dice = [d.status for d in track if d.kind is DieKind.STATUS]
        assert len(status_dice) == len(set(status_dice))

    on_track_uids = [d.uid for d in track if d.kind is DieKind.SKILL]
    every_skill = sorted([*available, *drained, *on_track_uids])
    assert every_skill == sorted(SKILL_UIDS)  # each skill die in exactly one place

    on_track = Counter(d.kind for d in track)
    for kind in (DieKind.LIGHT_FATIGUE, DieKind.STATUS):
        assert put_in[kind] == on_track[kind] + gone[kind]
    # TRACK-9b may bring at most one Overfatigue from the supply per overflow
    over = DieKind.OVERFATIGUE
    extra_over = on_track[over] + gone[over] - put_in[over]
    assert 0 <= extra_over <= overflows
