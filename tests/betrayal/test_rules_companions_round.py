"""Companion turns in the round (ROUND-6, ROUND-6a, ENEMY-1,
EXPLORATION-3d; facts §2: optional move of up to 2 hexes, optional engage
rolling its Combat value in enemy dice once, applied to each target;
defeat), and enemies targeting companions (ENEMY-6a)."""

from __future__ import annotations

import pytest
from companion_arrange import at_companions, clash, with_ally

from domain.betrayal.battle.commands import CompanionEngage, CompanionMove, EndCompanionTurn, EndTurn
from domain.betrayal.battle.companions.events import (
    CompanionMoved,
    CompanionPlaced,
    CompanionsWithdrew,
    CompanionTurnEnded,
    CompanionTurnsBegan,
    CompanionTurnStarted,
)
from domain.betrayal.battle.context import ENEMY_DIE_FACES
from domain.betrayal.battle.events import DamageDealt, DiceRolled, EnemyEngaged, EnemyTurnStarted, UnitDefeated
from domain.betrayal.battle.seats import actor
from domain.betrayal.battle.state import Phase
from domain.kernel import rng
from domain.kernel.errors import MalformedCommand
from domain.kernel.hexes import distance

TWO = ("Ysolda:nord", "Tarn:dark-elf")


def _hex_next_to(given, *foes) -> tuple:
    """An empty passable hex adjacent to each of ``foes``."""
    s = given.state
    taken = {u.pos for u in (*s.heroes, *s.foes, *s.companions) if u.pos is not None}
    board = given.ctx.board
    for h in board.all_hexes():
        if board.passable(h) and h not in taken and all(distance(h, s.foe(f).pos) == 1 for f in foes):
            return h
    raise AssertionError("no hex next to " + ", ".join(foes))


def _beside_two_foes(companion: str = "golem"):
    """The Companion Turns step with ``companion`` next to e1 and e2."""
    given = at_companions(clash(companions=(f"{companion}:Ysolda",), xp=4))
    e1 = given.state.foe("e1").pos
    spot = next(
        h
        for h in given.ctx.board.all_hexes()
        if distance(h, e1) == 1
        and given.ctx.board.passable(h)
        and h not in {u.pos for u in (*given.state.heroes, *given.state.foes)}
    )
    other = next(
        h
        for h in given.ctx.board.all_hexes()
        if distance(h, spot) == 1
        and h != e1
        and given.ctx.board.passable(h)
        and h not in {u.pos for u in (*given.state.heroes, *given.state.foes)}
    )
    given = given.with_foe("e2", pos=other)
    return with_ally(given, companion, pos=spot)


# --- ROUND-6: the Companion Turns step -------------------------------------------------------


@pytest.mark.rule("ROUND-6")
@pytest.mark.rule("ENEMY-1")
def test_companions_take_their_turns_after_the_adventurers_and_before_the_enemies():
    given = clash(companions=("fox:Ysolda",), party=TWO)
    then = given.when(EndTurn()).next().when(EndTurn())
    then.then_has(CompanionTurnsBegan)
    then.then_lacks(EnemyTurnStarted)
    assert then.state.phase is Phase.COMPANION_TURN
    after = then.next().when(EndCompanionTurn(companion="fox"))
    kinds = [type(e) for e in after.events]
    assert kinds.index(CompanionTurnEnded) < kinds.index(EnemyTurnStarted)


@pytest.mark.rule("ROUND-6")
def test_without_companions_the_enemies_follow_the_adventurers_at_once():
    then = clash(companions=()).when(EndTurn())
    then.then_lacks(CompanionTurnsBegan)
    then.then_has(EnemyTurnStarted)


@pytest.mark.rule("ROUND-6")
def test_the_party_chooses_the_order_the_companions_act_in():
    given = at_companions(clash(companions=("fox:Ysolda", "golem:Tarn"), party=TWO))
    then = given.when(EndCompanionTurn(companion="golem"))  # Tarn's golem first, though placed second
    then.then_has(CompanionTurnStarted, companion="golem")
    then.then_lacks(EnemyTurnStarted)
    then.next().when(EndCompanionTurn(companion="fox")).then_has(EnemyTurnStarted)


