"""Exploring a delve (EXPLORE-1 to EXPLORE-4, EXPLORATION-1 to
EXPLORATION-12, MOVE-4, MOVE-5, DELVE-3 to DELVE-6, EX-6, EX-16, EX-17).

Each test arranges a delve with ``delve_arrange.DelveScenario``: the deck
cut to the card wanted and a pile to the tile wanted, so what an
exploration reveals is known whatever the seed. Ysolda is a Nord (Stamina
2); the Entrance's Connection hexes are (17, 30) and (17, 31), and the
first tile always connects through (18, 30), which touches both."""

from __future__ import annotations

import pytest
from delve_arrange import ENTRANCE_LINKS, DelveScenario
from scenario import Scenario

from domain.betrayal.battle.commands import EndTurn, Engage, Explore, Move, MoveToExplore, PlaceTile
from domain.betrayal.delve.aggregate import (
    CardDiscarded,
    CardDrawn,
    CardKept,
    ItemCycled,
    ItemFound,
    KeptCard,
    PlacedTile,
    ShortageSkyshard,
    TileDrawn,
    TileEpRaised,
    TilePlaced,
    TileReturned,
    TrapSprung,
    TurnMarked,
)
from domain.betrayal.battle.events import (
    CacheOpened,
    CachePlaced,
    DamageDealt,
    EnemyPlaced,
    EnemyPoolClosed,
    EnemyPoolOpened,
    Explored,
    FatigueGained,
    Healed,
    HeroMoved,
    HeroStepped,
    LockpickTested,
)
from domain.betrayal.battle.state import Cache, DieKind, Foe
from domain.betrayal.vocab import BattleForm, Marker, TileIcon
from domain.kernel.hexes import name

LONG_DRAIN = PlacedTile("t1", "long-drain", 0, (18, 30))  # far Connection hex (21, 31)
GALLERY = PlacedTile("t2", "pillared-gallery", 0, (20, 32))  # touches t1 only; open Connection hex (23, 33)


def at_the_entrance(*party: str, **kw) -> DelveScenario:
    """Ysolda (first) on (16, 30), next to the Connection hex (17, 30)."""
    party = party or ("Ysolda:nord",)
    spots = ((16, 30), (15, 30), (15, 31), (15, 32))[: len(party)]
    return DelveScenario.start(party=party, placements=spots, **kw)


def hall_drawn(given: DelveScenario, card: str = "echoing-steps", tile: str = "long-drain") -> DelveScenario:
    return given.next_card(card).only_tile(tile)


# --- EXPLORATION-2, EXPLORATION-6, EXPLORATION-7 ------------------------------------------


@pytest.mark.rule("EXPLORATION-2")
@pytest.mark.rule("EXPLORATION-6")
@pytest.mark.rule("EXPLORATION-7")
def test_an_exploration_draws_a_card_then_a_tile_of_its_shape_and_connects_it():
    given = hall_drawn(at_the_entrance(), "echoing-steps", "torchlit-passage")
    then = given.when(Explore(hex=(17, 30)))
    then.has(Explored, hero="ysolda", hex=(17, 30), card="echoing-steps", entered=False)
    then.has(CardDrawn, card="echoing-steps", hero="ysolda", hex=(17, 30), entered=False)
    then.has(TileDrawn, tile="torchlit-passage", shape="hall")
    kinds = [type(e).__name__ for e in then.delve_events]
    assert kinds.index("CardDrawn") < kinds.index("TileDrawn")
    assert "echoing-steps" not in then.delve.deck and then.delve.pile("hall") == ()
    if then.delve.placing is not None:  # the party chooses among several placements
        option = then.next().legal()[0]
        then = then.next().when(option)
    placed = then.has(TilePlaced).placed
    assert placed.key == "t1" and placed.tile == "torchlit-passage"
    m = then.ctx.map
    assert len(m.tiles) == 2 and set(m.hexes_of("t1"))
    assert set(m.hexes_of("t1")) & set(m.open_connections())  # more hexes to explore


@pytest.mark.rule("EXPLORATION-6")
def test_the_six_steps_come_in_order_card_tile_effects_placement_caches_enemies_card_placed():
    given = at_the_entrance(xp=2).next_card("sealed-coffer").only_tile("broken-aqueduct")
    drawn = given.when(Explore(hex=(17, 30)))
    assert drawn.delve.placing is not None  # two placements: the party chooses (step 3)
    placed = drawn.next().when(PlaceTile(rotation=0, origin=(17, 28)))
    # the Delve stream: card and tile (step 1), placement (3), the card's fate (6)
    delve_kinds = [type(e).__name__ for e in (*drawn.delve_events, *placed.delve_events)]
    assert [k for k in delve_kinds if k != "TurnMarked"] == ["CardDrawn", "TileDrawn", "TilePlaced", "CardDiscarded"]
    # the battle stream: the reveal, then caches (step 4) before enemies (step 5)
    assert [type(e).__name__ for e in drawn.events] == ["Explored"]
    kinds = [type(e).__name__ for e in placed.events]
    assert kinds == ["CachePlaced", "CachePlaced", "EnemyPoolOpened", "EnemyPlaced", "EnemyPoolClosed"]


@pytest.mark.rule("EXPLORATION-7")
def test_the_tile_drawn_is_one_of_the_pile_of_the_card_s_shape():
    given = at_the_entrance().next_card("fungus-bloom")
    then = given.when(Explore(hex=(17, 30)))
    drawn = then.has(TileDrawn)
    assert drawn.shape == "bend" and given.pack.tiles[drawn.tile].shape == "bend"
    assert drawn.tile in given.delve.pile("bend") and drawn.tile not in then.delve.pile("bend")
    assert then.delve.pile("cell") == given.delve.pile("cell")


# --- EXPLORE-1 to EXPLORE-4, EXPLORATION-4: the Explore action --------------------------------


