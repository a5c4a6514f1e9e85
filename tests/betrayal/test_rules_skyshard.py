"""Skyshards (SKYSHARD-1 to SKYSHARD-9, EX-18) and the end of exploring once
the required skyshards are drawn (EXPLORATION-5d, EXPLORATION-5e).

Maps are arranged with ``delve_arrange``: t1 is the Long Drain laid east
of the Entrance through (18, 30), its hexes (18, 30) to (21, 31); a card
kept beside it with skyshards makes it a skyshard tile."""

from __future__ import annotations

import pytest
from delve_arrange import SURVEY, UNCOVER, DelveScenario, pack_with

from domain.betrayal.battle.commands import EndTurn, Explore, Move, MoveToExplore, PlaceTile
from domain.betrayal.delve.aggregate import CardKept, KeptCard, PlacedTile, Skyshard, SkyshardObtained
from domain.betrayal.battle.events import DamageDealt, Explored, Healed, HeroMoved, HeroStepped
from domain.betrayal.ruleset import BETRAYAL
from domain.betrayal.vocab import Objective

LONG_DRAIN = PlacedTile("t1", "long-drain", 0, (18, 30))
T1_HEXES = [(18, 30), (19, 30), (20, 30), (21, 30), (18, 31), (19, 31), (20, 31), (21, 31)]


def shard_tile(
    card: str = "rattling-bones", skyshards: int = 1, *, at=(17, 31), party=("Ysolda:nord",), delve: str = SURVEY
) -> DelveScenario:
    """The Long Drain holding ``card`` with ``skyshards`` still to take;
    Ysolda on the Entrance at ``at``."""
    given = DelveScenario.start(
        delve=delve, party=party, placements=(at,) + ((15, 30), (15, 31), (15, 32))[: len(party) - 1]
    ).with_tiles(LONG_DRAIN)
    return given.with_delve(kept=(KeptCard(card, "t1", skyshards),), icons=skyshards)


# --- SKYSHARD-1, SKYSHARD-5: entering a skyshard tile -----------------------------------------


@pytest.mark.rule("SKYSHARD-1")
@pytest.mark.rule("SKYSHARD-5")
def test_a_card_with_a_skyshard_icon_makes_its_tile_a_skyshard_location():
    given = DelveScenario.start(placements=((16, 30),)).next_card("rattling-bones").only_tile("guard-alcove")
    then = given.when(Explore(hex=(17, 30)))
    if then.delve.placing is not None:
        then = then.next().when(PlaceTile(rotation=0, origin=(18, 29)))
    then.has(CardKept, card="rattling-bones", tile="t1", skyshards=1)
    assert then.delve.drawn == 1 and then.delve.gained == 0  # drawn, not yet obtained


@pytest.mark.rule("SKYSHARD-5")
@pytest.mark.parametrize("entered", T1_HEXES[:2] + [(18, 31)])
def test_entering_any_hex_of_a_skyshard_tile_obtains_its_skyshard(entered):
    given = shard_tile(at=(17, 30)).with_hero("ysolda", stamina=3)
    then = given.when(Move(to=entered))
    then.has(SkyshardObtained, hero="ysolda", card="rattling-bones", tile="t1", count=1)
    assert then.delve.gained == 1
    assert then.delve.obtained == (Skyshard("rattling-bones", "t1", "ysolda", 1),)
    assert then.delve.kept == (KeptCard("rattling-bones", "t1", 0),)  # nothing left to take there


@pytest.mark.rule("SKYSHARD-5")
def test_taking_a_skyshard_resolves_the_card_s_skyshard_effect():
    # Rattling Bones: whoever takes it gains 1 bonus HP
    then = shard_tile().when(Move(to=(18, 31)))
    then.has(Healed, unit="ysolda", bonus_hp=1)
    # Skyshard Vein: each adventurer on the map suffers 1 damage
    vein = shard_tile("skyshard-vein", party=("Ysolda:nord", "Tarn:dark-elf")).when(Move(to=(18, 31)))
    assert {e.target for e in vein.of(DamageDealt)} == {"ysolda", "tarn"}


