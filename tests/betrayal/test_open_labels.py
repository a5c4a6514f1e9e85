"""Every choice a Betrayal player makes reads in the players' words (issue
24): a rolled die by its name and the face it shows, to leave unresolved
(ENGAGE-8e) or to reroll (ENCHANT-1); an enemy by its name and hex
(ENGAGE-6); a Weapon by its card's name (WEAPON-2); a Defend's answers as
what they do (COMBAT-4, ITEM-6). `rk legal` prints them."""

from __future__ import annotations

import pytest
from adventurer_arrange import foe_at
from scenario import Scenario

from domain.betrayal.battle.commands import Defend, EndTurn, Engage, RollEnemyDice, UseGear
from domain.betrayal.battle.names import where
from domain.betrayal.battle.state import Options, Phase
from domain.betrayal.vocab import BattleForm
from domain.kernel.surface import surface_of
from domain.kernel.surface.open import open_commands

C_ONE, C_TWO = 1, 5  # Combat skill die faces (T, 1, 1, 1, 1, 2), typed 0 to 5
TWO = 5  # an enemy Combat die's 2
DAGGER, BRACERS, GLYPH = "notched-dagger", "scuffed-bracers", "glyph-of-steady-aim"


def armed(*ready: str) -> Scenario:
    """Ysolda (Imperial) next to a Cave Troll, with ``ready`` items, rolling physical dice."""
    given = foe_at(Scenario.clash(party=("Ysolda:imperial",), physical_dice=True).without_foes("e1"), 1)
    return given.with_hero("ysolda", ready=tuple(ready))


def opens(given: Scenario, verb: str) -> list:
    """The open commands of ``verb`` now, as `rk legal` and the table build them."""
    built = open_commands(surface_of("betrayal").grammar, given.legal(), given.state, given.ctx)
    return [o for o in built if o.verb.name == verb]


def labels(given: Scenario, verb: str, param: str) -> list[tuple[str, str]]:
    return [(v.word, v.label) for o in opens(given, verb) for v in o.domains[param].values]


def rolled(given: Scenario, *faces: int) -> Scenario:
    return given.when(
        Engage(form=BattleForm.LIGHT, target="e1", dice=tuple(range(1, len(faces) + 1)), faces=faces)
    ).next()


@pytest.mark.rule("ENGAGE-8e")
def test_each_die_left_unresolved_is_named_with_the_face_it_shows():
    waiting = rolled(armed(), C_ONE, C_TWO)
    assert labels(waiting, "resolve", "skip") == [("1", "#1 Combat: 2 (combat 1)"), ("2", "#2 Combat: 6 (combat 2)")]


@pytest.mark.rule("ENCHANT-1")
def test_a_reroll_names_the_dice_it_may_reroll_and_the_item_by_its_card():
    given = armed(GLYPH).when(UseGear(item=GLYPH)).next()
    waiting = rolled(given, C_ONE)
    rerolls = opens(waiting, "use-item")
    assert rerolls, "the attached Glyph offers a reroll"
    assert {v.label for o in rerolls for v in o.domains["item"].values} == {"Glyph of Steady Aim"}
    dice = {(v.word, v.label) for o in rerolls for v in o.domains["dice"].values}
    assert dice == {("1", "#1 Combat: 2 (combat 1)")}


@pytest.mark.rule("ENGAGE-6", "WEAPON-2")
def test_an_engage_names_its_target_by_name_and_hex_and_its_weapon_by_its_card():
    given = armed(DAGGER)
    troll = given.state.foe("e1")
    name = given.ctx.pack.enemies[troll.enemy].name
    assert ("e1", f"{name}, {where(troll.pos)}") in labels(given, "engage", "target")
    weapons = {v.label for o in opens(given, "engage") for v in o.domains["weapon"].values if v.value}
    assert weapons == {given.ctx.pack.gear[DAGGER].name}


@pytest.mark.rule("COMBAT-4", "ITEM-6")
def test_a_defend_names_its_answers_as_what_they_do():
    given = armed(BRACERS).with_state(options=Options(physical_dice=True, choose_defense=True))
    roll = given.when(EndTurn()).next()
    assert roll.state.phase is Phase.ENEMY_ROLL
    waiting = roll.when(RollEnemyDice(faces=(TWO,) * roll.state.enemy_roll.dice)).next()
    assert Defend(gear=()) in waiting.legal()
    gear = dict(labels(waiting, "defend", "gear"))
    overtax = dict(labels(waiting, "defend", "overtax"))
    assert gear["none"] == "use no Armor or Pet"
    assert overtax[BRACERS] == waiting.ctx.pack.gear[BRACERS].name == "Scuffed Leather Bracers"
    assert dict(labels(waiting, "defend", "blocks")) == {"none": "block with no active die"}
    race = [o.domains["race"].values[0].label for o in opens(waiting, "defend") if o.domains["race"].values[0].value]
    assert race == ["Imperial Mettle on the damage left"]  # RACE-IMPERIAL, named as the race sheet does


@pytest.mark.rule("ENGAGE-8e", "ENGAGE-6")
def test_rk_legal_prints_the_dice_and_the_enemies_in_the_players_words(rk) -> None:
    from cli.session import Defaults

    defaults = Defaults(store="memory", keep_open=True)
    table = rk.on(defaults)
    try:
        table(
            *("new", "clash", "--setup", "waystone-crossing", "--party", "Ysolda:nord"),
            *("--party", "Tarn:dark-elf:bow+destruction-staff:ranged", "--xp", "2", "--seed", "7"),
        )
        table("move", "b2")
        said = " ".join(table("legal").stdout.split())
        assert "rk engage --form light [--target ENEMY] --dice UIDS (ENEMY: one of e1:Ash Imp, c3;" in said
        table("engage", "--form", "light", "--target", "e1", "--dice", "1,2")
        said = " ".join(table("legal").stdout.split())
        assert "(POSITIONS: any 0 to 2 of 1:#1 Combat: 5 (combat 1) 2:#2 Combat: 3 (combat 1))" in said
        listed = table("legal", json=True).json()
        assert [o["summary"] for o in listed] == ["Resolve the rolled dice (ENGAGE-8)."]
    finally:
        defaults.close()