@pytest.mark.rule("EXPLORE-1")
@pytest.mark.rule("EXPLORATION-4")
@pytest.mark.rule("EXPLORATION-3")
def test_the_explore_action_explores_a_hex_in_sight_and_in_range_from_a_distance():
    given = hall_drawn(DelveScenario.start())  # Ysolda on (15, 30): (17, 30) is 2 away
    then = given.when(Explore(hex=(17, 30)))
    then.has(Explored, hex=(17, 30), entered=False)
    then.lacks(HeroMoved)
    assert then.state.hero("ysolda").pos == (15, 30)
    assert then.delve.marks.explored


@pytest.mark.rule("EXPLORE-1")
def test_a_hex_further_than_stamina_cannot_be_explored_by_the_explore_action():
    given = hall_drawn(DelveScenario.start())
    assert given.ctx.board.range_distance((15, 30), (17, 31)) == 3 > given.hero("ysolda").stamina
    error = given.then_violates(Explore(hex=(17, 31)), "EXPLORE-1")
    assert "range" in error.message
    given.with_hero("ysolda", stamina=3).when(Explore(hex=(17, 31))).has(Explored, hex=(17, 31))


@pytest.mark.rule("EXPLORE-1")
def test_a_hex_off_the_map_cannot_be_explored():
    error = hall_drawn(DelveScenario.start()).then_violates(Explore(hex=(99, 99)), "EXPLORE-1")
    assert "not on this map" in error.message


@pytest.mark.rule("EXPLORE-1")
def test_a_hex_out_of_sight_cannot_be_explored_even_within_range():
    # Ysolda on the Entrance; the open Connection hex (23, 33) of t2 is 8
    # hexes away, but t2 does not touch the Entrance (facts: sight)
    given = DelveScenario.start(placements=((17, 31),)).with_tiles(LONG_DRAIN, GALLERY)
    given = given.with_hero("ysolda", stamina=8)
    assert (23, 33) in given.map.open_connections()
    assert given.ctx.board.range_distance((17, 31), (23, 33)) == 8
    error = given.then_violates(Explore(hex=(23, 33)), "EXPLORE-1")
    assert "sight" in error.message
    # from t1, which touches t2, it is in sight
    closer = given.with_hero("ysolda", pos=(20, 31), stamina=5)
    closer.next_card("echoing-steps").when(Explore(hex=(23, 33))).has(Explored, hex=(23, 33))


@pytest.mark.rule("EXPLORE-2")
@pytest.mark.rule("EX-9")
def test_explore_is_refused_in_a_clash():
    given = Scenario.clash()
    given.then_violates(Explore(hex=(1, 0)), "EXPLORE-2")
    given.then_violates(Explore(), "EXPLORE-2")
    given.then_violates(MoveToExplore(to=(1, 0)), "EXPLORE-2")
    assert not [c for c in given.legal() if isinstance(c, (Explore, MoveToExplore, PlaceTile))]


@pytest.mark.rule("EXPLORE-3")
@pytest.mark.rule("MOVE-4")
def test_after_a_move_the_explore_action_is_refused():
    given = hall_drawn(DelveScenario.start())
    moved = given.when(Move(to=(16, 30))).next()
    moved.then_violates(Explore(hex=(17, 30)), "EXPLORE-3")
    assert not [c for c in moved.legal() if isinstance(c, Explore) and c.hex is not None]


@pytest.mark.rule("EXPLORE-3")
@pytest.mark.rule("MOVE-4")
def test_after_the_explore_action_no_move_is_allowed():
    given = hall_drawn(DelveScenario.start())
    explored = given.when(Explore(hex=(17, 30)))
    after = explored.next()
    if after.delve.placing is not None:
        after = after.when(after.legal()[0]).next()
    refused = after.then_violates(Move(to=(16, 30)), "MOVE-4")
    assert refused.message == "you took the Explore action this turn, so you cannot Move (EXPLORE-3)"
    assert not [c for c in after.legal() if isinstance(c, (Move, MoveToExplore))]
    assert after.state.turn.moves == 0


@pytest.mark.rule("EXPLORE-4")
@pytest.mark.rule("EXPLORATION-3a")
def test_entering_an_explorable_hex_may_trigger_exploration_or_not_as_the_adventurer_chooses():
    given = hall_drawn(at_the_entrance())
    plain = given.when(Move(to=(17, 30)))
    plain.lacks(Explored)
    assert (17, 30) in plain.ctx.map.open_connections()
    exploring = given.when(MoveToExplore(to=(17, 30)))
    exploring.has(HeroMoved, hero="ysolda", path=((17, 30),))
    exploring.has(Explored, hero="ysolda", hex=(17, 30), entered=True)


@pytest.mark.rule("EXPLORATION-1")
@pytest.mark.rule("EXPLORATION-5")
def test_only_a_connection_hex_can_be_explored():
    given = hall_drawn(DelveScenario.start(placements=((15, 31),)))
    given.then_violates(Explore(hex=(16, 30)), "EXPLORATION-5")
    given.then_violates(MoveToExplore(to=(16, 30)), "EXPLORATION-5")


@pytest.mark.rule("EXPLORATION-5b")
def test_an_explored_connection_hex_cannot_be_explored_again():
    given = hall_drawn(DelveScenario.start()).with_tiles(LONG_DRAIN)
    error = given.then_violates(Explore(hex=(17, 30)), "EXPLORATION-5b")
    assert "explored" in error.message


@pytest.mark.rule("EXPLORATION-5a")
def test_a_connection_hex_walled_in_by_tiles_cannot_be_explored():
    given = DelveScenario.start(placements=((15, 30),)).with_tiles(
        PlacedTile("t1", "dripping-cell", 1, (19, 27)), PlacedTile("t2", "torchlit-passage", 2, (19, 26))
    )
    given = given.with_hero("ysolda", stamina=3)
    given.then_violates(Explore(hex=(16, 29)), "EXPLORATION-5a")


# --- EXPLORATION-3a to 3c, DELVE-10d: exploring by occupying a hex ------------------------------


