"""The delve and dungeon files of the starter pack (delve.toml, items.toml,
dungeons.toml) and their loader: what they hold, that they leave the core
pack's hash alone, and how malformed ones are refused (file, field, reason)."""

from __future__ import annotations

from collections import Counter
from importlib import resources

import pytest

from domain.betrayal.packs.catalog import TileHex
from domain.betrayal.packs.delve import DELVE_FILES
from domain.betrayal.packs.load import CORE_FILES, PACK_FILES, load_pack_dir, parse_pack, starter_pack
from domain.betrayal.vocab import (
    CardEffect,
    Environment,
    Marker,
    Mode,
    Objective,
    TileIcon,
)
from domain.kernel.content import pack_hash
from domain.kernel.errors import ContentError
from domain.kernel.hexes import adjacent, from_offset, neighbours, path_lengths

# ---------------------------------------------------------------- helpers


def starter_files() -> dict[str, bytes]:
    """All eight files of the starter pack, delve files included."""
    content = resources.files("domain.betrayal.content")
    return {name: content.joinpath(name).read_bytes() for name in PACK_FILES}


def mutated(file: str, old: str, new: str, after: str = "") -> dict[str, bytes]:
    """The starter files with the first ``old`` after ``after`` in ``file``
    replaced by ``new``."""
    files = starter_files()
    text = files[file].decode()
    start = text.index(after) if after else 0
    at = text.index(old, start)
    files[file] = (text[:at] + new + text[at + len(old) :]).encode()
    return files


def assert_refused(files: dict[str, bytes], file: str, field: str, reason: str) -> None:
    with pytest.raises(ContentError) as caught:
        parse_pack(files)
    error = caught.value
    assert (error.file, error.field) == (file, field), str(error)
    assert reason in error.reason, str(error)


def test_the_pack_files_are_the_five_core_files_and_the_three_delve_files():
    assert CORE_FILES == ("pack.toml", "races.toml", "lines.toml", "enemies.toml", "setups.toml")
    assert DELVE_FILES == ("delve.toml", "items.toml", "dungeons.toml")
    assert PACK_FILES == CORE_FILES + DELVE_FILES


# ---------------------------------------------------------------- what the starter pack holds


@pytest.mark.rule("DELVE-2")
@pytest.mark.rule("EXPLORATION-7")
def test_there_are_twelve_delve_tiles_three_of_each_of_four_shapes():
    tiles = starter_pack().tiles
    assert len(tiles) >= 12
    shapes = Counter(tile.shape for tile in tiles.values())
    assert len(shapes) >= 4
    assert all(n >= 3 for n in shapes.values()), shapes
    assert "entrance" not in shapes


@pytest.mark.rule("EXPLORATION-1")
@pytest.mark.rule("EXPLORATION-5a")
@pytest.mark.rule("EXPLORATION-10a")
@pytest.mark.rule("EXPLORATION-11")
def test_each_tile_is_connected_with_edge_connection_hexes_caches_and_enemy_hexes():
    for tile in starter_pack().tiles.values():
        cells = {h.hex for h in tile.hexes}
        assert set(path_lengths(tile.hexes[0].hex, cells.__contains__)) == cells, tile.id
        icons = Counter(h.icon for h in tile.hexes)
        assert 2 <= icons[TileIcon.CONNECTION] <= 3, tile.id
        assert 1 <= icons[TileIcon.COMMON] <= 3, tile.id
        assert 2 <= icons[TileIcon.ENEMY] <= 4, tile.id
        for h in tile.hexes:
            if h.icon is TileIcon.CONNECTION:
                assert any(n not in cells for n in neighbours(h.hex)), (tile.id, h.hex)


def test_tile_rows_become_axial_hexes_with_their_icons():
    pack = starter_pack()
    niche = pack.tiles["ossuary-niche"]
    assert niche.rows == ("C  e", "o  c  e", ".  C")
    assert niche.hexes == (
        TileHex(from_offset(0, 0), TileIcon.CONNECTION),
        TileHex(from_offset(1, 0), TileIcon.ENEMY),
        TileHex(from_offset(0, 1), TileIcon.NONE),
        TileHex(from_offset(1, 1), TileIcon.COMMON),
        TileHex(from_offset(2, 1), TileIcon.ENEMY),
        TileHex(from_offset(1, 2), TileIcon.CONNECTION),
    )
    assert niche.hexes[0].hex == (0, 0)


