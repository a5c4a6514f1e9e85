"""The labyrinth starter pack loads, meets the content the ruleset needs, and
a malformed or inconsistent pack is refused naming file, field and reason."""

from __future__ import annotations

import pytest

from domain.kernel.errors import ContentError
from domain.labyrinth.catalog import Pack
from domain.labyrinth.packs import PACK_FILES, parse_pack, starter_files, starter_pack
from domain.labyrinth.vocab import DEBUFFS, PHYSICAL, Bind, Effect, Part, Reach, Speed, Timing

# ---------------------------------------------------------------- helpers


def _mutated(file: str, old: str, new: str) -> dict[str, bytes]:
    """The starter files with the first ``old`` in ``file`` replaced by ``new``."""
    files = starter_files()
    text = files[file].decode()
    assert old in text, f"{old!r} is not in {file}"
    files[file] = text.replace(old, new, 1).encode()
    return files


def _refusal(files: dict[str, bytes]) -> ContentError:
    with pytest.raises(ContentError) as caught:
        parse_pack(files)
    return caught.value


def _effects(pack: Pack, timing: Timing | None = None):
    """Every (skill, effect) pair of the pack, of one timing if given."""
    return [(s, e) for s in pack.skills.values() if timing in (None, s.timing) for e in s.effects]


# ---------------------------------------------------------------- the starter pack


def test_the_starter_pack_loads_with_its_id_version_and_a_content_hash():
    pack = starter_pack()
    assert (pack.id, pack.version) == ("labyrinth-starter", "1")
    assert len(pack.hash) == 32 and parse_pack(starter_files()).hash == pack.hash
    assert starter_pack() is pack  # read once, then cached


@pytest.mark.parametrize("name", PACK_FILES)
def test_the_hash_changes_when_one_byte_of_any_file_changes(name):
    files = starter_files()
    files[name] = files[name] + b"#"  # a comment: the pack is the same, its bytes are not
    assert parse_pack(files).hash != starter_pack().hash


def test_class_skills_are_listed_in_the_order_they_are_learned():
    for sheet in starter_pack().classes.values():
        levels = [level for level, _ in sheet.skills]
        assert levels == sorted(levels) and levels[0] == 1


def test_an_effect_left_without_targets_gets_its_kinds_usual_side():
    pack = starter_pack()
    assert pack.skills["sundering-blow"].effects[0].targets == "opponent"
    assert pack.skills["keen-eye"].effects[0].targets == "self"


# ---------------------------------------------------------------- content minimums


def test_the_classes_meet_the_issues_minimums():
    pack = starter_pack()
    assert len(pack.classes) >= 4
    for sheet in pack.classes.values():
        assert len(sheet.skills) >= 5, sheet.id
        assert {pack.skills[s].timing for _, s in sheet.skills} == set(Timing), sheet.id
        assert sheet.weapon in pack.weapons and sheet.armor in pack.armor, sheet.id
    assert any(sheet.other in pack.weapons for sheet in pack.classes.values())  # a weapon to swap to


def test_the_class_skills_cover_every_kind_the_issue_asks_for():
    pack = starter_pack()
    skills = {s for sheet in pack.classes.values() for _, s in sheet.skills}
    kinds = {(e.effect, pack.skills[s].timing) for s in skills for e in pack.skills[s].effects}
    effects = {effect for effect, _ in kinds}
    assert {Effect.CHASE, Effect.HEAL, Effect.BIND, Effect.AILMENT} <= effects
    assert (Effect.COUNTER, Timing.PASSIVE) in kinds and (Effect.GUARD, Timing.PASSIVE) in kinds
    buffs = {e.buff for s in skills for e in pack.skills[s].effects if e.effect is Effect.BUFF}
    assert buffs - DEBUFFS and buffs & DEBUFFS  # at least one buff and one debuff
    used = [pack.skills[s] for s in skills]
    assert any(s.speed is Speed.FASTEST for s in used)
    assert any(s.speed is Speed.DELAYED and s.delay >= 1 for s in used)
    assert {s.part for s in used} >= {Part.HEAD, Part.ARM, Part.LEG}
    assert all(s.tp > 0 for s in used)


def test_the_gear_has_every_base_attribute_a_far_weapon_an_elemental_staff_and_two_items():
    pack = starter_pack()
    assert {w.attribute for w in pack.weapons.values()} == set(PHYSICAL)
    assert any(w.reach is Reach.FAR for w in pack.weapons.values())
    assert any(w.eatk > 0 and w.patk == 0 for w in pack.weapons.values())
    kinds = {e.effect for item in pack.items.values() for e in item.effects}
    assert {Effect.HEAL, Effect.CURE} <= kinds and len(pack.items) >= 2