@pytest.mark.rule("EXPLORATION-3a")
@pytest.mark.rule("EXPLORATION-3c")
@pytest.mark.rule("DELVE-10d")
@pytest.mark.rule("EX-14")
def test_an_adventurer_starting_its_turn_on_a_connection_hex_may_explore_at_once_and_still_move():
    given = hall_drawn(DelveScenario.start(placements=((17, 30),)))
    assert Explore() in given.legal()
    then = given.when(Explore())
    then.has(Explored, hero="ysolda", hex=(17, 30), entered=True)
    after = then.next()
    if after.delve.placing is not None:
        after = after.when(after.legal()[0]).next()
    # the trigger used no action: Ysolda may still take her Move (EXPLORE-3 would forbid it)
    assert not after.delve.marks.explored and after.state.turn.moves == 0
    assert any(isinstance(c, Move) for c in after.legal())
    after.when(Move(to=(16, 30))).has(HeroMoved, hero="ysolda")


@pytest.mark.rule("EXPLORATION-3a")
def test_the_hex_stood_on_can_be_explored_only_as_the_turn_starts():
    given = hall_drawn(DelveScenario.start(placements=((17, 30),)))
    moved = given.when(Move(to=(16, 30))).next().when(Move(to=(17, 30))).next()
    moved.then_violates(Explore(), "EXPLORATION-3a")
    engaged = given.when(Engage(form=BattleForm.LIGHT)).next()
    engaged.then_violates(Explore(), "EXPLORATION-3a")
    assert Explore() not in engaged.legal()


@pytest.mark.rule("EXPLORATION-3a")
def test_standing_on_a_hex_that_is_not_explorable_gives_no_trigger():
    given = hall_drawn(DelveScenario.start())  # (15, 30) is a plain hex
    given.then_violates(Explore(), "EXPLORATION-5")
    assert Explore() not in given.legal()


@pytest.mark.rule("EXPLORATION-3b")
@pytest.mark.rule("EX-6")
@pytest.mark.rule("MOVE-5")
def test_after_exploring_on_entering_the_rest_of_the_move_may_be_used():
    # Ysolda (Stamina 2) spends 1 hex to enter (17, 30) and explores; the
    # Long Drain lies through (18, 30); she goes on 1 hex within the same Move
    given = hall_drawn(at_the_entrance(), "patrol-route", "long-drain")
    then = given.when(MoveToExplore(to=(17, 30)))
    assert then.delve.marks.resume == 1
    after = then.next()
    if after.delve.placing is not None:
        after = after.when(PlaceTile(rotation=0, origin=(18, 30))).next()
    assert after.state.turn.moves == 1
    on = after.when(Move(to=(18, 30)))
    on.has(HeroStepped, hero="ysolda", path=((18, 30),))
    on.lacks(HeroMoved)
    assert on.state.turn.moves == 1  # still the one Move action
    assert on.state.hero("ysolda").pos == (18, 30)
    # the rest is used up: a further hex is a second Move
    on.next().when(Move(to=(19, 31))).has(HeroMoved, hero="ysolda")


@pytest.mark.rule("EXPLORATION-3b")
def test_the_rest_of_the_move_is_no_longer_than_what_was_left():
    given = hall_drawn(at_the_entrance(), "patrol-route", "long-drain")
    after = given.when(MoveToExplore(to=(17, 30))).next()
    if after.delve.placing is not None:
        after = after.when(PlaceTile(rotation=0, origin=(18, 30))).next()
    two = after.when(Move(to=(19, 30)))  # 2 hexes: more than the 1 left, so a second Move
    two.has(HeroMoved, hero="ysolda")
    assert two.state.turn.moves == 2


@pytest.mark.rule("ENGAGE-3")
@pytest.mark.rule("EXPLORATION-3b")
def test_an_engage_ends_the_interrupted_move_so_its_rest_cannot_follow_the_engage():
    """EXPLORATION-3b lets the rest of the move follow the exploration, but
    once the adventurer has engaged, moving on would be moving both before
    and after engaging (ENGAGE-3)."""
    given = hall_drawn(at_the_entrance(), "patrol-route", "long-drain")
    after = given.when(MoveToExplore(to=(17, 30))).next()
    if after.delve.placing is not None:
        after = after.when(PlaceTile(rotation=0, origin=(18, 30))).next()
    engaged = after.when(Engage(form=BattleForm.LIGHT)).next()
    engaged.then_violates(Move(to=(18, 30)), "ENGAGE-3")
    assert not [c for c in engaged.legal() if isinstance(c, (Move, MoveToExplore))]


@pytest.mark.rule("EXPLORATION-3c")
def test_exploring_on_entering_does_not_take_the_explore_action():
    given = hall_drawn(at_the_entrance(), "patrol-route", "long-drain")
    then = given.when(MoveToExplore(to=(17, 30)))
    assert not then.delve.marks.explored
    after = then.next()
    if after.delve.placing is not None:
        after = after.when(PlaceTile(rotation=0, origin=(18, 30))).next()
    assert any(isinstance(c, Move) for c in after.legal())  # MOVE-4 does not apply


# --- EXPLORATION-7a, 7b, EX-16: no tile of the shape left -------------------------------------


@pytest.mark.rule("EXPLORATION-7a")
@pytest.mark.rule("SKYSHARD-4")
@pytest.mark.rule("EX-16")
def test_with_no_tile_of_the_shape_left_the_card_lies_face_down_as_a_skyshard_and_exploring_ends():
    given = at_the_entrance().next_card("cold-draft").empty_pile("cell")
    then = given.when(MoveToExplore(to=(17, 30)))
    then.has(ShortageSkyshard, card="cold-draft", shape="cell")
    then.lacks(TileDrawn)
    then.lacks(TilePlaced)
    then.lacks(FatigueGained)  # the card's text (When Revealed) is ignored
    assert then.delve.face_down == ("cold-draft",)
    assert then.delve.drawn == 1 and then.delve.gained == 1
    assert then.delve.placing is None and len(then.ctx.map.tiles) == 1
    assert then.delve.pending is None  # the exploration has ended: nothing of it waits
    assert (17, 30) in then.ctx.map.open_connections()  # the hex remains explorable


