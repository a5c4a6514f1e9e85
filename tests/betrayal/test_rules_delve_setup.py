"""Setting up a delve (DELVE-7 to DELVE-12, EX-14): the Entrance and the
face-down piles and deck in the Delve stream, no caches and no enemies, the
party on the Entrance in turn order, round 1."""

from __future__ import annotations

import pytest
from delve_arrange import ENTRANCE_LINKS, SURVEY, UNCOVER, DelveScenario
from scenario import new_party

from domain.betrayal.battle.application import BetrayalApp, PartySpec, delve_stream
from domain.betrayal.battle.commands import EndTurn, Explore, StartDelve
from domain.betrayal.battle.context import RulesContext
from domain.betrayal.delve.aggregate import DelveBegun
from domain.betrayal.delve.map import entrance
from domain.betrayal.battle.events import (
    AdventurerPlaced,
    BattleStarted,
    CachePlaced,
    EnemyPlaced,
    RoundStarted,
    TurnStarted,
)
from domain.betrayal.packs.load import starter_pack
from domain.betrayal.ruleset import BETRAYAL
from domain.betrayal.battle.rules import decision
from domain.betrayal.vocab import BattleForm, Objective
from domain.kernel.errors import MalformedCommand, RuleViolation

ENTRANCE_HEXES = [(15, 30), (16, 30), (17, 30), (15, 31), (16, 31), (17, 31), (15, 32)]


def start(party=("Ysolda:nord",), delve: str = SURVEY, **kw):
    cmd = StartDelve(
        battle_id="v", delve=delve, party=new_party(*party), xp=kw.pop("xp", 2), seed=kw.pop("seed", 1), **kw
    )
    return decision(None, cmd, RulesContext(starter_pack(), delve))


def of(events, kind):
    return [e for e in events if isinstance(e, kind)]


# --- DELVE-7 to DELVE-9 -----------------------------------------------------------------------


@pytest.mark.rule("DELVE-7")
@pytest.mark.rule("CLEANUP-5b")
def test_the_tiles_are_sorted_by_shape_into_face_down_piles_and_the_entrance_is_placed():
    """DELVE-7, and CLEANUP-5b as a delve sees it: whatever the delves
    before it drew, each delve starts with every tile of each shape back in
    that shape's face-down pile (its draws are seeded picks: shuffled)."""
    d = start()
    begun = of(d.delve_events, DelveBegun)
    assert len(begun) == 1
    delve = begun[0].state
    pack = starter_pack()
    assert delve.tiles == (entrance(pack),)
    shapes = {t.shape for t in pack.tiles.values()}
    assert {shape for shape, _ in delve.piles} == shapes
    for shape, ids in delve.piles:
        assert set(ids) == {t.id for t in pack.tiles.values() if t.shape == shape}
    assert set(delve.deck) == {c for c, card in pack.cards.items() if not card.sp} and delve.bottom == ()
    assert delve.objective is Objective.SURVEY and delve.required == 3


@pytest.mark.rule("CLEANUP-6")
def test_the_delve_deck_holds_every_delve_card_but_those_marked_sp_which_are_set_aside():
    """CLEANUP-6: the delve cards go back into the deck after every battle
    except those marked SP, set aside; so no delve deals them."""
    pack = starter_pack()
    marked = {c for c, card in pack.cards.items() if card.sp}
    assert marked == {"hidden-reliquary", "mouth-of-the-lair"}
    for delve in (SURVEY, UNCOVER):
        d = start(delve=delve)
        (begun,) = of(d.delve_events, DelveBegun)
        assert set(begun.state.deck) == set(pack.cards) - marked
        said = BETRAYAL.describe_event(begun, d.state, pack)
        assert f"a delve deck of {len(pack.cards) - 2} cards (2 cards marked SP set aside, CLEANUP-6)" in said


@pytest.mark.rule("DELVE-7")
def test_a_delve_records_the_delve_content_s_hash_and_cannot_be_set_up_twice():
    d = start()
    started = of(d.events, BattleStarted)[0]
    assert started.pack_hash == starter_pack().delve_hash and started.setup == SURVEY
    given = DelveScenario.start()
    given.then_violates(StartDelve(battle_id="v", delve=SURVEY, party=new_party("Tarn:nord"), xp=1, seed=1), "DELVE-7")
    with pytest.raises(MalformedCommand):
        decision(
            None,
            StartDelve(battle_id="v", delve="no-such-delve", party=new_party("Tarn:nord"), xp=1, seed=1),
            RulesContext(starter_pack(), SURVEY),
        )