@pytest.mark.rule("ROUND-6")
def test_another_companion_cannot_act_while_one_s_turn_is_under_way():
    given = at_companions(clash(companions=("fox:Ysolda", "golem:Tarn"), party=TWO))
    fox = given.state.companion("fox")
    to = next(
        h
        for h in given.ctx.board.reachable(fox.pos, set(), 1)
        if h != fox.pos and h not in {u.pos for u in (*given.state.heroes, *given.state.companions)}
    )
    moving = given.when(CompanionMove(companion="fox", to=to)).next()
    refused = moving.then_violates(EndCompanionTurn(companion="golem"), "ROUND-6")
    assert refused.message == "Ember the Fox's turn is under way: end it before Clay Sentinel acts"


@pytest.mark.rule("ROUND-6")
def test_a_companion_takes_one_turn_a_round():
    given = at_companions(clash(companions=("fox:Ysolda", "golem:Ysolda")))
    after = given.when(EndCompanionTurn(companion="fox")).next()
    after.then_violates(EndCompanionTurn(companion="fox"), "ROUND-6")


@pytest.mark.rule("ROUND-6")
def test_a_companion_s_commands_outside_its_step_are_refused():
    clash(companions=("fox:Ysolda",)).then_violates(EndCompanionTurn(companion="fox"), "ROUND-6")


@pytest.mark.rule("ROUND-6")
def test_a_companion_s_seat_is_its_controller_s():
    given = at_companions(clash(companions=("fox:Tarn",), party=TWO))
    assert actor(given.state, EndCompanionTurn(companion="fox")) == "tarn"
    fallen = given.with_hero("tarn", defeated=True, pos=None, hp=0)  # facts §2: its player keeps control
    assert actor(fallen.state, EndCompanionTurn(companion="fox")) == "tarn"
    fallen.when(EndCompanionTurn(companion="fox")).then_has(CompanionTurnEnded, companion="fox")


# --- ROUND-6: the move ------------------------------------------------------------------------


@pytest.mark.rule("ROUND-6")
def test_a_companion_moves_up_to_two_hexes_by_a_free_route():
    given = at_companions(clash(companions=("fox:Ysolda",)))
    fox = given.state.companion("fox")
    s = given.state
    taken = {u.pos for u in (*s.heroes, *s.foes)}
    two = given.ctx.board.reachable(fox.pos, taken, 2)
    far = next(h for h, n in two.items() if n == 2)
    then = given.when(CompanionMove(companion="fox", to=far))
    then.then_has(CompanionMoved, companion="fox")
    assert then.state.companion("fox").pos == far
    three = given.ctx.board.reachable(fox.pos, taken, 3)
    beyond = next(h for h, n in three.items() if n == 3)
    given.then_violates(CompanionMove(companion="fox", to=beyond), "ROUND-6")


@pytest.mark.rule("ROUND-6")
def test_a_companion_moves_once_a_turn():
    given = at_companions(clash(companions=("fox:Ysolda",)))
    fox = given.state.companion("fox")
    taken = {u.pos for u in (*given.state.heroes, *given.state.foes)}
    one = [h for h, n in given.ctx.board.reachable(fox.pos, taken, 1).items() if n == 1]
    moved = given.when(CompanionMove(companion="fox", to=one[0])).next()
    moved.then_violates(CompanionMove(to=fox.pos), "ROUND-6")


# --- ROUND-6: the engage ----------------------------------------------------------------------


@pytest.mark.rule("ROUND-6")
def test_a_companion_rolls_its_combat_value_once_and_deals_the_total_to_each_target():
    given = _beside_two_foes("golem")  # golem: 2 enemy dice, up to 2 targets, brutal
    counter = given.state.rng
    then = given.when(CompanionEngage(companion="golem", targets=("e1", "e2")))
    rolled = then.of(DiceRolled)
    assert len(rolled) == 1 and len(rolled[0].dice) == 2 and rolled[0].counter == counter
    expected = [rng.draw(given.state.seed, counter + i, 6) for i in range(2)]
    assert [d.face for d in rolled[0].dice] == expected
    total = sum(ENEMY_DIE_FACES[f] for f in expected)
    total += 1 if total else 0  # brutal: a mandatory skill
    dealt = {e.target: e.amount for e in then.of(DamageDealt)}
    assert dealt == ({"e1": total, "e2": total} if total else {})
    then.then_has(CompanionTurnEnded, companion="golem")


@pytest.mark.rule("ROUND-6")
def test_a_companion_targets_no_more_units_than_its_target_value():
    given = _beside_two_foes("fox")  # fox: 1 target
    given.then_violates(CompanionEngage(companion="fox", targets=("e1", "e2")), "ROUND-6")