@pytest.mark.rule("EXPLORATION-7b")
@pytest.mark.rule("EX-16")
def test_after_a_shortage_on_entering_the_hex_must_be_left_and_entered_again():
    given = at_the_entrance().next_card("cold-draft", "rattling-bones").empty_pile("cell")
    given = given.with_hero("ysolda", stamina=3)
    first = given.when(MoveToExplore(to=(17, 30))).next()
    assert (17, 30) in first.delve.marks.spent
    assert MoveToExplore(to=(17, 30)) not in first.legal()
    left = first.when(Move(to=(16, 30))).next()  # the rest of the Move
    assert (17, 30) not in left.delve.marks.spent
    again = left.when(MoveToExplore(to=(17, 30)))
    again.has(Explored, hex=(17, 30), entered=True)


@pytest.mark.rule("EXPLORATION-7b")
@pytest.mark.rule("EX-16")
@pytest.mark.rule("EXPLORATION-3b")
def test_leaving_and_entering_again_may_use_the_rest_of_the_interrupted_move():
    # Ysolda (Stamina 3) already took one Move; her second enters (17, 30),
    # finds no tile, and has 2 hexes left: out to (16, 31) and back in
    given = at_the_entrance().next_card("cold-draft", "rattling-bones").empty_pile("cell")
    given = given.with_hero("ysolda", stamina=3).with_turn(moves=1)
    first = given.when(MoveToExplore(to=(17, 30))).next()
    assert first.state.turn.moves == 2 and first.delve.marks.resume == 2
    out = first.when(Move(to=(16, 31)))
    out.has(HeroStepped, path=((16, 31),))
    assert out.delve.marks.resume == 1 and (17, 30) not in out.delve.marks.spent
    back = out.next().when(MoveToExplore(to=(17, 30)))
    back.has(HeroStepped, path=((17, 30),))
    back.has(Explored, hex=(17, 30), entered=True)
    assert back.state.turn.moves == 2
    # with nothing left, a third hex is refused (MOVE-2: no third Move)
    after = back.next()
    if after.delve.placing is None:
        after.then_violates(Move(to=(16, 31)), "MOVE-2")


@pytest.mark.rule("EXPLORATION-7b")
def test_after_a_shortage_at_the_start_of_the_turn_the_hex_cannot_be_explored_again_without_leaving():
    given = DelveScenario.start(placements=((17, 30),)).next_card("cold-draft", "rattling-bones")
    given = given.empty_pile("cell")
    first = given.when(Explore()).next()
    first.then_violates(Explore(), "EXPLORATION-7b")
    assert Explore() not in first.legal()


# --- EXPLORATION-8: When Revealed -----------------------------------------------------------


@pytest.mark.rule("EXPLORATION-8")
def test_a_when_revealed_effect_is_resolved_on_the_explorer():
    given = at_the_entrance().next_card("cold-draft").only_tile("guard-alcove")
    then = given.when(Explore(hex=(17, 30)))
    then.has(FatigueGained, hero="ysolda", kind=DieKind.LIGHT_FATIGUE, count=1, rule="EXPLORATION-8")


@pytest.mark.rule("EXPLORATION-8")
def test_a_when_revealed_effect_can_hurt_every_adventurer_on_the_map():
    given = at_the_entrance("Ysolda:nord", "Tarn:dark-elf").next_card("falling-stones").only_tile("crooked-stair")
    then = given.when(Explore(hex=(17, 30)))
    hurt = {e.target for e in then.of(DamageDealt)}
    assert hurt == {"ysolda", "tarn"}


@pytest.mark.rule("EXPLORATION-8")
@pytest.mark.rule("DELVE-4")
def test_a_when_revealed_effect_can_raise_the_tile_s_enemy_pool():
    given = at_the_entrance(xp=2).next_card("gallery-ambush").only_tile("long-drain")
    then = given.when(Explore(hex=(17, 30)))
    then.has(TileEpRaised, amount=3)
    if then.delve.placing is not None:
        then = then.next().when(PlaceTile(rotation=0, origin=(18, 30)))
    then.has(EnemyPoolOpened, tile="t1", ep=2 * 1 + 3)


@pytest.mark.rule("EXPLORATION-8")
@pytest.mark.rule("EXPLORATION-9f")
def test_when_revealed_effects_stand_when_the_tile_then_cannot_be_placed():
    """Facts default for the EXPLORATION-9f ambiguity."""
    given = blocked().next_card("cold-draft").only_tile("guard-alcove")
    assert given.map.placements(given.pack.tiles["guard-alcove"], (17, 30)) == []
    then = given.when(Explore(hex=(17, 30)))
    then.has(FatigueGained, hero="ysolda", rule="EXPLORATION-8")
    then.has(TileReturned, tile="guard-alcove", card="cold-draft")
    assert DieKind.LIGHT_FATIGUE in {t.kind for t in then.state.hero("ysolda").track}


# --- EXPLORATION-9 to 9f: connecting the tile --------------------------------------------------


def blocked() -> DelveScenario:
    """t1 leaves (18, 30) free but no room behind it for a cavern tile."""
    return at_the_entrance().with_tiles(PlacedTile("t1", "ossuary-niche", 3, (19, 29)))


@pytest.mark.rule("EXPLORATION-9")
@pytest.mark.rule("EXPLORATION-9b")
def test_with_several_placements_the_party_chooses_the_one_to_use():
    given = hall_drawn(at_the_entrance(), "patrol-route", "pillared-gallery")
    waiting = given.when(Explore(hex=(17, 30)))
    waiting.lacks(TilePlaced)
    assert waiting.delve.placing is not None
    options = waiting.next().legal()
    assert options and all(isinstance(c, PlaceTile) for c in options)
    expected = waiting.ctx.map.placements(given.pack.tiles["pillared-gallery"], (17, 30))
    assert [(c.rotation, c.origin) for c in options] == [(p.rotation, p.origin) for p in expected]
    assert {c.rotation for c in options} >= {0, 1, 2}
    chosen = options[-1]
    placed = waiting.next().when(chosen).has(TilePlaced).placed
    assert (placed.rotation, placed.origin) == (chosen.rotation, chosen.origin)


