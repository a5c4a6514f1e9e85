"""Rare Enemy variants (facts section 8, "Rare Enemies") and Enemies'
"Weakness" skills, both tied to Identify (ENEMY-3, ENEMY-4; facts: Fills
ENEMY-3): a rare variant's stats derive from its sheet; only an Identify
result of Rarity + 2 spots it; a weakness lowers a resistance only once
some PC has Identified the Enemy. Bad rare or weakness data is refused
when the pack loads, naming the field and the reason.

The Identify faces are forged by seed: the check is the battle's first
roll (``seed_for``); the damage faces by counter (``pinned``)."""

from __future__ import annotations

import pytest
from labyrinth_harness import at, edit, of, pinned
from labyrinth_more import MORE, PARTY, seed_for
from msgspec.structs import replace

from domain.labyrinth.views import conditions
from domain.kernel.errors import ContentError, MalformedCommand
from domain.kernel.portable.chain import without_skipped_defaults
from domain.labyrinth import events as ev
from domain.labyrinth.attack import damage
from domain.labyrinth.catalog import Encounter, EncounterEnemy, EnemyKind, Rare
from domain.labyrinth.commands import StartLabyrinth
from domain.labyrinth.critical import trigger
from domain.labyrinth.decision import Decision, RulesContext
from domain.labyrinth.packs import parse_pack, starter_files, starter_pack
from domain.labyrinth.rules import decide, evolve
from domain.labyrinth.state import Options
from domain.labyrinth.stats import stats
from domain.labyrinth.vocab import Attribute

A = Attribute

# A grub: fire resistance 5 with a "Weakness" of 4 to it, Rarity 10, and a
# rare variant with every bonus the facts allow. The party (scout and mage)
# both have TEC bonus 2: Identify needs faces of 8, spotting the rare of 10.
GRUB = EnemyKind(
    id="grub",
    name="Grub",
    level=1,
    hp=10,
    speed=4,
    phit=2,
    ehit=1,
    evasion=5,
    patk=4,
    eatk=1,
    defense=1,
    resist={A.CUT: 1, A.FIRE: 5, A.VOLT: 2},
    weak={A.FIRE: 4},
    rarity=10,
    rare=Rare(hp=3, hit=1, evasion=1, attack=2, defense=2, name="Gilded Grub"),
)
GRUBS = Encounter(
    id="grubs", name="Two grubs", enemies=(EncounterEnemy(enemy="grub"), EncounterEnemy(enemy="grub", rare=True))
)
PACK = replace(
    MORE, id="fixture-rare", enemies={**MORE.enemies, "grub": GRUB}, encounters={**MORE.encounters, "grubs": GRUBS}
)
CTX = RulesContext(pack=PACK)


def start(seed: int = 1, encounter: str = "grubs", rare: tuple[str, ...] = (), pack=PACK, **options):
    """A battle of the rare fixture pack just set up, and its setup events."""
    command = StartLabyrinth(
        battle_id="t", encounter=encounter, party=PARTY, seed=seed, rare=rare, options=Options(**options)
    )
    state, events = None, decide(None, command, RulesContext(pack=pack))
    for event in events:
        state = evolve(state, event)
    return state, events


def fire_damage(state, faces: tuple[int, ...]) -> ev.DamageRolled:
    """The mage's Flame burst on e1 (5 fire dice: [Elemental attack] 2 + staff 3) with ``faces``."""
    state = at(state, pinned(state.seed, faces, state.rng))
    d = Decision(state, CTX, on_critical=trigger)
    damage(d, state.get("p2"), state.get("e1"), PACK.skills["flame-burst"].effects[0], None)
    return of(d.events, ev.DamageRolled)[0]


# --- rare variants ------------------------------------------------------------------------------


