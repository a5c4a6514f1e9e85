"""Scenario tests of the adventurer turn: its steps (TURN-1 to TURN-6), the
Recovery step as it runs at the start of a turn (RECOVER-1 to RECOVER-5) and
the Cooldown stat (COOLDOWN-1 to COOLDOWN-3). The pure track functions are
tested in test_track.py."""

from __future__ import annotations

import pytest
from adventurer_arrange import LIGHT, OVER, foe_at, skill, status_die
from scenario import Scenario

from domain.betrayal.battle.commands import EndTurn, Engage, Move, Resolve
from domain.betrayal.battle.events import (
    DamageDealt,
    DiceRecovered,
    DiceRolled,
    EnemyTurnStarted,
    EngageDeclared,
    HeroMoved,
    HeroStatusLost,
    TurnEnded,
    TurnStarted,
    UnitDefeated,
)
from domain.betrayal.battle.heroes import statuses
from domain.betrayal.battle.state import Phase
from domain.betrayal.vocab import BattleForm, Status

LIGHT_FORM = BattleForm.LIGHT


def party_of_two(*, next_race: str = "dark-elf", **tarn) -> Scenario:
    """Ysolda (Nord) acts; Tarn is next in turn order. Tarn's dice as a Dark
    Elf: 1-2 Combat, 3 Shield Bash, 4 Guard Up, 5 Brace, 6 Second Wind."""
    given = Scenario.clash(party=("Ysolda:nord", f"Tarn:{next_race}"))
    return given.with_hero("tarn", **tarn) if tarn else given


def index(then, kind, **fields) -> int:
    event = then.then_has(kind, **fields)
    return next(i for i, e in enumerate(then.events) if e is event)


# --- TURN-1, TURN-5: actions in any order, each fully resolved ---------------


@pytest.mark.rule("TURN-1")
def test_an_adventurer_may_engage_first_and_move_afterwards():
    given = Scenario.clash()
    engaged = given.when(Engage(form=LIGHT_FORM)).next()
    then = engaged.when(Move(to=(1, 0)))
    then.then_has(HeroMoved, hero="ysolda", path=((1, 0),))
    assert then.state.turn.moves == 1 and then.state.turn.engages == 1


@pytest.mark.rule("TURN-1")
def test_an_adventurer_may_move_first_and_engage_afterwards():
    given = Scenario.clash()
    moved = given.when(Move(to=(1, 0))).next()
    then = moved.when(Engage(form=BattleForm.HEAVY))
    then.then_has(EngageDeclared, hero="ysolda", number=1, form=BattleForm.HEAVY, target=None)


@pytest.mark.rule("TURN-5")
@pytest.mark.parametrize(
    "command", [Move(to=(1, 0)), Engage(form=LIGHT_FORM), EndTurn()], ids=["move", "engage", "end-turn"]
)
def test_no_other_action_starts_while_an_engages_dice_wait_to_be_resolved(command):
    rolling = Scenario.clash().when(Engage(form=LIGHT_FORM, dice=(1,))).next()
    assert rolling.state.phase is Phase.ENGAGE_RESOLVE
    rolling.then_violates(command, "TURN-5")


@pytest.mark.rule("TURN-5")
def test_once_the_dice_are_resolved_the_next_action_may_start():
    given = Scenario.clash()
    resolved = given.when(Engage(form=LIGHT_FORM, dice=(1,))).next().when(Resolve()).next()
    assert resolved.state.phase is Phase.ADVENTURER_TURN
    resolved.when(Move(to=(1, 0))).then_has(HeroMoved, hero="ysolda")


# --- TURN-2 to TURN-4: start of turn, then Recovery --------------------------


@pytest.mark.rule("TURN-2")
@pytest.mark.rule("TURN-3")
@pytest.mark.rule("TURN-4")
def test_a_turn_starts_then_resolves_start_of_turn_effects_then_recovers():
    given = party_of_two(track=(status_die(Status.BANE), skill(3, 1), skill(4, 1)))
    then = given.when(EndTurn())
    ended = index(then, TurnEnded, hero="ysolda")
    started = index(then, TurnStarted, hero="tarn")
    bane = index(then, DamageDealt, target="tarn", rule="STATUS-1")
    recovery = index(then, DiceRecovered, hero="tarn")
    assert ended < started < bane < recovery


@pytest.mark.rule("TURN-3")
@pytest.mark.rule("RECOVER-5")
def test_bane_hurts_at_the_start_of_turn_even_though_recovery_then_discards_it():
    given = party_of_two(track=(status_die(Status.BANE), skill(3, 1)))
    then = given.when(EndTurn())
    then.then_has(DamageDealt, target="tarn", amount=1, true_damage=True, to_hp=1, hp=3)
    then.then_has(DiceRecovered, hero="tarn", recovered=(3,), discarded=(status_die(Status.BANE),), track=())
    assert then.state.hero("tarn").hp == 3
    assert statuses(then.state.hero("tarn")) == frozenset()


@pytest.mark.rule("TURN-3")
@pytest.mark.rule("HEALTH-5")
def test_an_adventurer_who_falls_at_the_start_of_turn_takes_no_recovery_and_no_actions():
    given = party_of_two(hp=1, track=(status_die(Status.BANE), skill(3, 1)))
    then = given.when(EndTurn())
    then.then_has(UnitDefeated, unit="tarn")
    then.then_has(TurnEnded, hero="tarn")
    assert not [e for e in then.of(DiceRecovered) if e.hero == "tarn"]
    tarn = then.state.hero("tarn")
    assert tarn.defeated and tarn.pos is None and tarn.track == (status_die(Status.BANE), skill(3, 1))