@pytest.mark.rule("EXPLORATION-9e")
@pytest.mark.rule("DELVE-10")
def test_the_entrance_has_two_adjacent_connection_hexes_a_new_tile_can_touch_both():
    entrance = starter_pack().entrance
    assert entrance is not None
    assert (entrance.id, entrance.shape) == ("entrance", "entrance")
    assert 6 <= len(entrance.hexes) <= 8
    cells = {h.hex for h in entrance.hexes}
    links = [h.hex for h in entrance.hexes if h.icon is TileIcon.CONNECTION]
    assert len(links) == 2 and adjacent(*links)
    assert (set(neighbours(links[0])) & set(neighbours(links[1]))) - cells
    assert {h.icon for h in entrance.hexes} == {TileIcon.NONE, TileIcon.CONNECTION}


@pytest.mark.rule("EXPLORATION-6")
def test_there_are_twenty_delve_cards_five_per_shape_each_drawing_an_existing_shape():
    pack = starter_pack()
    shapes = Counter(card.shape for card in pack.cards.values())
    assert len(pack.cards) >= 20
    assert set(shapes) == {tile.shape for tile in pack.tiles.values()}
    assert all(n >= 5 for n in shapes.values()), shapes


@pytest.mark.rule("SKYSHARD-1")
@pytest.mark.rule("SKYSHARD-8")
def test_about_seven_cards_show_skyshards_and_one_shows_two():
    cards = starter_pack().cards.values()
    shards = [card for card in cards if card.skyshards]
    assert 6 <= len(shards) <= 8
    assert [card.skyshards for card in shards].count(2) == 1
    assert all(card.skyshards <= 2 for card in shards)
    assert any(card.skyshard_effect for card in shards)
    assert all(card.skyshard_effect is None for card in cards if not card.skyshards)


@pytest.mark.rule("EXPLORATION-8")
def test_at_least_three_cards_have_when_revealed_effects_of_different_kinds():
    revealed = [c.when_revealed for c in starter_pack().cards.values() if c.when_revealed]
    assert len(revealed) >= 3
    kinds = {action.effect for action in revealed}
    assert {CardEffect.DAMAGE_ALL, CardEffect.FATIGUE_EXPLORER, CardEffect.HEAL_ALL} <= kinds
    assert kinds & {CardEffect.BONUS_HP, CardEffect.EXTRA_EP}
    assert all(action.amount >= 1 and action.text for action in revealed)


@pytest.mark.rule("EXPLORATION-12")
def test_there_are_a_miasma_a_sanctuary_and_two_traps():
    cards = starter_pack().cards.values()
    environments = {card.environment.kind for card in cards if card.environment}
    assert environments == {Environment.MIASMA, Environment.SANCTUARY}
    traps = [card.trap for card in cards if card.trap]
    assert len(traps) >= 2
    for trap in traps:
        assert trap.damage >= 1 and 1 <= trap.code.attempts <= 5
        assert 3 <= len(trap.code.digits) <= 5 and set(trap.code.digits) <= set(range(1, 7))


@pytest.mark.rule("EXPLORATION-10")
def test_most_cards_place_at_most_one_common_cache_and_a_few_a_legendary_one():
    cards = list(starter_pack().cards.values())
    assert sum(card.common <= 1 for card in cards) > len(cards) // 2
    assert 1 <= sum(card.legendary > 0 for card in cards) <= 5


@pytest.mark.rule("DELVE-5")
@pytest.mark.rule("EXPLORATION-11a")
def test_each_challenge_scale_has_four_rows_of_enemy_levels_growing_with_the_party():
    cards = starter_pack().cards.values()
    levels: Counter[int] = Counter()
    for card in cards:
        assert len(card.scale) == 4, card.id
        sizes = [len(row) for row in card.scale]
        assert sizes == sorted(sizes) and sizes[0] >= 1 and sizes[-1] <= 6, card.id
        levels.update(box for row in card.scale for box in row)
    assert set(levels) <= {1, 5, 10}
    assert levels[1] + levels[5] > 5 * levels[10] > 0


