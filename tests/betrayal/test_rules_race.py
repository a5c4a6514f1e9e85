"""Scenario tests of the race abilities (RACE-ARGONIAN to RACE-WOOD-ELF,
betrayal.md §B7) and of the choose-defense option, the player's choice of
block dice (COMBAT-4).

Every race ability is once per battle. Faces are forced with physical dice:
an enemy Combat die shows miss, miss, 1, 1, 1, 2 (faces 1 to 6, typed 0 to 5).
"""

from __future__ import annotations

import pytest
from adventurer_arrange import LIGHT, OVER, foe_at, skill, status_die
from msgspec.structs import replace
from scenario import Scenario

from domain.betrayal.battle import exploration
from domain.betrayal.battle.commands import (
    Defend,
    EndTurn,
    Engage,
    Move,
    NextRound,
    Resolve,
    RollEnemyDice,
    UseRaceAbility,
)
from domain.betrayal.battle.decision import Decision
from domain.betrayal.battle.damage import hurt_hero
from domain.betrayal.battle.events import (
    DamageDealt,
    DamagePrevented,
    DefenseAwaited,
    DefenseChosen,
    DiceRolled,
    FatigueGained,
    Healed,
    HeroMovedFreely,
    HeroReplaced,
    HeroStatusGained,
    LockpickBypassed,
    LockpickTested,
    RaceAbilityArmed,
    RaceAbilityUsed,
    TenacityGained,
    TrackDiceRecovered,
    TrackDiceRemoved,
    TurnEnded,
    TurnStarted,
)
from domain.betrayal.battle.rules import legal_commands
from domain.betrayal.battle.state import ActiveDie, DieKind, Options, Phase, Rolled
from domain.betrayal.vocab import BattleForm, Status
from domain.kernel.errors import MalformedCommand

MISS, ONE, TWO = 0, 2, 5  # enemy Combat die faces
C_ONE, C_TWO = 1, 5  # Combat skill die faces (T, 1, 1, 1, 1, 2)


def clash(*party: str, **kw) -> Scenario:
    return Scenario.clash(party=party, physical_dice=True, **kw)


def race_events(then) -> list:
    return then.of(RaceAbilityUsed)


def enemy_strikes(given: Scenario, faces: tuple[int, ...]):
    """End the only adventurer's turn and type the enemy's roll."""
    rolled = given.when(EndTurn()).next()
    assert rolled.state.phase is Phase.ENEMY_ROLL
    return rolled.when(RollEnemyDice(faces=faces))


# --- RACE-DARK-ELF ----------------------------------------------------------------------


def dark_elf() -> Scenario:
    return clash("Vel:dark-elf").with_hero("vel", track=(skill(1, 1), LIGHT, skill(2, 1), skill(3, 0)))


@pytest.mark.rule("RACE-DARK-ELF")
def test_dynamic_recovers_skill_dice_each_replaced_in_place_by_light_fatigue():
    then = dark_elf().when(UseRaceAbility(dice=(1, 3)))
    then.then_has(RaceAbilityUsed, hero="vel", race="dark-elf", rule="RACE-DARK-ELF")
    then.then_has(TrackDiceRecovered, hero="vel", recovered=(1, 3))
    assert then.state.hero("vel").track == (LIGHT, LIGHT, skill(2, 1), LIGHT)
    assert then.state.hero("vel").race_used


@pytest.mark.rule("RACE-DARK-ELF")
def test_dynamic_recovers_at_most_four_dice_and_only_skill_dice_on_the_track():
    given = clash("Vel:dark-elf").with_hero("vel", track=tuple(skill(u, 1) for u in (1, 2, 3, 4, 5)))
    given.then_violates(UseRaceAbility(dice=(1, 2, 3, 4, 5)), "RACE-DARK-ELF")
    given.then_violates(UseRaceAbility(dice=(6,)), "RACE-DARK-ELF")  # not on the track
    then = given.when(UseRaceAbility(dice=(1, 2, 3, 4)))
    assert then.state.hero("vel").track == (LIGHT, LIGHT, LIGHT, LIGHT, skill(5, 1))


@pytest.mark.rule("RACE-DARK-ELF")
def test_dynamic_is_once_per_battle_and_on_your_own_turn():
    used = dark_elf().when(UseRaceAbility(dice=(1,))).next()
    used.then_violates(UseRaceAbility(dice=(2,)), "RACE-DARK-ELF")
    other = clash("Ysolda:nord", "Vel:dark-elf").with_hero("vel", track=(skill(1, 1),))
    other.then_violates(UseRaceAbility(hero="vel", dice=(1,)), "RACE-DARK-ELF")


