"""A turn's actions with classes and items (TURN-1, CLASH-8d, ENGAGE-7c,
ENGAGE-8a): a Class Ability is one more action taken in any order with
Move and Engage; the ready items come into the battle as the adventurer
chose them; free dice an ability adds stay outside the stat limits and
off the track; a reroll is settled before the roll resolves."""

from __future__ import annotations

import pytest
from adventurer_arrange import foe_at
from scenario import Scenario

from domain.betrayal.campaign.commands import GainItem, ReadyItem
from domain.betrayal.battle.commands import Engage, Move, UseClassAbility
from domain.betrayal.battle.events import ClassAbilityUsed, HeroMoved
from domain.betrayal.battle.rules import legal_commands
from domain.betrayal.vocab import BattleForm


def bastion() -> Scenario:
    given = Scenario.clash(party=("Tam:nord",), physical_dice=True).without_foes("e1")
    return given.with_hero("tam", class_id="bastion", tenacity=5)


@pytest.mark.rule("TURN-1")
def test_a_class_ability_is_an_action_taken_before_or_after_a_move():
    given = bastion()
    first = given.when(UseClassAbility(ability="hold-the-line"))
    first.then_has(ClassAbilityUsed, hero="tam", ability="hold-the-line")
    moved = first.next()
    step = next(c for c in legal_commands(moved.state, moved.ctx) if isinstance(c, Move))
    moved.when(step).then_has(HeroMoved, hero="tam")
    other = given.when(step).next()  # the other order
    other.when(UseClassAbility(ability="hold-the-line")).then_has(ClassAbilityUsed, ability="hold-the-line")


@pytest.mark.rule("CLASH-8d")
def test_the_ready_items_chosen_between_battles_come_into_the_battle():
    from campaign_arrange import campaign, run
    from domain.betrayal.battle.application import PartySpec

    app = campaign(party=(("Ria", "nord", "bastion"),))
    run(
        app,
        GainItem(adventurer="Ria", item="scuffed-bracers"),
        GainItem(adventurer="Ria", item="notched-dagger"),
        ReadyItem(adventurer="Ria", item="notched-dagger"),
    )
    app.new_clash(
        setup="waystone-crossing", party=[PartySpec("Ria", form=BattleForm.DEFENSIVE)], xp=1, seed=1, battle_id="w1"
    )
    ria = app.battle("w1").state.heroes[0]
    assert (ria.ready, ria.packed, ria.form, ria.class_id, ria.weapons) == (
        ("notched-dagger",),
        ("scuffed-bracers",),
        BattleForm.DEFENSIVE,
        "bastion",
        1,
    )


@pytest.mark.rule("ENGAGE-7c")
def test_free_combat_dice_go_beyond_the_stat_limit_and_not_to_the_track():
    # Stamina 2, two Combat dice rolled, and the Nord's free die on top.
    from domain.betrayal.battle.commands import Resolve, UseRaceAbility
    from domain.betrayal.battle.events import DiceRolled

    given = foe_at(
        Scenario.clash(party=("Ysolda:nord",), physical_dice=True).without_foes("e1"), 1, enemy="cave-troll"
    ).with_hero("ysolda", stamina=2)
    armed = given.when(UseRaceAbility()).next()
    rolled = armed.when(Engage(form=BattleForm.LIGHT, target="e1", dice=(1, 2), faces=(1, 1, 5)))
    assert len(rolled.then_has(DiceRolled).dice) == 3
    done = rolled.next().when(Resolve()).next()
    assert {t.uid for t in done.state.hero("ysolda").track} == {1, 2}


@pytest.mark.rule("ENGAGE-8a")
def test_a_reroll_is_settled_before_the_roll_resolves_and_the_new_face_counts():
    from domain.betrayal.battle.commands import Resolve, UseGear
    from domain.betrayal.battle.events import DamageDealt, DiceRerolled

    glyph = "glyph-of-steady-aim"
    given = foe_at(
        Scenario.clash(party=("Ysolda:imperial",), physical_dice=True).without_foes("e1"), 1, enemy="cave-troll"
    ).with_hero("ysolda", ready=(glyph,))
    given = given.when(UseGear(item=glyph)).next()
    rolled = given.when(Engage(form=BattleForm.LIGHT, target="e1", dice=(1,), faces=(1,))).next()  # a 1
    again = rolled.when(UseGear(item=glyph, dice=(0,), faces=(5,)))  # rerolled to a 2
    assert again.then_has(DiceRerolled).dice[0].face == 5
    hit = again.next().when(Resolve())
    defense = given.ctx.enemy("cave-troll").defense
    hit.then_has(DamageDealt, target="e1", amount=2, prevented=min(defense, 2))
