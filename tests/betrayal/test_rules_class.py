"""Scenario tests of class abilities in battle (CLASS-1 to CLASS-5,
betrayal.md §A9), their battle forms (FORM-1), the abilities Clothing
grants (CLOTHING-1, CLOTHING-2) and promotion on the battle side
(ADVANCE-15, ADVANCE-16).

A hero gets its class as the campaign gives it: ``class_id``, ``master``,
``ready`` and ``tenacity`` on its in-battle state. Faces are forced with
physical dice: an enemy Combat die shows miss, miss, 1, 1, 1, 2 (typed 0
to 5); a Combat skill die T, 1, 1, 1, 1, 2.
"""

from __future__ import annotations

import pytest
from adventurer_arrange import LIGHT, foe_at, hexes_at, restart_turn, status_die
from msgspec.structs import replace
from scenario import Scenario, finish_round

from domain.betrayal.adventurer import aggregate as adv
from domain.betrayal.adventurer.events import PromotionEarned
from domain.betrayal.battle.commands import EndTurn, Engage, NextRound, Resolve, RollEnemyDice, UseClassAbility
from domain.betrayal.battle.damage import hurt_hero
from domain.betrayal.battle.decision import Decision
from domain.betrayal.battle.events import (
    ClassAbilityArmed,
    ClassAbilityUsed,
    ClassDamagePrevented,
    ClassDiceRerolled,
    ClassEngagesGranted,
    DamageDealt,
    FatigueGained,
    Healed,
    HeroFormChanged,
    HeroMovedFreely,
    HeroStatusLost,
    PromotionProgressed,
    StatusPlaced,
    TenacityGained,
    UnitDefeated,
)
from domain.betrayal.battle.evolve import replay
from domain.betrayal.battle.rules import legal_commands
from domain.betrayal.battle.state import Outcome, Phase
from domain.betrayal.vocab import BattleForm, Status
from domain.kernel.errors import MalformedCommand
from domain.kernel.hexes import distance, neighbours

MISS, ONE, TWO = 0, 2, 5  # enemy Combat die faces
C_TEN, C_ONE, C_TWO = 0, 1, 5  # Combat skill die faces (T, 1, 1, 1, 1, 2)
MAGIC, RANGED, DEFENSIVE, LIGHT_FORM = BattleForm.MAGIC, BattleForm.RANGED, BattleForm.DEFENSIVE, BattleForm.LIGHT


def classed(
    cls: str, *, tenacity: int = 5, form: BattleForm = BattleForm.LIGHT, race: str = "nord", **changes
) -> Scenario:
    """Tam, of class ``cls``, alone against e1 (moved away for now)."""
    given = Scenario.clash(party=(f"Tam:{race}",), physical_dice=True).without_foes("e1")
    return given.with_hero("tam", class_id=cls, tenacity=tenacity, form=form, magicka=3, stamina=3, **changes)


def facing(given: Scenario, k: int, enemy: str = "road-lookout", hero: str = "tam") -> Scenario:
    """e1, showing ``enemy``'s chip, ``k`` hexes from ``hero``."""
    return foe_at(given, k, hero=hero, enemy=enemy)


def pair(cls: str, ally_race: str = "nord", **changes) -> Scenario:
    """Tam of class ``cls`` and Ria (no class) side by side, e1 away."""
    given = Scenario.clash(party=("Tam:nord", f"Ria:{ally_race}"), physical_dice=True).without_foes("e1")
    given = given.with_hero("tam", class_id=cls, **{"tenacity": 5, **changes})
    tam = given.state.hero("tam").pos
    beside = next(
        h
        for h in neighbours(tam)
        if given.ctx.board.contains(h)
        and given.ctx.board.passable(h)
        and all(u.pos != h for u in (*given.state.heroes, *given.state.foes))
    )
    return restart_turn(given.with_hero("ria", pos=beside))