@pytest.mark.rule("ROUND-6")
def test_a_companion_targets_only_units_in_its_sight_and_range():
    given = at_companions(clash(companions=("fox:Ysolda",)))  # fox: range 1, on the Entrance
    far = max(given.state.foes, key=lambda f: distance(f.pos, given.state.companion("fox").pos))
    given.then_violates(CompanionEngage(companion="fox", targets=(far.id,)), "ROUND-6")


@pytest.mark.rule("ROUND-6")
def test_a_refused_companion_command_writes_nothing():
    given = at_companions(clash(companions=("fox:Ysolda",)))
    from domain.betrayal.battle.rules import decide

    with pytest.raises(MalformedCommand):
        decide(given.state, CompanionEngage(companion="nobody", targets=("e1",)), given.ctx)
    assert given.state.companion("fox").acted is False


# --- ROUND-6a: late entry ---------------------------------------------------------------------


@pytest.mark.rule("ROUND-6a")
def test_a_waiting_companion_enters_on_an_empty_entrance_hex_when_its_turn_comes_and_acts():
    given = at_companions(clash(companions=("fox:Ysolda",)))
    given = with_ally(given, "fox", pos=None)  # it waited beside the tile (CLASH-9a)
    free = [
        h
        for h in given.ctx.board.entrance_hexes()
        if h not in {u.pos for u in (*given.state.heroes, *given.state.foes)}
        and h not in {c.hex for c in given.state.caches}
    ]
    target = next(
        h for h, n in given.ctx.board.reachable(free[0], {given.state.hero("ysolda").pos}, 1).items() if n == 1
    )
    then = given.when(CompanionMove(companion="fox", to=target))
    then.then_has(CompanionPlaced, companion="fox", hex=free[0], rule="ROUND-6a")
    assert then.state.companion("fox").pos == target  # facts default: it then takes that turn


@pytest.mark.rule("ROUND-6a")
def test_with_the_entrance_still_full_a_waiting_companion_cannot_move():
    given = at_companions(clash(companions=("fox:Ysolda",)))
    entrance = given.ctx.board.entrance_hexes()
    foes = tuple(f for f in given.state.foes)
    given = with_ally(given, "fox", pos=None)
    # fill every Entrance hex with enemies standing there
    from msgspec.structs import replace

    free = [h for h in entrance if h != given.state.hero("ysolda").pos]
    filler = tuple(replace(foes[0], id=f"e{9 + i}", pos=h) for i, h in enumerate(free))
    given = given.with_state(foes=given.state.foes + filler, caches=())
    given.then_violates(CompanionMove(companion="fox", to=(5, 5)), "ROUND-6a")


# --- EXPLORATION-3d ---------------------------------------------------------------------------


@pytest.mark.rule("EXPLORATION-3d")
def test_a_companion_moving_onto_an_explorable_hex_explores_nothing():
    from delve_arrange import ENTRANCE_LINKS, DelveScenario

    from domain.betrayal.battle.commands import Explore, MoveToExplore, StartDelve
    from domain.betrayal.battle.context import RulesContext
    from domain.betrayal.battle.events import Explored
    from domain.betrayal.battle.evolve import replay
    from domain.betrayal.battle.rules import decision
    from domain.betrayal.packs.load import starter_pack
    from companion_arrange import escorts
    from scenario import new_party

    cmd = StartDelve(
        battle_id="v",
        delve="whispering-barrow",
        party=new_party("Ysolda:nord"),
        xp=1,
        seed=1,
        companions=escorts("fox:Ysolda"),
    )
    d = decision(None, cmd, RulesContext(starter_pack(), "whispering-barrow"))
    given = DelveScenario(replay(d.events), d.ctx)
    given = given.when(EndTurn()).next()
    assert given.state.phase is Phase.COMPANION_TURN
    legal = given.legal()
    assert not [c for c in legal if isinstance(c, (Explore, MoveToExplore))]
    link = next(h for h in ENTRANCE_LINKS if CompanionMove(companion="fox", to=h) in legal)
    then = given.when(CompanionMove(companion="fox", to=link))
    assert then.state.companion("fox").pos == link
    then.lacks(Explored)
    assert then.delve_events == []  # no card drawn, no tile revealed


# --- defeat, and a fallen party ---------------------------------------------------------------


