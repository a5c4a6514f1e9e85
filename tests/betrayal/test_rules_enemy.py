"""Enemy turns through ``decide`` (ENEMY-*, EMOVE-* over a whole turn,
ESKILL-*, ECHIP-1, EX-10) and status effects on enemies (STATUS-1 with the
facts table: Bane, Daze, Maim, Fear, Blind, Stealth).

Every scenario is a one-adventurer clash on Waystone Crossing with the
enemies replaced by hand-placed chips of the starter pack. Enemy rolls are
typed (physical dice), so the faces are known: the enemy die is
miss, miss, 1, 1, 1, 2 (faces 0 to 5).
"""

import pytest
from scenario import Scenario

from domain.betrayal.battle.commands import EndTurn, Engage, Resolve, Retreat, RollEnemyDice
from domain.betrayal.battle.events import (
    DamageDealt,
    DieExhausted,
    EnemyEngaged,
    EnemyMoved,
    EnemyRollAwaited,
    EnemyTurnEnded,
    EnemyTurnStarted,
    EngageDeclared,
    Healed,
    HeroStatusGained,
    RoundEnded,
    StatusLifted,
    UnitDefeated,
)
from domain.betrayal.packs.load import starter_pack
from domain.betrayal.battle.state import ActiveDie, DieKind, Foe, Phase, StatusMark
from domain.betrayal.vocab import BattleForm, Status

PACK = starter_pack()
MISS, ONE, TWO = 0, 2, 5  # enemy die faces: miss, 1, 2
# Ysolda's dice with the Bow and One Hand and Shield lines: 1-3 Combat,
# 4 Steady Shot (blind face), 5 Tainted Arrow (bane and stealth faces),
# 6 Shield Bash (daze face), 7 Guard Up.
ARCHER = "Ysolda:nord:bow+one-hand-shield"


def chip(fid: str, enemy_id: str, pos, **changes) -> Foe:
    """An enemy of the starter pack on ``pos``, at full HP."""
    e = PACK.enemies[enemy_id]
    fields = dict(id=fid, enemy=enemy_id, level=e.level, hp=e.hp, max_hp=e.hp, pos=pos, quest=e.quest)
    fields.update(changes)
    return Foe(**fields)


def arena(*foes: Foe, party=(ARCHER,), at=((2, 1),), physical_dice=True) -> Scenario:
    """Round 1, the first adventurer's turn; the party stands on ``at`` (tile
    a of Waystone Crossing) and ``foes`` are the only enemies."""
    given = Scenario.clash(party=party, xp=1, physical_dice=physical_dice).with_state(foes=foes)
    for hero_id, pos in zip(given.state.order, at):
        given = given.with_hero(hero_id, pos=pos)
    return given


def play(given: Scenario, *commands):
    """Run the commands in order; the final state and every event."""
    events = []
    for command in commands:
        then = given.when(command)
        events += then.events
        given = then.next()
    return given.state, events


def of(events, kind, **fields):
    return [e for e in events if isinstance(e, kind) and all(getattr(e, k) == v for k, v in fields.items())]


def mark(status: Status, uid: int, owner: str = "ysolda") -> tuple[StatusMark, ...]:
    return (StatusMark(status, owner, uid),)


# --- ENEMY-1 to ENEMY-3, ROUND-7: who acts when ------------------------------


@pytest.mark.rule("ENEMY-1")
def test_enemies_act_only_after_every_adventurer_has_ended_its_turn():
    given = arena(chip("e1", "shore-crab", (7, 0)), party=(ARCHER, "Tarn:dark-elf"), at=((2, 1), (1, 1)))
    after_first = given.when(EndTurn())
    after_first.then_lacks(EnemyTurnStarted)
    assert after_first.state.turn.hero == "tarn"
    after_second = after_first.next().when(EndTurn())
    after_second.then_has(EnemyTurnStarted, foe="e1")


@pytest.mark.rule("ENEMY-2")
@pytest.mark.rule("ENEMY-3")
@pytest.mark.rule("EX-10")
def test_a_quest_unit_acts_first_and_equal_levels_go_in_placement_order():
    # given a level-20 enemy, a level-10 quest unit and two level-1 enemies
    # far from the party (none of them can reach anyone this turn)
    given = arena(
        chip("e1", "road-lookout", (6, 5)),
        chip("e2", "ember-tyrant", (8, 0)),
        chip("e3", "tunnel-rat", (6, 4)),
        chip("e4", "bound-sentinel", (8, 1)),
        at=((-1, 4),),
    )
    then = given.when(EndTurn())
    # then the quest unit counts as the highest level, and the two level-1
    # enemies follow in placement order (our default for the party's choice)
    assert [e.foe for e in then.of(EnemyTurnStarted)] == ["e4", "e2", "e1", "e3"]