def struck(given: Scenario, hero: str, amount: int, source: str = "e1") -> Decision:
    """``amount`` physical damage about to hit ``hero`` (as an enemy's strike would)."""
    d = Decision(given.state, given.ctx)
    hurt_hero(d, hero, amount, true_damage=False, source=source, rule="ENEMY-6e")
    return d


def of(d: Decision, kind: type) -> list:
    return [e for e in d.events if isinstance(e, kind)]


# --- CLASS-1: activated by spending its tenacity -------------------------------------------


@pytest.mark.rule("CLASS-1")
def test_an_action_spends_its_tenacity_and_applies_its_effect_to_a_target_in_reach():
    given = facing(classed("emberwitch", form=MAGIC), 2, enemy="shore-crab")
    then = given.when(UseClassAbility(ability="flare", target="e1"))
    then.then_has(ClassAbilityUsed, hero="tam", ability="flare", spent=2, tenacity=3, rule="CLASS-1")
    then.then_has(DamageDealt, source="tam", target="e1", amount=2, prevented=0, true_damage=True, hp=1)
    assert then.state.hero("tam").tenacity == 3


@pytest.mark.rule("CLASS-1")
def test_an_action_without_enough_tenacity_is_refused_and_writes_nothing():
    given = facing(classed("emberwitch", form=MAGIC, tenacity=1), 2, enemy="shore-crab")
    given.then_violates(UseClassAbility(ability="flare", target="e1"), "CLASS-1")


@pytest.mark.rule("CLASS-1")
def test_an_ability_not_on_the_sheet_or_out_of_reach_or_off_turn_is_refused():
    bastion = facing(classed("bastion", form=MAGIC), 2, enemy="shore-crab")
    bastion.then_violates(UseClassAbility(ability="flare", target="e1"), "CLASS-1")  # not its sheet
    far = facing(classed("emberwitch", form=MAGIC), 5, enemy="shore-crab")
    far.then_violates(UseClassAbility(ability="flare", target="e1"), "FORM-7")  # Magic reaches Magicka (3)
    with pytest.raises(MalformedCommand):
        Scenario.clash().then_violates(UseClassAbility(ability="no-such-ability"), "CLASS-1")
    other = pair("emberwitch")
    other = other.with_hero("ria", class_id="bastion", tenacity=5)
    other.then_violates(UseClassAbility(ability="hold-the-line", hero="ria"), "CLASS-1")  # not Ria's turn


@pytest.mark.rule("CLASS-1")
def test_a_heal_goes_to_yourself_or_an_adjacent_adventurer_with_the_innate_bonus_on_others():
    given = pair("mender").with_hero("ria", hp=1).with_hero("tam", hp=2)
    on_ria = given.when(UseClassAbility(ability="poultice", target="ria"))
    on_ria.then_has(Healed, unit="ria", amount=3, hp=4)  # 2, and 1 more by Gentle Hands (an Innate heal)
    on_self = given.when(UseClassAbility(ability="poultice"))
    on_self.then_has(Healed, unit="tam", amount=2, hp=4)  # no bonus on yourself
    far = given.with_hero("ria", pos=hexes_at(given, given.state.hero("tam").pos, 3)[0])
    far.then_violates(UseClassAbility(ability="poultice", target="ria"), "CLASS-1")


@pytest.mark.rule("CLASS-1")
def test_legal_commands_list_each_usable_ability_once_with_a_default_choice():
    given = facing(classed("emberwitch", form=MAGIC), 2, enemy="shore-crab")
    listed = [c for c in legal_commands(given.state, given.ctx) if isinstance(c, UseClassAbility)]
    assert UseClassAbility(ability="flare", target="e1") in listed
    assert UseClassAbility(ability="smoulder", target="e1") in listed
    assert UseClassAbility(ability="backdraft") in listed  # an Interrupt: armed
    assert not any(c.ability in ("kindling", "heat-haze") for c in listed)  # passive
    for command in listed:
        given.when(command)


# --- CLASS-2, CLASS-2a: once per turn; Innate and Enduring as their text says ------------------