@pytest.mark.rule("CLEANUP-6")
def test_one_or_two_cards_carry_the_sp_mark():
    assert 1 <= sum(card.sp for card in starter_pack().cards.values()) <= 2


@pytest.mark.rule("ITEM-1")
def test_there_are_six_common_and_three_legendary_item_cards_with_lock_codes():
    items = starter_pack().items.values()
    common = [item for item in items if not item.legendary]
    legendary = [item for item in items if item.legendary]
    assert len(common) >= 6 and len(legendary) >= 3
    for item in items:
        assert 1 <= item.value <= 10
        assert set(item.code.digits) <= set(range(1, 7)) and 3 <= len(item.code.digits) <= 5
    # legendary codes are harder: never more attempts, always more digits
    assert max(i.code.attempts for i in legendary) <= min(i.code.attempts for i in common)
    assert min(len(i.code.digits) for i in legendary) > max(len(i.code.digits) for i in common)


@pytest.mark.rule("OBJ-4")
@pytest.mark.rule("OBJ-5")
@pytest.mark.rule("OBJ-8")
def test_there_is_a_survey_delve_and_an_uncover_delve_each_needing_three_skyshards():
    delves = starter_pack().delves.values()
    assert sorted(d.objective.value for d in delves) == ["survey", "uncover"]
    assert all(d.skyshards == 3 and d.text and d.name for d in delves)


@pytest.mark.rule("DUNGEON-1")
@pytest.mark.rule("DUNGEON-3")
@pytest.mark.rule("DUNGEON-8d")
@pytest.mark.rule("DUNGEON-8e")
def test_the_dungeon_is_an_eliminate_diagram_with_special_hexes_for_its_quest_unit():
    pack = starter_pack()
    assert len(pack.dungeons) >= 1
    assert not set(pack.dungeons) & set(pack.setups)
    dungeon = pack.dungeons["sentinel-vault"]
    assert dungeon.mode is Mode.DUNGEON and dungeon.objective is Objective.ELIMINATE
    assert dungeon.encounter
    assert all(pack.enemies[unit].quest for unit in dungeon.objective_units)
    markers = Counter(h.marker for h in dungeon.hexes)
    assert markers[Marker.SPECIAL] >= len(dungeon.objective_units) >= 1
    assert markers[Marker.COMMON_CACHE] and markers[Marker.LEGENDARY_CACHE]
    numbers = sorted(h.number for h in dungeon.hexes if h.marker is Marker.ENEMY)
    assert numbers == list(range(1, len(numbers) + 1))
    tiles = {h.tile for h in dungeon.hexes if not h.impassable}
    assert "E" in tiles and 3 <= len(tiles) - 1 <= 4
    assert sum(h.tile == "E" and h.marker is Marker.NONE for h in dungeon.hexes) >= 4


def test_the_clash_setups_stay_clashes():
    assert all(setup.mode is Mode.CLASH for setup in starter_pack().setups.values())


# ---------------------------------------------------------------- the hashes


def test_the_pack_hash_covers_the_five_core_files_only():
    """A clash records ``hash``: adding the delve files must not change it,
    so clash battles recorded before them still load."""
    files = starter_files()
    pack = starter_pack()
    assert pack.hash == pack_hash({name: files[name] for name in CORE_FILES})
    core_only = parse_pack({name: files[name] for name in CORE_FILES})
    assert core_only.hash == pack.hash


def test_the_delve_hash_covers_all_eight_files():
    files = starter_files()
    assert starter_pack().delve_hash == pack_hash(files)
    assert starter_pack().delve_hash != starter_pack().hash


def test_changing_a_delve_file_changes_the_delve_hash_but_not_the_pack_hash():
    files = mutated("delve.toml", 'name = "Rattling Bones"', 'name = "Rattling Bone"')
    pack = parse_pack(files)
    assert pack.hash == starter_pack().hash
    assert pack.delve_hash != starter_pack().delve_hash


def test_a_pack_without_the_delve_files_loads_without_delve_content():
    files = starter_files()
    pack = parse_pack({name: files[name] for name in CORE_FILES})
    assert pack.delve_hash == ""
    assert pack.entrance is None
    assert (pack.tiles, pack.cards, pack.items, pack.delves, pack.dungeons) == ({},) * 5
    assert pack.setups == starter_pack().setups


