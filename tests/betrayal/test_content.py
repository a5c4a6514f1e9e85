"""The starter content pack and the pack loader: what a valid pack holds, and
how a malformed one is refused (file, field, reason)."""

from __future__ import annotations

from importlib import resources

import pytest

from domain.betrayal.packs.catalog import Face
from domain.betrayal.packs.load import PACK_FILES, load_pack_dir, parse_pack, starter_pack
from domain.betrayal.vocab import (
    BAG_LEVELS,
    AbilityType,
    Bag,
    Effect,
    EnemySkill,
    Marker,
    Objective,
    Status,
)
from domain.kernel.errors import ContentError
from domain.kernel.hexes import from_offset, path_lengths

# ---------------------------------------------------------------- helpers


def starter_files() -> dict[str, bytes]:
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


def refusal(files: dict[str, bytes]) -> ContentError:
    with pytest.raises(ContentError) as caught:
        parse_pack(files)
    return caught.value


def assert_refused(files: dict[str, bytes], file: str, field: str, reason: str) -> None:
    error = refusal(files)
    assert (error.file, error.field) == (file, field), str(error)
    assert reason in error.reason, str(error)


# ---------------------------------------------------------------- the starter pack


def test_the_starter_pack_loads_with_its_id_name_and_version():
    pack = starter_pack()
    assert pack.id == "starter"
    assert pack.version == "1"
    assert pack.name
    assert pack.default_lines == ("one-hand-shield", "heavy-armor")


def test_the_starter_pack_is_read_once_and_cached():
    assert starter_pack() is starter_pack()


def test_a_pack_directory_loads_to_the_same_pack(tmp_path):
    for name, content in starter_files().items():
        (tmp_path / name).write_bytes(content)
    assert load_pack_dir(tmp_path) == parse_pack(starter_files())


RACE_TABLE = {
    # id: (HP, Stamina, Magicka, Combat dice, Cooldown, ability)
    "argonian": (5, 3, 2, 1, 2, "Argonian Resistance"),
    "breton": (5, 2, 3, 1, 2, "Opportunist"),
    "dark-elf": (4, 2, 3, 2, 2, "Dynamic"),
    "high-elf": (4, 2, 4, 1, 2, "Syrabane's Boon"),
    "imperial": (5, 2, 2, 2, 2, "Imperial Mettle"),
    "khajiit": (4, 3, 2, 2, 2, "Cutpurse"),
    "nord": (4, 2, 2, 3, 2, "Reveler"),
    "orc": (5, 2, 2, 1, 3, "Swift Warrior"),
    "redguard": (4, 3, 2, 3, 1, "Adrenaline Rush"),
    "wood-elf": (5, 3, 1, 2, 2, "Hunter's Eye"),
}


@pytest.mark.rule("HEALTH-1")
@pytest.mark.rule("STAMINA-1")
@pytest.mark.rule("MAGICKA-1")
@pytest.mark.rule("COOLDOWN-1")
def test_the_ten_races_start_with_the_stats_of_the_facts_table():
    races = starter_pack().races
    assert set(races) == set(RACE_TABLE)
    for race_id, expected in RACE_TABLE.items():
        race = races[race_id]
        stats = (race.health, race.stamina, race.magicka, race.combat_dice, race.cooldown)
        assert (*stats, race.ability) == expected, race_id


@pytest.mark.rule("COMBAT-2")
def test_the_combat_die_shows_tenacity_four_ones_and_a_two():
    die = starter_pack().dice["combat"]
    assert die.line == "combat"
    assert die.form is None
    combat = [Face(effect=Effect.COMBAT, amount=n) for n in (1, 1, 1, 1, 2)]
    assert die.faces == (Face(tenacity=True), *combat)


def test_the_combat_line_is_not_a_starter_line():
    assert not starter_pack().lines["combat"].starter