@pytest.mark.rule("CLASS-2")
def test_several_different_abilities_in_a_turn_but_the_same_one_only_once():
    given = facing(classed("bastion", form=DEFENSIVE, tenacity=9), 1, enemy="cave-troll")
    once = given.when(UseClassAbility(ability="hold-the-line")).next()
    assert once.state.hero("tam").bonus_hp == 3
    once.then_violates(UseClassAbility(ability="hold-the-line"), "CLASS-2")
    twice = once.when(UseClassAbility(ability="shoulder-check", target="e1"))  # a different one: fine
    twice.then_has(StatusPlaced, foe="e1")
    assert twice.state.foe("e1").marks[0].status is Status.DAZE


@pytest.mark.rule("CLASS-2")
def test_the_same_ability_may_be_used_again_on_the_next_turn():
    given = classed("bastion", tenacity=9).when(UseClassAbility(ability="hold-the-line")).next()
    assert given.state.hero("tam").class_used == ("hold-the-line",)
    ended, _ = finish_round(given)
    next_turn = ended.when(NextRound()).next()
    assert next_turn.state.hero("tam").class_used == ()
    next_turn.when(UseClassAbility(ability="hold-the-line")).then_has(ClassAbilityUsed, ability="hold-the-line")


@pytest.mark.rule("CLASS-2a")
def test_an_innate_ability_is_passive_and_free_and_cannot_be_activated():
    given = classed("bastion", form=DEFENSIVE, tenacity=0)
    given.then_violates(UseClassAbility(ability="rooted-stance"), "CLASS-2a")
    d = struck(given, "tam", 2)  # Rooted Stance: 1 lower in Defensive form, at no cost
    assert of(d, ClassDamagePrevented)[0].amount == 1 and of(d, ClassDamagePrevented)[0].rule == "CLASS-2a"
    assert of(d, DamageDealt)[0].prevented == 1
    out_of_form = struck(classed("bastion", form=LIGHT_FORM, tenacity=0), "tam", 2)
    assert of(out_of_form, DamageDealt)[0].prevented == 0


@pytest.mark.rule("CLASS-2a")
def test_an_innate_move_is_used_after_an_engage_in_its_form_once_per_engage():
    given = facing(classed("stalker", form=RANGED), 3)
    h = given.state.hero("tam").pos
    step = next(
        x
        for x in neighbours(h)
        if given.ctx.board.contains(x)
        and given.ctx.board.passable(x)
        and all(u.pos != x for u in (*given.state.heroes, *given.state.foes))
    )
    given.then_violates(UseClassAbility(ability="soft-step", hex=step), "CLASS-2a")  # no engage yet
    engaged = given.when(Engage(form=RANGED, target="e1")).next()  # nothing rolled: resolved at once
    then = engaged.when(UseClassAbility(ability="soft-step", hex=step))
    then.then_has(ClassAbilityUsed, ability="soft-step", spent=0, mark="soft-step@1", rule="CLASS-2a")
    then.then_has(HeroMovedFreely, hero="tam", path=(step,))
    back = then.next()
    back.then_violates(UseClassAbility(ability="soft-step", hex=h), "CLASS-2a")  # once per engage


@pytest.mark.rule("CLASS-2a")
def test_the_innate_tenacity_comes_for_an_enemy_defeated_in_its_form():
    given = facing(classed("emberwitch", form=MAGIC, tenacity=2), 2)
    then = given.when(UseClassAbility(ability="flare", target="e1"))  # a road lookout has 2 HP
    then.then_has(UnitDefeated, unit="e1")
    then.then_has(TenacityGained, hero="tam", amount=1, tenacity=1)  # 2 - 2 spent + 1 by Kindling


# --- CLASS-3: Enduring, on while tenacity is at least its value ------------------------------