@pytest.mark.rule("ROUND-6")
@pytest.mark.rule("ENEMY-6a")
def test_enemies_target_a_companion_and_a_defeated_one_leaves_the_party_for_good():
    given = at_companions(clash(companions=("fox:Ysolda",), physical_dice=False, seed=3))
    e1 = given.state.foe("e1")
    spot = _hex_next_to(given, "e1")
    given = with_ally(given, "fox", pos=spot, hp=1)
    # the hero far away: the fox is the only unit e1 can target
    then = given.when(EndCompanionTurn(companion="fox"))
    engaged = [e for e in then.of(EnemyEngaged) if e.foe == e1.id]
    assert engaged and "fox" in engaged[0].targets
    hits = [e for e in then.of(DamageDealt) if e.target == "fox"]
    if hits and hits[0].to_hp:
        then.then_has(UnitDefeated, unit="fox")
        assert then.state.companion("fox").defeated and then.state.companion("fox").pos is None


@pytest.mark.rule("ROUND-6")
def test_a_defeated_companion_takes_no_more_turns():
    given = with_ally(clash(companions=("fox:Ysolda", "golem:Ysolda")), "fox", defeated=True, pos=None, hp=0)
    given = at_companions(given)
    given.then_violates(EndCompanionTurn(companion="fox"), "ROUND-6")
    alone = with_ally(clash(companions=("fox:Ysolda",)), "fox", defeated=True, pos=None, hp=0)
    alone.when(EndTurn()).then_lacks(CompanionTurnsBegan)  # no companion left: straight to the enemies


@pytest.mark.rule("END-1c")
def test_when_every_adventurer_falls_the_companions_leave_the_map_undefeated():
    given = clash(companions=("fox:Ysolda",))
    given = given.with_hero("ysolda", hp=1)
    given = given.with_state(phase=Phase.COMPANION_TURN, turn=None)
    given = given.with_hero("ysolda", defeated=True, pos=None, hp=0)
    then = given.when(EndCompanionTurn(companion="fox"))
    then.then_has(CompanionsWithdrew, companions=("fox",))
    fox = then.state.companion("fox")
    assert fox.withdrawn and not fox.defeated and fox.pos is None


@pytest.mark.rule("ROUND-6")
def test_the_greedy_bot_plays_a_battle_with_companions_to_its_end():
    import random

    from domain.betrayal.battle.bots import greedy_choice

    given = clash(companions=("golem:Ysolda", "fox:Ysolda"), xp=2, seed=5)
    rnd = random.Random(5)
    for _ in range(600):
        if given.state.phase is Phase.ENDED:
            break
        given = given.when(greedy_choice(given.state, given.ctx, rnd)).next()
    assert given.state.phase is Phase.ENDED


@pytest.mark.rule("ROUND-6")
def test_a_companion_that_left_the_map_with_the_fallen_party_takes_no_turn_and_is_told_why():
    given = at_companions(clash(companions=("fox:Ysolda", "golem:Ysolda")))
    given = with_ally(given, "fox", withdrawn=True, pos=None)
    refused = given.then_violates(EndCompanionTurn(companion="fox"), "ROUND-6")
    assert refused.message == "Ember the Fox has left the map with the fallen party"


@pytest.mark.rule("ROUND-6")
def test_with_physical_dice_the_engages_offered_to_a_companion_ask_a_face_per_combat_die():
    # the Clay Sentinel (Combat 2) next to e1, dice typed
    given = at_companions(clash(companions=("golem:Ysolda",), physical_dice=True))
    given = with_ally(given, "golem", pos=_hex_next_to(given, "e1"))
    offered = [c for c in given.legal() if isinstance(c, CompanionEngage)]
    assert CompanionEngage(companion="golem", targets=("e1",), faces=(0, 0)) in offered
    assert all(c.faces == (0, 0) for c in offered)


@pytest.mark.rule("ROUND-6")
def test_a_companion_may_not_target_an_enemy_no_longer_on_the_map_and_is_told_why():
    given = _beside_two_foes("golem").with_foe("e2", defeated=True, pos=None)
    refused = given.then_violates(CompanionEngage(companion="golem", targets=("e1", "e2")), "ROUND-6")
    assert refused.message == "e2 is no longer on the map"


@pytest.mark.rule("ROUND-6")
def test_a_companion_with_a_combat_value_of_0_engages_rolling_nothing_and_dealing_nothing():
    """A pack may give a companion Combat 0 (the content allows 0 to 6): its
    engage rolls no dice, deals no damage, and its turn ends as usual."""
    given = with_ally(_beside_two_foes("golem"), "golem", combat=0)
    then = given.when(CompanionEngage(companion="golem", targets=("e1",)))
    assert not [e for e in then.of(DiceRolled) if e.unit == "golem"]
    assert not [e for e in then.of(DamageDealt) if e.source == "golem"]
    then.then_has(CompanionTurnEnded, companion="golem")
    assert then.state.foe("e1").hp == given.state.foe("e1").hp