# --- RACE-REDGUARD ----------------------------------------------------------------------


@pytest.mark.rule("RACE-REDGUARD")
def test_adrenaline_rush_removes_fatigue_and_status_dice_and_heals_the_excess_as_bonus_hp():
    daze = status_die(Status.DAZE)
    given = clash("Kasim:redguard").with_hero("kasim", hp=2, track=(LIGHT, skill(1, 1), OVER, daze))
    then = given.when(UseRaceAbility(slots=(0, 2, 3)))
    then.then_has(RaceAbilityUsed, hero="kasim", rule="RACE-REDGUARD")
    then.then_has(TrackDiceRemoved, removed=(LIGHT, OVER, daze))
    then.then_has(Healed, unit="kasim", amount=3, hp=4, bonus_hp=1)
    hero = then.state.hero("kasim")
    assert hero.track == (skill(1, 1),)  # the rest slides left (TRACK-6)
    assert (hero.hp, hero.bonus_hp) == (4, 1)


@pytest.mark.rule("RACE-REDGUARD")
def test_adrenaline_rush_takes_no_skill_dice_at_most_three_and_once_per_battle():
    given = clash("Kasim:redguard").with_hero("kasim", track=(LIGHT, skill(1, 1), LIGHT, LIGHT, LIGHT))
    given.then_violates(UseRaceAbility(slots=(1,)), "RACE-REDGUARD")
    given.then_violates(UseRaceAbility(slots=(0, 2, 3, 4)), "RACE-REDGUARD")
    used = given.when(UseRaceAbility(slots=(0,))).next()
    used.then_violates(UseRaceAbility(slots=(0,)), "RACE-REDGUARD")


# --- RACE-HIGH-ELF ----------------------------------------------------------------------


def high_elf() -> Scenario:
    return clash("Aria:high-elf", "Ysolda:nord").with_hero("ysolda", pos=(3, 3), hp=1)


@pytest.mark.rule("RACE-HIGH-ELF")
def test_syrabanes_boon_puts_an_adventurer_on_an_entrance_hex_and_heals_it_3():
    then = high_elf().when(UseRaceAbility(targets=("ysolda",), hex=(0, 3)))
    then.then_has(HeroReplaced, hero="ysolda", hex=(0, 3), rule="RACE-HIGH-ELF")
    then.then_has(Healed, unit="ysolda", amount=3, hp=4)
    assert then.state.hero("ysolda").pos == (0, 3)


@pytest.mark.rule("RACE-HIGH-ELF")
def test_syrabanes_boon_heals_only_up_to_the_maximum_and_may_target_yourself():
    then = high_elf().with_hero("aria", hp=3).when(UseRaceAbility(hex=(0, 3)))
    assert then.state.hero("aria").pos == (0, 3)
    assert (then.state.hero("aria").hp, then.state.hero("aria").bonus_hp) == (4, 0)


@pytest.mark.rule("RACE-HIGH-ELF")
def test_syrabanes_boon_refuses_a_defeated_adventurer_an_occupied_or_outside_hex_and_a_second_use():
    given = high_elf()
    given.then_violates(UseRaceAbility(targets=("ysolda",), hex=(0, 0)), "RACE-HIGH-ELF")  # Aria stands there
    given.then_violates(UseRaceAbility(targets=("ysolda",), hex=(4, 4)), "RACE-HIGH-ELF")  # not the Entrance
    fallen = given.with_hero("ysolda", hp=0, defeated=True, pos=None)
    fallen.then_violates(UseRaceAbility(targets=("ysolda",), hex=(0, 3)), "RACE-HIGH-ELF")
    used = given.when(UseRaceAbility(targets=("ysolda",), hex=(0, 3))).next()
    used.then_violates(UseRaceAbility(hex=(0, 2)), "RACE-HIGH-ELF")


# --- RACE-WOOD-ELF ----------------------------------------------------------------------


@pytest.mark.rule("RACE-WOOD-ELF")
def test_hunters_eye_gives_up_to_two_party_members_a_stealth_die_at_a_turn_start():
    given = clash("Faen:wood-elf", "Ysolda:nord")
    then = given.when(UseRaceAbility(targets=("faen", "ysolda")))
    then.then_has(RaceAbilityUsed, hero="faen", rule="RACE-WOOD-ELF")
    then.then_has(HeroStatusGained, hero="ysolda", status=Status.STEALTH)
    assert Status.STEALTH in {t.status for t in then.state.hero("faen").track}
    assert Status.STEALTH in {t.status for t in then.state.hero("ysolda").track}