def test_the_enemy_combat_die_is_not_in_the_pack_because_the_rules_own_it():
    pack = starter_pack()
    assert all(die.line in pack.lines for die in pack.dice.values())
    assert all(any(face.tenacity for face in die.faces) for die in pack.dice.values())
    assert not [die_id for die_id in pack.dice if "enemy" in die_id]


def test_each_starter_line_has_two_level_one_dice_with_one_tenacity_face_each():
    pack = starter_pack()
    starters = {key for key, line in pack.lines.items() if line.starter}
    assert starters == {"one-hand-shield", "two-handed", "bow", "destruction-staff", "heavy-armor"}
    for line_id in starters:
        dice = [die for die in pack.dice.values() if die.line == line_id and die.level == 1]
        assert len(dice) == 2, line_id
        for die in dice:
            assert die.level == 1
            assert len(die.faces) == 6
            assert sum(face.tenacity for face in die.faces) == 1, die.id
        start = pack.lines[line_id].start_dice
        assert len(start) == 2
        assert all(pack.dice[die_id].line == line_id for die_id in start)


def test_the_starter_dice_use_every_ability_code_and_every_status():
    faces = [face for die in starter_pack().dice.values() for face in die.faces]
    assert {face.ability for face in faces} >= set(AbilityType)
    assert {face.status for face in faces} >= set(Status)
    assert max(face.amount for face in faces) <= 3


def test_there_are_at_least_eight_enemies_over_levels_one_five_and_ten():
    enemies = [enemy for enemy in starter_pack().enemies.values() if not enemy.quest]
    assert len(enemies) >= 8
    assert {enemy.level for enemy in enemies} == {1, 5, 10, 20}
    assert any(enemy.range >= 2 for enemy in enemies)


def test_enemies_use_most_enemy_skills():
    skills = {enemy.skill for enemy in starter_pack().enemies.values()} - {None}
    assert len(skills) >= len(EnemySkill) - 2


def test_every_chip_shows_the_levels_of_its_bag_and_no_quest_unit():
    pack = starter_pack()
    assert {chip.bag for chip in pack.chips} == set(Bag)
    for chip in pack.chips:
        front_level, back_level = BAG_LEVELS[chip.bag]
        assert pack.enemies[chip.front].level == front_level
        assert chip.back is None or pack.enemies[chip.back].level == back_level
        assert not pack.enemies[chip.front].quest


def test_there_are_two_conquer_setups_and_one_eliminate_setup():
    objectives = sorted(setup.objective.value for setup in starter_pack().setups.values())
    assert objectives == ["conquer", "conquer", "eliminate"]


@pytest.mark.rule("CLASH-7")
def test_each_setup_numbers_its_enemy_hexes_one_to_n_off_the_entrance():
    for setup in starter_pack().setups.values():
        numbered = [h for h in setup.hexes if h.marker is Marker.ENEMY]
        assert sorted(h.number for h in numbered) == list(range(1, len(numbered) + 1))
        assert 6 <= len(numbered) <= 9
        assert all(h.tile != "E" for h in numbered)


@pytest.mark.rule("CLASH-1")
def test_each_setup_map_is_connected_with_an_entrance_and_another_tile():
    for setup in starter_pack().setups.values():
        open_hexes = {h.hex for h in setup.hexes if not h.impassable}
        assert len(path_lengths(next(iter(open_hexes)), open_hexes.__contains__)) == len(open_hexes)
        assert "E" in {h.tile for h in setup.hexes}
        assert len({h.tile for h in setup.hexes if not h.impassable}) >= 2
        assert sum(h.marker is Marker.NONE and h.tile == "E" for h in setup.hexes) >= 4


@pytest.mark.rule("OBJ-3")
def test_the_eliminate_setup_names_quest_units_and_has_a_special_hex_for_each():
    pack = starter_pack()
    for setup in pack.setups.values():
        if setup.objective is not Objective.ELIMINATE:
            assert setup.objective_units == ()
            continue
        assert setup.objective_units
        assert all(pack.enemies[unit].quest for unit in setup.objective_units)
        specials = [h for h in setup.hexes if h.marker is Marker.SPECIAL]
        assert len(specials) >= len(setup.objective_units)


