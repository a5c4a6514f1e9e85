"""How a delve ends (OBJ-4 to OBJ-11, END-1, END-2, RETREAT-1 to RETREAT-5,
CLEANUP, EX-5), and the application around a delve: a refused command
writes nothing in either stream, and undoing an exploration restores both
streams exactly.

Survey (the Whispering Barrow) succeeds at the end of the round in which
the last required skyshard was obtained; Uncover (the Drowned Cistern)
only by retreating after that. Uncover pays 1 XP per skyshard gained
(facts: OBJ-10) unless the party was wiped out."""

from __future__ import annotations

import random

import pytest
from delve_arrange import SURVEY, UNCOVER, DelveScenario

from domain.betrayal.battle.application import BetrayalApp, PartySpec, delve_stream
from domain.betrayal.battle.bots import delve_choice
from domain.betrayal.battle.commands import EndTurn, Explore, Move, MoveToExplore, NextRound, PlaceTile, Retreat
from domain.betrayal.delve.aggregate import (
    CardDrawn,
    DelveConcluded,
    DelveRestored,
    KeptCard,
    PlacedTile,
    Skyshard,
    TurnMarks,
)
from domain.betrayal.battle.events import BattleEnded, Explored, HeroCleanedUp, PartyRetreated
from domain.betrayal.battle.state import Outcome, Phase
from domain.kernel.errors import RuleViolation

LONG_DRAIN = PlacedTile("t1", "long-drain", 0, (18, 30))


def shards(n: int) -> tuple[Skyshard, ...]:
    return tuple(Skyshard(f"card-{i}", f"t{i}", "ysolda", 1) for i in range(n))


def delve_with(objective: str, gained: int, party=("Ysolda:nord", "Tarn:dark-elf")) -> DelveScenario:
    return DelveScenario.start(delve=objective, party=party).with_delve(obtained=shards(gained), icons=gained)


def end_of_round(given: DelveScenario):
    """End every adventurer turn of the round (no enemies are on the map)."""
    events, delve_events = [], []
    while given.state.phase is Phase.ADVENTURER_TURN:
        then = given.when(EndTurn())
        events += then.events
        delve_events += then.delve_events
        given = then.next()
    return given, events, delve_events


def last_shard_mid_turn(objective: str) -> DelveScenario:
    """Two skyshards gained; the third lies on t1, a step from Ysolda."""
    given = DelveScenario.start(
        delve=objective, party=("Ysolda:nord", "Tarn:dark-elf"), placements=((17, 31), (15, 30))
    )
    given = given.with_tiles(LONG_DRAIN).with_delve(
        obtained=shards(2), icons=3, kept=(KeptCard("rattling-bones", "t1", 1),)
    )
    return given.when(Move(to=(18, 31))).next()


# --- OBJ-4, END-1a, END-2: Survey ------------------------------------------------------------


@pytest.mark.rule("OBJ-4")
@pytest.mark.rule("END-2")
@pytest.mark.rule("END-1a")
def test_a_survey_succeeds_only_once_the_round_of_the_last_skyshard_is_over():
    given = last_shard_mid_turn(SURVEY)
    assert given.delve.complete
    assert given.state.phase is Phase.ADVENTURER_TURN  # the round goes on
    tarn = given.when(EndTurn()).next()
    assert tarn.state.turn.hero == "tarn" and tarn.state.outcome is None
    then = tarn.when(EndTurn())
    kinds = [type(e).__name__ for e in then.events]
    assert kinds.index("RoundEnded") < kinds.index("BattleEnded")
    ended = then.has(BattleEnded, outcome=Outcome.SUCCESS)
    assert ended.reason.startswith("END-1a")
    concluded = then.has(DelveConcluded, outcome="success", skyshards=3)
    assert concluded.xp == 0  # Survey gives only its printed XP (OBJ-10: "unlike the other objectives")
    assert then.state.phase is Phase.ENDED and then.delve.concluded == "success"


@pytest.mark.rule("OBJ-4")
@pytest.mark.rule("OBJ-5")
def test_a_survey_short_of_its_skyshards_goes_on_at_the_end_of_the_round():
    given, events, _ = end_of_round(delve_with(SURVEY, 2))
    assert not [e for e in events if isinstance(e, BattleEnded)]
    assert given.state.phase is Phase.END_OF_ROUND
    assert NextRound() in given.legal()