@pytest.mark.rule("EXPLORATION-9")
@pytest.mark.rule("EXPLORATION-9e")
@pytest.mark.rule("EX-17")
def test_a_placement_the_rules_do_not_allow_is_refused_and_nothing_else_may_be_done_meanwhile():
    given = hall_drawn(at_the_entrance(), "patrol-route", "pillared-gallery")
    waiting = given.when(Explore(hex=(17, 30))).next()
    # touching (17, 30) alone from (18, 29), not both Entrance Connection hexes
    error = waiting.then_violates(PlaceTile(rotation=0, origin=(18, 29)), "EXPLORATION-9")
    options = waiting.legal()
    listed = ", ".join(f"rotation {c.rotation} origin {name(c.origin)}" for c in options[:6])
    assert error.message.endswith(f" legal: {listed}{'...' if len(options) > 6 else ''}")
    waiting.then_violates(PlaceTile(rotation=7, origin=(18, 30)), "EXPLORATION-9")
    waiting.then_violates(EndTurn(), "EXPLORATION-9")
    waiting.then_violates(Move(to=(16, 31)), "EXPLORATION-9")


@pytest.mark.rule("EXPLORATION-9")
def test_placing_a_tile_with_none_waiting_is_refused():
    hall_drawn(at_the_entrance()).then_violates(PlaceTile(rotation=0, origin=(18, 30)), "EXPLORATION-9")


@pytest.mark.rule("EXPLORATION-9")
def test_a_tile_with_a_single_legal_placement_is_connected_at_once():
    given = at_the_entrance().next_card("fungus-bloom").only_tile("broken-aqueduct")
    options = given.map.placements(given.pack.tiles["broken-aqueduct"], (17, 30))
    assert len(options) == 2
    # after t1 takes the way north, Broken Aqueduct fits one way only
    given = (
        at_the_entrance()
        .next_card("cold-draft")
        .only_tile("guard-alcove")
        .with_tiles(PlacedTile("t1", "ossuary-niche", 5, (18, 30)), PlacedTile("t2", "broken-aqueduct", 1, (21, 29)))
    )
    assert len(given.map.placements(given.pack.tiles["guard-alcove"], (19, 32))) == 1
    then = given.with_hero("ysolda", pos=(20, 31)).when(Explore(hex=(19, 32)))
    then.has(TilePlaced)
    assert then.delve.placing is None


@pytest.mark.rule("EXPLORATION-9c")
def test_once_placed_the_new_tile_s_touching_hexes_can_be_walked_across():
    given = DelveScenario.start(placements=((17, 31),)).with_tiles(PlacedTile("t1", "guard-alcove", 0, (18, 29)))
    # (17, 31), the Entrance's Connection hex, and (18, 31), a Common item hex of t1
    assert given.map.icon[(18, 31)] is TileIcon.COMMON
    given.when(Move(to=(18, 31))).has(HeroMoved, path=((18, 31),))
    # (16, 30), a plain Entrance hex, to (18, 29), an enemy hex of t1
    given.with_hero("ysolda", pos=(16, 30)).when(Move(to=(18, 29))).has(HeroMoved, path=((17, 30), (18, 29)))


@pytest.mark.rule("EXPLORATION-9f")
def test_a_tile_that_fits_nowhere_goes_under_its_pile_and_the_card_is_discarded():
    given = blocked().next_card("quiet-cavern").only_tile("flooded-vault")
    then = given.when(MoveToExplore(to=(17, 30)))
    then.has(TileDrawn, tile="flooded-vault")
    then.has(TileReturned, tile="flooded-vault", shape="cavern", card="quiet-cavern")
    then.lacks(TilePlaced)
    then.lacks(CachePlaced)
    then.lacks(EnemyPoolOpened)
    assert then.delve.under("cavern") == ("flooded-vault",) and then.delve.pile("cavern") == ()
    assert then.delve.discarded == ("quiet-cavern",) and then.delve.placing is None
    assert (17, 30) in then.ctx.map.open_connections()  # still explorable
    # as in step 1: leave and enter again to explore it again
    assert (17, 30) in then.delve.marks.spent


@pytest.mark.rule("EXPLORATION-9f")
def test_a_tile_returned_goes_under_the_tiles_already_under_its_pile():
    """Found by mutation testing: a returned tile replaced what was under its
    pile instead of going beneath it."""
    given = blocked().next_card("quiet-cavern").only_tile("flooded-vault")
    given = given.with_delve(bottom=(("cavern", ("earlier-cavern",)),))
    then = given.when(MoveToExplore(to=(17, 30)))
    then.has(TileReturned, tile="flooded-vault", shape="cavern", card="quiet-cavern")
    assert then.delve.under("cavern") == ("earlier-cavern", "flooded-vault")


@pytest.mark.rule("EXPLORATION-9f")
def test_a_tile_put_under_its_pile_is_drawn_only_once_the_pile_above_it_is_used_up():
    given = blocked().next_card("quiet-cavern", "brood-nest").with_delve(bottom=(("cavern", ("flooded-vault",)),))
    given = given.with_delve(piles=tuple((s, ("bone-pit",) if s == "cavern" else ids) for s, ids in given.delve.piles))
    then = given.with_delve(deck=("brood-nest",)).when(Explore(hex=(17, 30)))
    then.has(TileDrawn, tile="bone-pit")
    emptied = given.with_delve(deck=("brood-nest",)).empty_pile("cavern")
    then = emptied.when(Explore(hex=(17, 30)))
    then.has(TileDrawn, tile="flooded-vault", draw=-1)


# --- EXPLORATION-10: caches -----------------------------------------------------------------


def explore_onto(card: str, tile: str, rotation: int, origin, xp: int = 1, party=("Ysolda:nord",)):
    """Explore (17, 30) revealing ``card`` and ``tile`` laid as given."""
    given = at_the_entrance(*party, xp=xp).next_card(card).only_tile(tile)
    then = given.when(Explore(hex=(17, 30)))
    if then.delve.placing is not None:
        then = then.next().when(PlaceTile(rotation=rotation, origin=origin))
    return then