def test_a_pack_directory_with_the_delve_files_loads_them(tmp_path):
    for name, content in starter_files().items():
        (tmp_path / name).write_bytes(content)
    assert load_pack_dir(tmp_path) == parse_pack(starter_files())


def test_a_pack_directory_without_the_delve_files_loads_the_core_pack(tmp_path):
    for name, content in starter_files().items():
        if name in CORE_FILES:
            (tmp_path / name).write_bytes(content)
    pack = load_pack_dir(tmp_path)
    assert pack.hash == starter_pack().hash and not pack.tiles


# ---------------------------------------------------------------- refusals: files


@pytest.mark.parametrize("missing", DELVE_FILES)
def test_a_pack_missing_one_delve_file_is_refused_naming_it(missing):
    files = starter_files()
    del files[missing]
    assert_refused(files, missing, "(file)", "come all together or not at all")


def test_a_pack_with_only_one_delve_file_is_refused_naming_the_first_missing():
    files = starter_files()
    del files["delve.toml"], files["items.toml"]
    assert_refused(files, "delve.toml", "(file)", "has dungeons.toml but no delve.toml")


def test_an_unknown_file_is_still_refused():
    files = starter_files() | {"delves.toml": b""}
    assert_refused(files, "delves.toml", "(file)", "not a pack file")


@pytest.mark.parametrize(
    ("file", "old", "new", "after", "field", "hint"),
    [
        ("delve.toml", "shape =", "shpae =", "[cards.cold-draft]", "cards.cold-draft.shpae", "shape"),
        ("delve.toml", "rows =", "rwos =", "[tiles.long-drain]", "tiles.long-drain.rwos", "rows"),
        ("delve.toml", "rows =", "row =", "[entrance]", "entrance.row", "rows"),
        (
            "delve.toml",
            "amount =",
            "amout =",
            "[cards.cold-draft.when_revealed]",
            "cards.cold-draft.when_revealed.amout",
            "amount",
        ),
        (
            "delve.toml",
            "damage =",
            "damgae =",
            "[cards.dart-corridor.trap]",
            "cards.dart-corridor.trap.damgae",
            "damage",
        ),
        (
            "delve.toml",
            "objective =",
            "objectiv =",
            "[delves.drowned-cistern]",
            "delves.drowned-cistern.objectiv",
            "objective",
        ),
        ("items.toml", "value =", "valeu =", "[items.sooty-lamp]", "items.sooty-lamp.valeu", "value"),
        (
            "dungeons.toml",
            "encounter =",
            "encountr =",
            "",
            "dungeons.sentinel-vault.encountr",
            "encounter",
        ),
    ],
)
def test_a_misspelt_field_is_refused_naming_the_file_and_field(file, old, new, after, field, hint):
    files = mutated(file, old, new, after)
    assert_refused(files, file, field, f"did you mean {hint!r}?")


# ---------------------------------------------------------------- refusals: the Entrance

ENTRANCE_ROWS = '"o  o  C",\n  "o  o  C",'


@pytest.mark.rule("EXPLORATION-9e")
def test_an_entrance_with_three_connection_hexes_is_refused():
    files = mutated("delve.toml", ENTRANCE_ROWS, '"o  C  C",\n  "o  o  C",')
    assert_refused(files, "delve.toml", "entrance.rows", "exactly 2 Connection hexes")


@pytest.mark.rule("EXPLORATION-9e")
def test_an_entrance_whose_connection_hexes_are_apart_is_refused():
    files = mutated("delve.toml", ENTRANCE_ROWS, '"C  o  o",\n  "o  o  C",')
    assert_refused(files, "delve.toml", "entrance.rows", "must be adjacent")


@pytest.mark.rule("EXPLORATION-9e")
def test_an_entrance_with_no_outside_hex_touching_both_connection_hexes_is_refused():
    files = mutated("delve.toml", ENTRANCE_ROWS, '"o  o  C  o",\n  "o  o  C",')
    assert_refused(files, "delve.toml", "entrance.rows", "no outside hex touches both")


def test_an_entrance_of_three_hexes_is_refused():
    files = mutated("delve.toml", ENTRANCE_ROWS + '\n  ".  o",', '"C  C",\n  "o",')
    assert_refused(files, "delve.toml", "entrance.rows", "at least 4 hexes, found 3")


