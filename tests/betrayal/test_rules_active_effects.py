"""Class abilities that work on the active slots (betrayal.md §B8): the
Bastion's Brace places a Light fatigue die in an active slot as a block
(ACTIVE-8, ACTIVE-9a to 9d), its Shield Throw forces an active block die
out and hurls its value at an enemy (ACTIVE-5, ACTIVE-6).

Tam is a Bastion (tenacity 2 unless said: too low for Iron Resolve's
block, so only the active dice block); faces are typed with physical dice:
an enemy Combat die shows miss, miss, 1, 1, 1, 2 (typed 0 to 5).
"""

from __future__ import annotations

import pytest
from adventurer_arrange import LIGHT, skill
from scenario import Scenario
from test_rules_class import classed, facing

from domain.betrayal.battle.commands import ClearActive, EndTurn, UseClassAbility
from domain.betrayal.battle.damage import hurt_hero
from domain.betrayal.battle.decision import Decision
from domain.betrayal.battle.events import (
    ActiveChanged,
    ClassAbilityUsed,
    DamageDealt,
    DieExhausted,
    FatigueGained,
    UnitDefeated,
)
from domain.betrayal.battle.rules import legal_commands
from domain.betrayal.battle.state import ActiveDie, DieKind, Phase
from domain.kernel.errors import MalformedCommand

BRACE, THROW = UseClassAbility(ability="brace"), "shield-throw"
BRACED = ActiveDie(DieKind.LIGHT_FATIGUE, 0, -1, 2)  # what Brace places


def bastion(tenacity: int = 2, k: int = 1, **changes) -> Scenario:
    """Tam the Bastion with e1 (a road lookout: Defense 0) ``k`` hexes away."""
    return facing(classed("bastion", tenacity=tenacity, **changes), k)


def guard(uid: int = 1, amount: int = 2) -> ActiveDie:
    """One of Tam's skill dice sitting in an active slot as a block."""
    return ActiveDie(DieKind.SKILL, uid, 5, amount)


# --- ACTIVE-8: an ability places a fatigue die in the Active slot -----------------------------


@pytest.mark.rule("ACTIVE-8")
def test_brace_places_a_light_fatigue_die_in_an_active_slot_as_a_block():
    given = bastion(track=(skill(2, 1),))
    then = given.when(BRACE)
    then.then_has(ClassAbilityUsed, hero="tam", ability="brace", spent=1, tenacity=1, rule="CLASS-1")
    then.then_has(ActiveChanged, hero="tam", active=(BRACED,), rule="ACTIVE-8")
    then.then_lacks(FatigueGained)  # from the supply: not on the track while it fills the slot
    tam = then.state.hero("tam")
    assert tam.active == (BRACED,) and tam.track == (skill(2, 1),)


@pytest.mark.rule("ACTIVE-8")
@pytest.mark.rule("ACTIVE-9a")
def test_a_braced_fatigue_die_blocks_like_a_block_die_and_goes_to_the_track_when_spent():
    braced = bastion(hp=6, max_hp=6).when(BRACE).next()
    then = Decision(braced.state, braced.ctx)
    hurt_hero(then, "tam", 3, true_damage=False, source="e1", rule="ENEMY-6e")
    hit = next(e for e in then.events if isinstance(e, DamageDealt))
    assert (hit.prevented, hit.to_hp, hit.hp) == (2, 1, 5)
    gained = [e for e in then.events if isinstance(e, FatigueGained)]
    assert [(e.kind, e.count, e.rule) for e in gained] == [(DieKind.LIGHT_FATIGUE, 1, "ACTIVE-9a")]
    assert gained[0].track == (LIGHT,)


@pytest.mark.rule("ACTIVE-8")
@pytest.mark.rule("ACTIVE-3")
def test_brace_is_refused_while_the_four_active_slots_are_full_and_writes_nothing():
    full = tuple(guard(uid, 1) for uid in (1, 2, 3, 4))
    bastion(active=full).then_violates(BRACE, "ACTIVE-3")
    cleared = bastion(active=full).when(ClearActive(slot=0)).next()  # ACTIVE-4 makes room
    cleared.when(BRACE).then_has(ActiveChanged, hero="tam", active=(*full[1:], BRACED), rule="ACTIVE-8")


@pytest.mark.rule("ACTIVE-9")
@pytest.mark.rule("ACTIVE-9b")
def test_a_braced_fatigue_die_cleared_by_choice_goes_to_the_track():
    then = bastion().when(BRACE).next().when(ClearActive(slot=0))
    then.then_has(FatigueGained, hero="tam", kind=DieKind.LIGHT_FATIGUE, count=1, rule="ACTIVE-9b", track=(LIGHT,))
    assert then.state.hero("tam").active == ()


@pytest.mark.rule("ACTIVE-9c")
def test_a_braced_fatigue_die_goes_to_the_track_when_its_adventurer_is_defeated():
    braced = bastion(hp=1).when(BRACE).next()
    d = Decision(braced.state, braced.ctx)
    hurt_hero(d, "tam", 2, true_damage=True, source="e1", rule="ENEMY-6e")  # true damage: no block
    rules = [
        (type(e).__name__, getattr(e, "rule", ""))
        for e in d.events
        if isinstance(e, (ActiveChanged, FatigueGained, UnitDefeated))
    ]
    assert rules == [("ActiveChanged", "ACTIVE-7"), ("FatigueGained", "ACTIVE-7"), ("UnitDefeated", "")]