@pytest.mark.rule("ENEMY-3")
def test_two_enemies_of_equal_level_act_by_their_placement_number():
    given = arena(chip("e2", "road-lookout", (6, 5)), chip("e1", "tunnel-rat", (6, 4)), at=((-1, 4),))
    then = given.when(EndTurn())
    assert [e.foe for e in then.of(EnemyTurnStarted)] == ["e1", "e2"]


@pytest.mark.rule("ENEMY-7")
def test_an_enemy_ends_its_turn_before_the_next_enemy_in_level_order_starts():
    given = arena(chip("e1", "road-lookout", (6, 5)), chip("e2", "pale-wolf", (8, 0)), at=((-1, 4),))
    then = given.when(EndTurn())
    order = [(type(e).__name__, e.foe) for e in then.events if isinstance(e, (EnemyTurnStarted, EnemyTurnEnded))]
    assert order == [
        ("EnemyTurnStarted", "e2"),
        ("EnemyTurnEnded", "e2"),
        ("EnemyTurnStarted", "e1"),
        ("EnemyTurnEnded", "e1"),
    ]
    then.then_has(EnemyTurnStarted, foe="e2", queue=("e1",))
    assert isinstance(then.events[-1], RoundEnded)


# --- ENEMY-4: start of turn ---------------------------------------------------


@pytest.mark.rule("ENEMY-4")
@pytest.mark.rule("STATUS-1")
def test_bane_deals_one_true_damage_to_an_enemy_at_the_start_of_its_turn():
    given = arena(chip("e1", "bandit-bruiser", (8, 0), marks=mark(Status.BANE, 5)), at=((-1, 4),))
    then = given.when(EndTurn())
    hit = then.then_has(DamageDealt, target="e1")
    assert (hit.amount, hit.prevented, hit.true_damage, hit.hp, hit.rule) == (1, 0, True, 5, "ENEMY-4")
    # the damage comes first in its turn, before it moves
    kinds = [type(e) for e in then.events]
    assert kinds.index(DamageDealt) < kinds.index(EnemyMoved)


@pytest.mark.rule("ENEMY-4")
@pytest.mark.rule("STATUS-4")
@pytest.mark.rule("STATUS-2")
def test_an_enemy_killed_by_bane_takes_no_turn_and_the_bane_die_goes_back_to_its_owner():
    given = arena(chip("e1", "shore-crab", (3, 1), hp=1, marks=mark(Status.BANE, 5)))
    then = given.when(EndTurn())
    then.then_has(UnitDefeated, unit="e1")
    then.then_lacks(EnemyEngaged)
    then.then_lacks(EnemyMoved)
    then.then_has(StatusLifted, foe="e1", status=Status.BANE, rule="STATUS-4")
    back = then.then_has(DieExhausted, hero="ysolda", uid=5, rule="STATUS-2")
    assert [(t.kind, t.uid) for t in back.track] == [(DieKind.SKILL, 5)]


# --- ENEMY-5 and EMOVE over a whole enemy turn --------------------------------


@pytest.mark.rule("ENEMY-5a")
@pytest.mark.rule("EMOVE-1")
def test_an_enemy_with_a_target_already_in_range_does_not_move():
    # Road Lookout: range 3; the adventurer is 3 hexes away on a seen tile
    given = arena(chip("e1", "road-lookout", (5, 0)))
    then = given.when(EndTurn())
    then.then_lacks(EnemyMoved)
    then.then_has(EnemyEngaged, foe="e1", targets=("ysolda",))


@pytest.mark.rule("ENEMY-5")
@pytest.mark.rule("EMOVE-4")
def test_an_enemy_that_cannot_reach_its_destination_moves_two_hexes_toward_it():
    given = arena(chip("e1", "shore-crab", (8, 0)))
    then = given.when(EndTurn())
    moved = then.then_has(EnemyMoved, foe="e1")
    assert moved.path == ((7, 0), (6, 0))
    assert then.state.foe("e1").pos == (6, 0)
    then.then_lacks(EnemyEngaged)


