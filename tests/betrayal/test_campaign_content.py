"""The campaign files of the starter pack (classes.toml, gear.toml,
training.toml, campaign.toml) and their loader: what they hold, that they
leave the battle hashes alone, and how malformed ones are refused (file,
field, reason)."""

from __future__ import annotations

import json
from collections import Counter
from importlib import resources
from pathlib import Path

import pytest

from domain.betrayal.packs.catalog import Rest, SessionEp
from domain.betrayal.packs.campaign import CAMPAIGN_FILES
from domain.betrayal.packs.load import (
    ALL_FILES,
    CORE_FILES,
    PACK_FILES,
    load_pack_dir,
    parse_pack,
    starter_pack,
)
from domain.betrayal.campaign.session_ep import session_ep
from domain.betrayal.vocab import (
    AbilityTiming,
    Attaches,
    Difficulty,
    EffectKind,
    ItemKind,
    MatAttribute,
    Status,
    Trigger,
)
from domain.kernel.content import pack_hash
from domain.kernel.errors import ContentError, MalformedCommand

LOGS = Path(__file__).resolve().parents[2] / "logs"

# ---------------------------------------------------------------- helpers


def all_files() -> dict[str, bytes]:
    """Every file of the starter pack, campaign files included."""
    content = resources.files("domain.betrayal.content")
    return {name: content.joinpath(name).read_bytes() for name in ALL_FILES}


def mutated(file: str, old: str, new: str, after: str = "") -> dict[str, bytes]:
    """All starter files with the first ``old`` after ``after`` in ``file``
    replaced by ``new``."""
    files = all_files()
    text = files[file].decode()
    start = text.index(after) if after else 0
    at = text.index(old, start)
    files[file] = (text[:at] + new + text[at + len(old) :]).encode()
    return files


def appended(file: str, extra: str) -> dict[str, bytes]:
    files = all_files()
    files[file] += extra.encode()
    return files


def assert_refused(files: dict[str, bytes], file: str, field: str, reason: str) -> None:
    with pytest.raises(ContentError) as caught:
        parse_pack(files)
    error = caught.value
    assert (error.file, error.field) == (file, field), str(error)
    assert reason in error.reason, str(error)


def logged_hash(log: str) -> str:
    with (LOGS / log).open(encoding="utf-8") as lines:
        return json.loads(lines.readline())["pack_hash"]


def amounts(die) -> int:
    return sum(face.amount for face in die.faces)


# ---------------------------------------------------------------- files and hashes


def test_the_campaign_files_are_four_and_come_after_the_battle_files():
    assert CAMPAIGN_FILES == ("classes.toml", "gear.toml", "training.toml", "campaign.toml")
    assert ALL_FILES == PACK_FILES + CAMPAIGN_FILES


def test_the_pack_and_delve_hashes_are_those_the_golden_logs_recorded():
    pack = starter_pack()
    assert pack.hash == logged_hash("won-waystone-crossing.jsonl")
    assert pack.delve_hash == logged_hash("delve-survey-won.jsonl")


def test_the_campaign_hash_covers_every_file_and_differs_from_the_battle_hashes():
    pack = starter_pack()
    assert pack.campaign_hash == pack_hash(all_files())
    assert pack.campaign_hash not in (pack.hash, pack.delve_hash, "")


def test_changing_a_campaign_file_changes_only_the_campaign_hash():
    pack = parse_pack(mutated("gear.toml", 'name = "Spiked Targe"', 'name = "Spiked Targ"'))
    assert (pack.hash, pack.delve_hash) == (starter_pack().hash, starter_pack().delve_hash)
    assert pack.campaign_hash != starter_pack().campaign_hash


def test_a_pack_without_the_campaign_files_loads_without_campaign_content():
    files = all_files()
    pack = parse_pack({name: files[name] for name in PACK_FILES})
    assert (pack.campaign, pack.campaign_hash, pack.classes, pack.gear) == (None, "", {}, {})
    assert all(die.level == 1 for die in pack.dice.values())
    assert pack.delve_hash == starter_pack().delve_hash


def test_a_pack_directory_with_the_campaign_files_loads_them(tmp_path):
    for name, content in all_files().items():
        (tmp_path / name).write_bytes(content)
    content = resources.files("domain.betrayal.content")
    (tmp_path / "companions.toml").write_bytes(content.joinpath("companions.toml").read_bytes())  # no hash holds it
    assert load_pack_dir(tmp_path) == starter_pack()