@pytest.mark.rule("CLASS-3")
def test_an_enduring_ward_is_on_while_tenacity_is_at_least_its_value_and_spends_none():
    on = struck(classed("emberwitch", tenacity=4), "tam", 3)
    assert of(on, ClassDamagePrevented)[0].ability == "heat-haze"
    assert of(on, DamageDealt)[0].prevented == 1 and on.state.hero("tam").tenacity == 4
    off = struck(classed("emberwitch", tenacity=3), "tam", 3)
    assert of(off, DamageDealt)[0].prevented == 0
    classed("emberwitch", tenacity=4).then_violates(UseClassAbility(ability="heat-haze"), "CLASS-3")


@pytest.mark.rule("CLASS-3")
def test_an_enduring_effect_at_the_start_of_turn_and_an_enduring_reroll_without_spending():
    blinded = classed("mender", tenacity=3, track=(status_die(Status.BLIND),))
    ended, _ = finish_round(blinded)
    started = ended.when(NextRound())
    started.then_has(HeroStatusLost, hero="tam", status=Status.BLIND, rule="CLASS-3")  # Steady Pulse
    keen = facing(classed("stalker", tenacity=2, form=RANGED), 3)
    rolled = keen.when(Engage(form=RANGED, target="e1", dice=(1,), faces=(C_ONE,))).next()
    then = rolled.when(UseClassAbility(ability="keen-eye", dice=(0,), faces=(C_TWO,)))
    then.then_has(ClassAbilityUsed, ability="keen-eye", spent=0, rule="CLASS-3")
    then.then_has(ClassDiceRerolled, positions=(0,), typed=True)
    assert then.state.pending.dice[0].face == C_TWO and then.state.hero("tam").tenacity == 2
    low = rolled.with_hero("tam", tenacity=1)
    low.then_violates(UseClassAbility(ability="keen-eye", dice=(0,), faces=(C_TWO,)), "CLASS-3")


@pytest.mark.rule("CLASS-1")
@pytest.mark.rule("CLASS-3")
def test_a_reroll_ability_is_listed_while_the_roll_waits_only_when_it_may_be_used():
    """While an engage's dice wait to be resolved, the legal commands list
    the reroll a class gives when its conditions hold (keen-eye: tenacity 2
    or more), and not otherwise (found by mutation testing)."""
    keen = facing(classed("stalker", tenacity=2, form=RANGED), 3)
    rolled = keen.when(Engage(form=RANGED, target="e1", dice=(1,), faces=(C_ONE,))).next()
    assert rolled.state.phase is Phase.ENGAGE_RESOLVE

    def rerolls(given: Scenario) -> list[UseClassAbility]:
        return [c for c in legal_commands(given.state, given.ctx) if isinstance(c, UseClassAbility)]

    listed = rerolls(rolled)
    assert [c.ability for c in listed] == ["keen-eye"]
    rolled.when(listed[0])  # and it is accepted as listed
    assert rerolls(rolled.with_hero("tam", tenacity=1)) == []


# --- CLASS-4, CLASS-4a: Interrupts ------------------------------------------------------------


@pytest.mark.rule("CLASS-4")
def test_an_armed_interrupt_fires_on_its_trigger_before_the_damage_and_spends_then():
    given = pair("bastion", tenacity=2)
    arming = given.when(UseClassAbility(ability="interpose"))
    arming.then_has(ClassAbilityArmed, hero="tam", ability="interpose", rule="CLASS-4")
    armed = arming.next()  # arming is free: nothing spent yet
    assert armed.state.hero("tam").class_armed == ("interpose",) and armed.state.hero("tam").tenacity == 2
    armed.then_violates(UseClassAbility(ability="interpose"), "CLASS-4")  # armed already
    d = struck(armed, "ria", 3)
    assert [type(e).__name__ for e in d.events][:2] == ["ClassAbilityUsed", "ClassDamagePrevented"]
    assert of(d, ClassDamagePrevented)[0].amount == 2 and of(d, DamageDealt)[0].prevented == 2
    tam = d.state.hero("tam")
    assert tam.tenacity == 0 and tam.class_armed == ()