@pytest.mark.rule("ACTIVE-9d")
@pytest.mark.rule("ACTIVE-5")
@pytest.mark.rule("ACTIVE-6")
def test_a_braced_fatigue_die_still_in_the_slot_goes_to_the_track_when_the_battle_ends():
    """Brace, then Shield Throw hurls the skill block die (the leftmost of
    equal value) at the last enemy; the battle ends with the fatigue die in
    its slot."""
    given = bastion(tenacity=3, active=(guard(1, 2),)).with_foe("e1", hp=2)
    braced = given.when(BRACE).next()
    thrown = braced.when(UseClassAbility(ability=THROW, target="e1"))
    thrown.then_has(ActiveChanged, hero="tam", active=(BRACED,), rule="ACTIVE-5")
    thrown.then_has(DieExhausted, hero="tam", uid=1, face=5, rule="ACTIVE-6")
    thrown.then_has(UnitDefeated, unit="e1")
    then = thrown.next().when(EndTurn())
    then.then_has(FatigueGained, hero="tam", kind=DieKind.LIGHT_FATIGUE, count=1, rule="CLEANUP-4a")
    assert then.state.phase is Phase.ENDED
    tam = then.state.hero("tam")
    assert tam.active == () and tam.track == (skill(1, 5), LIGHT)


# --- ACTIVE-5, ACTIVE-6: an effect forces an active die out ----------------------------------


@pytest.mark.rule("ACTIVE-5")
@pytest.mark.rule("ACTIVE-6")
def test_shield_throw_forces_a_block_die_out_unresolved_exhausts_it_and_deals_its_value():
    held = (guard(1, 1), guard(2, 2))
    given = bastion(active=held, track=(LIGHT,))
    then = given.when(UseClassAbility(ability=THROW, target="e1"))
    then.then_has(ClassAbilityUsed, hero="tam", ability=THROW, spent=2, tenacity=0)
    then.then_has(ActiveChanged, hero="tam", active=(held[0],), rule="ACTIVE-5")  # the highest by default
    then.then_has(DieExhausted, hero="tam", uid=2, face=5, rule="ACTIVE-6", track=(LIGHT, skill(2, 5)))
    then.then_has(DamageDealt, source="tam", target="e1", amount=2, prevented=0)
    chosen = given.when(UseClassAbility(ability=THROW, target="e1", slot=0))
    chosen.then_has(DieExhausted, hero="tam", uid=1, rule="ACTIVE-6")
    chosen.then_has(DamageDealt, source="tam", target="e1", amount=1)


@pytest.mark.rule("ACTIVE-5")
def test_shield_throw_deals_the_value_up_to_its_amount():
    then = bastion(active=(guard(1, 5),)).with_foe("e1", hp=9).when(UseClassAbility(ability=THROW, target="e1"))
    then.then_has(DamageDealt, source="tam", target="e1", amount=3)


@pytest.mark.rule("ACTIVE-5")
@pytest.mark.rule("ACTIVE-9a")
def test_shield_throw_of_a_braced_fatigue_die_sends_it_to_the_track():
    then = bastion(tenacity=3).when(BRACE).next().when(UseClassAbility(ability=THROW, target="e1"))
    then.then_has(ActiveChanged, hero="tam", active=(), rule="ACTIVE-5")
    then.then_has(FatigueGained, hero="tam", kind=DieKind.LIGHT_FATIGUE, count=1, rule="ACTIVE-9a", track=(LIGHT,))
    then.then_has(DamageDealt, source="tam", target="e1", amount=2)
    then.then_lacks(DieExhausted)


@pytest.mark.rule("ACTIVE-5")
def test_shield_throw_needs_a_block_die_and_an_adjacent_enemy():
    bastion().then_violates(UseClassAbility(ability=THROW, target="e1"), "ACTIVE-5")  # no active dice
    spent = bastion(active=(guard(1, 0), guard(2, 2)))
    spent.then_violates(UseClassAbility(ability=THROW, target="e1", slot=0), "ACTIVE-5")  # nothing left to throw
    with pytest.raises(MalformedCommand):
        spent.then_violates(UseClassAbility(ability=THROW, target="e1", slot=3), "ACTIVE-5")
    far = bastion(k=3, active=(guard(1, 2),))
    far.then_violates(UseClassAbility(ability=THROW, target="e1"), "FORM-5")  # melee: adjacent enemies only
    with pytest.raises(MalformedCommand):  # Brace takes no options
        bastion().when(UseClassAbility(ability="brace", slot=0))


@pytest.mark.rule("ACTIVE-5")
@pytest.mark.rule("ACTIVE-8")
def test_legal_commands_offer_brace_and_a_shield_throw_at_the_enemy_in_reach():
    given = bastion(tenacity=3, active=(guard(1, 2),))
    legal = legal_commands(given.state, given.ctx)
    assert BRACE in legal
    assert UseClassAbility(ability=THROW, target="e1") in legal
    assert UseClassAbility(ability=THROW, target="e1") not in legal_commands(bastion().state, bastion().ctx)


def test_an_active_slot_effect_is_refused_on_an_enduring_ability_or_an_item():
    from test_campaign_content import assert_refused, mutated

    files = mutated(
        "classes.toml",
        'timing = "action"\ncost = 1\neffect = { kind = "fatigue-block"',
        'timing = "enduring"\ncost = 1\neffect = { kind = "fatigue-block"',
    )
    assert_refused(files, "classes.toml", "classes.bastion.abilities[5].effect.kind", "cannot have a fatigue-block")
    files = mutated(
        "gear.toml",
        '{ kind = "reroll", amount = 1 }',
        '{ kind = "hurl-block", amount = 1 }',
        "[gear.glyph-of-steady-aim]",
    )
    assert_refused(files, "gear.toml", "gear.glyph-of-steady-aim.effect.kind", "cannot have a hurl-block")