@pytest.mark.rule("RACE-WOOD-ELF")
def test_hunters_eye_can_be_used_at_another_adventurers_turn_start_and_at_the_end_of_a_round():
    given = clash("Ysolda:nord", "Faen:wood-elf")
    then = given.when(UseRaceAbility(hero="faen", targets=("ysolda",)))
    assert Status.STEALTH in {t.status for t in then.state.hero("ysolda").track}
    over = given.with_state(phase=Phase.END_OF_ROUND, turn=None)
    assert UseRaceAbility(hero="faen", targets=("ysolda", "faen")) in legal_commands(over.state, over.ctx)
    over.when(UseRaceAbility(hero="faen", targets=("faen",))).then_has(HeroStatusGained, hero="faen")


@pytest.mark.rule("RACE-WOOD-ELF")
def test_hunters_eye_is_refused_once_the_turn_is_under_way_for_three_targets_and_a_second_time():
    given = clash("Faen:wood-elf", "Ysolda:nord")
    moved = given.when(Move(to=(1, 1))).next()
    moved.then_violates(UseRaceAbility(targets=("faen",)), "RACE-WOOD-ELF")
    three = clash("Faen:wood-elf", "Ysolda:nord", "Tam:orc")
    three.then_violates(UseRaceAbility(targets=("faen", "ysolda", "tam")), "RACE-WOOD-ELF")
    used = given.when(UseRaceAbility(targets=("faen",))).next()
    used.then_violates(UseRaceAbility(targets=("ysolda",)), "RACE-WOOD-ELF")


# --- RACE-ORC -----------------------------------------------------------------------------


@pytest.mark.rule("RACE-ORC")
def test_swift_warrior_ends_the_turn_gains_an_overfatigue_and_takes_a_full_extra_turn():
    given = clash("Grosh:orc", "Ysolda:nord").with_hero("grosh", track=(skill(1, 1),))
    given = given.when(Move(to=(1, 1))).next()
    then = given.when(UseRaceAbility())
    then.then_has(TurnEnded, hero="grosh")
    then.then_has(FatigueGained, hero="grosh", kind=DieKind.OVERFATIGUE, rule="RACE-ORC")
    started = [e for e in then.of(TurnStarted)]
    assert [e.hero for e in started] == ["grosh"]
    turn = then.state.turn
    assert turn.hero == "grosh" and turn.moves == 0 and turn.engages == 0
    # the extra turn's Recovery (Cooldown 3) took the skill die and cycled the Overfatigue
    assert then.state.hero("grosh").track == (OVER,)


@pytest.mark.rule("RACE-ORC")
def test_swift_warrior_is_once_per_battle_and_only_on_your_own_turn():
    given = clash("Ysolda:nord", "Grosh:orc")
    given.then_violates(UseRaceAbility(hero="grosh"), "RACE-ORC")
    extra = given.when(EndTurn()).next().when(UseRaceAbility()).next()
    assert extra.state.turn.hero == "grosh"
    extra.then_violates(UseRaceAbility(), "RACE-ORC")


# --- RACE-NORD ----------------------------------------------------------------------------


def nord() -> Scenario:
    return foe_at(clash("Ysolda:nord").without_foes("e1"), 1, enemy="cave-troll")


@pytest.mark.rule("RACE-NORD")
def test_reveler_adds_a_free_enemy_combat_die_to_a_weapon_engage():
    armed = nord().when(UseRaceAbility())
    armed.then_has(RaceAbilityArmed, hero="ysolda", rule="RACE-NORD")
    given = armed.next()
    rolled = given.when(Engage(form=BattleForm.LIGHT, target="e1", dice=(1,), faces=(C_ONE, TWO)))
    rolled.then_has(RaceAbilityUsed, hero="ysolda", rule="RACE-NORD")
    rolled.then_has(DiceRolled, dice=(Rolled(1, "combat", C_ONE), Rolled(0, "enemy", TWO)))
    then = rolled.next().when(Resolve())
    defense = given.ctx.enemy("cave-troll").defense
    then.then_has(DamageDealt, target="e1", amount=3, prevented=defense)
    # the enemy die is free: it does not go on the track
    assert then.state.hero("ysolda").track == (skill(1, C_ONE),)