@pytest.mark.rule("ENEMY-5b")
@pytest.mark.rule("EMOVE-5")
@pytest.mark.rule("EMOVE-6")
@pytest.mark.rule("EX-11")
def test_an_enemy_stops_on_the_first_hex_from_which_it_can_attack():
    # Shore Crab (range 1) two hexes from Ysolda: one step puts it next to
    # her, so it stops there with a hex of movement left and engages
    given = arena(chip("e1", "shore-crab", (4, 1)))
    then = given.when(EndTurn())
    moved = then.then_has(EnemyMoved, foe="e1")
    assert moved.path == ((3, 1),)
    then.then_has(EnemyEngaged, foe="e1", targets=("ysolda",))


@pytest.mark.rule("EMOVE-10")
def test_an_enemy_with_no_hex_to_attack_from_closes_in_on_the_nearest_adventurer():
    # Ysolda in the corner of the Entrance, both her neighbouring hexes held
    # by crabs: no empty hex lets the third crab reach her, so it still
    # moves as close to her as it can
    given = arena(
        chip("e1", "shore-crab", (1, 0)),
        chip("e2", "shore-crab", (0, 1)),
        chip("e3", "shore-crab", (4, 0)),
        at=((0, 0),),
    )
    _, events = play(given, EndTurn(), RollEnemyDice(faces=(MISS,)), RollEnemyDice(faces=(MISS,)))
    assert [e.path for e in of(events, EnemyMoved, foe="e3")] == [((3, 0), (2, 0))]
    assert not of(events, EnemyEngaged, foe="e3")


# --- ENEMY-6: engage -------------------------------------------------------------


@pytest.mark.rule("ENEMY-6")
@pytest.mark.rule("ENEMY-6e")
@pytest.mark.rule("ENEMY-6c")
def test_an_adjacent_enemy_engages_and_deals_the_rolled_total():
    given = arena(chip("e1", "shore-crab", (3, 1)))
    waiting = given.when(EndTurn())
    waiting.then_has(EnemyRollAwaited, foe="e1", targets=("ysolda",), dice=1)
    assert waiting.state.phase is Phase.ENEMY_ROLL
    then = waiting.next().when(RollEnemyDice(faces=(TWO,)))
    hit = then.then_has(DamageDealt, source="e1", target="ysolda")
    assert (hit.amount, hit.to_hp, hit.hp, hit.rule) == (2, 2, 2, "ENEMY-6e")
    assert then.state.hero("ysolda").hp == 2
    assert then.state.phase is Phase.END_OF_ROUND


@pytest.mark.rule("ENEMY-6c")
def test_only_the_enemy_roll_may_be_given_while_it_waits():
    waiting = arena(chip("e1", "shore-crab", (3, 1))).when(EndTurn()).next()
    waiting.then_violates(EndTurn(), "ENEMY-6c")
    assert waiting.legal() == [RollEnemyDice(faces=(0,))]  # one die waits: its faces, in any order


@pytest.mark.rule("ENEMY-6e")
def test_an_enemy_rolling_only_misses_deals_no_damage():
    given = arena(chip("e1", "shore-crab", (3, 1)))
    _, events = play(given, EndTurn(), RollEnemyDice(faces=(MISS,)))
    assert not of(events, DamageDealt)


@pytest.mark.rule("ENEMY-6a")
@pytest.mark.rule("ENEMY-6c")
@pytest.mark.rule("ENEMY-6f")
@pytest.mark.rule("ESKILL-3")
def test_one_roll_hits_each_designated_target_weakest_first_with_the_full_skill():
    # Storm Caller: range 3, 3 Combat dice, 2 targets, weakest first, Dazing.
    # Three adventurers in range with 4, 2 and 3 HP.
    given = (
        arena(
            chip("e1", "storm-caller", (4, 1)),
            party=(ARCHER, "Tarn:dark-elf", "Brand:imperial"),
            at=((2, 1), (2, 0), (2, 2)),
        )
        .with_hero("tarn", hp=2)
        .with_hero("brand", hp=3)
    )
    waiting = given.when(EndTurn()).next().when(EndTurn()).next().when(EndTurn())
    # then it designates the two weakest, in priority order, and rolls once
    waiting.then_has(EnemyEngaged, foe="e1", targets=("tarn", "brand"))
    waiting.then_has(EnemyRollAwaited, foe="e1", dice=3)
    then = waiting.next().when(RollEnemyDice(faces=(ONE, MISS, MISS)))
    hits = [(e.target, e.amount) for e in then.of(DamageDealt)]
    assert hits == [("tarn", 1), ("brand", 1)]
    # each target takes the whole of its skill: both are dazed
    assert [e.hero for e in then.of(HeroStatusGained) if e.status is Status.DAZE] == ["tarn", "brand"]
    assert then.state.hero("ysolda").hp == 4