@pytest.mark.rule("CLASS-4")
def test_an_engaged_interrupt_strikes_the_enemy_before_its_roll():
    given = facing(classed("emberwitch", tenacity=3), 1, enemy="road-lookout")
    armed = given.when(UseClassAbility(ability="backdraft")).next()
    then = armed.when(EndTurn())
    then.then_has(ClassAbilityUsed, ability="backdraft", spent=3, rule="CLASS-4")
    then.then_has(DamageDealt, source="tam", target="e1", amount=2, hp=0)
    then.then_has(UnitDefeated, unit="e1")
    assert not [e for e in then.events if isinstance(e, DamageDealt) and e.target == "tam"]  # it never struck
    assert then.state.phase is not Phase.ENEMY_ROLL


@pytest.mark.rule("CLASS-4")
def test_an_interrupt_is_armed_on_your_own_turn_and_needs_the_tenacity():
    given = classed("mender", tenacity=2)
    given.then_violates(UseClassAbility(ability="catch-the-fall"), "CLASS-1")
    armed = classed("mender", tenacity=3).when(UseClassAbility(ability="catch-the-fall")).next()
    ended, _ = finish_round(armed)
    started = ended.when(NextRound())
    started.then_has(ClassAbilityUsed, ability="catch-the-fall", spent=3)
    assert started.state.hero("tam").bonus_hp == 2


@pytest.mark.rule("CLASS-4a")
def test_two_interrupts_triggered_together_resolve_in_party_order():
    given = Scenario.clash(party=("Tam:nord", "Ria:nord", "Bo:nord"), physical_dice=True).without_foes("e1")
    ria = given.state.hero("ria").pos
    free = [
        h
        for h in neighbours(ria)
        if given.ctx.board.contains(h)
        and given.ctx.board.passable(h)
        and all(u.pos != h for u in (*given.state.heroes, *given.state.foes))
        or h == given.state.hero("tam").pos
        or h == given.state.hero("bo").pos
    ]
    given = given.with_hero("tam", pos=free[0], class_id="bastion", tenacity=2, class_armed=("interpose",))
    given = given.with_hero("bo", pos=free[1], class_id="bastion", tenacity=2, class_armed=("interpose",))
    d = struck(given, "ria", 5)
    used = of(d, ClassAbilityUsed)
    assert [(e.hero, e.rule) for e in used] == [("tam", "CLASS-4"), ("bo", "CLASS-4a")]
    assert of(d, DamageDealt)[0].prevented == 4 and d.state.hero("ria").hp == given.state.hero("ria").hp - 1


# --- CLASS-5, FORM-1: battle forms ------------------------------------------------------------


@pytest.mark.rule("CLASS-5")
@pytest.mark.rule("FORM-1")
def test_an_ability_with_a_form_icon_needs_that_form_or_1_light_fatigue_to_change():
    given = facing(classed("emberwitch", form=LIGHT_FORM), 2, enemy="shore-crab")
    given.then_violates(UseClassAbility(ability="flare", target="e1"), "CLASS-5")
    then = given.when(UseClassAbility(ability="flare", target="e1", change_form=True))
    then.then_has(FatigueGained, hero="tam", kind=LIGHT.kind, count=1, rule="CLASS-5")
    then.then_has(HeroFormChanged, hero="tam", form=MAGIC)
    then.then_has(DamageDealt, target="e1", amount=2)
    assert then.state.hero("tam").form is MAGIC
    names = [type(e).__name__ for e in then.events]
    assert names.index("HeroFormChanged") < names.index("ClassAbilityUsed")  # just before it resolves


@pytest.mark.rule("CLASS-5")
def test_no_form_change_when_none_is_needed():
    given = classed("bastion")
    given.then_violates(UseClassAbility(ability="hold-the-line", change_form=True), "CLASS-5")


# --- CLOTHING-1, CLOTHING-2 --------------------------------------------------------------------