@pytest.mark.rule("RACE-NORD")
def test_reveler_waits_for_a_weapon_form_and_is_once_per_battle():
    armed = nord().when(UseRaceAbility()).next()
    defensive = armed.when(Engage(form=BattleForm.DEFENSIVE, dice=(6,), faces=(0,))).next()
    assert defensive.state.hero("ysolda").race_armed and not defensive.state.hero("ysolda").race_used
    armed.then_violates(UseRaceAbility(), "RACE-NORD")  # already armed
    with pytest.raises(MalformedCommand):  # the free die's face must be typed too
        armed.when(Engage(form=BattleForm.LIGHT, target="e1", dice=(1,), faces=(C_ONE,)))
    used = armed.when(Engage(form=BattleForm.LIGHT, target="e1", dice=(1,), faces=(C_ONE, MISS))).next()
    used = used.when(Resolve()).next()
    used.then_violates(UseRaceAbility(), "RACE-NORD")


@pytest.mark.rule("RACE-NORD")
def test_the_free_enemy_die_s_typed_face_must_be_one_of_its_six():
    """With physical dice, Reveler's free enemy Combat die is typed last, 1 to
    6 (found by mutation testing: a seventh face was let through)."""
    armed = nord().when(UseRaceAbility()).next()
    with pytest.raises(MalformedCommand) as caught:
        armed.when(Engage(form=BattleForm.LIGHT, target="e1", dice=(1,), faces=(C_ONE, 6)))
    assert str(caught.value) == "an enemy Combat die has faces 1 to 6, not 7"
    armed.when(Engage(form=BattleForm.LIGHT, target="e1", dice=(1,), faces=(C_ONE, 5)))  # its sixth face


# --- RACE-KHAJIIT -------------------------------------------------------------------------


@pytest.mark.rule("RACE-KHAJIIT")
def test_cutpurse_succeeds_at_a_lockpick_test_without_dice_then_moves_up_to_5_hexes_freely():
    from domain.betrayal.packs.catalog import LockCode

    armed = clash("Jozhar:khajiit").when(UseRaceAbility()).next()
    hero_id = armed.state.heroes[0].id
    d = Decision(armed.state, armed.ctx)
    assert exploration.lockpick(d, hero_id, "cache", (2, 2), LockCode(attempts=1, digits=(6, 6, 6)))
    assert [type(e) for e in d.events] == [RaceAbilityUsed, LockpickBypassed]
    assert not any(isinstance(e, LockpickTested) for e in d.events)
    picked = Scenario(d.state, armed.ctx)
    assert picked.state.hero(hero_id).free_move == 5
    then = picked.when(UseRaceAbility(hex=(0, 3)))
    then.then_has(HeroMovedFreely, hero=hero_id, path=((0, 1), (0, 2), (0, 3)), left=2)
    assert then.state.turn.moves == 0  # not a Move action (facts default)
    far = then.next()
    far.then_violates(UseRaceAbility(hex=(4, 4)), "RACE-KHAJIIT")  # 2 hexes left
    assert far.when(EndTurn()).state.hero(hero_id).free_move == 0


@pytest.mark.rule("RACE-KHAJIIT")
def test_cutpurse_is_once_per_battle_and_an_unarmed_khajiit_rolls():
    from domain.betrayal.packs.catalog import LockCode

    given = clash("Jozhar:khajiit")
    hero_id = given.state.heroes[0].id
    d = Decision(given.state, given.ctx)
    exploration.lockpick(d, hero_id, "trap", (2, 2), LockCode(attempts=1, digits=(1,)))
    assert any(isinstance(e, LockpickTested) for e in d.events)
    used = given.with_hero(hero_id, race_used=True)
    used.then_violates(UseRaceAbility(), "RACE-KHAJIIT")


# --- RACE-ARGONIAN, RACE-IMPERIAL (armed) ------------------------------------------------


def struck(race: str, enemy: str = "cave-troll") -> Scenario:
    given = clash(f"Tam:{race}").without_foes("e1")
    return foe_at(given, 1, hero="tam", enemy=enemy)


@pytest.mark.rule("RACE-ARGONIAN")
def test_argonian_resistance_armed_prevents_all_of_the_next_damage():
    armed = struck("argonian").when(UseRaceAbility()).next()
    then = enemy_strikes(armed, (TWO, TWO, ONE))
    then.then_has(RaceAbilityUsed, hero="tam", rule="RACE-ARGONIAN")
    then.then_has(DamagePrevented, hero="tam", amount=5)
    then.then_has(DamageDealt, target="tam", amount=5, prevented=5, to_hp=0, hp=5)
    assert then.state.hero("tam").race_used and not then.state.hero("tam").race_armed