@pytest.mark.rule("ENEMY-6b")
@pytest.mark.rule("ENEMY-6g")
def test_targets_tied_on_priority_are_taken_in_turn_order():
    # Shore Crab (strongest, 1 target) between two adventurers of equal HP
    given = arena(
        chip("e1", "shore-crab", (3, 1)),
        party=(ARCHER, "Tarn:nord"),
        at=((2, 1), (4, 1)),
    )
    then = given.when(EndTurn()).next().when(EndTurn())
    then.then_has(EnemyEngaged, foe="e1", targets=("ysolda",))
    # and the other way round when Tarn comes first in turn order
    swapped = arena(
        chip("e1", "shore-crab", (3, 1)),
        party=("Tarn:nord", ARCHER),
        at=((4, 1), (2, 1)),
    )
    then = swapped.when(EndTurn()).next().when(EndTurn())
    then.then_has(EnemyEngaged, foe="e1", targets=("tarn",))


@pytest.mark.rule("ENEMY-6a")
def test_an_enemy_designates_by_its_priority_icon_not_by_nearness():
    # Shore Crab (strongest) adjacent to two adventurers: 2 HP and 4 HP
    given = arena(
        chip("e1", "shore-crab", (3, 1)),
        party=(ARCHER, "Tarn:nord"),
        at=((2, 1), (4, 1)),
    ).with_hero("ysolda", hp=2)
    then = given.when(EndTurn()).next().when(EndTurn())
    then.then_has(EnemyEngaged, foe="e1", targets=("tarn",))


@pytest.mark.rule("ENEMY-6d")
@pytest.mark.rule("STATUS-1")
def test_a_dazed_enemy_that_moved_still_engages_but_rolls_no_dice():
    # Daze: it cannot move and roll dice in the same turn; the Engage step
    # still happens with no dice (ENEMY-6d), and the Daze comes off at the
    # end of its turn
    given = arena(chip("e1", "shore-crab", (4, 1), marks=mark(Status.DAZE, 6)))
    then = given.when(EndTurn())
    then.then_has(EnemyMoved, foe="e1", path=((3, 1),))
    then.then_has(EnemyEngaged, foe="e1", targets=("ysolda",))
    then.then_lacks(EnemyRollAwaited)
    then.then_lacks(DamageDealt)
    then.then_has(StatusLifted, foe="e1", status=Status.DAZE, rule="STATUS-1")
    then.then_has(DieExhausted, hero="ysolda", uid=6, rule="STATUS-2")
    assert then.state.foe("e1").marks == ()
    assert then.state.phase is Phase.END_OF_ROUND


@pytest.mark.rule("STATUS-1")
@pytest.mark.rule("ENEMY-7")
def test_a_dazed_enemy_that_did_not_move_rolls_and_loses_the_daze_at_the_end_of_its_turn():
    given = arena(chip("e1", "shore-crab", (3, 1), marks=mark(Status.DAZE, 6)))
    waiting = given.when(EndTurn())
    waiting.then_has(EnemyRollAwaited, foe="e1", dice=1)
    then = waiting.next().when(RollEnemyDice(faces=(TWO,)))
    kinds = [type(e) for e in then.events]
    assert kinds.index(StatusLifted) < kinds.index(EnemyTurnEnded)
    assert then.state.foe("e1").marks == ()


@pytest.mark.rule("ENEMY-6i")
@pytest.mark.rule("ESKILL-1")
def test_tunnel_rat_venom_gives_bane_to_the_adventurer_it_damages():
    given = arena(chip("e1", "tunnel-rat", (3, 1)))
    state, events = play(given, EndTurn(), RollEnemyDice(faces=(ONE,)))
    gained = of(events, HeroStatusGained, hero="ysolda", status=Status.BANE)
    assert len(gained) == 1 and not gained[0].refreshed
    assert [(t.kind, t.status) for t in state.hero("ysolda").track] == [(DieKind.STATUS, Status.BANE)]