@pytest.mark.rule("SKYSHARD-5")
def test_standing_on_a_skyshard_tile_or_walking_elsewhere_takes_nothing():
    given = shard_tile(at=(16, 31), party=("Ysolda:nord", "Tarn:dark-elf"))
    given.when(Move(to=(15, 31))).lacks(SkyshardObtained)
    already_there = given.with_hero("tarn", pos=(19, 31)).when(EndTurn())
    already_there.lacks(SkyshardObtained)  # Tarn starts his turn on it: he did not enter it
    assert already_there.delve.gained == 0


@pytest.mark.rule("SKYSHARD-5")
def test_moving_into_an_explorable_hex_of_a_skyshard_tile_obtains_it_before_exploring():
    given = shard_tile().next_card("echoing-steps").only_tile("pillared-gallery")
    given = given.with_hero("ysolda", stamina=5)
    then = given.when(MoveToExplore(to=(21, 31)))
    then.has(SkyshardObtained, hero="ysolda")
    then.has(Explored, hex=(21, 31), entered=True)


# --- SKYSHARD-6, EX-18: an interruption, not an end ----------------------------------------------


@pytest.mark.rule("SKYSHARD-6")
@pytest.mark.rule("EX-18")
@pytest.mark.rule("MOVE-5")
def test_obtaining_a_skyshard_mid_move_interrupts_the_move_which_then_goes_on():
    given = shard_tile().with_hero("ysolda", stamina=3)
    then = given.when(Move(to=(20, 31)))
    kinds = [type(e).__name__ for e in then.events]
    assert kinds[0] == "HeroMoved" and "HeroStepped" in kinds
    then.has(HeroMoved, hero="ysolda", path=((18, 31),))  # into the tile: the shard is taken here
    then.has(HeroStepped, hero="ysolda", path=((19, 31), (20, 31)))  # then the rest of the same Move
    then.has(SkyshardObtained, hero="ysolda", count=1)
    assert kinds.index("HeroMoved") < kinds.index("Healed") < kinds.index("HeroStepped")
    assert then.state.hero("ysolda").pos == (20, 31)
    assert then.state.turn.moves == 1  # one Move action, not two


# --- SKYSHARD-2 to SKYSHARD-4, SKYSHARD-7 to SKYSHARD-9: counting ------------------------------


@pytest.mark.rule("SKYSHARD-3")
@pytest.mark.rule("OBJ-5")
def test_three_skyshards_are_required_unless_the_encounter_says_otherwise():
    assert DelveScenario.start(delve=SURVEY).delve.required == 3
    assert DelveScenario.start(delve=UNCOVER).delve.required == 3
    two = pack_with(
        "delve.toml",
        lambda t: t.replace('objective = "uncover"\nskyshards = 3', 'objective = "uncover"\nskyshards = 2'),
    )
    given = DelveScenario.start(delve=UNCOVER, pack=two)
    assert given.delve.required == 2 and given.delve.objective is Objective.UNCOVER


@pytest.mark.rule("SKYSHARD-4")
def test_the_count_adds_the_icons_on_face_up_cards_and_the_face_down_shortage_cards():
    given = shard_tile("twin-shards", 2).with_delve(face_down=("cold-draft",))
    assert given.delve.drawn == 3
    assert DelveScenario.start().delve.drawn == 0


@pytest.mark.rule("SKYSHARD-7")
@pytest.mark.rule("SKYSHARD-2")
@pytest.mark.rule("OBJ-4")
def test_the_party_keeps_count_of_the_skyshards_obtained_and_is_done_with_all_of_them():
    given = shard_tile().with_delve(
        obtained=(Skyshard("cold-draft", "", "", 1), Skyshard("fungus-bloom", "t9", "tarn", 1))
    )
    assert given.delve.gained == 2 and not given.delve.complete
    then = given.when(Move(to=(18, 31)))
    assert then.delve.gained == 3 and then.delve.complete
    assert [s.card for s in then.delve.obtained] == ["cold-draft", "fungus-bloom", "rattling-bones"]