@pytest.mark.rule("RACE-ARGONIAN")
def test_argonian_resistance_does_not_stop_true_damage_and_stays_armed():
    armed = struck("argonian").when(UseRaceAbility()).next()
    d = Decision(armed.state, armed.ctx)
    hurt_hero(d, "tam", 2, true_damage=True, source="bane", rule="STATUS-1")
    assert d.state.hero("tam").hp == 3
    assert d.state.hero("tam").race_armed and not d.state.hero("tam").race_used


@pytest.mark.rule("RACE-ARGONIAN")
def test_argonian_resistance_unarmed_does_nothing_by_default_and_is_armed_on_your_turn_only():
    then = enemy_strikes(struck("argonian"), (TWO, MISS, MISS))
    then.then_has(DamageDealt, target="tam", amount=2, prevented=0, hp=3)
    later = then.next()
    assert later.state.phase is Phase.END_OF_ROUND
    later.then_violates(UseRaceAbility(hero="tam"), "RACE-ARGONIAN")


@pytest.mark.rule("RACE-IMPERIAL")
def test_imperial_mettle_prevents_3_or_less_and_gains_that_much_tenacity():
    armed = struck("imperial").when(UseRaceAbility()).next()
    then = enemy_strikes(armed, (TWO, ONE, MISS))
    then.then_has(DamagePrevented, hero="tam", amount=3, rule="RACE-IMPERIAL")
    then.then_has(TenacityGained, hero="tam", amount=3, tenacity=3)
    then.then_has(DamageDealt, target="tam", amount=3, prevented=3, hp=5)


@pytest.mark.rule("RACE-IMPERIAL")
def test_imperial_mettle_does_not_fire_on_more_than_3_and_stays_armed():
    armed = struck("imperial").when(UseRaceAbility()).next()
    then = enemy_strikes(armed, (TWO, TWO, MISS))
    then.then_has(DamageDealt, target="tam", amount=4, prevented=0, hp=1)
    then.then_lacks(DamagePrevented)
    assert then.state.hero("tam").race_armed and not then.state.hero("tam").race_used


# --- COMBAT-4 with the choose-defense option ----------------------------------------------


def choosing(race: str = "nord", **hero) -> Scenario:
    given = struck(race)
    given = given.with_state(options=Options(physical_dice=True, choose_defense=True))
    return given.with_hero("tam", **hero) if hero else given


BLOCKS = (ActiveDie(DieKind.SKILL, 5, 0, 2), ActiveDie(DieKind.SKILL, 6, 0, 1))


@pytest.mark.rule("COMBAT-4")
def test_with_choose_defense_an_enemy_strike_waits_and_the_player_picks_the_blocks():
    waiting = enemy_strikes(choosing(active=BLOCKS), (TWO, MISS, MISS))
    waiting.then_has(DefenseAwaited, hero="tam", amount=2)
    given = waiting.next()
    assert given.state.phase is Phase.DEFEND
    given.then_violates(NextRound(), "COMBAT-4")
    assert Defend() in legal_commands(given.state, given.ctx)
    then = given.when(Defend(blocks=(1,)))  # the 1 die, not the default 2 die
    then.then_has(DefenseChosen, hero="tam", blocks=(1,), race=False)
    then.then_has(DamageDealt, target="tam", amount=2, prevented=1, to_hp=1)
    assert then.state.hero("tam").active == (BLOCKS[0],)
    assert then.state.phase is Phase.END_OF_ROUND


@pytest.mark.rule("COMBAT-4")
def test_with_choose_defense_the_default_defend_blocks_as_choose_blocks_does():
    given = enemy_strikes(choosing(active=BLOCKS), (TWO, MISS, MISS)).next()
    then = given.when(Defend())
    then.then_has(DefenseChosen, blocks=(0,))
    then.then_has(DamageDealt, target="tam", prevented=2, to_hp=0)


@pytest.mark.rule("COMBAT-4")
def test_without_a_choice_to_make_the_strike_does_not_wait():
    then = enemy_strikes(choosing(), (TWO, MISS, MISS))  # a Nord without active dice
    then.then_lacks(DefenseAwaited)
    then.then_has(DamageDealt, target="tam", amount=2, to_hp=2)