def test_the_enemies_meet_the_issues_minimums():
    pack = starter_pack()
    kinds = [e for e in pack.enemies.values() if not e.token]
    assert len(kinds) >= 8 and all(1 <= e.level <= 3 for e in kinds)
    assert all(e.drops and len(e.resist) == 6 for e in kinds)
    effects = [e for kind in kinds for s in kind.skills for e in pack.skills[s].effects]
    assert {Effect.AILMENT, Effect.BIND} <= {e.effect for e in effects}
    assert any(e.effect is Effect.BUFF and e.buff in DEBUFFS for e in effects)
    placed = {e.token for _, e in _effects(pack) if e.effect is Effect.TOKEN}
    assert placed and all(pack.enemies[t].token for t in placed)


def test_the_encounters_have_a_link_group_a_token_placer_and_one_to_flee():
    pack = starter_pack()
    assert len(pack.encounters) >= 3
    linked = [
        enc
        for enc in pack.encounters.values()
        if any(sum(m.link == e.link for m in enc.enemies) >= 2 for e in enc.enemies if e.link)
    ]
    placers = [
        enc
        for enc in pack.encounters.values()
        if any(
            e.effect is Effect.TOKEN
            for m in enc.enemies
            for s in pack.enemies[m.enemy].skills
            for e in pack.skills[s].effects
        )
    ]
    assert linked and placers
    # the den: fewer Enemies, but each far tougher than anything else in the pack
    den = pack.encounters["ogre-den"]
    others = [pack.enemies[m.enemy].hp for k, enc in pack.encounters.items() if k != "ogre-den" for m in enc.enemies]
    assert all(pack.enemies[m.enemy].hp > max(others) for m in den.enemies)


@pytest.mark.rule("BIND-2")
def test_skills_carry_the_part_tags_that_binds_check():
    pack = starter_pack()
    assert pack.skills["hamstring-cut"].part is Part.ARM and pack.skills["lunging-thrust"].part is Part.LEG
    assert pack.skills["ironhide"].part is Part.NONE  # untagged: no bind blocks it
    bound = {e.bind for _, e in _effects(pack) if e.effect is Effect.BIND}
    assert bound <= set(Bind) and Bind.LEG in bound
    error = _refusal(_mutated("skills.toml", 'part = "arm"', 'part = "tail"'))
    assert (error.file, error.field) == ("skills.toml", "skills.sundering-blow.part")
    assert "expected one of: head, arm, leg" in error.reason


@pytest.mark.rule("SCALE-1")
def test_an_encounter_of_more_than_six_enemies_is_refused():
    six = _mutated("encounters.toml", '  { enemy = "moss-creeper" },\n', '  { enemy = "moss-creeper" },\n' * 3)
    assert len(parse_pack(six).encounters["mossy-hollow"].enemies) == 6
    seven = _mutated("encounters.toml", '  { enemy = "moss-creeper" },\n', '  { enemy = "moss-creeper" },\n' * 4)
    error = _refusal(seven)
    assert (error.file, error.field) == ("encounters.toml", "encounters.mossy-hollow.enemies")
    assert "7 Enemies: a battle is at most 6 against 6" in error.reason


# ---------------------------------------------------------------- malformed packs