@pytest.mark.rule("ESKILL-1")
def test_a_skill_that_needs_damage_does_nothing_when_every_point_is_prevented():
    # an active block die of 2 stops the 2 damage, so no Bane is gained
    given = arena(chip("e1", "tunnel-rat", (3, 1))).with_hero(
        "ysolda",
        active=(ActiveDie(DieKind.SKILL, 7, 3, 2),),
    )
    state, events = play(given, EndTurn(), RollEnemyDice(faces=(TWO,)))
    hit = of(events, DamageDealt, target="ysolda")[0]
    assert (hit.amount, hit.prevented, hit.to_hp) == (2, 2, 0)
    assert not of(events, HeroStatusGained)
    assert state.hero("ysolda").active == ()


@pytest.mark.rule("ESKILL-1")
@pytest.mark.parametrize(
    "enemy_id, status",
    [
        ("ash-imp", Status.BLIND),
        ("pale-wolf", Status.DAZE),
        ("hedge-archer", Status.MAIM),
        ("outlaw-chief", Status.FEAR),
    ],
)
def test_a_status_skill_puts_its_status_die_on_the_damaged_adventurer(enemy_id, status):
    pos = (3, 0) if PACK.enemies[enemy_id].range > 1 else (3, 1)
    given = arena(chip("e1", enemy_id, pos)).with_hero("ysolda", hp=9, max_hp=9)
    dice = PACK.enemies[enemy_id].combat
    state, events = play(given, EndTurn(), RollEnemyDice(faces=(ONE,) + (MISS,) * (dice - 1)))
    assert [e.status for e in of(events, HeroStatusGained, hero="ysolda")] == [status]
    assert [t.status for t in state.hero("ysolda").track] == [status]


@pytest.mark.rule("ESKILL-1")
def test_bandit_bruiser_brutal_adds_one_to_damage_it_deals():
    given = arena(chip("e1", "bandit-bruiser", (3, 1))).with_hero("ysolda", hp=9, max_hp=9)
    _, events = play(given, EndTurn(), RollEnemyDice(faces=(ONE, TWO)))
    hit = of(events, DamageDealt, target="ysolda")[0]
    assert (hit.amount, hit.hp) == (4, 5)


@pytest.mark.rule("ESKILL-1")
def test_bandit_bruiser_brutal_adds_nothing_to_a_roll_of_misses():
    given = arena(chip("e1", "bandit-bruiser", (3, 1)))
    _, events = play(given, EndTurn(), RollEnemyDice(faces=(MISS, MISS)))
    assert not of(events, DamageDealt)


@pytest.mark.rule("ESKILL-1")
def test_cinder_wisp_true_strike_ignores_active_block_dice():
    given = arena(chip("e1", "cinder-wisp", (3, 0))).with_hero(
        "ysolda",
        active=(ActiveDie(DieKind.SKILL, 7, 3, 2),),
    )
    state, events = play(given, EndTurn(), RollEnemyDice(faces=(TWO, ONE)))
    hit = of(events, DamageDealt, target="ysolda")[0]
    assert (hit.amount, hit.prevented, hit.true_damage, hit.hp) == (3, 0, True, 1)
    assert state.hero("ysolda").active == (ActiveDie(DieKind.SKILL, 7, 3, 2),)


@pytest.mark.rule("ESKILL-1")
@pytest.mark.rule("ENEMY-4")
def test_cave_troll_regenerates_one_hp_at_the_start_of_its_turn():
    given = arena(chip("e1", "cave-troll", (8, 0), hp=10))
    then = given.when(EndTurn())
    healed = then.then_has(Healed, unit="e1")
    assert (healed.amount, healed.hp) == (1, 11)


@pytest.mark.rule("ESKILL-1")
def test_cave_troll_at_full_hp_does_not_heal():
    then = arena(chip("e1", "cave-troll", (8, 0))).when(EndTurn())
    then.then_lacks(Healed)


# --- ECHIP-1: the chip's fields drive its turn ----------------------------------