@pytest.mark.rule("ENEMY-3")
def test_a_rare_variant_multiplies_hp_shifts_resistances_0_and_1_and_adds_the_gms_bonuses():
    state, _ = start()
    plain, rare = state.get("e1"), state.get("e2")
    assert (plain.base.max_hp, plain.hp, plain.rare) == (10, 10, "")
    assert (rare.base.max_hp, rare.hp) == (30, 30)  # x3
    assert rare.base.resist == {A.CUT: 2, A.BASH: 1, A.STAB: 1, A.FIRE: 5, A.ICE: 1, A.VOLT: 2}  # 1->2, 0->1
    b = rare.base
    assert (b.phit, b.ehit, b.evasion, b.patk, b.eatk, b.defense) == (3, 2, 6, 6, 3, 3)
    assert (b.speed, b.max_tp, b.weak) == (4, 0, {A.FIRE: 4})  # the rest is the sheet's
    # no Identify played: the engine shows what it is
    assert (plain.name, rare.name, rare.rare, rare.spotted) == ("Grub A", "Gilded Grub B", "Gilded Grub B", True)


@pytest.mark.rule("ENEMY-3")
def test_the_setup_may_name_enemy_slots_rare_a_kind_without_a_rare_table_gets_x2_and_no_bonus():
    state, _ = start(encounter="slimes", rare=("e1",))
    slime, other = state.get("e1"), state.get("e2")
    assert (slime.base.max_hp, slime.hp, slime.name) == (16, 16, "Rare Slime A")
    assert slime.base.resist == {A.CUT: 2, A.BASH: 1, A.STAB: 1, A.FIRE: 2, A.ICE: 1, A.VOLT: 1}
    assert (slime.base.phit, slime.base.evasion, slime.base.patk, slime.base.defense) == (2, 7, 5, 1)
    assert (other.base.max_hp, other.rare) == (8, "")
    with pytest.raises(MalformedCommand, match="the encounter's Enemies are e1 to e2"):
        start(encounter="slimes", rare=("e3",))


# --- spotting them by Identify ------------------------------------------------------------------


@pytest.mark.rule("ENEMY-3")
@pytest.mark.rule("ENEMY-4")
def test_identify_below_rarity_plus_2_shows_only_the_normal_data():
    state, events = start(seed_for((4, 4, 3, 4)), identify=True)  # 10 and 9: Rarity 10 reached, 12 not
    check = of(events, ev.Identified)[0]
    assert (check.totals, check.known, check.unknown, check.spotted) == ((10, 9), ("e1", "e2"), (), ())
    rare = state.get("e2")
    assert (rare.name, rare.spotted, rare.rare) == ("Grub B", False, "Gilded Grub B")
    assert "rare" not in conditions(state, rare, PACK)
    assert rare.base.max_hp == 30  # the engine keeps the true sheet; only the party's label is the normal one


@pytest.mark.rule("ENEMY-3")
def test_a_result_of_rarity_plus_2_spots_the_rare_variant_and_only_rare_ones_are_listed():
    state, events = start(seed_for((5, 5, 1, 2)), identify=True)  # 12 and 5
    assert of(events, ev.Identified)[0].spotted == ("e2",)  # e1 is no rare variant
    rare = state.get("e2")
    assert (rare.name, rare.spotted) == ("Gilded Grub B", True)
    assert "rare" in conditions(state, rare, PACK) and "rare" not in conditions(state, state.get("e1"), PACK)


@pytest.mark.rule("ENEMY-3")
def test_two_sixes_spot_a_rare_variant_whatever_its_rarity_and_all_ones_never_do():
    hard = replace(GRUB, rarity=25)  # Rarity + 2 = 27, beyond any total
    pack = replace(PACK, enemies={**PACK.enemies, "grub": hard})
    state, events = start(seed_for((6, 6, 1, 1)), pack=pack, identify=True)
    check = of(events, ev.Identified)[0]
    assert (check.totals, check.known, check.spotted) == ((14, 4), ("e1", "e2"), ("e2",))
    state, events = start(
        seed_for((5, 6, 1, 1)),
        pack=replace(pack, enemies={**pack.enemies, "grub": replace(hard, rarity=4)}),
        identify=True,
    )  # 13 spots Rarity 4 + 2; the 1s (total 4) reach nothing
    check = of(events, ev.Identified)[0]
    assert (check.totals, check.spotted) == ((13, 4), ("e2",))