def test_an_entrance_with_an_enemy_hex_is_refused():
    files = mutated("delve.toml", '".  o",', '".  e",', "[entrance]")
    assert_refused(files, "delve.toml", "entrance.rows[2]", "no enemy hexes")


# ---------------------------------------------------------------- refusals: tiles

NICHE = "[tiles.ossuary-niche]"


def test_a_disconnected_tile_is_refused_naming_the_hex():
    files = mutated("delve.toml", '".  C",', '".  .  .  .  C",', NICHE)
    reason = "column 4: this hex shares no edge with the rest of the tile"
    assert_refused(files, "delve.toml", "tiles.ossuary-niche.rows[2]", reason)


@pytest.mark.rule("EXPLORATION-5a")
def test_a_connection_hex_inside_a_tile_is_refused():
    files = mutated("delve.toml", '"o  c  e  o",', '"o  C  e  o",', "[tiles.glowworm-grotto]")
    reason = "column 1: a Connection hex must lie on the tile's outer edge"
    assert_refused(files, "delve.toml", "tiles.glowworm-grotto.rows[1]", reason)


def test_a_tile_with_one_connection_hex_is_refused():
    files = mutated("delve.toml", '"C  e",', '"o  e",', NICHE)
    field = "tiles.ossuary-niche.rows"
    assert_refused(files, "delve.toml", field, "at least 2 Connection hexes (C), found 1")


def test_an_unknown_tile_token_is_refused():
    files = mutated("delve.toml", '"C  e",', '"C  E",', NICHE)
    assert_refused(files, "delve.toml", "tiles.ossuary-niche.rows[0]", "unknown token 'E'")


def test_a_tile_without_hexes_is_refused():
    files = mutated("delve.toml", '"C  e",\n  "o  c  e",\n  ".  C",', '". ."', NICHE)
    assert_refused(files, "delve.toml", "tiles.ossuary-niche.rows", "no hexes")


@pytest.mark.rule("EXPLORATION-7")
def test_a_tile_shape_no_card_draws_is_refused():
    files = mutated("delve.toml", 'shape = "cell"', 'shape = "vault"', NICHE)
    assert_refused(files, "delve.toml", "tiles.ossuary-niche.shape", "no delve card draws shape")


def test_a_tile_of_the_entrance_shape_or_id_is_refused():
    files = mutated("delve.toml", 'shape = "cell"', 'shape = "entrance"', NICHE)
    assert_refused(files, "delve.toml", "tiles.ossuary-niche.shape", "the Entrance tile's alone")
    files = mutated("delve.toml", NICHE, "[tiles.entrance]")
    assert_refused(files, "delve.toml", "tiles.entrance", "the Entrance tile's")


# ---------------------------------------------------------------- refusals: cards

BONES = "[cards.rattling-bones]"
BONES_SCALE = "scale = [[1], [1, 1], [1, 1, 1], [5, 1, 1]]"


@pytest.mark.rule("EXPLORATION-7")
def test_a_card_shape_with_no_tile_is_refused():
    files = mutated("delve.toml", 'shape = "cell"', 'shape = "crypt"', BONES)
    assert_refused(files, "delve.toml", "cards.rattling-bones.shape", "no tile has shape 'crypt'")


@pytest.mark.rule("EXPLORATION-11a")
@pytest.mark.parametrize(
    ("scale", "field", "reason"),
    [
        ("[[1], [1, 1], [1, 3, 1], [5, 1, 1]]", "scale[2][1]", "enemy level (1, 5, 10, 20"),
        ("[[1], [1, 1], [1, true], [5, 1, 1]]", "scale[2][1]", "enemy level"),
        ("[[1], [1, 1], [5, 1, 1]]", "scale", "4 rows, one per party size"),
        ("[[1], [1], [1], [1], [1]]", "scale", "found 5"),
        ("[[1], [1, 1], [1, 1, 1], [1, 1, 1, 1, 1, 1, 1]]", "scale[3]", "at most 6 boxes"),
        ("[[1], [1, 1], 5, [5, 1, 1]]", "scale[2]", "expected an array"),
    ],
)
def test_a_bad_challenge_scale_is_refused(scale, field, reason):
    files = mutated("delve.toml", BONES_SCALE, f"scale = {scale}", BONES)
    assert_refused(files, "delve.toml", f"cards.rattling-bones.{field}", reason)