@pytest.mark.rule("RACE-ARGONIAN")
def test_with_choose_defense_an_argonian_may_react_without_arming():
    given = enemy_strikes(choosing("argonian"), (TWO, TWO, MISS)).next()
    assert Defend(race=True) in legal_commands(given.state, given.ctx)
    then = given.when(Defend(race=True))
    then.then_has(DamagePrevented, hero="tam", amount=4, rule="RACE-ARGONIAN")
    then.then_has(DamageDealt, target="tam", prevented=4, hp=5)
    assert then.state.hero("tam").race_used


@pytest.mark.rule("RACE-ARGONIAN")
def test_with_choose_defense_a_used_reaction_is_refused():
    given = enemy_strikes(choosing("argonian", race_used=True, active=BLOCKS[:1]), (TWO, MISS, MISS)).next()
    given.then_violates(Defend(race=True), "RACE-ARGONIAN")


@pytest.mark.rule("RACE-IMPERIAL")
def test_with_choose_defense_imperial_mettle_is_refused_on_more_than_3_left():
    given = enemy_strikes(choosing("imperial"), (TWO, TWO, MISS)).next()
    given.then_violates(Defend(race=True), "RACE-IMPERIAL")
    then = given.when(Defend(race=False))
    then.then_has(DamageDealt, target="tam", amount=4, prevented=0, hp=1)
    assert not then.state.hero("tam").race_used


# --- RACE-BRETON ----------------------------------------------------------------------------


@pytest.mark.rule("RACE-BRETON")
def test_opportunist_is_refused_until_items_and_overtax_exist():
    clash("Elise:breton").then_violates(UseRaceAbility(), "RACE-BRETON")


@pytest.mark.rule("RACE-DARK-ELF")
def test_legal_commands_offer_a_usable_ability_and_drop_it_once_used():
    assert UseRaceAbility(dice=(1, 2, 3)) in dark_elf().legal()
    after = dark_elf().with_hero("vel", race_used=True)
    assert not any(isinstance(c, UseRaceAbility) for c in after.legal())


@pytest.mark.rule("RACE-KHAJIIT")
def test_cutpurse_in_a_delve_opens_the_cache_on_the_way_and_the_move_goes_on():
    from delve_arrange import DelveScenario

    from domain.betrayal.delve.aggregate import ItemFound, PlacedTile
    from domain.betrayal.battle.events import CacheOpened, HeroMoved, HeroStepped
    from domain.betrayal.battle.state import Cache
    from domain.betrayal.vocab import Marker

    given = DelveScenario.start(party=("Jozhar:khajiit",), placements=((17, 31),))
    given = given.with_tiles(PlacedTile("t1", "long-drain", 0, (18, 30)))
    given = given.with_state(caches=(Cache((18, 31), Marker.COMMON_CACHE),))
    armed = given.when(UseRaceAbility()).next()
    then = armed.when(Move(to=(19, 31)))
    then.has(LockpickBypassed, hero="jozhar", what="cache", hex=(18, 31), free_move=5)
    then.lacks(LockpickTested)
    then.has(CacheOpened, hero="jozhar", hex=(18, 31), success=True)
    assert len(then.of(ItemFound)) == 1
    then.has(HeroMoved, path=((18, 31),))
    then.has(HeroStepped, path=((19, 31),))
    assert then.state.hero("jozhar").free_move == 5 and then.state.turn.moves == 1
    freely = then.next().when(UseRaceAbility(hex=(18, 31)))
    freely.has(HeroMovedFreely, hero="jozhar", path=((18, 31),), left=4)
    assert freely.state.turn.moves == 1


@pytest.mark.rule("COMBAT-4")
def test_random_legal_play_with_choose_defense_waits_and_goes_on_without_getting_stuck():
    import random

    from domain.betrayal.battle.rules import decide
    from domain.betrayal.battle.evolve import replay

    paused = 0
    for seed in range(6):
        rnd = random.Random(seed)
        given = Scenario.clash(party=("Tam:argonian", "Ivo:imperial", "Bo:nord", "Gro:orc"), seed=seed, xp=4)
        state = replace(given.state, options=Options(choose_defense=True))
        for _ in range(300):
            if state.phase is Phase.ENDED:
                break
            legal = legal_commands(state, given.ctx)
            assert legal, state.phase
            events = decide(state, rnd.choice(legal), given.ctx)
            paused += sum(isinstance(e, DefenseAwaited) for e in events)
            state = replay(events, state)
    assert paused > 0