# ---------------------------------------------------------------- classes


def test_there_are_three_or_more_classes_of_four_or_more_abilities_innate_first():
    classes = starter_pack().classes
    assert len(classes) >= 3
    for sheet in classes.values():
        assert len(sheet.abilities) >= 4, sheet.id
        assert sheet.name and sheet.text and sheet.promotion
        timings = [ability.timing for ability in sheet.abilities]
        assert timings[0] is AbilityTiming.INNATE and timings.count(AbilityTiming.INNATE) == 1


def test_the_abilities_cover_every_timing_cost_zero_to_five_and_some_need_a_form():
    abilities = [a for sheet in starter_pack().classes.values() for a in sheet.abilities]
    assert {a.timing for a in abilities} == set(AbilityTiming)
    assert all(0 <= a.cost <= 5 for a in abilities)
    assert all(a.cost == 0 for a in abilities if a.timing is AbilityTiming.INNATE)
    assert any(a.form is not None for a in abilities)
    assert len({a.id for a in abilities}) == len(abilities)


def test_interrupts_and_only_interrupts_name_a_trigger_of_the_closed_set():
    abilities = [a for sheet in starter_pack().classes.values() for a in sheet.abilities]
    for ability in abilities:
        if ability.timing is AbilityTiming.INTERRUPT:
            assert ability.trigger in {t.value for t in Trigger}, ability.id
        else:
            assert ability.trigger == "", ability.id


def test_every_effect_is_a_status_or_an_amount():
    pack = starter_pack()
    effects = [a.effect for sheet in pack.classes.values() for a in sheet.abilities]
    effects += [e for item in pack.gear.values() for e in (item.effect, item.overtax) if e]
    for effect in effects:
        if effect.kind is EffectKind.STATUS:
            assert effect.status in set(Status) and effect.amount == 0
        else:
            assert effect.status is None and effect.amount >= 1


def test_a_class_ability_is_found_by_id_on_a_sheet_or_an_item():
    pack = starter_pack()
    assert pack.class_ability("flare") is pack.classes["emberwitch"].abilities[1]
    assert pack.class_ability("starsight") is pack.gear["starlit-circlet"].ability
    with pytest.raises(KeyError):
        pack.class_ability("no-such-ability")


# ---------------------------------------------------------------- gear


def test_every_item_card_has_its_gear_with_its_name_value_and_legendary_mark():
    pack = starter_pack()
    assert set(pack.items) <= set(pack.gear)
    for key, card in pack.items.items():
        item = pack.gear[key]
        assert (item.name, item.value, item.legendary) == (card.name, card.value, card.legendary)


def test_there_are_at_least_twelve_new_items_and_twenty_two_in_all():
    pack = starter_pack()
    assert len(set(pack.gear) - set(pack.items)) >= 12
    assert len(pack.gear) >= 22
    assert all(1 <= item.value <= 10 and item.text for item in pack.gear.values())


def test_the_gear_covers_every_item_type_in_the_numbers_wanted():
    kinds = Counter(item.kind for item in starter_pack().gear.values())
    wanted = {
        ItemKind.WEAPON: 4,
        ItemKind.ARMOR: 4,
        ItemKind.CLOTHING: 2,
        ItemKind.POTION: 3,
        ItemKind.CONSUMABLE: 3,
        ItemKind.ENCHANTMENT: 2,
        ItemKind.PET: 1,
        ItemKind.MISC: 1,
    }
    assert all(kinds[kind] >= n for kind, n in wanted.items()), kinds


def of(kind: ItemKind):
    return [item for item in starter_pack().gear.values() if item.kind is kind]


def test_weapons_serve_four_forms_and_weapons_and_armor_have_an_overtax():
    weapons = of(ItemKind.WEAPON)
    assert len({w.form for w in weapons}) >= 4 and None not in {w.form for w in weapons}
    assert all(item.overtax is not None for item in weapons + of(ItemKind.ARMOR))
    weapons_and_armor = (ItemKind.WEAPON, ItemKind.ARMOR)
    others = [item for item in starter_pack().gear.values() if item.kind not in weapons_and_armor]
    assert all(item.overtax is None for item in others)