@pytest.mark.rule("EXPLORATION-10")
@pytest.mark.rule("EXPLORATION-10a")
def test_legendary_caches_go_first_each_on_the_farthest_empty_common_item_hex():
    # Broken Aqueduct at (17, 28): Common item hexes (19, 31) 3 away and (19, 29) 2 away
    then = explore_onto("sealed-coffer", "broken-aqueduct", 0, (17, 28))
    caches = then.of(CachePlaced)
    assert [(tuple(c.hex), c.kind) for c in caches] == [
        ((19, 31), Marker.LEGENDARY_CACHE),
        ((19, 29), Marker.COMMON_CACHE),
    ]
    assert set(then.state.caches) == {Cache((19, 31), Marker.LEGENDARY_CACHE), Cache((19, 29), Marker.COMMON_CACHE)}


@pytest.mark.rule("EXPLORATION-10")
def test_as_many_caches_as_the_card_shows_go_on_the_tile():
    then = explore_onto("shimmering-pool", "bone-pit", 0, (20, 28))
    assert len(then.of(CachePlaced)) == 2
    assert all(then.ctx.map.icon[tuple(c.hex)] is TileIcon.COMMON for c in then.of(CachePlaced))
    none = explore_onto("patrol-route", "long-drain", 0, (18, 30))
    none.lacks(CachePlaced)


@pytest.mark.rule("EXPLORATION-10b")
def test_caches_beyond_the_tile_s_common_item_hexes_are_discarded():
    # Crooked Stair has one Common item hex: the Legendary cache takes it
    then = explore_onto("sealed-coffer", "crooked-stair", 0, (18, 30))
    assert [(tuple(c.hex), c.kind) for c in then.of(CachePlaced)] == [((19, 31), Marker.LEGENDARY_CACHE)]


# --- EXPLORATION-11, DELVE-4 to DELVE-6: enemies ------------------------------------------------


@pytest.mark.rule("EXPLORATION-11")
@pytest.mark.rule("EXPLORATION-11a")
@pytest.mark.rule("DELVE-5")
def test_the_row_for_the_party_size_gives_one_enemy_per_box_farthest_enemy_hex_first():
    # Brood Nest, party of 1: boxes [1, 1, 1]; The Bone Pit has 4 enemy hexes
    then = explore_onto("brood-nest", "bone-pit", 0, (20, 28), xp=3)
    placed = then.of(EnemyPlaced)
    assert [e.level for e in placed] == [1, 1, 1]
    expected = then.ctx.map.farthest_first("t1", TileIcon.ENEMY, (17, 30))[:3]
    assert [tuple(e.hex) for e in placed] == expected
    assert [e.ep_left for e in placed] == [2, 1, 0]


@pytest.mark.rule("EXPLORATION-11a")
@pytest.mark.rule("DELVE-5")
def test_a_larger_party_reads_its_own_longer_row():
    # party of 2, row [5, 1, 1]; EP 3 x 2 = 6: a level 5 then a level 1
    then = explore_onto("brood-nest", "bone-pit", 0, (20, 28), xp=3, party=("Ysolda:nord", "Tarn:dark-elf"))
    assert [e.level for e in then.of(EnemyPlaced)] == [5, 1]


@pytest.mark.rule("EXPLORATION-11b")
def test_a_box_higher_than_the_ep_left_draws_the_highest_level_within_the_ep():
    # Patrol Route, party of 1: one box of level 5; EP 3 draws a level 1
    then = explore_onto("patrol-route", "long-drain", 0, (18, 30), xp=3)
    assert [(e.level, e.ep_left) for e in then.of(EnemyPlaced)] == [(1, 2)]
    # with EP 5 the box is drawn at its own level
    then = explore_onto("patrol-route", "long-drain", 0, (18, 30), xp=5)
    assert [(e.level, e.ep_left) for e in then.of(EnemyPlaced)] == [(5, 0)]


@pytest.mark.rule("EXPLORATION-11b")
def test_with_no_chip_of_the_box_s_level_left_the_next_lower_level_that_fits_is_drawn():
    """Facts default: the three greater-bag chips are out (drawn earlier in
    this battle), so a level-10 box with EP 10 draws a level 5."""
    given = at_the_entrance("Ysolda:nord", "Tarn:dark-elf", "Aela:khajiit", "Brand:nord", xp=3)
    drawn_before = tuple(
        Foe(id=f"e{i}", enemy=enemy, level=level, hp=1, max_hp=1, defeated=True)
        for i, (enemy, level) in enumerate([("outlaw-chief", 10), ("barrow-wyrm", 20), ("storm-caller", 10)], 1)
    )
    given = given.with_state(foes=drawn_before).next_card("patrol-route").only_tile("long-drain")
    then = given.when(Explore(hex=(17, 30)))
    if then.delve.placing is not None:
        then = then.next().when(PlaceTile(rotation=0, origin=(18, 30)))
    # party of 4, row [10, 1, 1]; EP 12
    assert [e.level for e in then.of(EnemyPlaced)] == [5, 1]  # two enemy hexes on the Long Drain
    assert then.of(EnemyPlaced)[0].foe == "e4"


@pytest.mark.rule("EXPLORATION-11c")
@pytest.mark.rule("DELVE-6")
def test_deploying_stops_when_the_ep_is_used_up():
    # Brood Nest, party of 1, three boxes; EP 2 places two
    then = explore_onto("brood-nest", "bone-pit", 0, (20, 28), xp=2)
    assert [e.level for e in then.of(EnemyPlaced)] == [1, 1]
    then.lacks(EnemyPoolClosed)