def test_a_card_with_four_skyshards_is_refused():
    files = mutated("delve.toml", "skyshards = 2", "skyshards = 4", "[cards.twin-shards]")
    assert_refused(files, "delve.toml", "cards.twin-shards.skyshards", "from 0 to 3")


@pytest.mark.rule("SKYSHARD-5")
def test_a_skyshard_effect_on_a_card_without_skyshards_is_refused():
    files = mutated("delve.toml", "skyshards = 1\n", "", "[cards.lantern-of-shards]")
    field = "cards.lantern-of-shards.skyshard_effect"
    assert_refused(files, "delve.toml", field, "only a card with skyshard icons")


def test_a_skyshard_effect_raising_the_ep_is_refused():
    after = "[cards.lantern-of-shards.skyshard_effect]"
    files = mutated("delve.toml", 'effect = "heal-all"', 'effect = "extra-ep"', after)
    field = "cards.lantern-of-shards.skyshard_effect.effect"
    assert_refused(files, "delve.toml", field, "extra-ep acts when a tile is revealed")


@pytest.mark.parametrize(
    ("old", "new", "after", "field", "reason"),
    [
        (
            "amount = 1",
            "amount = 0",
            "[cards.falling-stones.when_revealed]",
            "cards.falling-stones.when_revealed.amount",
            "at least 1",
        ),
        (
            'effect = "damage-all"',
            'effect = "explode"',
            "[cards.falling-stones.when_revealed]",
            "cards.falling-stones.when_revealed.effect",
            "unknown value 'explode'",
        ),
        (
            'kind = "miasma"',
            'kind = "fog"',
            "[cards.fungus-bloom.environment]",
            "cards.fungus-bloom.environment.kind",
            "unknown value 'fog'",
        ),
        (
            "amount = 1",
            "amount = 0",
            "[cards.fungus-bloom.environment]",
            "cards.fungus-bloom.environment.amount",
            "at least 1",
        ),
        ("damage = 2", "damage = 0", "[cards.dart-corridor.trap]", "cards.dart-corridor.trap.damage", "at least 1"),
        (
            "attempts = 3",
            "attempts = 6",
            "[cards.dart-corridor.trap]",
            "cards.dart-corridor.trap.attempts",
            "from 1 to 5",
        ),
        (
            "digits = [1, 4, 6]",
            "digits = [1, 4, 7]",
            "[cards.dart-corridor.trap]",
            "cards.dart-corridor.trap.digits[2]",
            "from 1 to 6",
        ),
        (
            "digits = [1, 4, 6]",
            "digits = [1, 4]",
            "[cards.dart-corridor.trap]",
            "cards.dart-corridor.trap.digits",
            "3 to 5 digits",
        ),
        ("common = 1", "common = -1", "[cards.echoing-steps]", "cards.echoing-steps.common", "at least 0"),
    ],
)
def test_a_bad_card_value_is_refused_naming_the_card(old, new, after, field, reason):
    assert_refused(mutated("delve.toml", old, new, after), "delve.toml", field, reason)


# ---------------------------------------------------------------- refusals: delve setups

BARROW = "[delves.whispering-barrow]"


@pytest.mark.rule("SKYSHARD-3")
@pytest.mark.rule("OBJ-5")
def test_a_delve_needs_three_skyshards_unless_it_says_otherwise():
    pack = parse_pack(mutated("delve.toml", "skyshards = 3\n", "", BARROW))
    assert pack.delves["whispering-barrow"].skyshards == 3
    pack = parse_pack(mutated("delve.toml", "skyshards = 3", "skyshards = 5", BARROW))
    assert pack.delves["whispering-barrow"].skyshards == 5


@pytest.mark.parametrize(
    ("old", "new", "field", "reason"),
    [
        ('objective = "survey"', 'objective = "conquer"', "objective", "survey or uncover"),
        ("skyshards = 3", "skyshards = 7", "skyshards", "from 1 to 6"),
        ("skyshards = 3", "skyshards = 0", "skyshards", "from 1 to 6"),
    ],
)
def test_a_bad_delve_setup_is_refused(old, new, field, reason):
    files = mutated("delve.toml", old, new, BARROW)
    assert_refused(files, "delve.toml", f"delves.whispering-barrow.{field}", reason)