@pytest.mark.rule("OBJ-6")
@pytest.mark.rule("RETREAT-4")
@pytest.mark.rule("END-1b")
def test_a_survey_fails_when_the_party_retreats_without_every_skyshard():
    given, _, _ = end_of_round(delve_with(SURVEY, 2))
    then = given.when(Retreat())
    then.has(PartyRetreated)
    ended = then.has(BattleEnded, outcome=Outcome.FAILURE)
    assert ended.reason.startswith("OBJ-6")
    then.has(DelveConcluded, outcome="failure", skyshards=2, xp=0)


# --- OBJ-8 to OBJ-11, RETREAT-5, EX-5: Uncover ---------------------------------------------------


@pytest.mark.rule("OBJ-8")
@pytest.mark.rule("RETREAT-5")
@pytest.mark.rule("EX-5")
def test_an_uncover_delve_with_every_skyshard_succeeds_by_retreating():
    given = last_shard_mid_turn(UNCOVER)
    assert given.delve.complete
    given, events, _ = end_of_round(given)
    assert not [e for e in events if isinstance(e, BattleEnded)]  # obtaining them is not enough
    assert given.state.phase is Phase.END_OF_ROUND
    then = given.when(Retreat())
    ended = then.has(BattleEnded, outcome=Outcome.SUCCESS)
    assert ended.reason.startswith("RETREAT-5")
    then.has(DelveConcluded, outcome="success", skyshards=3, xp=3)


@pytest.mark.rule("OBJ-8")
def test_an_uncover_delve_with_every_skyshard_goes_on_if_the_party_does_not_retreat():
    given, _, _ = end_of_round(last_shard_mid_turn(UNCOVER))
    then = given.when(NextRound())
    then.lacks(BattleEnded)
    assert then.state.round == 2 and then.state.phase is Phase.ADVENTURER_TURN


@pytest.mark.rule("OBJ-9")
@pytest.mark.rule("OBJ-10")
@pytest.mark.rule("EX-5")
def test_an_early_retreat_from_uncover_fails_but_pays_one_xp_per_skyshard_gained():
    given, _, _ = end_of_round(delve_with(UNCOVER, 2))
    then = given.when(Retreat())
    ended = then.has(BattleEnded, outcome=Outcome.FAILURE)
    assert ended.reason.startswith("OBJ-9")
    then.has(DelveConcluded, outcome="failure", skyshards=2, xp=2)
    none, _, _ = end_of_round(delve_with(UNCOVER, 0))
    none.when(Retreat()).has(DelveConcluded, outcome="failure", skyshards=0, xp=0)


@pytest.mark.rule("OBJ-10")
def test_uncover_xp_counts_skyshards_only_up_to_the_requirement():
    given = DelveScenario.start(delve=UNCOVER).with_delve(obtained=shards(5), icons=5)
    assert given.delve.gained == 3
    given, _, _ = end_of_round(given)
    given.when(Retreat()).has(DelveConcluded, skyshards=3, xp=3)


@pytest.mark.rule("OBJ-11")
@pytest.mark.rule("END-1c")
@pytest.mark.rule("EX-5")
def test_a_wiped_out_party_gains_no_xp_even_with_skyshards():
    # Ysolda alone, 1 HP, on a tile whose miasma hurts at the start of her turn
    given = DelveScenario.start(delve=UNCOVER).with_tiles(LONG_DRAIN)
    given = given.with_delve(obtained=shards(2), icons=2, kept=(KeptCard("fungus-bloom", "t1", 0),))
    given = given.with_hero("ysolda", pos=(19, 31), hp=1)
    given, _, _ = end_of_round(given)
    then = given.when(NextRound())
    ended = then.has(BattleEnded, outcome=Outcome.FAILURE)
    assert ended.reason.startswith("END-1c")
    then.has(DelveConcluded, outcome="failure", skyshards=2, xp=0)


# --- RETREAT-1, RETREAT-2, END-1 ----------------------------------------------------------------


@pytest.mark.rule("RETREAT-1")
def test_a_delve_party_retreats_only_at_the_end_of_a_round():
    given = delve_with(UNCOVER, 3)
    given.then_violates(Retreat(), "RETREAT-1")
    at_end, _, _ = end_of_round(given)
    assert Retreat() in at_end.legal()