BAD = [
    # unknown keys, wrong types, unknown enum values
    (
        "skills.toml",
        'tp = 2\ntext = "A full',
        'tpp = 2\ntext = "A full',
        "skills.sundering-blow.tpp",
        "unknown key (did you mean 'tp'?)",
    ),
    ("enemies.toml", "hp = 9", 'hp = "nine"', "enemies.thornback-rat.hp", "expected an integer, got a string"),
    ("skills.toml", 'timing = "main"', 'timing = "instant"', "skills.sundering-blow.timing", "unknown value 'instant'"),
    (
        "enemies.toml",
        "resist = { cut = 2,",
        "resist = { cutt = 2,",
        "enemies.thornback-rat.resist.cutt",
        "unknown value 'cutt'",
    ),
    (
        "gear.toml",
        'attribute = "cut"',
        'attribute = "fire"',
        "weapons.broadsword.attribute",
        "a Normal attack's attribute is cut, bash or stab",
    ),
    ("pack.toml", 'version = "1"\n', "", "version", "required key is missing"),
    # references to things the pack does not have
    (
        "classes.toml",
        "sundering-blow = 1",
        "sundering-blows = 1",
        "classes.vanguard.skills.sundering-blows",
        "unknown skill 'sundering-blows'",
    ),
    (
        "classes.toml",
        'weapon = "broadsword"',
        'weapon = "claymore"',
        "classes.vanguard.weapon",
        "unknown weapon 'claymore'",
    ),
    (
        "classes.toml",
        'other = "skinning-knife"',
        'other = "leather-jerkin"',
        "classes.tracker.other",
        "unknown weapon 'leather-jerkin'",
    ),
    ("classes.toml", 'armor = "scale-coat"', 'armor = "tin-pot"', "classes.vanguard.armor", "unknown armour 'tin-pot'"),
    (
        "classes.toml",
        'items = ["sap-salve"]',
        'items = ["sap-salvo"]',
        "classes.vanguard.items[0]",
        "unknown item 'sap-salvo'",
    ),
    (
        "enemies.toml",
        'skills = ["festering-bite"]',
        'skills = ["festering-bit"]',
        "enemies.thornback-rat.skills[0]",
        "unknown skill 'festering-bit'",
    ),
    (
        "enemies.toml",
        'item = "sap-salve"',
        'item = "rat-tail"',
        "enemies.thornback-rat.drops[0]",
        "unknown weapon, armour or item 'rat-tail'",
    ),
    (
        "skills.toml",
        'token = "bone-totem"',
        'token = "bone-idol"',
        "skills.raise-totem.effects[0].token",
        "unknown Enemy kind 'bone-idol'",
    ),
    (
        "skills.toml",
        'token = "bone-totem"',
        'token = "cave-ogre"',
        "skills.raise-totem.effects[0].token",
        "Enemy kind 'cave-ogre' is not a token",
    ),
    (
        "encounters.toml",
        '{ enemy = "moss-creeper" }',
        '{ enemy = "moss-crawler" }',
        "encounters.mossy-hollow.enemies[2].enemy",
        "unknown Enemy kind 'moss-crawler'",
    ),
    (
        "encounters.toml",
        '{ enemy = "glimmer-moth", row = "back" }',
        '{ enemy = "bone-totem", row = "back" }',
        "encounters.mossy-hollow.enemies[3].enemy",
        "'bone-totem' is a token: only a skill places it",
    ),
    (
        "gear.toml",
        'cures = ["poison",',
        'cures = ["gout",',
        "items.clearwater-vial.effects[0].cures[0]",
        "unknown ailment or bind 'gout'",
    ),
    # duplicate ids
    (
        "gear.toml",
        "[items.sap-salve]",
        "[items.broadsword]",
        "items.broadsword",
        "duplicate id 'broadsword' (already in weapons)",
    ),
    # levels and stats
    ("classes.toml", "riposte = 1", "riposte = 0", "classes.vanguard.skills.riposte", "must be from 1 to 99, got 0"),
    ("enemies.toml", "speed = 9", "speed = -1", "enemies.thornback-rat.speed", "must be from 0 to 99, got -1"),
    ("gear.toml", "defense = 2", "defense = -2", "armor.scale-coat.defense", "must be from 0 to 30, got -2"),
    ("classes.toml", "str = 15", "str = -3", "classes.vanguard.abilities.str", "must be from 1 to 99, got -3"),
    (
        "classes.toml",
        "growth = { str = 1,",
        "growth = { str = -1,",
        "classes.vanguard.growth.str",
        "must be from 0 to 10, got -1",
    ),
    # effects missing what they need
    (
        "skills.toml",
        'ailment = "poison", target_bonus = 7',
        "target_bonus = 7",
        "skills.venom-arrow.effects[1].ailment",
        "an ailment effect names its ailment",
    ),
    ("skills.toml", 'buff = "patk-up", ', "", "skills.rallying-shout.effects[0].buff", "a buff effect names its buff"),
    (
        "skills.toml",
        'buff = "def-up", amount = 2,',
        'buff = "def-up",',
        "skills.shield-wall.effects[0].amount",
        "def-up needs its amount",
    ),
    (
        "skills.toml",
        'buff = "resist", element = "fire"',
        'buff = "resist"',
        "skills.ember-ward.effects[0].element",
        "resist needs its element",
    ),
    (
        "skills.toml",
        'token = "bone-totem", ',
        "",
        "skills.raise-totem.effects[0].token",
        "a token effect names the token Enemy kind",
    ),
    (
        "skills.toml",
        '{ effect = "bind", bind = "leg", target_bonus = 6, on_hit = true }',
        '{ effect = "bind", target_bonus = 6, on_hit = true }',
        "skills.hamstring-cut.effects[1].bind",
        "a bind effect names the part it binds",
    ),
    (
        "skills.toml",
        'name = "Brace"\ntiming = "passive"',
        'name = "Brace"\ntiming = "main"',
        "skills.brace.effects[0].effect",
        "a guard effect only works on a Passive skill",
    ),
    (
        "skills.toml",
        '[{ effect = "counter" }]',
        '[{ effect = "attack" }]',
        "skills.riposte.effects[0].effect",
        "a Passive skill answers an attack roll: it guards or counters, not attack",
    ),
    (
        "skills.toml",
        'bind = "leg", target_bonus = 6 }',
        'bind = "leg", target_bonus = 6, on_hit = true }',
        "skills.clinging-ooze.effects[0].on_hit",
        "on_hit needs an attack effect before it",
    ),
    (
        "skills.toml",
        'targets = "ally", dice = 1 }',
        'targets = "ally", dice = 1, ailment = "poison" }',
        "skills.mend.effects[0].ailment",
        "a heal effect takes no 'ailment'",
    ),
    (
        "skills.toml",
        'targets = "ally", dice = 1 }',
        'targets = "ally", reach = "far", dice = 1 }',
        "skills.mend.effects[0].reach",
        "a heal effect takes no 'reach'",
    ),
    (
        "skills.toml",
        'targets = "row-allies", buff = "patk-up"',
        'targets = "opponent", buff = "patk-up"',
        "skills.rallying-shout.effects[0].targets",
        "a buff (patk-up) is granted to its user's side",
    ),
    (
        "skills.toml",
        'targets = "ally", dice = 1 }',
        'targets = "opponent", dice = 1 }',
        "skills.mend.effects[0].targets",
        "a heal targets its user's side",
    ),
    (
        "skills.toml",
        'attribute = "fire", reach = "far" }',
        'attribute = "cut", reach = "far" }',
        "skills.cinder-bolt.effects[0].attribute",
        "an elemental attack is fire, ice, volt or none",
    ),
    (
        "skills.toml",
        'attribute = "fire", reach = "far" }',
        'attribute = "fire" }',
        "skills.cinder-bolt.effects[0].reach",
        "an elemental attack names its reach",
    ),
    (
        "skills.toml",
        '[{ effect = "chase", targets = "ally"',
        '[{ effect = "chase", targets = "self"',
        "skills.follow-shot.effects[0].targets",
        "Pursuit is granted on allies",
    ),
    # a skill's place in the order
    (
        "skills.toml",
        'speed = "delayed"\n',
        "",
        "skills.gathering-storm.delay",
        'a delayed attack has speed = "delayed"',
    ),
    (
        "skills.toml",
        'name = "Rallying Shout"\n',
        'name = "Rallying Shout"\nspeed = "fastest"\n',
        "skills.rallying-shout.speed",
        "only a Main-action skill is fastest, not a standby one",
    ),
    # link groups
    (
        "encounters.toml",
        'link = "pack"',
        'link = "pair"',
        "encounters.warren-gate.enemies[0].link",
        "link group 'pair' has only one Enemy",
    ),
]


@pytest.mark.parametrize("file, old, new, field, reason", BAD, ids=[f"{b[0]}:{b[3]}" for b in BAD])
def test_a_malformed_pack_is_refused_naming_file_field_and_reason(file, old, new, field, reason):
    error = _refusal(_mutated(file, old, new))
    assert (error.file, error.field) == (file, field), str(error)
    assert reason in error.reason, str(error)


def test_a_duplicate_table_a_missing_file_and_a_stray_file_are_refused():
    error = _refusal(_mutated("classes.toml", "[classes.bulwark]\n", "[classes.vanguard]\n"))
    assert error.file == "classes.toml" and error.field.startswith("line ") and "TOML syntax error" in error.reason
    files = starter_files()
    del files["skills.toml"]
    assert (_refusal(files).file, _refusal(files).reason) == ("skills.toml", "the pack has no such file")
    files = starter_files() | {"notes.toml": b""}
    assert _refusal(files).file == "notes.toml" and "not a pack file" in _refusal(files).reason