@pytest.mark.rule("CLOTHING-1")
def test_a_ready_clothing_grants_one_more_class_ability():
    plain = classed("bastion")
    h = plain.state.hero("tam").pos
    far = next(
        x
        for x in plain.ctx.board.all_hexes()
        if plain.ctx.board.passable(x)
        and distance(x, h) == 2
        and plain.ctx.board.path(h, x, set()) is not None
        and len(plain.ctx.board.path(h, x, set())) == 3
        and all(u.pos != x for u in (*plain.state.heroes, *plain.state.foes))
    )
    plain.then_violates(UseClassAbility(ability="slip-away", hex=far), "CLOTHING-1")
    packed = plain.with_hero("tam", ready=("wayfarers-hood",), discarded=("wayfarers-hood",))
    packed.then_violates(UseClassAbility(ability="slip-away", hex=far), "CLOTHING-1")
    worn = plain.with_hero("tam", ready=("wayfarers-hood",))
    worn.when(UseClassAbility(ability="slip-away", hex=far)).then_has(HeroMovedFreely, hero="tam")


@pytest.mark.rule("CLOTHING-2")
def test_a_clothing_ability_is_used_as_a_class_ability_on_your_turn_by_spending_tenacity():
    given = facing(classed("bastion", ready=("starlit-circlet",), tenacity=1), 1, enemy="cave-troll")
    rolled = given.when(Engage(form=LIGHT_FORM, target="e1", dice=(1, 2), faces=(C_ONE, C_ONE))).next()
    then = rolled.when(UseClassAbility(ability="starsight", dice=(0, 1), faces=(C_TWO, C_TEN)))
    then.then_has(ClassAbilityUsed, ability="starsight", spent=1, tenacity=0, rule="CLOTHING-2")
    assert [r.face for r in then.state.pending.dice] == [C_TWO, C_TEN]
    resolved = then.next().when(Resolve())
    resolved.then_has(DamageDealt, target="e1", amount=2)
    given.then_violates(UseClassAbility(ability="starsight", dice=(0,), faces=(C_TWO,)), "CLASS-1")  # no roll


# --- ADVANCE-15, ADVANCE-16 --------------------------------------------------------------------


@pytest.mark.rule("ADVANCE-15")
def test_master_side_abilities_need_the_promotion():
    novice = facing(classed("emberwitch", form=MAGIC), 2, enemy="cave-troll")
    novice.then_violates(UseClassAbility(ability="wildfire", target="e1"), "ADVANCE-15")
    master = novice.with_hero("tam", master=True)
    then = master.when(UseClassAbility(ability="wildfire", target="e1"))
    then.then_has(DamageDealt, target="e1", amount=4, prevented=0, true_damage=True)
    assert {a.id for a in master.ctx.pack.classes["emberwitch"].master} >= {"wildfire", "ember-ward"}


@pytest.mark.rule("ADVANCE-16")
def test_meeting_the_requirement_in_battle_earns_the_promotion_written_back():
    given = facing(classed("emberwitch", form=MAGIC, class_progress=2), 2)
    then = given.when(UseClassAbility(ability="flare", target="e1"))  # the third true-damage defeat
    then.then_has(PromotionProgressed, hero="tam", progress=3, met=True, rule="ADVANCE-16")
    hero = then.state.hero("tam")
    assert hero.promotion
    ended = replace(then.state, outcome=Outcome.SUCCESS)  # the write-back reads a battle that has ended
    assert any(isinstance(e, PromotionEarned) for e in adv.concluded(ended, hero))


@pytest.mark.rule("ADVANCE-16")
def test_healing_others_counts_toward_a_menders_requirement_and_a_master_counts_nothing():
    given = pair("mender").with_hero("ria", hp=1)
    then = given.when(UseClassAbility(ability="poultice", target="ria"))
    then.then_has(PromotionProgressed, hero="tam", progress=3, met=False)
    master = given.with_hero("tam", master=True).when(UseClassAbility(ability="poultice", target="ria"))
    master.then_lacks(PromotionProgressed)