@pytest.mark.rule("DELVE-8")
@pytest.mark.rule("DELVE-9")
@pytest.mark.rule("DELVE-4")
def test_no_caches_and_no_enemies_are_placed_at_setup_and_no_battle_wide_ep_is_computed():
    d = start(party=("Ysolda:nord", "Tarn:dark-elf"), xp=3)
    assert not of(d.events, CachePlaced) and not of(d.events, EnemyPlaced)
    state = DelveScenario.start(party=("Ysolda:nord", "Tarn:dark-elf"), xp=3).state
    assert state.caches == () and state.foes == ()
    assert of(d.events, BattleStarted)[0].ep == 0  # each explored tile gets its own (DELVE-4)


# --- DELVE-10 -----------------------------------------------------------------------------------


@pytest.mark.rule("DELVE-10")
@pytest.mark.rule("DELVE-10a")
def test_the_adventurers_go_on_empty_entrance_hexes_the_first_player_first():
    d = start(party=("Ysolda:nord", "Tarn:dark-elf", "Aela:khajiit", "Brand:orc"))
    placed = of(d.events, AdventurerPlaced)
    assert [e.hero for e in placed] == ["ysolda", "tarn", "aela", "brand"]
    hexes = [tuple(e.hex) for e in placed]
    assert len(set(hexes)) == 4 and set(hexes) <= set(ENTRANCE_HEXES)


@pytest.mark.rule("DELVE-10a")
def test_the_party_may_choose_each_adventurer_s_entrance_hex_but_only_empty_entrance_hexes():
    d = start(party=("Ysolda:nord", "Tarn:dark-elf"), placements=((17, 31), (15, 32)))
    assert [tuple(e.hex) for e in of(d.events, AdventurerPlaced)] == [(17, 31), (15, 32)]
    for bad in [((18, 30), (15, 32)), ((17, 31), (17, 31))]:
        with pytest.raises(RuleViolation) as caught:
            start(party=("Ysolda:nord", "Tarn:dark-elf"), placements=bad)
        assert caught.value.rule == "DELVE-10a"


@pytest.mark.rule("DELVE-10b")
@pytest.mark.rule("EX-13")
def test_the_placement_order_is_the_turn_order():
    given = DelveScenario.start(party=("Ysolda:nord", "Tarn:dark-elf", "Aela:khajiit"))
    assert given.state.order == ("ysolda", "tarn", "aela")
    turns = []
    for _ in range(3):
        turns.append(given.state.turn.hero)
        given = given.when(EndTurn()).next()
    assert turns == ["ysolda", "tarn", "aela"]


@pytest.mark.rule("DELVE-10c")
def test_each_adventurer_sets_its_battle_form_when_placed():
    d = start(party=("Ysolda:nord::heavy", "Tarn:dark-elf::magic"))
    assert [e.form for e in of(d.events, AdventurerPlaced)] == [BattleForm.HEAVY, BattleForm.MAGIC]


@pytest.mark.rule("DELVE-10d")
@pytest.mark.rule("EX-14")
def test_an_adventurer_placed_on_a_connection_hex_may_explore_at_once_on_its_first_turn():
    given = DelveScenario.start(party=("Ysolda:nord", "Tarn:dark-elf"), placements=((15, 30), ENTRANCE_LINKS[1]))
    assert Explore() not in given.legal()  # Ysolda is on a plain hex
    tarn = given.when(EndTurn()).next()
    assert tarn.state.turn.hero == "tarn" and Explore() in tarn.legal()
    then = tarn.next_card("echoing-steps").when(Explore())
    assert then.delve.pending is not None or then.delve.tiles[-1].key == "t1"


# --- DELVE-12 ------------------------------------------------------------------------------------


@pytest.mark.rule("DELVE-12")
def test_the_delve_starts_at_round_one_with_the_first_player_s_turn():
    d = start(party=("Ysolda:nord", "Tarn:dark-elf"), delve=UNCOVER)
    assert of(d.events, RoundStarted)[0].round == 1
    assert of(d.events, TurnStarted)[0].hero == "ysolda"
    kinds = [type(e).__name__ for e in d.events]
    assert kinds.index("AdventurerPlaced") < kinds.index("RoundStarted")


def test_a_new_delve_writes_its_battle_and_its_delve_stream_together():
    app = BetrayalApp("memory")
    result = app.new_delve(delve=SURVEY, party=[PartySpec("Ysolda", "nord")], xp=2, seed=5, battle_id="v1")
    written = dict(result.written)
    assert isinstance(written[delve_stream("v1")][0], DelveBegun)
    delve = app.delve_of("v1")
    assert delve.battle_id == "v1" and delve.seed == 5 and delve.party_size == 1 and delve.xp == 2