@pytest.mark.rule("EXPLORATION-11c")
@pytest.mark.rule("DELVE-6")
def test_deploying_stops_when_the_tile_has_no_empty_enemy_hex_left():
    # Brood Nest, party of 3: boxes [5, 5, 1, 1]; the Glowworm Grotto has three enemy hexes
    party = ("Ysolda:nord", "Tarn:dark-elf", "Aela:khajiit")
    then = explore_onto("brood-nest", "glowworm-grotto", 1, (20, 27), xp=9, party=party)
    assert [e.level for e in then.of(EnemyPlaced)] == [5, 5, 1]
    closed = then.has(EnemyPoolClosed)
    assert closed.discarded == 27 - 11 and "no empty enemy hex" in closed.reason


@pytest.mark.rule("EXPLORATION-11c")
@pytest.mark.rule("DELVE-5")
def test_deploying_stops_when_every_box_of_the_row_is_drawn():
    # Patrol Route, party of 1: one box; EP 9 leaves 4 discarded
    then = explore_onto("patrol-route", "long-drain", 0, (18, 30), xp=9)
    assert [e.level for e in then.of(EnemyPlaced)] == [5]
    closed = then.has(EnemyPoolClosed)
    assert closed.discarded == 4 and "row" in closed.reason
    assert then.state.ep_left == 0


@pytest.mark.rule("DELVE-4")
@pytest.mark.rule("EP-2")
def test_each_revealed_tile_gets_a_fresh_ep_of_the_party_xp_times_the_party_size():
    party = ("Ysolda:nord", "Tarn:dark-elf", "Aela:khajiit")
    first = explore_onto("patrol-route", "long-drain", 0, (18, 30), xp=2, party=party)
    first.has(EnemyPoolOpened, tile="t1", ep=2 * 3)
    # row [5, 1, 1] spends the EP 6 of t1 entirely
    assert sum(e.level for e in first.of(EnemyPlaced)) == 6 and first.state.ep_left == 0
    # the next tile starts again from 6, not from what t1 left
    nxt = (
        first.next()
        .next_card("echoing-steps")
        .only_tile("torchlit-passage")
        .with_hero("ysolda", pos=(20, 31), stamina=3)
    )
    second = nxt.when(Explore(hex=(21, 31)))
    if second.delve.placing is not None:
        second = second.next().when(second.next().legal()[0])
    second.has(EnemyPoolOpened, tile="t2", ep=6)
    assert [e.level for e in second.of(EnemyPlaced)][:1] == [5]


# --- EXPLORATION-12: the card placed or discarded ---------------------------------------------


@pytest.mark.rule("EXPLORATION-12")
@pytest.mark.parametrize(
    "card, tile, kept, skyshards",
    [
        ("rattling-bones", "guard-alcove", True, 1),  # a skyshard icon
        ("forgotten-shrine", "guard-alcove", True, 0),  # an environment effect
        ("tripwire-niche", "guard-alcove", True, 0),  # a trap
        ("cold-draft", "guard-alcove", False, 0),  # only When Revealed: nothing lasting
    ],
)
def test_a_card_with_a_skyshard_environment_or_trap_lies_beside_its_tile_and_any_other_is_discarded(
    card, tile, kept, skyshards
):
    then = explore_onto(card, tile, 0, (18, 29))
    if kept:
        then.has(CardKept, card=card, tile="t1", skyshards=skyshards)
        then.lacks(CardDiscarded)
        assert KeptCard(card, "t1", skyshards) in then.delve.kept
    else:
        then.has(CardDiscarded, card=card)
        then.lacks(CardKept)
        assert card in then.delve.discarded and not then.delve.kept


@pytest.mark.rule("EXPLORATION-12")
def test_an_environment_acts_on_an_adventurer_who_starts_its_turn_on_its_tile():
    given = DelveScenario.start(party=("Ysolda:nord", "Tarn:dark-elf"))
    given = given.with_tiles(PlacedTile("t1", "guard-alcove", 0, (18, 29))).with_hero("tarn", pos=(18, 29))
    shrine = given.with_delve(kept=(KeptCard("forgotten-shrine", "t1", 0),)).with_hero("tarn", hp=2)
    shrine.when(EndTurn()).has(Healed, unit="tarn", amount=1)
    miasma = given.with_delve(kept=(KeptCard("fungus-bloom", "t1", 0),))
    hurt = miasma.when(EndTurn()).has(
        DamageDealt, target="tarn", true_damage=True, source="environment", rule="EXPLORATION-12"
    )
    assert hurt.to_hp == 1
    elsewhere = given.with_hero("tarn", pos=(15, 31)).with_delve(kept=(KeptCard("fungus-bloom", "t1", 0),))
    elsewhere.when(EndTurn()).lacks(DamageDealt)


@pytest.mark.rule("EXPLORATION-12")
@pytest.mark.rule("MOVE-5")
def test_a_trap_is_tested_on_entering_its_tile_and_the_move_goes_on():
    given = DelveScenario.start(placements=((17, 31),)).with_tiles(LONG_DRAIN)
    given = given.with_delve(kept=(KeptCard("dart-corridor", "t1", 0),)).with_hero("ysolda", stamina=3)
    then = given.when(Move(to=(19, 31)))
    then.has(TrapSprung, tile="t1")
    test = then.has(LockpickTested, hero="ysolda", what="trap")
    if not test.success:
        then.has(DamageDealt, target="ysolda", amount=2)
    assert then.state.hero("ysolda").pos == (19, 31)
    # tested once: the next adventurer to come in is not tested again
    again = then.next().with_hero("ysolda", pos=(17, 31)).when(Move(to=(18, 31)))
    again.lacks(LockpickTested)


@pytest.mark.rule("EXPLORATION-12")
def test_a_trap_whose_lock_holds_deals_its_damage_and_the_log_names_the_trap_as_its_source():
    given = DelveScenario.start(placements=((17, 31),)).with_tiles(LONG_DRAIN)
    given = given.with_delve(kept=(KeptCard("dart-corridor", "t1", 0),)).with_hero("ysolda", stamina=3)
    for seed in range(40):  # a seed whose lockpick test fails
        then = given.with_state(seed=seed).when(Move(to=(19, 31)))
        if not then.has(LockpickTested, hero="ysolda", what="trap").success:
            hit = then.has(DamageDealt, target="ysolda", source="trap", rule="EXPLORATION-12")
            assert hit.amount == 2 and then.state.hero("ysolda").hp == hit.hp
            return
    raise AssertionError("no seed failed the trap's lockpick test")