@pytest.mark.rule("ADVANCE-16")
def test_prevented_damage_counts_toward_a_bastions_requirement_only_through_a_command():
    given = facing(classed("bastion", form=DEFENSIVE, class_progress=9), 1, enemy="cave-troll")
    rolled = given.when(EndTurn()).next()
    assert rolled.state.phase is Phase.ENEMY_ROLL
    then = rolled.when(RollEnemyDice(faces=(TWO, MISS, MISS)))
    then.then_has(ClassDamagePrevented, ability="rooted-stance", amount=1)  # Innate, in Defensive form
    then.then_has(ClassDamagePrevented, ability="iron-resolve", amount=1)  # Enduring, tenacity 5 >= 3
    then.then_has(PromotionProgressed, hero="tam", progress=11, met=True)
    assert replay(then.events, rolled.state).hero("tam").promotion


# --- extra Engage actions (an Interrupt of the enemy-defeated trigger) --------------------------


@pytest.mark.rule("CLASS-4")
def test_quick_nock_gives_an_extra_engage_free_of_fatigue_when_the_engaged_enemy_falls():
    given = facing(classed("stalker", form=RANGED, tenacity=2), 3)
    armed = given.when(UseClassAbility(ability="quick-nock")).next()
    rolled = armed.when(Engage(form=RANGED, target="e1", dice=(1,), faces=(C_TWO,))).next()
    then = rolled.when(Resolve())
    then.then_has(UnitDefeated, unit="e1")
    then.then_has(ClassAbilityUsed, ability="quick-nock", spent=2)
    then.then_has(ClassEngagesGranted, hero="tam", engages=1)
    again = then.next().when(Engage(form=RANGED))
    assert not [e for e in again.events if isinstance(e, FatigueGained)]
    assert again.state.hero("tam").class_engages == 0


# --- the sheets' content: requirements, Master sides, effects per timing ------------------------

STALKER = "[classes.stalker]"


@pytest.mark.rule("ADVANCE-15")
def test_every_class_has_a_countable_requirement_and_a_master_side_of_two_or_more():
    from domain.betrayal.packs.catalog_campaign import RequirementKind
    from domain.betrayal.packs.load import starter_pack
    from domain.betrayal.vocab import AbilityTiming

    for sheet in starter_pack().classes.values():
        assert sheet.requirement is not None and sheet.requirement.kind in set(RequirementKind)
        assert len(sheet.master) >= 2 and all(a.timing is not AbilityTiming.INNATE for a in sheet.master)


def test_a_master_side_of_one_ability_or_with_an_innate_one_is_refused():
    from test_campaign_content import assert_refused, mutated

    shadow_step = '[[classes.stalker.master]]\nid = "shadow-step"\nname = "Shadow Step"\ntiming = "action"\ncost = 2\n'
    files = mutated(
        "classes.toml",
        shadow_step + 'effect = { kind = "move", amount = 3 }\n'
        'text = "Gone from one shadow, out of another: move up to 3 hexes."\n',
        "",
        STALKER,
    )
    assert_refused(files, "classes.toml", "classes.stalker.master", "at least 2 abilities")
    files = mutated(
        "classes.toml", shadow_step, shadow_step.replace('"action"\ncost = 2', '"innate"\ncost = 0'), STALKER
    )
    assert_refused(files, "classes.toml", "classes.stalker.master[1].timing", "Novice side's top one")


def test_an_unknown_requirement_or_an_effect_its_timing_cannot_have_is_refused():
    from test_campaign_content import assert_refused, mutated

    files = mutated("classes.toml", '"distant-defeat"', '"most-stylish"', STALKER)
    assert_refused(files, "classes.toml", "classes.stalker.requirement.kind", "unknown value 'most-stylish'")
    files = mutated("classes.toml", '{ kind = "reroll", amount = 1 }', '{ kind = "damage", amount = 1 }', STALKER)
    assert_refused(files, "classes.toml", "classes.stalker.abilities[3].effect.kind", "cannot have a damage effect")