@pytest.mark.rule("RETREAT-2")
@pytest.mark.rule("END-1")
def test_a_retreat_ends_the_delve_at_once_and_nothing_more_can_be_done():
    given, _, _ = end_of_round(delve_with(UNCOVER, 1))
    given = given.with_delve(marks=TurnMarks(round=1, hero="tarn", explored=True))  # a turn's marks were kept
    then = given.when(Retreat())
    assert then.state.phase is Phase.ENDED and then.state.round == 1
    after = then.next()
    assert after.legal() == []
    for cmd in (NextRound(), EndTurn(), Explore(hex=(17, 30)), Move(to=(16, 30))):
        after.then_violates(cmd, "END-1")
    assert after.delve.concluded == "failure" and after.delve.marks is None


# --- CLEANUP after a delve -----------------------------------------------------------------------


@pytest.mark.rule("CLEANUP-1")
@pytest.mark.rule("CLEANUP-3")
@pytest.mark.rule("CLEANUP-3a")
@pytest.mark.rule("CLEANUP-4")
@pytest.mark.rule("CLEANUP-4a")
def test_the_end_of_battle_cleanup_follows_a_delve_too():
    # Ysolda took a skyshard worth 1 bonus HP; the cleanup removes it
    given = last_shard_mid_turn(UNCOVER)
    assert given.state.hero("ysolda").bonus_hp == 1
    given, _, _ = end_of_round(given)
    then = given.when(Retreat())
    cleaned = then.of(HeroCleanedUp)
    assert [e.hero for e in cleaned] == ["ysolda", "tarn"]
    assert all(h.bonus_hp == 0 and h.active == () for h in then.state.heroes)
    kinds = [type(e).__name__ for e in then.events]
    assert kinds.index("BattleEnded") < kinds.index("HeroCleanedUp")


@pytest.mark.rule("CLEANUP-4b")
def test_drained_dice_come_back_when_a_delve_ends():
    given = delve_with(UNCOVER, 1).with_hero("ysolda", drained=(1,))
    given, _, _ = end_of_round(given)
    then = given.when(Retreat())
    then.has(HeroCleanedUp, hero="ysolda", drained_recovered=(1,))
    assert then.state.hero("ysolda").drained == ()


@pytest.mark.rule("CLEANUP-3b")
@pytest.mark.rule("CLEANUP-4c")
def test_each_adventurer_takes_its_hp_and_cooldown_track_home_from_a_delve():
    app, _ = play(SURVEY, 4)
    final = app.battle("v").state
    for hero in final.heroes:
        stored = app.adventurer(hero.name)
        assert stored.hp == min(hero.hp, hero.max_hp) and stored.track == hero.track
        assert stored.battles == ("v",)


# --- an end-to-end delve, through the application -------------------------------------------------


def play(delve: str, seed: int) -> tuple[BetrayalApp, list]:
    """The delve bot plays a party of three to the end; what each command wrote."""
    app = BetrayalApp("memory")
    app.new_delve(
        delve=delve,
        party=[PartySpec("Ysolda", "nord"), PartySpec("Tarn", "redguard"), PartySpec("Aela", "orc")],
        xp=1,
        seed=seed,
        battle_id="v",
    )
    rnd = random.Random(seed)
    results = []
    for _ in range(400):
        game = app.battle("v")
        if game.state.phase is Phase.ENDED:
            break
        results.append(app.execute("v", delve_choice(game.state, app.rules_context("v"), rnd)))
    return app, results


@pytest.mark.rule("END-2")
@pytest.mark.rule("OBJ-4")
def test_a_played_survey_ends_in_success_at_the_end_of_the_round_its_skyshards_were_complete():
    app, results = play(SURVEY, 5)
    state = app.battle("v").state
    assert state.outcome is Outcome.SUCCESS
    last = results[-1]
    kinds = [type(e).__name__ for e in last.events]
    assert "RoundEnded" in kinds and kinds.index("RoundEnded") < kinds.index("BattleEnded")
    assert app.delve_of("v").gained == 3 and app.delve_of("v").concluded == "success"


@pytest.mark.rule("RETREAT-5")
@pytest.mark.rule("OBJ-8")
def test_a_played_uncover_delve_ends_in_success_only_by_its_retreat():
    app, results = play(UNCOVER, 5)
    assert app.battle("v").state.outcome is Outcome.SUCCESS
    assert isinstance(results[-1].events[0].command, Retreat)
    concluded = [e for _, events in results[-1].written for e in events if isinstance(e, DelveConcluded)]
    assert concluded[0].xp == 3