def test_map_tokens_become_axial_hexes_with_tile_and_marker():
    hexes = {h.hex: h for h in starter_pack().setups["waystone-crossing"].hexes}
    first = hexes[from_offset(2, 2)]
    assert (first.tile, first.marker, first.number) == ("a", Marker.ENEMY, 1)
    assert hexes[from_offset(4, 2)].marker is Marker.COMMON_CACHE
    assert hexes[from_offset(8, 2)].marker is Marker.LEGENDARY_CACHE
    rock = hexes[from_offset(5, 1)]
    assert (rock.tile, rock.impassable) == ("#", True)
    assert from_offset(0, 4) not in hexes


# ---------------------------------------------------------------- the hash


def test_the_hash_is_stable_for_the_same_bytes():
    assert parse_pack(starter_files()).hash == starter_pack().hash
    assert len(starter_pack().hash) == 32


def test_the_hash_changes_when_one_byte_changes():
    files = mutated("pack.toml", 'name = "', 'name = "X')
    assert parse_pack(files).hash != starter_pack().hash


def test_the_hash_does_not_depend_on_the_order_files_are_given_in():
    files = starter_files()
    reverse = dict(reversed(list(files.items())))
    assert parse_pack(reverse).hash == parse_pack(files).hash


# ---------------------------------------------------------------- refusals: files and syntax


def test_a_missing_file_is_refused_naming_it():
    files = starter_files()
    del files["enemies.toml"]
    assert_refused(files, "enemies.toml", "(file)", "no such file")


def test_an_unknown_file_is_refused_naming_it():
    files = starter_files() | {"enemy.toml": b""}
    assert_refused(files, "enemy.toml", "(file)", "not a pack file")


def test_a_toml_syntax_error_is_refused_naming_the_file_and_line():
    files = mutated("races.toml", "cooldown = 3", "cooldown = = 3")
    line = files["races.toml"].decode().splitlines().index("cooldown = = 3") + 1
    assert_refused(files, "races.toml", f"line {line}", "TOML syntax error")


def test_bytes_that_are_not_utf8_are_refused_naming_the_line():
    files = starter_files()
    files["pack.toml"] = b'id = "starter"\nname = "\xff"\n'
    assert_refused(files, "pack.toml", "line 2", "UTF-8")


# ---------------------------------------------------------------- refusals: keys and types


def test_an_unknown_key_is_refused_with_a_suggestion():
    files = mutated("enemies.toml", "hp = 2", "hpp = 2", after='id = "tunnel-rat"')
    assert_refused(files, "enemies.toml", "enemies[3].hpp", "did you mean 'hp'?")


def test_an_unknown_top_level_key_is_refused():
    files = mutated("pack.toml", "version =", 'author = "me"\nversion =')
    assert_refused(files, "pack.toml", "author", "unknown key")


def test_a_missing_required_key_is_refused():
    files = mutated("races.toml", 'ability = "Reveler"', "")
    assert_refused(files, "races.toml", "races[6].ability", "required key is missing")


def test_a_string_where_a_number_belongs_is_refused():
    files = mutated("races.toml", "health = 5", 'health = "5"')
    assert_refused(files, "races.toml", "races[0].health", "expected an integer, got a string")


def test_a_boolean_is_not_taken_for_a_number():
    files = mutated("races.toml", "stamina = 3", "stamina = true")
    assert_refused(files, "races.toml", "races[0].stamina", "expected an integer, got a boolean")


def test_an_id_that_is_not_a_slug_is_refused():
    files = mutated("races.toml", 'id = "argonian"', 'id = "Argonian"')
    assert_refused(files, "races.toml", "races[0].id", "is not an id")