@pytest.mark.rule("SKYSHARD-8")
def test_one_card_may_grant_several_skyshards():
    then = shard_tile("twin-shards", 2).when(Move(to=(18, 31)))
    then.has(SkyshardObtained, card="twin-shards", count=2)
    assert then.delve.gained == 2


@pytest.mark.rule("SKYSHARD-9")
def test_skyshards_beyond_the_requirement_are_ignored():
    given = shard_tile("twin-shards", 2).with_delve(
        obtained=(Skyshard("rattling-bones", "t7", "ysolda", 1), Skyshard("cold-draft", "", "", 1))
    )
    then = given.when(Move(to=(18, 31)))
    then.has(SkyshardObtained, card="twin-shards", count=1)  # only one more was required
    assert then.delve.gained == 3 == then.delve.required


@pytest.mark.rule("SKYSHARD-9")
@pytest.mark.rule("SKYSHARD-5")
def test_with_every_required_skyshard_held_entering_a_skyshard_tile_still_resolves_its_effect():
    """SKYSHARD-9 ignores the excess *count*; SKYSHARD-5 still has the
    adventurer obtain the tile's skyshard and resolve the card's effect."""
    held = (
        Skyshard("cold-draft", "", "", 1),
        Skyshard("fungus-bloom", "t9", "tarn", 1),
        Skyshard("twin-shards", "t8", "tarn", 1),
    )
    given = shard_tile().with_delve(obtained=held)
    assert given.delve.complete
    then = given.when(Move(to=(18, 31)))
    then.has(SkyshardObtained, hero="ysolda", card="rattling-bones", tile="t1", count=0)
    then.has(Healed, unit="ysolda", bonus_hp=1)  # Rattling Bones: 1 bonus HP to whoever takes it
    assert then.delve.gained == 3 == then.delve.required
    assert then.delve.kept == (KeptCard("rattling-bones", "t1", 0),)  # taken: nothing left there
    said = BETRAYAL.describe_event(then.of(SkyshardObtained)[0], then.state, then.ctx.pack)
    assert said.startswith("SKYSHARD-5: ") and "ignored (SKYSHARD-9)" in said and "resolves all the same" in said
    vein = shard_tile("skyshard-vein", party=("Ysolda:nord", "Tarn:dark-elf")).with_delve(obtained=held)
    assert {e.target for e in vein.when(Move(to=(18, 31))).of(DamageDealt)} == {"ysolda", "tarn"}


# --- EXPLORATION-5d, 5e: no exploring once every required skyshard is drawn ---------------------


@pytest.mark.rule("EXPLORATION-5d")
@pytest.mark.rule("EXPLORATION-5e")
def test_once_the_required_skyshards_are_drawn_no_hex_is_explorable_even_before_they_are_obtained():
    given = DelveScenario.start(placements=((16, 30),)).next_card("echoing-steps")
    assert Explore(hex=(17, 30)) in given.legal()
    drawn = given.with_delve(icons=2, face_down=("cold-draft",), obtained=(Skyshard("cold-draft", "", "", 1),))
    assert drawn.delve.drawn == 3 and drawn.delve.gained == 1  # two still to take on their tiles
    error = drawn.then_violates(Explore(hex=(17, 30)), "EXPLORATION-5d")
    assert "drawn" in error.message
    drawn.then_violates(MoveToExplore(to=(17, 30)), "EXPLORATION-5d")
    assert not [c for c in drawn.legal() if isinstance(c, (Explore, MoveToExplore))]
    # one short of the requirement: still explorable
    assert Explore(hex=(17, 30)) in given.with_delve(icons=2).legal()


@pytest.mark.rule("EXPLORATION-5d")
def test_a_start_of_turn_trigger_also_stops_once_the_skyshards_are_drawn():
    given = DelveScenario.start(placements=((17, 30),)).next_card("echoing-steps").with_delve(icons=3)
    given.then_violates(Explore(), "EXPLORATION-5d")