# --- the application: refusals write nothing; undo restores both streams --------------------------


def delve_app(placements=((16, 30),)) -> BetrayalApp:
    app = BetrayalApp("memory")
    app.new_delve(
        delve=SURVEY, party=[PartySpec("Ysolda", "nord")], xp=2, seed=11, battle_id="v", placements=placements
    )
    return app


def lengths(app: BetrayalApp) -> tuple[int, int]:
    return len(app.stream("v")), len(app.events(delve_stream("v")))


@pytest.mark.parametrize(
    "command, rule",
    [
        (Explore(hex=(17, 31)), "EXPLORE-1"),  # 3 hexes away; Stamina 2
        (Explore(hex=(16, 31)), "EXPLORATION-5"),  # no Connection icon
        (MoveToExplore(to=(15, 31)), "EXPLORATION-5"),
        (Explore(), "EXPLORATION-5"),  # standing on a plain hex
        (PlaceTile(rotation=0, origin=(18, 30)), "EXPLORATION-9"),  # no tile waiting
        (Retreat(), "RETREAT-1"),
        (NextRound(), "ROUND-8"),
    ],
)
def test_a_refused_delve_command_writes_nothing_in_either_stream_and_names_its_rule(command, rule):
    app = delve_app(placements=((15, 30),))
    before = lengths(app), app.battle("v").state, app.delve_of("v")
    with pytest.raises(RuleViolation) as caught:
        app.execute("v", command)
    assert caught.value.rule == rule and str(caught.value).startswith(rule)
    assert (lengths(app), app.battle("v").state, app.delve_of("v")) == before


@pytest.mark.rule("MOVE-4")
def test_a_move_refused_after_the_explore_action_writes_nothing():
    app = delve_app()
    app.execute("v", Explore(hex=(17, 30)))
    if app.delve_of("v").placing is not None:
        app.execute("v", app.legal("v")[0])
    before = lengths(app), app.battle("v").state, app.delve_of("v")
    with pytest.raises(RuleViolation) as caught:
        app.execute("v", Move(to=(15, 31)))
    assert caught.value.rule == "MOVE-4"
    assert (lengths(app), app.battle("v").state, app.delve_of("v")) == before
    with pytest.raises(RuleViolation) as caught:
        app.execute("v", Explore(hex=(99, 99)))
    assert caught.value.rule == "EXPLORE-1" and "not on this map" in caught.value.message
    assert lengths(app) == before[0]


def test_undoing_an_exploration_restores_the_battle_and_the_delve_exactly():
    app = delve_app()
    battle_before, delve_before = app.battle("v").state, app.delve_of("v")
    result = app.execute("v", Explore(hex=(17, 30)))
    assert any(isinstance(e, Explored) for e in result.events)
    assert any(isinstance(e, CardDrawn) for _, events in result.written for e in events)
    assert app.delve_of("v") != delve_before
    with pytest.raises(RuleViolation) as caught:  # a draw is a barrier
        app.undo("v")
    assert caught.value.rule == "UNDO-2"
    undone = app.undo("v", force=True)
    assert any(isinstance(e, DelveRestored) for _, events in undone.written for e in events)
    assert app.battle("v").state == battle_before
    assert app.delve_of("v") == delve_before
    # the same command draws the same card again (the counters came back)
    again = app.execute("v", Explore(hex=(17, 30)))
    drawn = [e for _, events in result.written for e in events if isinstance(e, CardDrawn)]
    redrawn = [e for _, events in again.written for e in events if isinstance(e, CardDrawn)]
    assert drawn == redrawn


def test_undoing_a_tile_placement_and_a_move_on_restores_both_streams_step_by_step():
    app = delve_app()
    app.execute("v", MoveToExplore(to=(17, 30)))
    snapshots = [(app.battle("v").state, app.delve_of("v"))]
    if app.delve_of("v").placing is not None:
        app.execute("v", app.legal("v")[-1])
        snapshots.append((app.battle("v").state, app.delve_of("v")))
    moves = [c for c in app.legal("v") if isinstance(c, Move)]
    app.execute("v", moves[0])
    app.execute("v", EndTurn())
    for state, delve in reversed(snapshots):
        while (app.battle("v").state, app.delve_of("v")) != (state, delve):
            app.undo("v", force=True)
        assert app.battle("v").state == state and app.delve_of("v") == delve