def test_a_duplicate_race_id_is_refused():
    files = mutated("races.toml", 'id = "breton"', 'id = "argonian"')
    assert_refused(files, "races.toml", "races[1].id", "duplicate id 'argonian'")


# ---------------------------------------------------------------- refusals: dice and lines


def test_a_die_with_five_faces_is_refused_naming_the_die():
    files = mutated("lines.toml", ', "-"]', "]", after="[dice.guard-up]")
    assert_refused(files, "lines.toml", "dice.guard-up.faces", "6 faces, got 5")


def test_a_die_without_a_tenacity_face_is_refused():
    files = mutated("lines.toml", '"T"', '"-"', after="[dice.cleave]")
    assert_refused(files, "lines.toml", "dice.cleave.faces", "Tenacity face")


@pytest.mark.parametrize(
    ("old", "new", "index", "reason"),
    [
        ('"instant:damage:2"', '"instant:block:2"', 3, "block must be active"),
        ('"instant:damage:2"', '"active:ward:2"', 3, "ward must be track"),
        ('"instant:damage:2"', '"active:damage:2"', 3, "damage must be instant or drained"),
        ('"instant:damage:2"', '"instant:damage:x"', 3, "not a whole number"),
        ('"instant:damage:2"', '"instant:damage:0"', 3, "at least 1"),
        ('"instant:damage:2"', '"instant:smite:2"', 3, "unknown effect 'smite'"),
        ('"instant:damage:2"', '"sudden:damage:2"', 3, "unknown ability 'sudden'"),
        ('"instant:damage:2"', '"status:sleep"', 3, "unknown status 'sleep'"),
        ('"instant:damage:2"', '"combat:0"', 3, "at least 1"),
        ('"instant:damage:2"', '"damage 2"', 3, "cannot read face"),
        ('"instant:damage:2"', "2", 3, "expected a string, got an integer"),
    ],
)
def test_a_malformed_face_is_refused_naming_the_face(old, new, index, reason):
    files = mutated("lines.toml", old, new, after="[dice.shield-bash]")
    assert_refused(files, "lines.toml", f"dice.shield-bash.faces[{index}]", reason)


def test_a_die_of_an_unknown_line_is_refused():
    files = mutated("lines.toml", 'line = "bow"', 'line = "bows"')
    assert_refused(files, "lines.toml", "dice.steady-shot.line", "unknown skill line 'bows'")


def test_an_unknown_battle_form_is_refused():
    files = mutated("lines.toml", 'form = "ranged"', 'form = "archer"')
    assert_refused(files, "lines.toml", "lines.bow.form", "unknown value 'archer'")


def test_a_start_die_that_does_not_exist_is_refused():
    files = mutated("lines.toml", '"cleave", "cleave"', '"cleave", "clave"')
    assert_refused(files, "lines.toml", "lines.two-handed.start_dice[1]", "unknown die 'clave'")


def test_a_start_die_of_another_line_is_refused():
    files = mutated("lines.toml", '"cleave", "cleave"', '"cleave", "brace"')
    field = "lines.two-handed.start_dice[1]"
    assert_refused(files, "lines.toml", field, "belongs to line 'heavy-armor'")


def test_a_starter_line_without_start_dice_is_refused():
    files = mutated("lines.toml", 'start_dice = ["cleave", "cleave"]', "")
    assert_refused(files, "lines.toml", "lines.two-handed.start_dice", "must name the dice")


def test_a_pack_without_the_combat_die_is_refused():
    files = mutated("lines.toml", "[dice.combat]", "[dice.fisticuffs]")
    assert_refused(files, "lines.toml", "dice", "Combat die")


def test_a_default_line_that_does_not_exist_is_refused():
    files = mutated("pack.toml", '"heavy-armor"', '"heavy-armour"')
    assert_refused(files, "pack.toml", "default_lines[1]", "unknown skill line 'heavy-armour'")