def test_armor_spans_three_traits_and_only_armor_has_a_trait():
    assert len({item.trait for item in of(ItemKind.ARMOR)}) >= 3
    gear = starter_pack().gear.values()
    assert all(item.trait == "" for item in gear if item.kind is not ItemKind.ARMOR)


def test_each_clothing_grants_an_ability_and_has_no_effect_of_its_own():
    for item in of(ItemKind.CLOTHING):
        assert item.ability is not None and item.effect is None
        assert starter_pack().class_ability(item.ability.id) == item.ability


def test_enchantments_attach_to_each_kind_and_pets_have_an_hp_limit():
    assert {item.attaches for item in of(ItemKind.ENCHANTMENT)} == {a.value for a in Attaches}
    assert all(item.hp_limit >= 1 for item in of(ItemKind.PET))
    gear = starter_pack().gear.values()
    assert all(item.hp_limit == 0 for item in gear if item.kind is not ItemKind.PET)


def test_the_new_items_stay_out_of_the_cache_decks():
    pack = starter_pack()
    assert "wardstone-sigil" in pack.gear and "wardstone-sigil" not in pack.items


# ---------------------------------------------------------------- training dice


def test_every_starter_line_has_a_level_two_and_a_level_three_die():
    pack = starter_pack()
    for line in (line for line in pack.lines.values() if line.starter):
        levels = {die.level for die in pack.dice.values() if die.line == line.id}
        assert levels == {1, 2, 3}, line.id


def test_a_trained_die_takes_its_line_pool_and_form_and_keeps_a_tenacity_face():
    pack = starter_pack()
    for die in (die for die in pack.dice.values() if die.level > 1):
        line = pack.lines[die.line]
        assert (die.pool, die.form) == (line.pool, line.form)
        assert len(die.faces) == 6 and any(face.tenacity for face in die.faces)


def test_each_level_has_stronger_faces_than_the_level_below():
    pack = starter_pack()
    for line in (line for line in pack.lines.values() if line.starter):
        dice = [die for die in pack.dice.values() if die.line == line.id]
        by_level = {n: [amounts(die) for die in dice if die.level == n] for n in (1, 2, 3)}
        assert min(by_level[2]) > max(by_level[1]), line.id
        assert min(by_level[3]) > max(by_level[2]), line.id


# ---------------------------------------------------------------- campaign rules


def test_the_mat_has_a_cost_per_column_rising_away_from_each_side():
    rules = starter_pack().campaign
    assert (rules.squares, rules.rows) == (8, 6)
    assert len(rules.white) == len(rules.black) == rules.squares
    assert list(rules.white) == sorted(rules.white)
    assert list(rules.black) == sorted(rules.black, reverse=True)
    assert min(rules.white + rules.black) >= 1


def test_a_new_mat_holds_each_attribute_round_token_once():
    rules = starter_pack().campaign
    assert rules.start == (("health", ""), ("stamina", ""), ("magicka", ""), ("combat", ""))
    placed = [slot for row in rules.start for slot in row if slot]
    assert sorted(placed) == sorted(a.value for a in MatAttribute)


def test_the_limits_are_the_facts_and_defaults():
    rules = starter_pack().campaign
    limits = (rules.max_cooldown, rules.max_tenacity, rules.saved_xp, rules.combat_max, rules.start_dial)
    assert limits == (6, 10, 3, 14, 2)


def test_rest_follows_the_end_of_day_table():
    rest = starter_pack().campaign.rest
    assert set(rest) == {d.value for d in Difficulty}
    assert rest["apprentice"] == Rest(heal=2, remove=2, discard_item=False)
    assert rest["adept"] == Rest(heal=1, remove=1, discard_item=False)
    assert rest["expert"] == Rest(heal=1, remove=1, discard_item=True)


def test_every_encounter_has_a_reward_of_one_to_six_xp():
    pack = starter_pack()
    encounters = set(pack.setups) | set(pack.delves) | set(pack.dungeons)
    assert set(pack.campaign.rewards) == encounters
    assert all(1 <= xp <= 6 for xp in pack.campaign.rewards.values())


def test_the_session_ep_table_has_each_of_its_thirty_six_cells_once():
    cells = [(c.session, c.difficulty, c.players) for c in starter_pack().campaign.session_ep]
    assert len(cells) == len(set(cells)) == 36


