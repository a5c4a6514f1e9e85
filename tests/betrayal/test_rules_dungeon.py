"""Setting up a dungeon (DUNGEON-1 to DUNGEON-11) from its diagram, and
Explore refused there (EXPLORE-2, EX-9).

The starter dungeon, the Vault of the Bound Sentinel (dungeons.toml):
numbered enemy hexes 1..6 at (4, 0), (1, 2), (5, 2), (7, 3), (2, 4),
(0, 6); caches common (4, 1), legendary (5, 3), common (2, 6); special
hexes (1, 5) and (4, 5) for its objective unit, the Bound Sentinel; the
Entrance hexes (0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (0, 2)."""

from __future__ import annotations

import pytest
from delve_arrange import pack_with
from scenario import Scenario, new_party

from domain.betrayal.battle.application import BetrayalApp, PartySpec, delve_stream
from domain.betrayal.battle.commands import EndTurn, Explore, Move, MoveToExplore, PlaceTile, StartDungeon
from domain.betrayal.battle.context import context_for
from domain.betrayal.battle.events import (
    AdventurerPlaced,
    BattleEnded,
    BattleStarted,
    CachePlaced,
    EnemyPlaced,
    EnemyPoolClosed,
    RoundStarted,
    TurnStarted,
)
from domain.betrayal.battle.evolve import replay
from domain.betrayal.packs.load import starter_pack
from domain.betrayal.battle.rules import decide
from domain.betrayal.battle.state import Outcome, Phase
from domain.betrayal.vocab import BattleForm, Marker, Objective
from domain.kernel.errors import MalformedCommand, RuleViolation

VAULT = "sentinel-vault"
NUMBERED = [(4, 0), (1, 2), (5, 2), (7, 3), (2, 4), (0, 6)]
SPECIAL = [(1, 5), (4, 5)]
ENTRANCE = [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (0, 2)]


def start(xp: int = 3, party=("Ysolda:nord", "Tarn:dark-elf"), pack=None, **kw):
    pack = pack or starter_pack()
    cmd = StartDungeon(battle_id="d", setup=VAULT, party=new_party(*party), xp=xp, seed=kw.pop("seed", 1), **kw)
    return decide(None, cmd, context_for(pack, VAULT))


def of(events, kind):
    return [e for e in events if isinstance(e, kind)]


def dungeon(**kw) -> Scenario:
    events = start(**kw)
    return Scenario(replay(events), context_for(kw.get("pack") or starter_pack(), VAULT))


def play_round(given: Scenario) -> list:
    """End every adventurer turn; the enemies act; the round's events."""
    events = []
    while given.state.phase is Phase.ADVENTURER_TURN:
        then = given.when(EndTurn())
        events += then.events
        given = then.next()
    return events


# --- DUNGEON-1 to DUNGEON-3, DUNGEON-6: the map from the diagram -----------------------------


@pytest.mark.rule("DUNGEON-1")
@pytest.mark.rule("DUNGEON-6")
@pytest.mark.rule("DUNGEON-3")
def test_the_dungeon_map_is_built_in_advance_from_its_diagram_of_several_tiles():
    board = context_for(starter_pack(), VAULT).board
    tiles = {board.tile_of(h) for h in board.all_hexes()}
    assert {"E", "a", "b", "d"} <= tiles and "#" in tiles  # several tiles and obstacle hexes
    assert board.entrance_hexes() == ENTRANCE
    assert board.numbered_hexes() == NUMBERED and board.special_hexes() == SPECIAL
    events = start()
    started = of(events, BattleStarted)[0]
    assert started.setup == VAULT and started.objective is Objective.ELIMINATE
    assert started.pack_hash == starter_pack().delve_hash
    assert board.tile_of((3, 2)) == "#" and not board.passable((3, 2))  # an obstacle hex of the diagram


@pytest.mark.rule("DUNGEON-2")
@pytest.mark.rule("EXPLORE-2")
@pytest.mark.rule("EX-9")
def test_a_dungeon_has_no_exploring_its_tiles_icons_being_ignored():
    given = dungeon()
    given.then_violates(Explore(hex=(1, 1)), "EXPLORE-2")
    given.then_violates(Explore(), "EXPLORE-2")
    given.then_violates(MoveToExplore(to=(1, 1)), "EXPLORE-2")
    assert not [c for c in given.legal() if isinstance(c, (Explore, MoveToExplore, PlaceTile))]
    assert any(isinstance(c, Move) for c in given.legal())