@pytest.mark.rule("ENEMY-3")
def test_an_enemy_no_pc_identified_is_not_spotted_either():
    state, events = start(seed_for((3, 3, 2, 4)), identify=True)  # 8 and 8
    check = of(events, ev.Identified)[0]
    assert (check.unknown, check.spotted) == (("e1", "e2"), ())
    assert state.get("e2").name == "Grub B" and "not identified" in conditions(state, state.get("e2"), PACK)


# --- "Weakness" skills ----------------------------------------------------------------------------


@pytest.mark.rule("ENEMY-3")
def test_a_weakness_lowers_the_resistance_once_some_pc_identified_the_enemy():
    state, _ = start(seed_for((4, 4, 1, 2)), identify=True)  # the scout's 10 identifies both
    grub = state.get("e1")
    assert not grub.unknown and stats(grub, PACK).resist[A.FIRE] == 1  # 5 - 4
    assert "weak fire -4" in conditions(state, grub, PACK)
    hit = fire_damage(state, (2, 3, 3, 5, 5))
    assert (hit.resistance, hit.dealt, hit.damage, hit.hp) == (1, 5, 5, 5)


@pytest.mark.rule("ENEMY-3")
def test_a_weakness_does_not_apply_when_every_pc_failed_to_identify():
    state, _ = start(seed_for((3, 3, 2, 4)), identify=True)  # 8 and 8: below Rarity 10
    grub = state.get("e1")
    assert grub.unknown and stats(grub, PACK).resist[A.FIRE] == 5  # not 1; and at least 3 everywhere
    assert min(stats(grub, PACK).resist.values()) == 3
    assert not [x for x in conditions(state, grub, PACK) if x.startswith("weak")]
    hit = fire_damage(state, (2, 3, 3, 5, 5))
    assert (hit.resistance, hit.dealt, hit.hp) == (5, 0, 10)


@pytest.mark.rule("ENEMY-3")
def test_without_the_identify_option_every_enemy_counts_as_identified_so_its_weakness_applies():
    state, _ = start()
    assert stats(state.get("e1"), PACK).resist[A.FIRE] == 1
    assert stats(state.get("e2"), PACK).resist[A.FIRE] == 1  # the rare one's 5 is no 0 or 1: unshifted
    assert fire_damage(state, (1, 2, 2, 4, 5)).dealt == 4


@pytest.mark.rule("ENEMY-3")
def test_a_weakness_never_takes_a_resistance_below_0():
    state = edit(start()[0], "e1", base=replace(start()[0].get("e1").base, weak={A.VOLT: 6}))
    assert stats(state.get("e1"), PACK).resist[A.VOLT] == 0


# --- the pack's data ------------------------------------------------------------------------------


@pytest.mark.rule("ENEMY-3")
def test_the_starter_packs_tallow_cellar_holds_a_rare_grub_with_a_fire_weakness():
    pack = starter_pack()
    grub = pack.enemies["tallow-grub"]
    assert (grub.weak, grub.rare) == (
        {A.FIRE: 3},
        Rare(hp=3, hit=1, evasion=1, attack=2, defense=2, name="Gilded Tallow Grub"),
    )
    assert [e.rare for e in pack.encounters["tallow-cellar"].enemies] == [False, True, False]
    assert pack.enemies["thornback-rat"].rare == Rare()  # no table: the plainest variant
    assert not any(
        e.rare for key in ("mossy-hollow", "warren-gate", "ogre-den") for e in pack.encounters[key].enemies
    )  # the golden logs' encounters are as they were
    party = tuple(replace(m, cls=c) for m, c in zip(PARTY, ("vanguard", "stormcaller")))
    command = StartLabyrinth(battle_id="t", encounter="tallow-cellar", party=party, seed=3)
    state = None
    for event in decide(None, command, RulesContext(pack=pack)):
        state = evolve(state, event)
    rare = state.get("e2")
    assert (rare.name, rare.hp, rare.base.resist[A.BASH], rare.base.resist[A.ICE]) == ("Gilded Tallow Grub B", 42, 2, 1)
    assert stats(rare, pack).resist[A.FIRE] == 1 and stats(state.get("e1"), pack).resist[A.FIRE] == 1