@pytest.mark.rule("SESSION-EP-3")
@pytest.mark.rule("SESSION-EP-4")
@pytest.mark.parametrize(
    ("session", "difficulty", "players", "ep", "xp"),
    [
        (1, "apprentice", 3, 42, 14),
        (2, "expert", 4, 132, 33),
        (3, "adept", 1, 34, 34),
        (3, "expert", 4, 152, 38),
    ],
)
def test_the_session_end_ep_is_read_by_session_difficulty_and_players(session, difficulty, players, ep, xp):
    cell = session_ep(starter_pack(), session, difficulty, players)
    assert cell == SessionEp(session=session, difficulty=difficulty, players=players, ep=ep, xp=xp)


@pytest.mark.rule("SESSION-EP-3")
@pytest.mark.parametrize(("session", "difficulty", "players"), [(4, "adept", 2), (1, "legend", 2), (1, "adept", 5)])
def test_a_session_end_ep_cell_the_table_lacks_is_malformed(session, difficulty, players):
    with pytest.raises(MalformedCommand, match="SESSION-EP-3"):
        session_ep(starter_pack(), session, difficulty, players)


def test_a_pack_without_campaign_content_has_no_session_end_ep():
    files = all_files()
    pack = parse_pack({name: files[name] for name in PACK_FILES})
    with pytest.raises(MalformedCommand, match="no campaign content"):
        session_ep(pack, 1, "adept", 2)


# ---------------------------------------------------------------- refusals: files


def test_some_campaign_files_without_the_others_are_refused():
    files = all_files()
    del files["training.toml"]
    assert_refused(files, "training.toml", "(file)", "come all together or not at all")


def test_campaign_files_without_the_delve_files_are_refused():
    files = all_files()
    core_and_campaign = {name: files[name] for name in CORE_FILES + CAMPAIGN_FILES}
    assert_refused(core_and_campaign, "delve.toml", "(file)", "need the delve files")


# ---------------------------------------------------------------- refusals: classes.toml

STALKER = "[classes.stalker]"


def test_an_unknown_key_in_a_class_is_refused():
    files = mutated("classes.toml", "promotion =", "promoted =", STALKER)
    assert_refused(files, "classes.toml", "classes.stalker.promoted", "unknown key")


def test_an_ability_needing_an_unknown_form_is_refused():
    files = mutated("classes.toml", 'form = "ranged"', 'form = "sneaky"', STALKER)
    assert_refused(files, "classes.toml", "classes.stalker.abilities[0].form", "unknown value 'sneaky'")


def test_an_ability_cost_above_five_is_refused():
    files = mutated("classes.toml", "cost = 3", "cost = 6", STALKER)
    assert_refused(files, "classes.toml", "classes.stalker.abilities[2].cost", "from 0 to 5")


def test_an_interrupt_without_a_trigger_is_refused():
    files = mutated("classes.toml", 'trigger = "enemy-defeated"\n', "", STALKER)
    assert_refused(files, "classes.toml", "classes.stalker.abilities[4].trigger", "must name its trigger")


def test_a_trigger_outside_the_closed_set_is_refused():
    files = mutated("classes.toml", 'trigger = "enemy-defeated"', 'trigger = "sneezed"', STALKER)
    assert_refused(files, "classes.toml", "classes.stalker.abilities[4].trigger", "unknown value 'sneezed'")


def test_a_class_whose_first_ability_is_not_innate_is_refused():
    files = mutated("classes.toml", 'timing = "innate"', 'timing = "action"', STALKER)
    assert_refused(files, "classes.toml", "classes.stalker.abilities[0].timing", "Innate")


def test_an_innate_ability_with_a_cost_is_refused():
    files = mutated("classes.toml", "cost = 0", "cost = 1", STALKER)
    assert_refused(files, "classes.toml", "classes.stalker.abilities[0].cost", "Innate ability is free")


def test_an_ability_id_used_twice_is_refused():
    files = mutated("classes.toml", 'id = "fade"', 'id = "flare"', STALKER)
    assert_refused(files, "classes.toml", "classes.stalker.abilities[2].id", "already used by class 'emberwitch'")