def test_a_dungeon_writes_no_delve_stream():
    app = BetrayalApp("memory")
    result = app.new_dungeon(setup=VAULT, party=[PartySpec("Ysolda", "nord")], xp=2, seed=3, battle_id="d1")
    assert delve_stream("d1") not in {stream for stream, _ in result.written}
    assert app.delve_of("d1") is None


# --- DUNGEON-7: caches ---------------------------------------------------------------------


@pytest.mark.rule("DUNGEON-7")
def test_caches_go_on_the_diagram_s_cache_hexes_face_up_as_shown():
    placed = [(tuple(e.hex), e.kind) for e in of(start(), CachePlaced)]
    assert placed == [((4, 1), Marker.COMMON_CACHE), ((5, 3), Marker.LEGENDARY_CACHE), ((2, 6), Marker.COMMON_CACHE)]


# --- DUNGEON-8: objective units, then the numbered hexes -----------------------------------------


@pytest.mark.rule("DUNGEON-8")
@pytest.mark.rule("DUNGEON-8d")
def test_the_objective_unit_goes_on_a_special_hex_before_any_other_enemy():
    placed = of(start(), EnemyPlaced)
    assert placed[0].enemy == "bound-sentinel" and placed[0].quest
    assert tuple(placed[0].hex) in SPECIAL
    assert all(not e.quest for e in placed[1:])
    assert placed[0].ep_left == 6  # outside the Enemy Pool (EP-8)


@pytest.mark.rule("DUNGEON-8e")
@pytest.mark.parametrize("chosen", SPECIAL)
def test_the_party_chooses_the_special_hex_of_the_objective_unit(chosen):
    placed = of(start(specials=(chosen,)), EnemyPlaced)
    assert tuple(placed[0].hex) == chosen


@pytest.mark.rule("DUNGEON-8d")
def test_an_objective_unit_cannot_go_on_a_hex_that_is_not_special():
    with pytest.raises(RuleViolation) as caught:
        start(specials=((3, 3),))
    assert caught.value.rule == "DUNGEON-8d"
    with pytest.raises(MalformedCommand):
        start(specials=((1, 5), (4, 5)))  # one objective unit, two hexes named


@pytest.mark.rule("DUNGEON-8e")
def test_two_objective_units_cannot_share_a_special_hex():
    pack = pack_with(
        "dungeons.toml",
        lambda t: t.replace(
            'objective_units = ["bound-sentinel"]', 'objective_units = ["bound-sentinel", "ash-hierophant"]'
        ),
    )
    with pytest.raises(RuleViolation) as caught:
        start(pack=pack, specials=((1, 5), (1, 5)))
    assert caught.value.rule == "DUNGEON-8e"
    placed = of(start(pack=pack, specials=((4, 5), (1, 5))), EnemyPlaced)
    assert [(e.enemy, tuple(e.hex)) for e in placed[:2]] == [("bound-sentinel", (4, 5)), ("ash-hierophant", (1, 5))]


@pytest.mark.rule("DUNGEON-4")
@pytest.mark.rule("DUNGEON-8a")
@pytest.mark.rule("DUNGEON-8b")
def test_the_whole_ep_is_spent_at_setup_on_the_numbered_hexes_in_number_order_highest_level_first():
    events = start(xp=4)  # EP 4 x 2 = 8: a level 5, then three level 1
    assert of(events, BattleStarted)[0].ep == 8
    drawn = [e for e in of(events, EnemyPlaced) if not e.quest]
    assert [e.level for e in drawn] == [5, 1, 1, 1]
    assert [tuple(e.hex) for e in drawn] == NUMBERED[:4]
    assert [e.ep_left for e in drawn] == [3, 2, 1, 0]
    kinds = [type(e).__name__ for e in events]
    assert kinds.index("EnemyPlaced") < kinds.index("AdventurerPlaced")  # all before the battle begins
    assert kinds.index("AdventurerPlaced") < kinds.index("RoundStarted")


