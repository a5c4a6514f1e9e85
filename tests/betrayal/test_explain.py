"""Why an enemy moved and whom it designated (``domain.betrayal.battle.enemies.explain``):
the replayed decision names each rule it applies (ENEMY-6a, EMOVE-1 to
EMOVE-10, ENEMY-6b, ENEMY-6f, ENEMY-6g), and always lands where the log
says the enemy went, on the targets the log says it designated.

Constructed scenarios are one- or two-adventurer clashes on Waystone
Crossing with hand-placed chips (enemy rolls typed, so enemy turns wait
for dice after designating); golden logs and bot play check agreement
with every enemy decision recorded.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from scenario import Scenario

from domain.betrayal.battle.enemies.activations import Activation, activations
from domain.betrayal.battle.application import BetrayalApp, PartySpec, new_clash
from domain.betrayal.battle.bots import greedy_choice, random_choice
from domain.betrayal.battle.commands import EndTurn, RollEnemyDice
from domain.betrayal.battle.evolve import evolve
from domain.betrayal.battle.enemies.explain import (
    Approach,
    Default,
    Designation,
    Destinations,
    Explanation,
    Route,
    Sizing,
    Stay,
    explain,
)
from domain.betrayal.battle.enemies.explain_text import lines, summary
from domain.betrayal.packs.load import starter_pack
from domain.betrayal.battle.state import Foe, Phase
from domain.betrayal.vocab import BattleForm, Priority
from domain.kernel.portable import import_log

PACK = starter_pack()
LOGS = Path(__file__).resolve().parents[2] / "logs"
BETRAYAL_LOGS = sorted(
    p.name for p in LOGS.glob("*.jsonl") if not p.name.startswith(("conquest", "campaign", "labyrinth"))
)  # Betrayal battles
ARCHER = "Ysolda:nord:bow+one-hand-shield"
MISS = 0  # the enemy die's first face


def chip(fid: str, enemy_id: str, pos, **changes) -> Foe:
    e = PACK.enemies[enemy_id]
    fields = dict(id=fid, enemy=enemy_id, level=e.level, hp=e.hp, max_hp=e.hp, pos=pos, quest=e.quest)
    return Foe(**(fields | changes))


def arena(*foes: Foe, party=(ARCHER,), at=((2, 1),)) -> Scenario:
    """Round 1, the first adventurer's turn, the party on ``at`` and only
    ``foes`` on the map."""
    given = Scenario.clash(party=party, xp=1, physical_dice=True).with_state(foes=foes)
    for hero_id, pos in zip(given.state.order, at):
        given = given.with_hero(hero_id, pos=pos)
    return given


def explained(given: Scenario, *commands) -> list[tuple[Explanation, Activation]]:
    """Play ``commands``; each enemy turn's explanation, replayed from the
    state just before its decision showed, with what the events recorded."""
    states, events = [given.state], []
    for command in commands:
        then = given.when(command)
        for e in then.events:
            events.append(e)
            states.append(evolve(states[-1], e))
        given = then.next()
    turns = activations(enumerate(events, start=1))
    return [(explain(states[t.decided - 1], given.ctx, t.foe), t) for t in turns if t.decided]


def step(why: Explanation, kind):
    found = [s for s in why.steps if isinstance(s, kind)]
    assert len(found) == 1, why.steps
    return found[0]


def agrees(why: Explanation, turn: Activation) -> bool:
    return (why.path, why.targets) == (turn.path, turn.targets)


# --- the move ------------------------------------------------------------------------


@pytest.mark.rule("EMOVE-1")
@pytest.mark.rule("ENEMY-5a")
def test_an_enemy_with_a_target_in_range_stays_and_the_explanation_names_that_target():
    # Road Lookout: range 3, Ysolda 3 hexes away
    [(why, turn)] = explained(arena(chip("e1", "road-lookout", (5, 0))), EndTurn())
    stay = step(why, Stay)
    assert (stay.rule, stay.unit, stay.range) == ("EMOVE-1", "ysolda", 3)
    assert why.path == turn.path == ()
    assert why.targets == turn.targets == ("ysolda",)


@pytest.mark.rule("EMOVE-2")
@pytest.mark.rule("EMOVE-7")
def test_among_equally_near_hexes_the_priority_icon_picks_the_destination():
    # From b5 two hexes are 2 steps away: c3 next to Ysolda (4 HP), d5 next
    # to Tarn (2 HP). The strongest-first Shore Crab heads for Ysolda's.
    given = arena(chip("e1", "shore-crab", (-1, 4)), party=(ARCHER, "Tarn:nord"), at=((2, 1), (2, 4)))
    given = given.with_hero("tarn", hp=2)
    [(why, turn)] = explained(given, EndTurn(), EndTurn())
    dest = step(why, Destinations)
    assert dest.distance == 2
    assert {(o.hex, o.target) for o in dest.options} == {((1, 2), "ysolda"), ((1, 4), "tarn")}
    assert dest.goal == (1, 2) == turn.path[-1]
    assert step(why, Sizing).priority is Priority.STRONGEST
    assert agrees(why, turn)


@pytest.mark.rule("EMOVE-7")
def test_the_weakest_first_icon_picks_the_other_destination_from_the_same_hex():
    # the same board with a Tunnel Rat (weakest first, range 1): Tarn's hex
    given = arena(chip("e1", "tunnel-rat", (-1, 4)), party=(ARCHER, "Tarn:nord"), at=((2, 1), (2, 4)))
    given = given.with_hero("tarn", hp=2)
    [(why, turn)] = explained(given, EndTurn(), EndTurn())
    dest = step(why, Destinations)
    assert dest.goal == (1, 4) == turn.path[-1]
    assert next(o for o in dest.options if o.hex == dest.goal).target == "tarn"
    assert agrees(why, turn)


@pytest.mark.rule("EMOVE-8")
@pytest.mark.rule("EMOVE-9")
def test_a_tie_between_hexes_is_named_with_the_reading_order_default():
    # From b3 both b2 and c3 put the crab next to Ysolda, its strongest
    # target; c3 would reach Tarn too, which does not count (EMOVE-9). The
    # party would choose; our default, reading order, takes b2.
    given = arena(chip("e1", "shore-crab", (0, 2)), party=(ARCHER, "Tarn:nord"), at=((2, 1), (1, 3)))
    given = given.with_hero("tarn", hp=2)
    [(why, turn)] = explained(given, EndTurn(), EndTurn())
    dest = step(why, Destinations)
    assert dest.tie is not None
    assert (dest.tie.rule, dest.tie.default) == ("EMOVE-8", Default.READING_ORDER)
    assert dest.tie.among == ((1, 1), (1, 2))
    assert dest.goal == dest.tie.among[0] == turn.path[-1]
    reaches = {o.hex: o.reaches for o in dest.options}
    assert reaches[(1, 2)] > reaches[(1, 1)]
    said = dict(lines(why, given.state, PACK))
    assert "reading order" in said["EMOVE-8"] and "c3" in said["EMOVE-9"]
    assert agrees(why, turn)


@pytest.mark.rule("EMOVE-4")
@pytest.mark.rule("EMOVE-3")
def test_a_destination_out_of_reach_is_approached_two_hexes_along_the_named_route():
    [(why, turn)] = explained(arena(chip("e1", "shore-crab", (8, 0))), EndTurn())
    route = step(why, Route)
    assert route.rule == "EMOVE-4" and not route.arrived
    assert route.path == ((7, 0), (6, 0)) == turn.path
    assert route.route[0] == (8, 0) and route.route[1:3] == route.path
    assert agrees(why, turn)


@pytest.mark.rule("EMOVE-4")
def test_equal_routes_ending_on_different_hexes_are_a_tie_broken_by_direction_order():
    # From c6 the crab cannot reach its destination this turn, and two
    # shortest routes leave it on different hexes
    [(why, turn)] = explained(arena(chip("e1", "shore-crab", (0, 5))), EndTurn())
    route = step(why, Route)
    assert route.tie is not None
    assert (route.tie.rule, route.tie.default) == ("EMOVE-4", Default.DIRECTION_ORDER)
    assert route.tie.among[0] == turn.path[-1] and len(route.tie.among) > 1


@pytest.mark.rule("EMOVE-5")
def test_an_enemy_that_reaches_its_destination_stops_there():
    [(why, turn)] = explained(arena(chip("e1", "shore-crab", (4, 1))), EndTurn())
    route = step(why, Route)
    assert (route.rule, route.arrived, route.path) == ("EMOVE-5", True, ((3, 1),))
    assert agrees(why, turn)


@pytest.mark.rule("EMOVE-10")
def test_with_no_hex_to_attack_from_it_approaches_the_nearest_hostile_unit():
    # Ysolda in a corner, both neighbours held by crabs: the third crab
    # closes in on her as near as it can
    given = arena(
        chip("e1", "shore-crab", (1, 0)),
        chip("e2", "shore-crab", (0, 1)),
        chip("e3", "shore-crab", (4, 0)),
        at=((0, 0),),
    )
    turns = explained(given, EndTurn(), RollEnemyDice(faces=(MISS,)), RollEnemyDice(faces=(MISS,)))
    why, turn = next((w, t) for w, t in turns if t.foe == "e3")
    approach = step(why, Approach)
    assert approach.unit == "ysolda"
    assert approach.end == (2, 0) == turn.path[-1]
    assert approach.path == turn.path == ((3, 0), (2, 0))
    nearest = min(d for _, d, _ in approach.hexes)
    assert next(d for h, d, _ in approach.hexes if h == approach.end) == nearest
    assert all(agrees(w, t) for w, t in turns)


# --- the engage ----------------------------------------------------------------------


@pytest.mark.rule("ENEMY-6b")
def test_targets_tied_on_hp_for_one_place_are_named_with_the_turn_order_default():
    # Shore Crab (strongest, 1 target) between two adventurers of equal HP
    given = arena(chip("e1", "shore-crab", (3, 1)), party=(ARCHER, "Tarn:nord"), at=((2, 1), (4, 1)))
    [(why, turn)] = explained(given, EndTurn(), EndTurn())
    designation = step(why, Designation)
    assert designation.chosen == turn.targets == ("ysolda",)
    [tie] = designation.ties
    assert (tie.rule, tie.default, tie.among) == ("ENEMY-6b", Default.TURN_ORDER, ("ysolda", "tarn"))
    said = dict(lines(why, given.state, PACK))
    assert "turn order" in said["ENEMY-6b"]


@pytest.mark.rule("ENEMY-6a")
@pytest.mark.rule("ENEMY-6f")
@pytest.mark.rule("ENEMY-6g")
def test_two_designated_targets_of_equal_hp_are_hit_in_turn_order():
    # Storm Caller: range 3, 2 targets, weakest first; Tarn and Brand 2 HP each
    given = (
        arena(
            chip("e1", "storm-caller", (4, 1)),
            party=(ARCHER, "Tarn:dark-elf", "Brand:imperial"),
            at=((2, 1), (2, 0), (2, 2)),
        )
        .with_hero("tarn", hp=2)
        .with_hero("brand", hp=2)
    )
    [(why, turn)] = explained(given, EndTurn(), EndTurn(), EndTurn())
    designation = step(why, Designation)
    assert designation.count == 2
    assert designation.chosen == turn.targets == ("tarn", "brand")
    assert [s.unit for s in designation.seen] == ["tarn", "brand", "ysolda"]  # priority order
    [tie] = designation.ties
    assert (tie.rule, tie.among) == ("ENEMY-6g", ("tarn", "brand"))
    said = lines(why, given.state, PACK)
    assert ("ENEMY-6f", "Damage resolves in that order: Tarn and Brand.") in said


@pytest.mark.rule("ENEMY-6a")
def test_an_enemy_with_nobody_in_range_and_sight_designates_nobody():
    [(why, turn)] = explained(arena(chip("e1", "shore-crab", (8, 0))), EndTurn())
    designation = step(why, Designation)
    assert designation.chosen == turn.targets == ()
    assert all(not s.targetable for s in designation.seen)
    assert summary(why, arena().state, PACK).endswith("designated nobody")


# --- agreement with whole battles -------------------------------------------------------


def _check_every_turn(app: BetrayalApp, battle_id: str) -> int:
    """Explain every enemy turn of the battle from its log; the count."""
    envelopes = app.stream(battle_id)
    turns = [t for t in activations((e.originator_version, e.event) for e in envelopes) if t.decided]
    for turn in turns:
        before = turn.decided - 1
        why = explain(app.battle(battle_id, before).state, app.rules_context(battle_id, before), turn.foe)
        assert (why.path, why.targets) == (turn.path, turn.targets), (battle_id, turn)
        assert lines(why, app.battle(battle_id, before).state, app.pack_of("betrayal"))
    return len(turns)


@pytest.mark.rule("ENEMY-5")
@pytest.mark.rule("ENEMY-6a")
@pytest.mark.parametrize("name", BETRAYAL_LOGS)
def test_every_enemy_decision_of_a_golden_log_is_explained_as_recorded(name):
    app = BetrayalApp(store="memory")
    battle_id = import_log(app, (LOGS / name).read_bytes())
    assert _check_every_turn(app, battle_id) > 0


PARTY = (
    PartySpec("Ysolda", "nord", ("bow", "one-hand-shield"), BattleForm.RANGED),
    PartySpec("Tarn", "dark-elf", ("destruction-staff",), BattleForm.MAGIC),
    PartySpec("Brand", "imperial", ("two-handed",), BattleForm.HEAVY),
)


@pytest.mark.rule("ENEMY-5")
@pytest.mark.rule("ENEMY-6a")
@pytest.mark.parametrize("seed", range(6))
def test_over_bot_play_every_explanation_agrees_with_the_log(seed):
    rnd = random.Random(seed)
    app = BetrayalApp(store="memory")
    setup = sorted(PACK.setups)[seed % len(PACK.setups)]
    battle_id = f"why{seed}"
    new_clash(app, setup=setup, party=PARTY[: 1 + seed % 3], xp=2 + seed % 4, seed=seed, battle_id=battle_id)
    bot = greedy_choice if seed % 2 else random_choice
    for _ in range(400):
        state = app.battle(battle_id).state
        if state.phase is Phase.ENDED:
            break
        app.execute(battle_id, bot(state, app.rules_context(battle_id), rnd))
    assert _check_every_turn(app, battle_id) > 0