def test_a_status_effect_without_its_status_is_refused():
    files = mutated("classes.toml", '{ kind = "status", status = "maim" }', '{ kind = "status" }', STALKER)
    assert_refused(files, "classes.toml", "classes.stalker.abilities[1].effect.status", "must name its status")


def test_an_unknown_effect_kind_is_refused():
    files = mutated("classes.toml", '{ kind = "move", amount = 1 }', '{ kind = "teleport", amount = 1 }', STALKER)
    assert_refused(files, "classes.toml", "classes.stalker.abilities[0].effect.kind", "unknown value 'teleport'")


# ---------------------------------------------------------------- refusals: gear.toml

DAGGER = "[gear.notched-dagger]"
TARGE = "[gear.spiked-targe]"


def test_gear_repeating_an_item_cards_name_is_refused():
    files = mutated("gear.toml", 'kind = "weapon"', 'name = "Notched Iron Dagger"\nkind = "weapon"', DAGGER)
    assert_refused(files, "gear.toml", "gear.notched-dagger.name", "takes its name from items.toml")


def test_gear_contradicting_an_item_cards_value_is_refused():
    files = mutated("gear.toml", 'kind = "weapon"', 'value = 7\nkind = "weapon"', DAGGER)
    assert_refused(files, "gear.toml", "gear.notched-dagger.value", "takes its value from items.toml")


def test_an_item_card_without_gear_is_refused():
    files = all_files()
    text = files["gear.toml"].decode()
    start = text.index(DAGGER)
    files["gear.toml"] = (text[:start] + text[text.index("[gear.bitterroot-draught]") :]).encode()
    assert_refused(files, "gear.toml", "gear", "item card 'notched-dagger' of items.toml has no entry")


def test_a_new_item_without_a_name_is_refused():
    files = mutated("gear.toml", 'name = "Spiked Targe"\n', "", TARGE)
    assert_refused(files, "gear.toml", "gear.spiked-targe.name", "required key is missing")


def test_an_unknown_key_in_gear_is_refused():
    files = mutated("gear.toml", "value = 3", "vaule = 3", TARGE)
    assert_refused(files, "gear.toml", "gear.spiked-targe.vaule", "unknown key")


def test_a_weapon_without_an_overtax_is_refused():
    files = mutated("gear.toml", 'overtax = { kind = "damage", amount = 2 }\n', "", TARGE)
    assert_refused(files, "gear.toml", "gear.spiked-targe.overtax", "a weapon needs its overtax")


def test_a_trait_on_a_weapon_is_refused():
    files = mutated("gear.toml", 'kind = "weapon"', 'kind = "weapon"\ntrait = "head"', TARGE)
    assert_refused(files, "gear.toml", "gear.spiked-targe.trait", "a weapon has no trait")


def test_a_clothing_granting_an_unknown_ability_is_refused():
    files = mutated("gear.toml", 'ability = "starsight"', 'ability = "moonsight"')
    assert_refused(files, "gear.toml", "gear.starlit-circlet.ability", "unknown ability 'moonsight'")


def test_a_clothing_granting_a_class_sheet_ability_is_refused():
    files = mutated("gear.toml", 'ability = "starsight"', 'ability = "flare"')
    assert_refused(files, "gear.toml", "gear.starlit-circlet.ability", "on class sheet 'emberwitch'")


def test_an_enchantment_attached_to_something_unknown_is_refused():
    files = mutated("gear.toml", 'attaches = "clash-tile"', 'attaches = "tavern"')
    assert_refused(files, "gear.toml", "gear.wardstone-sigil.attaches", "unknown value 'tavern'")


# ---------------------------------------------------------------- refusals: training.toml

EARTHSPLITTER = "[dice.earthsplitter]"


def test_a_training_die_on_an_unknown_line_is_refused():
    files = mutated("training.toml", 'line = "two-handed"', 'line = "pole-arm"', EARTHSPLITTER)
    assert_refused(files, "training.toml", "dice.earthsplitter.line", "unknown skill line 'pole-arm'")


def test_a_training_die_repeating_a_die_of_lines_toml_is_refused():
    files = mutated("training.toml", EARTHSPLITTER, "[dice.cleave]")
    assert_refused(files, "training.toml", "dice.cleave", "already a die of lines.toml")