@pytest.mark.rule("ECHIP-1")
@pytest.mark.rule("CLASH-7a")
def test_a_placed_enemy_takes_level_and_hp_from_its_chip_side():
    given = Scenario.clash(party=("Ysolda:nord", "Tarn:nord"), xp=4, seed=1)
    bruiser = PACK.enemies["bandit-bruiser"]
    assert given.state.foe("e1").enemy == "bandit-bruiser"
    assert (
        (given.state.foe("e1").level, given.state.foe("e1").hp, given.state.foe("e1").max_hp)
        == (bruiser.level, bruiser.hp, bruiser.hp)
        == (5, 6, 6)
    )


@pytest.mark.rule("ECHIP-1")
def test_an_enemy_rolls_as_many_dice_as_its_combat_value():
    for enemy_id, dice in [("shore-crab", 1), ("pale-wolf", 2), ("cave-troll", 3)]:
        then = arena(chip("e1", enemy_id, (3, 1))).when(EndTurn())
        then.then_has(EnemyRollAwaited, foe="e1", dice=dice)


@pytest.mark.rule("ECHIP-1")
@pytest.mark.rule("ENEMY-6a")
def test_an_enemy_engages_from_as_far_as_its_range():
    # Road Lookout (range 3) 3 hexes off engages; Shore Crab (range 1) moves
    lookout = arena(chip("e1", "road-lookout", (5, 0))).when(EndTurn())
    lookout.then_lacks(EnemyMoved)
    lookout.then_has(EnemyEngaged, targets=("ysolda",))
    crab = arena(chip("e1", "shore-crab", (5, 0))).when(EndTurn())
    crab.then_has(EnemyMoved, foe="e1")


@pytest.mark.rule("ECHIP-1")
@pytest.mark.rule("ENGAGE-8c")
def test_an_enemy_s_defense_prevents_that_much_of_an_engage():
    # Bandit Bruiser, Defense 1: two Combat dice showing 2 and 1 deal 2
    given = arena(chip("e1", "bandit-bruiser", (3, 1)))
    rolled = given.when(Engage(form=BattleForm.LIGHT, target="e1", dice=(1, 2), faces=(5, 1)))
    then = rolled.next().when(Resolve())
    hit = then.then_has(DamageDealt, target="e1")
    assert (hit.amount, hit.prevented, hit.to_hp, hit.hp) == (3, 1, 2, 4)


# --- status effects on enemies (facts: STATUS-1) ---------------------------------


@pytest.mark.rule("STATUS-1")
def test_a_maimed_enemy_deals_half_its_combat_damage_rounded_down():
    given = arena(chip("e1", "shore-crab", (3, 1), marks=mark(Status.MAIM, 4)))
    _, events = play(given, EndTurn(), RollEnemyDice(faces=(TWO,)))
    hit = of(events, DamageDealt, target="ysolda")[0]
    assert (hit.amount, hit.hp) == (1, 3)
    # a single 1 halves to nothing
    _, events = play(given, EndTurn(), RollEnemyDice(faces=(ONE,)))
    assert not of(events, DamageDealt)


@pytest.mark.rule("STATUS-1")
def test_a_feared_enemy_s_skills_do_nothing():
    # Tunnel Rat with Fear: its Venom gives no Bane
    given = arena(chip("e1", "tunnel-rat", (3, 1), marks=mark(Status.FEAR, 4)))
    _, events = play(given, EndTurn(), RollEnemyDice(faces=(TWO,)))
    assert of(events, DamageDealt, target="ysolda")[0].amount == 2
    assert not of(events, HeroStatusGained)
    # Cave Troll with Fear does not regenerate
    troll = arena(chip("e1", "cave-troll", (8, 0), hp=10, marks=mark(Status.FEAR, 4))).when(EndTurn())
    troll.then_lacks(Healed)


@pytest.mark.rule("STATUS-1")
def test_a_blind_enemy_treats_every_unit_as_opposing_and_hits_the_strongest_adjacent():
    # Bandit Bruiser, blind, next to a Shore Crab and 2 hexes from Ysolda:
    # it attacks the crab, its only adjacent unit
    given = arena(
        chip("e1", "bandit-bruiser", (4, 1), marks=mark(Status.BLIND, 4)),
        chip("e2", "shore-crab", (4, 2)),
        at=((2, 1),),
    )
    waiting = given.when(EndTurn())
    waiting.then_lacks(EnemyMoved)
    waiting.then_has(EnemyEngaged, foe="e1", targets=("e2",))
    then = waiting.next().when(RollEnemyDice(faces=(ONE, MISS)))
    hit = then.then_has(DamageDealt, source="e1", target="e2")
    assert (hit.amount, hit.hp) == (2, 1)  # 1 rolled, +1 Brutal