def test_a_default_line_that_is_not_a_starter_is_refused():
    files = mutated("pack.toml", '"heavy-armor"', '"combat"')
    assert_refused(files, "pack.toml", "default_lines[1]", "not a starter line")


# ---------------------------------------------------------------- refusals: enemies and chips

TUNNEL_RAT = 'id = "tunnel-rat"'


@pytest.mark.parametrize(
    ("old", "new", "field", "reason"),
    [
        ("hp = 2", "hp = 0", "hp", "at least 1"),
        ("defense = 0", "defense = -1", "defense", "at least 0"),
        ("range = 1", "range = 0", "range", "at least 1"),
        ("level = 1", "level = 7", "level", "must be one of 1, 5, 10, 20"),
        ("targets = 1", "targets = -1", "targets", "at least 0"),
        ('kind = "beast"', 'kind = "dragon"', "kind", "unknown value 'dragon'"),
        ('priority = "weakest"', 'priority = "nearest"', "priority", "unknown value 'nearest'"),
        ('skill = "venom"', 'skill = "poison"', "skill", "unknown value 'poison'"),
        ('skill = "venom"', "quest = 1", "quest", "expected true or false"),
    ],
)
def test_an_out_of_range_enemy_value_is_refused_naming_the_enemy(old, new, field, reason):
    files = mutated("enemies.toml", old, new, after=TUNNEL_RAT)
    assert_refused(files, "enemies.toml", f"enemies[3].{field}", reason)


def test_a_duplicate_enemy_id_is_refused():
    files = mutated("enemies.toml", TUNNEL_RAT, 'id = "ash-imp"')
    assert_refused(files, "enemies.toml", "enemies[3].id", "duplicate id 'ash-imp'")


def test_a_chip_naming_an_unknown_enemy_is_refused():
    files = mutated("enemies.toml", 'front = "shore-crab"', 'front = "shore-krab"')
    assert_refused(files, "enemies.toml", "chips[2].front", "unknown enemy 'shore-krab'")


def test_a_lesser_chip_with_a_level_five_front_is_refused():
    files = mutated("enemies.toml", 'front = "shore-crab"', 'front = "pale-wolf"')
    assert_refused(files, "enemies.toml", "chips[2].front", "must be level 1")


def test_a_greater_chip_with_a_level_five_back_is_refused():
    files = mutated("enemies.toml", 'back = "ember-tyrant"', 'back = "cinder-wisp"')
    assert_refused(files, "enemies.toml", "chips[5].back", "must be level 20")


def test_a_chip_in_an_unknown_bag_is_refused():
    files = mutated("enemies.toml", 'bag = "greater"', 'bag = "huge"')
    assert_refused(files, "enemies.toml", "chips[5].bag", "unknown value 'huge'")


def test_a_quest_unit_on_a_chip_is_refused():
    files = mutated("enemies.toml", 'front = "outlaw-chief"', 'front = "ash-hierophant"')
    assert_refused(files, "enemies.toml", "chips[5].front", "quest unit")


# ---------------------------------------------------------------- refusals: setups

RITE, RITE_AT = "[setups.cinder-rite]", "setups.cinder-rite"
CROSSING, CROSSING_AT = "[setups.waystone-crossing]", "setups.waystone-crossing"


def test_objective_units_naming_an_unknown_enemy_are_refused():
    files = mutated("setups.toml", '"bound-sentinel"]', '"bound-sentinal"]')
    assert_refused(files, "setups.toml", f"{RITE_AT}.objective_units[1]", "unknown enemy")


def test_objective_units_that_are_not_quest_units_are_refused():
    files = mutated("setups.toml", '"bound-sentinel"]', '"cave-troll"]')
    assert_refused(files, "setups.toml", f"{RITE_AT}.objective_units[1]", "not a quest unit")


def test_an_eliminate_setup_without_objective_units_is_refused():
    files = mutated("setups.toml", 'objective_units = ["ash-hierophant", "bound-sentinel"]', "")
    field = f"{RITE_AT}.objective_units"
    assert_refused(files, "setups.toml", field, "must name its objective units")