# --- DELVE-3, MOVE-5: caches opened on the way --------------------------------------------------


@pytest.mark.rule("DELVE-3")
@pytest.mark.rule("MOVE-5")
def test_entering_a_cache_hex_opens_the_cache_and_the_move_goes_on():
    given = DelveScenario.start(placements=((17, 31),)).with_tiles(LONG_DRAIN)
    given = given.with_state(caches=(Cache((18, 31), Marker.COMMON_CACHE),))
    then = given.when(Move(to=(19, 31)))
    then.has(LockpickTested, hero="ysolda", what="cache", hex=(18, 31))
    opened = then.has(CacheOpened, hero="ysolda", hex=(18, 31))
    found = then.of(ItemFound) if opened.success else then.of(ItemCycled)
    assert len(found) == 1
    assert then.state.caches == ()  # the chip leaves the map either way
    then.has(HeroMoved, path=((18, 31),))
    then.has(HeroStepped, path=((19, 31),))
    assert then.state.turn.moves == 1 and then.state.hero("ysolda").pos == (19, 31)
    if opened.success:
        assert then.delve.loot == (("ysolda", found[0].item),)


def opened_item(then) -> str:
    """The item card a cache opening turned up, found or cycled."""
    (shown,) = then.of(ItemFound) or then.of(ItemCycled)
    return shown.item


def cache_at_18_31(kind: Marker = Marker.COMMON_CACHE) -> DelveScenario:
    given = DelveScenario.start(placements=((17, 31),)).with_tiles(LONG_DRAIN)
    return given.with_state(caches=(Cache((18, 31), kind),))


@pytest.mark.rule("DELVE-3")
@pytest.mark.parametrize("kind, legendary", [(Marker.LEGENDARY_CACHE, True), (Marker.COMMON_CACHE, False)])
def test_a_cache_opens_on_the_item_cards_of_its_face(kind, legendary):
    for seed in range(1, 6):
        given = cache_at_18_31(kind)
        given = given.with_state(seed=seed).with_delve(seed=seed)
        then = given.when(Move(to=(18, 31)))
        assert given.pack.items[opened_item(then)].legendary is legendary


@pytest.mark.rule("DELVE-3")
def test_a_cycled_item_card_lies_under_the_deck_until_the_cards_above_it_are_gone():
    pack_items = DelveScenario.start().pack.items
    common = sorted(i for i, item in pack_items.items() if not item.legendary)
    under, above = common[0], common[1]
    given = cache_at_18_31().with_delve(items_drawn=tuple(common[2:]), items_cycled=(under,))
    then = given.when(Move(to=(18, 31)))
    assert opened_item(then) == above  # the cycled card is not on top
    last = given.with_delve(items_drawn=tuple(common[1:]))
    then = last.when(Move(to=(18, 31)))
    assert opened_item(then) == under
    shown = (then.of(ItemFound) or then.of(ItemCycled))[0]
    assert shown.draw == -1 and then.delve.draws == given.delve.draws  # known, not drawn


@pytest.mark.rule("DELVE-3")
def test_a_failed_lockpick_puts_the_card_under_the_deck_and_a_success_takes_it_out():
    given = cache_at_18_31()
    outcomes = {}
    for seed in range(1, 40):
        then = given.with_state(seed=seed).with_delve(seed=seed).when(Move(to=(18, 31)))
        outcomes.setdefault(then.has(CacheOpened).success, then)
        if len(outcomes) == 2:
            break
    failed, found = outcomes[False], outcomes[True]
    item = failed.has(ItemCycled).item
    assert failed.delve.items_cycled == (item,) and failed.delve.items_drawn == ()
    item = found.has(ItemFound).item
    assert found.delve.items_drawn == (item,) and found.delve.loot == (("ysolda", item),)


@pytest.mark.rule("DELVE-3")
def test_a_cache_whose_item_cards_are_all_drawn_opens_on_nothing_without_a_lockpick_test():
    """With every item card of the chip's kind drawn, the cache holds nothing:
    no test is rolled, it counts as not opened, and the chip leaves the map
    (found by mutation testing)."""
    pack_items = DelveScenario.start().pack.items
    common = tuple(sorted(i for i, item in pack_items.items() if not item.legendary))
    given = cache_at_18_31().with_delve(items_drawn=common)
    then = given.when(Move(to=(18, 31)))
    then.has(CacheOpened, hero="ysolda", hex=(18, 31), success=False)
    then.lacks(LockpickTested)
    assert then.of(ItemFound) == [] and then.of(ItemCycled) == []
    assert then.state.caches == () and then.delve.items_drawn == common


@pytest.mark.rule("MOVE-4")
def test_turn_marks_are_the_current_turn_s_own():
    given = hall_drawn(DelveScenario.start(party=("Ysolda:nord", "Tarn:dark-elf"), placements=((15, 30), (15, 31))))
    explored = given.when(Explore(hex=(17, 30)))
    after = explored.next()
    if after.delve.placing is not None:
        after = after.when(after.legal()[0]).next()
    tarn = after.when(EndTurn()).next()
    assert tarn.state.turn.hero == "tarn"
    assert any(isinstance(c, Move) for c in tarn.legal())  # Ysolda's Explore does not bind Tarn
    tarn.when(Move(to=(16, 31))).has(HeroMoved, hero="tarn")


def test_the_delve_stream_records_the_turn_marks_the_rules_read():
    given = hall_drawn(at_the_entrance())
    then = given.when(MoveToExplore(to=(17, 30)))
    marked = then.has(TurnMarked)
    assert marked.marks.hero == "ysolda" and marked.marks.round == 1
    assert marked.marks.spent == ((17, 30),) and marked.marks.resume == 1
    assert ENTRANCE_LINKS[0] == (17, 30)