def test_a_training_die_of_level_one_or_four_is_refused():
    for level in ("1", "4"):
        files = mutated("training.toml", "level = 3", f"level = {level}", EARTHSPLITTER)
        assert_refused(files, "training.toml", "dice.earthsplitter.level", "from 2 to 3")


def test_a_level_three_die_on_a_line_without_a_level_two_die_is_refused():
    files = mutated("training.toml", "level = 2", "level = 3", "[dice.crushing-arc]")
    assert_refused(files, "training.toml", "dice.crushing-arc.level", "no level-2 die")


def test_a_training_die_face_is_read_as_in_lines_toml():
    files = mutated("training.toml", '"status:fear"', '"status:glee"', EARTHSPLITTER)
    assert_refused(files, "training.toml", "dice.earthsplitter.faces[5]", "unknown status 'glee'")


# ---------------------------------------------------------------- refusals: campaign.toml


def test_a_white_box_of_the_wrong_length_is_refused():
    files = mutated("campaign.toml", "white = [1, 1, 2, 2, 3, 3, 4, 5]", "white = [1, 1, 2, 2, 3, 3, 4]")
    assert_refused(files, "campaign.toml", "mat.white", "expected 8, got 7")


def test_a_black_box_not_rising_from_the_right_is_refused():
    files = mutated("campaign.toml", "black = [5, 4, 3, 3, 2, 2, 1, 1]", "black = [1, 1, 2, 2, 3, 3, 4, 5]")
    assert_refused(files, "campaign.toml", "mat.black", "rise from the right")


def test_a_cost_below_one_is_refused():
    files = mutated("campaign.toml", "white = [1, 1,", "white = [0, 1,")
    assert_refused(files, "campaign.toml", "mat.white[0]", "at least 1")


def test_more_start_rows_than_the_mat_has_is_refused():
    files = mutated("campaign.toml", "rows = 6", "rows = 3")
    assert_refused(files, "campaign.toml", "mat.start", "the mat has 3 rows")


def test_a_start_holding_an_attribute_twice_is_refused():
    files = mutated("campaign.toml", '["stamina", ""]', '["stamina", "health"]')
    assert_refused(files, "campaign.toml", "mat.start", "health round token once, found 2")


def test_a_missing_session_ep_cell_is_refused():
    cell = '  { session = 2, difficulty = "adept", players = 3, ep = 96, xp = 32 },\n'
    files = mutated("campaign.toml", cell, "")
    assert_refused(files, "campaign.toml", "session_ep", "no cell for session 2, adept, 3 players")


def test_a_session_ep_cell_given_twice_is_refused():
    cell = '  { session = 2, difficulty = "adept", players = 3, ep = 96, xp = 32 },\n'
    files = mutated("campaign.toml", cell, cell * 2)
    assert_refused(files, "campaign.toml", "session_ep[19]", "already in the table")


def test_a_session_ep_cell_whose_ep_is_not_xp_times_players_is_refused():
    files = mutated("campaign.toml", "ep = 96, xp = 32", "ep = 95, xp = 32")
    assert_refused(files, "campaign.toml", "session_ep[18].ep", "32 x 3 = 96, got 95")


def test_rest_missing_a_difficulty_is_refused():
    files = mutated("campaign.toml", "[rest.adept]\nheal = 1\nremove = 1\n", "")
    assert_refused(files, "campaign.toml", "rest.adept", "required key is missing")


def test_a_reward_for_an_unknown_encounter_is_refused():
    files = appended("campaign.toml", "lost-shrine = 2\n")
    assert_refused(files, "campaign.toml", "rewards.lost-shrine", "unknown encounter 'lost-shrine'")


def test_an_encounter_without_a_reward_is_refused():
    files = mutated("campaign.toml", "sentinel-vault = 5\n", "")
    assert_refused(files, "campaign.toml", "rewards", "encounter 'sentinel-vault' has no reward")


def test_a_reward_above_six_xp_is_refused():
    files = mutated("campaign.toml", "sentinel-vault = 5", "sentinel-vault = 9")
    assert_refused(files, "campaign.toml", "rewards.sentinel-vault", "from 1 to 6")


def test_an_unknown_top_level_key_is_refused():
    files = appended("campaign.toml", "\n[weather]\nrain = 1\n")
    assert_refused(files, "campaign.toml", "weather", "unknown key")