@pytest.mark.rule("STATUS-1")
def test_a_blind_enemy_with_two_targets_still_strikes_only_the_strongest_adjacent_unit():
    # Barrow Wyrm (2 targets), blind, between Ysolda and a Shore Crab: it
    # strikes one of them, not both (found by mutation testing)
    given = arena(
        chip("e1", "barrow-wyrm", (3, 1), marks=mark(Status.BLIND, 4)),
        chip("e2", "shore-crab", (4, 1)),
        at=((2, 1),),
    )
    waiting = given.when(EndTurn())
    (engaged,) = waiting.of(EnemyEngaged)
    assert engaged.foe == "e1" and len(engaged.targets) == 1


@pytest.mark.rule("STATUS-1")
@pytest.mark.rule("ESKILL-1")
def test_a_blind_true_strike_enemy_deals_true_damage_to_the_enemy_it_strikes():
    # Cinder Wisp (true strike), blind, beside a Bandit Bruiser (Defense 1)
    # and 2 hexes from Ysolda: its blow on the bruiser is true damage,
    # which Defense does not prevent (found by mutation testing)
    given = arena(
        chip("e1", "cinder-wisp", (4, 1), marks=mark(Status.BLIND, 4)),
        chip("e2", "bandit-bruiser", (4, 2)),
        at=((2, 1),),
    )
    waiting = given.when(EndTurn())
    waiting.then_has(EnemyEngaged, foe="e1", targets=("e2",))
    then = waiting.next().when(RollEnemyDice(faces=(TWO, MISS)))
    hit = then.then_has(DamageDealt, source="e1", target="e2")
    assert (hit.amount, hit.prevented, hit.true_damage, hit.to_hp) == (2, 0, True, 2)


@pytest.mark.rule("STATUS-1")
def test_a_blind_enemy_with_range_must_come_adjacent_before_it_engages():
    # Road Lookout (range 3), blind, 3 hexes from Ysolda: unblinded it would
    # engage from where it stands; blind, it walks next to her first
    given = arena(chip("e1", "road-lookout", (5, 0), marks=mark(Status.BLIND, 4)))
    then = given.when(EndTurn())
    then.then_has(EnemyMoved, foe="e1", path=((4, 0), (3, 0)))
    then.then_has(EnemyEngaged, foe="e1", targets=("ysolda",))


@pytest.mark.rule("STATUS-1")
def test_stealth_hides_an_enemy_from_a_blind_enemy_too():
    """Blind makes every unit opposing; Stealth still limits who may target
    a unit, on either side. A blind Bandit Bruiser on d2 would head for the
    Shore Crab two hexes away; in Stealth, the crab is not a candidate and
    it heads for Ysolda instead."""

    def bruiser_path(crab_marks):
        given = arena(
            chip("e1", "bandit-bruiser", (4, 1), marks=mark(Status.BLIND, 4)),
            chip("e2", "shore-crab", (6, 1), marks=crab_marks),
            at=((0, 1),),
        )
        return given.when(EndTurn()).then_has(EnemyMoved, foe="e1").path

    toward_crab, toward_ysolda = bruiser_path(()), bruiser_path(mark(Status.STEALTH, 5))
    assert toward_crab[-1][0] > 4  # east, to the crab
    assert toward_ysolda[-1][0] < 4  # west, to Ysolda


@pytest.mark.rule("STATUS-1")
def test_an_enemy_in_stealth_can_be_targeted_only_by_an_adventurer_adjacent_at_the_turn_start():
    given = arena(chip("e1", "road-lookout", (4, 1), marks=mark(Status.STEALTH, 5)))
    given = given.with_turn(start_positions=(("ysolda", (2, 1)), ("e1", (4, 1))))
    given.then_violates(Engage(form=BattleForm.RANGED, target="e1", dice=(4,), faces=(1,)), "STATUS-1")
    # adjacent when the turn began: allowed
    near = arena(chip("e1", "road-lookout", (3, 1), marks=mark(Status.STEALTH, 5)))
    near = near.with_turn(start_positions=(("ysolda", (2, 1)), ("e1", (3, 1))))
    near.when(Engage(form=BattleForm.LIGHT, target="e1", dice=(1,), faces=(1,))).then_has(EngageDeclared, target="e1")