@pytest.mark.rule("TURN-4")
@pytest.mark.rule("RECOVER-1")
@pytest.mark.rule("COOLDOWN-3")
def test_recovery_at_the_start_of_turn_takes_the_leftmost_dice_and_slides_the_rest():
    given = party_of_two(track=(skill(3, 1), skill(4, 2), skill(5, 3), skill(6, 4)))
    then = given.when(EndTurn())
    then.then_has(
        DiceRecovered,
        hero="tarn",
        recovered=(3, 4),
        discarded=(),
        replaced_overfatigue=0,
        track=(skill(5, 3), skill(6, 4)),
    )
    assert then.state.hero("tarn").track == (skill(5, 3), skill(6, 4))


@pytest.mark.rule("RECOVER-2")
@pytest.mark.rule("TRACK-5")
def test_a_recovered_skill_die_can_be_rolled_that_turn_but_one_still_queued_cannot():
    given = party_of_two(track=(skill(3, 1), skill(1, 2), skill(4, 1)))
    turn = given.when(EndTurn()).next()
    assert turn.state.turn.hero == "tarn"
    turn.then_violates(Engage(form=LIGHT_FORM, dice=(4,)), "TRACK-5")
    turn.when(Engage(form=LIGHT_FORM, dice=(3, 1))).then_has(DiceRolled, unit="tarn")


@pytest.mark.rule("RECOVER-3")
def test_light_fatigue_taken_off_in_recovery_is_discarded():
    given = party_of_two(track=(LIGHT, LIGHT, skill(3, 1)))
    then = given.when(EndTurn())
    then.then_has(DiceRecovered, hero="tarn", recovered=(), discarded=(LIGHT, LIGHT), track=(skill(3, 1),))


@pytest.mark.rule("RECOVER-4")
def test_overfatigue_taken_off_in_recovery_goes_back_behind_the_last_die():
    given = party_of_two(track=(OVER, skill(3, 1), skill(4, 1)))
    then = given.when(EndTurn())
    then.then_has(
        DiceRecovered, hero="tarn", recovered=(3,), discarded=(), replaced_overfatigue=1, track=(skill(4, 1), OVER)
    )


@pytest.mark.rule("RECOVER-5")
@pytest.mark.rule("STATUS-6")
def test_a_status_taken_off_in_recovery_is_discarded_and_its_effect_ends():
    given = party_of_two(track=(status_die(Status.FEAR), skill(3, 1), skill(4, 1)))
    assert Status.FEAR in statuses(given.state.hero("tarn"))
    then = given.when(EndTurn())
    then.then_has(
        DiceRecovered, hero="tarn", recovered=(3,), discarded=(status_die(Status.FEAR),), track=(skill(4, 1),)
    )
    assert statuses(then.state.hero("tarn")) == frozenset()


# --- TURN-6: end of turn ---------------------------------------------------------


@pytest.mark.rule("TURN-6")
def test_at_the_end_of_turn_daze_comes_off_then_play_passes_to_the_next_adventurer():
    given = party_of_two().with_hero("ysolda", track=(skill(1, 1), status_die(Status.DAZE)))
    then = given.when(EndTurn())
    lost = index(then, HeroStatusLost, hero="ysolda", status=Status.DAZE, rule="STATUS-1")
    ended = index(then, TurnEnded, hero="ysolda")
    started = index(then, TurnStarted, hero="tarn")
    assert lost < ended < started
    assert then.state.hero("ysolda").track == (skill(1, 1),)
    assert then.state.turn.hero == "tarn"


@pytest.mark.rule("TURN-6")
def test_after_the_last_adventurers_turn_play_passes_to_the_enemies():
    given = foe_at(Scenario.clash(), 4, enemy="shore-crab")
    then = given.when(EndTurn())
    assert index(then, TurnEnded, hero="ysolda") < index(then, EnemyTurnStarted, foe="e1")


# --- COOLDOWN ------------------------------------------------------------------


@pytest.mark.rule("COOLDOWN-1")
@pytest.mark.rule("COOLDOWN-2")
@pytest.mark.parametrize(("race", "cooldown"), [("orc", 3), ("redguard", 1), ("dark-elf", 2)])
def test_recovery_removes_as_many_dice_as_the_race_sheets_cooldown(race, cooldown):
    track = (skill(1, 1), skill(2, 1), skill(3, 1), skill(4, 1))
    given = party_of_two(next_race=race, track=track)
    assert given.state.hero("tarn").cooldown == cooldown
    then = given.when(EndTurn())
    then.then_has(DiceRecovered, hero="tarn", recovered=tuple(range(1, cooldown + 1)), track=track[cooldown:])


@pytest.mark.rule("COOLDOWN-2")
@pytest.mark.rule("RECOVER-4")
def test_cooldown_above_the_dice_on_the_track_takes_each_die_once():
    given = party_of_two(next_race="orc", track=(OVER, skill(2, 1)))
    then = given.when(EndTurn())
    then.then_has(DiceRecovered, hero="tarn", recovered=(2,), replaced_overfatigue=1, track=(OVER,))


@pytest.mark.rule("TURN-6")
def test_an_adventurer_felled_during_its_own_turn_in_a_clash_ends_it_and_play_passes_on():
    """What a delve's traps and cards can do (fell the adventurer whose turn
    it is), checked where no delve is: the turn ends and the next one starts."""
    from domain.betrayal.battle import flow
    from domain.betrayal.battle.decision import Decision

    given = party_of_two().with_hero("ysolda", hp=0, defeated=True)
    assert given.state.turn.hero == "ysolda"
    d = Decision(given.state, given.ctx)
    flow.finish_if_fallen(d, "ysolda")
    assert [type(e) for e in d.events][:2] == [TurnEnded, TurnStarted]
    assert (d.events[0].hero, d.events[1].hero) == ("ysolda", "tarn")