RARE_LINE = "rarity = 7\n"  # the thornback rat's last line


@pytest.mark.rule("ENEMY-3")
@pytest.mark.parametrize(
    ("added", "field", "reason"),
    [
        (
            "rare = { hp = 4 }",
            "rare.hp",
            "a rare Enemy's [HP] is its sheet's times 2 or 3, from 2 to 3 (facts section 8, Rare Enemies); got 4",
        ),
        ("rare = { hp = 1 }", "rare.hp", "times 2 or 3, from 2 to 3 (facts section 8, Rare Enemies); got 1"),
        ("rare = { hit = 2 }", "rare.hit", "at most +1 to a rare Enemy's hit, from 0 to 1"),
        ("rare = { evasion = 2 }", "rare.evasion", "at most +1 to a rare Enemy's [Evasion], from 0 to 1"),
        ("rare = { attack = 3 }", "rare.attack", "at most +2 to a rare Enemy's attack, from 0 to 2"),
        (
            "rare = { defense = -1 }",
            "rare.defense",
            "the GM adds at most +2 to a rare Enemy's [Defense], from 0 to 2 (facts section 8, Rare Enemies); got -1",
        ),
        ("rare = { hp = 2.5 }", "rare.hp", "expected an integer"),
        ("rare = { speed = 2 }", "rare.speed", "unknown key"),
        ("rare = 3", "rare", "expected a table"),
        ("weak = { fire = 0 }", "weak.fire", "must be from 1 to 6, got 0"),
        ("weak = { none = 1 }", "weak.none", "no weakness to it"),
        ("weak = { acid = 1 }", "weak.acid", "unknown value 'acid'"),
    ],
)
def test_bad_rare_or_weakness_data_is_refused_on_load_with_its_field_and_reason(added, field, reason):
    files = starter_files()
    text = files["enemies.toml"].decode()
    files["enemies.toml"] = text.replace(RARE_LINE, RARE_LINE + added + "\n", 1).encode()
    with pytest.raises(ContentError) as caught:
        parse_pack(files)
    assert (caught.value.file, caught.value.field) == ("enemies.toml", f"enemies.thornback-rat.{field}")
    assert reason in caught.value.reason


@pytest.mark.rule("ENEMY-3")
def test_rare_on_an_encounter_entry_must_be_true_or_false():
    files = starter_files()
    files["encounters.toml"] = files["encounters.toml"].replace(b"rare = true", b'rare = "yes"')
    with pytest.raises(ContentError) as caught:
        parse_pack(files)
    assert caught.value.field == "encounters.tallow-cellar.enemies[1].rare"


# --- old logs --------------------------------------------------------------------------------------


@pytest.mark.rule("ENEMY-3")
def test_the_new_fields_leave_old_shaped_events_and_setups_as_they_were():
    """Logs written before rare variants hold no ``spotted``, ``rare`` or
    ``weak``: with their defaults those are left out again (chain.py)."""
    state, events = start(seed_for((4, 4, 3, 4)), encounter="slimes", identify=True)
    check = of(events, ev.Identified)[0]
    assert "spotted" not in without_skipped_defaults(check)
    started = without_skipped_defaults(of(events, ev.BattleStarted)[0])
    for c in started["combatants"]:
        assert "rare" not in c and "spotted" not in c and "weak" not in c["base"]
    command = StartLabyrinth(battle_id="t", encounter="slimes", party=PARTY, seed=1)
    assert "rare" not in without_skipped_defaults(command)