@pytest.mark.rule("STATUS-1")
def test_an_enemy_loses_stealth_once_it_deals_damage():
    given = arena(chip("e1", "shore-crab", (3, 1), marks=mark(Status.STEALTH, 5)))
    state, events = play(given, EndTurn(), RollEnemyDice(faces=(ONE,)))
    assert of(events, StatusLifted, foe="e1", status=Status.STEALTH, rule="STATUS-1")
    assert state.foe("e1").marks == ()
    # Tainted Arrow goes back to Ysolda's track showing its Stealth face
    assert of(events, DieExhausted, hero="ysolda", uid=5, face=2, rule="STATUS-2")
    # a miss keeps it
    state, events = play(given, EndTurn(), RollEnemyDice(faces=(MISS,)))
    assert state.foe("e1").marks == mark(Status.STEALTH, 5)


@pytest.mark.rule("STATUS-5")
def test_statuses_on_enemies_come_off_when_the_battle_ends():
    given = arena(chip("e1", "shore-crab", (8, 0), marks=mark(Status.MAIM, 4)))
    state, events = play(given, EndTurn(), Retreat())
    assert of(events, StatusLifted, foe="e1", status=Status.MAIM, rule="STATUS-5")
    assert state.foe("e1").marks == ()
    assert (DieKind.SKILL, 4) in [(t.kind, t.uid) for t in state.hero("ysolda").track]


@pytest.mark.rule("STATUS-1")
@pytest.mark.rule("STATUS-3")
def test_a_status_die_lands_on_an_enemy_but_never_on_a_quest_unit():
    # Shield Bash (die 6) shows its Daze face against an adjacent enemy
    bash = Engage(form=BattleForm.LIGHT, target="e1", dice=(6,), faces=(4,))
    crab = arena(chip("e1", "shore-crab", (3, 1)))
    state, _ = play(crab, bash, Resolve())
    assert state.foe("e1").marks == mark(Status.DAZE, 6)
    sentinel = arena(chip("e1", "bound-sentinel", (3, 1)))
    state, events = play(sentinel, bash, Resolve())
    assert state.foe("e1").marks == ()
    assert of(events, DieExhausted, hero="ysolda", uid=6, rule="STATUS-3")


@pytest.mark.rule("STATUS-7")
def test_an_enemy_holds_only_one_die_of_each_status():
    # the crab is dazed already (by Tarn's die); Ysolda's Daze face is exhausted
    given = arena(
        chip("e1", "shore-crab", (3, 1), marks=mark(Status.DAZE, 4, owner="tarn")),
        party=(ARCHER, "Tarn:nord:one-hand-shield"),
        at=((2, 1), (2, 0)),
    )
    state, events = play(given, Engage(form=BattleForm.LIGHT, target="e1", dice=(6,), faces=(4,)), Resolve())
    assert state.foe("e1").marks == mark(Status.DAZE, 4, owner="tarn")
    assert of(events, DieExhausted, hero="ysolda", uid=6, rule="STATUS-7")


@pytest.mark.rule("ENEMY-6a")
@pytest.mark.rule("ENEMY-6f")
@pytest.mark.rule("ESKILL-3")
def test_an_enemy_with_targets_all_engages_every_target_in_range_strongest_first():
    # Ember Tyrant: range 2, 4 dice, every target, strongest first, True Strike
    given = (
        arena(
            chip("e1", "ember-tyrant", (4, 1)),
            party=(ARCHER, "Tarn:nord", "Brand:imperial"),
            at=((2, 1), (3, 0), (0, 0)),
        )
        .with_hero("ysolda", hp=3)
        .with_hero("tarn", hp=4)
        .with_hero("brand", hp=5)
    )
    waiting = given.when(EndTurn()).next().when(EndTurn()).next().when(EndTurn())
    # Brand on the Entrance is 4 hexes off: out of range
    waiting.then_has(EnemyEngaged, foe="e1", targets=("tarn", "ysolda"))
    then = waiting.next().when(RollEnemyDice(faces=(ONE, MISS, MISS, MISS)))
    hits = [(e.target, e.amount, e.true_damage) for e in then.of(DamageDealt)]
    assert hits == [("tarn", 1, True), ("ysolda", 1, True)]