def test_an_eliminate_setup_with_too_few_special_hexes_is_refused():
    files = mutated("setups.toml", "h*", "h", after=RITE)
    assert_refused(files, "setups.toml", f"{RITE_AT}.rows", "found 1")


def test_a_conquer_setup_with_objective_units_is_refused():
    units = 'objective_units = ["ash-hierophant"]\n'
    files = mutated("setups.toml", "rows = [", units + "rows = [", after=CROSSING)
    field = f"{CROSSING_AT}.objective_units"
    assert_refused(files, "setups.toml", field, "only an eliminate setup")


def test_an_unknown_objective_is_refused():
    files = mutated("setups.toml", 'objective = "conquer"', 'objective = "escort"')
    assert_refused(files, "setups.toml", f"{CROSSING_AT}.objective", "unknown value 'escort'")


@pytest.mark.parametrize(
    ("old", "new", "field", "reason"),
    [
        ("a1 a", "A1 a", "rows[2]", "must start with E, #"),
        ("a1 a", "a? a", "rows[2]", "unknown marker '?'"),
        ("a1 a", "a0 a", "rows[2]", "unknown marker '0'"),
        ("E  E  a1", "E  E1 a1", "rows[2]", "cannot be on the Entrance"),
        ("a1 a", "a1 a1", "rows[2]", "numbered twice"),
        ("bL", "b9", "rows", "8 is missing"),
        ("a  #  b ", "a  #c b ", "rows[1]", "obstacle hex cannot carry a marker"),
    ],
)
def test_a_malformed_map_token_is_refused_naming_the_row(old, new, field, reason):
    files = mutated("setups.toml", old, new, after=CROSSING)
    assert_refused(files, "setups.toml", f"{CROSSING_AT}.{field}", reason)


def small_map(*rows: str) -> dict[str, bytes]:
    lines = ",\n".join(f'  "{row}"' for row in rows)
    files = starter_files()
    head = '[setups.tiny]\nname = "Tiny"\nobjective = "conquer"\n'
    files["setups.toml"] = f"{head}rows = [\n{lines},\n]\n".encode()
    return files


def test_a_map_of_a_single_tile_is_refused():
    files = small_map("a a a a a1", "a a a a a")
    assert_refused(files, "setups.toml", "setups.tiny.rows", "2 or more tiles")


def test_a_map_without_an_entrance_is_refused():
    assert_refused(small_map("a a b b1"), "setups.toml", "setups.tiny.rows", "no Entrance")


def test_an_entrance_with_fewer_than_four_free_hexes_is_refused():
    files = small_map("E E Ec a1")
    assert_refused(files, "setups.toml", "setups.tiny.rows", "at least 4 unmarked hexes, found 2")


def test_a_map_without_numbered_hexes_is_refused():
    files = small_map("E E E E a")
    assert_refused(files, "setups.toml", "setups.tiny.rows", "no numbered enemy hexes")


def test_a_map_cut_in_two_by_obstacles_is_refused():
    files = small_map("E E E E # a1", "E E E E # a")
    reason = "column 5: this hex cannot be reached"
    assert_refused(files, "setups.toml", "setups.tiny.rows[0]", reason)


def test_a_map_whose_rows_are_not_strings_is_refused():
    files = mutated("setups.toml", '"E  E  a  a   a2', '3, "E  E  a  a   a2', after=CROSSING)
    assert_refused(files, "setups.toml", f"{CROSSING_AT}.rows[0]", "expected a string")


def test_a_well_formed_small_map_is_accepted():
    pack = parse_pack(small_map("E E E E a1 ac", "E a a2 # aL a*"))
    hexes = pack.setups["tiny"].hexes
    assert sum(h.impassable for h in hexes) == 1
    assert {h.marker for h in hexes} == set(Marker)