def test_a_delve_with_the_id_of_a_clash_setup_is_refused():
    files = mutated("delve.toml", BARROW, "[delves.waystone-crossing]")
    assert_refused(files, "delve.toml", "delves.waystone-crossing", "already a setup")


# ---------------------------------------------------------------- refusals: items


@pytest.mark.parametrize(
    ("old", "new", "field", "reason"),
    [
        ("value = 1", "value = 0", "value", "at least 1"),
        ("attempts = 3", "attempts = 0", "attempts", "from 1 to 5"),
        ("digits = [1, 2, 3]", "digits = [1, 2, 3, 4, 5, 6]", "digits", "3 to 5 digits"),
        ("digits = [1, 2, 3]", "digits = [0, 2, 3]", "digits[0]", "from 1 to 6"),
        ('name = "Soot-Blackened Lamp"\n', "", "name", "required key is missing"),
    ],
)
def test_a_bad_item_is_refused_naming_it(old, new, field, reason):
    files = mutated("items.toml", old, new, "[items.sooty-lamp]")
    assert_refused(files, "items.toml", f"items.sooty-lamp.{field}", reason)


def test_items_without_a_legendary_card_are_refused():
    files = starter_files()
    files["items.toml"] = files["items.toml"].replace(b"legendary = true\n", b"")
    assert_refused(files, "items.toml", "items", "at least one legendary item card")


def test_items_without_a_common_card_are_refused():
    files = starter_files()
    text = files["items.toml"].decode()
    files["items.toml"] = text[text.index("[items.emberglass-blade]") :].encode()
    assert_refused(files, "items.toml", "items", "at least one common item card")


# ---------------------------------------------------------------- refusals: dungeons

VAULT_AT = "dungeons.sentinel-vault"


@pytest.mark.rule("DUNGEON-3")
@pytest.mark.rule("DUNGEON-8d")
def test_a_dungeon_with_fewer_special_hexes_than_objective_units_is_refused():
    files = mutated("dungeons.toml", "d*", "d")
    files = {**files, "dungeons.toml": files["dungeons.toml"].replace(b"b*", b"b")}
    assert_refused(files, "dungeons.toml", f"{VAULT_AT}.rows", "found 0")


def test_a_dungeon_without_its_encounter_text_is_refused():
    text = starter_files()["dungeons.toml"].decode()
    line = next(line for line in text.splitlines() if line.startswith("encounter ="))
    files = mutated("dungeons.toml", line + "\n", "")
    assert_refused(files, "dungeons.toml", f"{VAULT_AT}.encounter", "required key is missing")


@pytest.mark.parametrize(
    ("old", "new", "field", "reason"),
    [
        ('objective = "eliminate"', 'objective = "survey"', "objective", "delve objective"),
        ('"bound-sentinel"', '"cave-troll"', "objective_units[0]", "not a quest unit"),
        ("d6", "d7", "rows", "6 is missing"),
        ("E   E   E   a", "E   E   E1  a", "rows[0]", "cannot be on the Entrance"),
    ],
)
def test_a_bad_dungeon_is_refused_naming_the_field(old, new, field, reason):
    files = mutated("dungeons.toml", old, new)
    assert_refused(files, "dungeons.toml", f"{VAULT_AT}.{field}", reason)


def test_a_dungeon_map_of_one_tile_is_refused_citing_the_dungeon_rule():
    text = '[dungeons.tiny]\nname = "Tiny"\nobjective = "conquer"\nencounter = "x"\n'
    files = starter_files()
    files["dungeons.toml"] = (text + 'rows = ["a a a a1", "a a a a"]\n').encode()
    assert_refused(files, "dungeons.toml", "dungeons.tiny.rows", "(DUNGEON-1)")


def test_a_dungeon_with_the_id_of_a_clash_setup_is_refused():
    files = mutated("dungeons.toml", "[dungeons.sentinel-vault]", "[dungeons.cinder-rite]")
    assert_refused(files, "dungeons.toml", "dungeons.cinder-rite", "already a setup")


def test_a_clash_setup_with_a_delve_objective_is_refused():
    files = mutated("setups.toml", 'objective = "conquer"', 'objective = "survey"')
    assert_refused(files, "setups.toml", "setups.waystone-crossing.objective", "delve objective")