@pytest.mark.rule("DUNGEON-5")
@pytest.mark.rule("DUNGEON-8c")
def test_placing_stops_when_the_numbered_hexes_run_out_and_the_rest_of_the_ep_is_discarded():
    events = start(xp=80, party=("Ysolda:nord",))  # EP 80: more than six hexes hold
    drawn = [e for e in of(events, EnemyPlaced) if not e.quest]
    assert [tuple(e.hex) for e in drawn] == NUMBERED
    assert [e.level for e in drawn] == [20, 20, 10, 5, 5, 5]
    closed = of(events, EnemyPoolClosed)
    assert closed and closed[0].discarded == 80 - 65


@pytest.mark.rule("DUNGEON-8c")
def test_placing_stops_when_the_ep_is_used_up_even_with_numbered_hexes_left():
    events = start(xp=1, party=("Ysolda:nord",))  # EP 1: one level-1 enemy
    drawn = [e for e in of(events, EnemyPlaced) if not e.quest]
    assert [(e.level, tuple(e.hex)) for e in drawn] == [(1, NUMBERED[0])]
    assert not of(events, EnemyPoolClosed)


# --- DUNGEON-9, DUNGEON-11: the adventurers, then round 1 ----------------------------------------


@pytest.mark.rule("DUNGEON-9")
@pytest.mark.rule("DUNGEON-9a")
@pytest.mark.rule("DUNGEON-9b")
def test_adventurers_go_on_the_entrance_first_player_first_and_that_order_is_the_turn_order():
    events = start(party=("Ysolda:nord", "Tarn:dark-elf", "Aela:khajiit"))
    placed = of(events, AdventurerPlaced)
    assert [e.hero for e in placed] == ["ysolda", "tarn", "aela"]
    assert all(tuple(e.hex) in ENTRANCE for e in placed)
    state = replay(events)
    assert state.order == ("ysolda", "tarn", "aela")
    chosen = start(placements=((2, 0), (0, 2)))
    assert [tuple(e.hex) for e in of(chosen, AdventurerPlaced)] == [(2, 0), (0, 2)]
    with pytest.raises(RuleViolation):
        start(placements=((4, 0), (0, 2)))  # not an Entrance hex


@pytest.mark.rule("DUNGEON-9c")
def test_each_adventurer_sets_its_battle_form_when_placed():
    events = start(party=("Ysolda:nord::ranged", "Tarn:dark-elf::magic"))
    assert [e.form for e in of(events, AdventurerPlaced)] == [BattleForm.RANGED, BattleForm.MAGIC]
    state = replay(events)
    assert [h.form for h in state.heroes] == [BattleForm.RANGED, BattleForm.MAGIC]


@pytest.mark.rule("DUNGEON-11")
def test_the_dungeon_starts_at_round_one_with_the_first_player_s_turn():
    events = start()
    assert of(events, RoundStarted)[0].round == 1
    assert of(events, TurnStarted)[0].hero == "ysolda"
    state = replay(events)
    assert state.round == 1 and state.turn.hero == "ysolda"


# --- OBJ-1, OBJ-3 in a dungeon ------------------------------------------------------------------


@pytest.mark.rule("OBJ-3")
@pytest.mark.rule("END-2")
def test_the_dungeon_is_won_at_the_end_of_the_round_its_objective_unit_falls_whatever_else_stands():
    given = dungeon()
    assert given.state.objective is Objective.ELIMINATE
    standing = play_round(given)
    assert not [e for e in standing if isinstance(e, BattleEnded)]
    fallen = given.with_foe("e1", defeated=True, pos=None)
    assert [f.id for f in fallen.state.foes if not f.defeated] == ["e2", "e3"]
    ended = [e for e in play_round(fallen) if isinstance(e, BattleEnded)]
    assert ended and ended[0].outcome is Outcome.SUCCESS and ended[0].reason.startswith("END-1a")


@pytest.mark.rule("OBJ-1")
def test_a_conquer_dungeon_is_won_once_every_enemy_is_defeated():
    pack = pack_with(
        "dungeons.toml",
        lambda t: t.replace('objective = "eliminate"\nobjective_units = ["bound-sentinel"]', 'objective = "conquer"'),
    )
    given = dungeon(pack=pack)
    assert given.state.objective is Objective.CONQUER
    assert all(not f.quest for f in given.state.foes)  # no objective unit: only the Enemy Pool's
    one_left = given.without_foes("e1")
    assert not [e for e in play_round(one_left) if isinstance(e, BattleEnded)]
    ended = [e for e in play_round(given.without_foes()) if isinstance(e, BattleEnded)]
    assert ended and ended[0].outcome is Outcome.SUCCESS
