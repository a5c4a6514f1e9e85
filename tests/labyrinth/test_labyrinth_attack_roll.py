"""The attack roll: hit checks per target (HIT-1, HIT-2), damage dice above
resistance (DAMAGE-1), criticals (CRIT-1, CRIT-2), absolute success and
failure of the hit check (ATTACK-3), fumbles with FP (FUMBLE-1, FUMBLE-2), range, Full defense halving
(STANDBY-7) and a guard passive (PASSIVE-3). Faces are pinned by choosing
the RNG counter."""

from __future__ import annotations

import pytest
from labyrinth_harness import SKILLS, at, decision, edit, of, pinned, start, violates, when

from domain.labyrinth import events as ev
from domain.labyrinth.attack import attack, damage
from domain.labyrinth.commands import Attack, FullDefense, Pass, UseSkill
from domain.labyrinth.flow import waits_for
from domain.labyrinth.state import ActiveBuff
from domain.labyrinth.vocab import Buff, Row


def fighter_turn(seed: int = 1, **opts):
    """Turn 1's Main phase with the fighter (speed 8) up first: both PCs pass
    Standby, the mage (speed 9) passes its action."""
    state = start(seed, **opts)
    state, _ = when(state, Pass(actor="p1"), Pass(actor="p2"))
    assert state.acting == "p2"
    state, _ = when(state, Pass(actor="p2"))
    assert state.acting == "p1"
    return state


@pytest.mark.rule("HIT-1")
@pytest.mark.rule("DAMAGE-1")
@pytest.mark.rule("MAIN-2")
def test_a_normal_attack_hits_on_2d6_plus_physical_hit_at_least_evasion_and_deals_dice_above_resistance():
    state = fighter_turn()
    # hit check [3 3] + 1 = 7 vs the slime's Evasion 7; then 6 - 1 = 5 damage dice against Cut 2
    counter = pinned(state.seed, (3, 3, 1, 2, 3, 5, 6), state.rng)
    state, events = when(at(state, counter), Attack(actor="p1", target="e1"))
    rolled = of(events, ev.AttackRolled)[0]
    assert (rolled.faces, rolled.total, rolled.evasion, rolled.hit) == ((3, 3), 7, 7, True)
    dmg = of(events, ev.DamageRolled)[0]
    assert dmg.faces == (1, 2, 3, 5, 6) and dmg.resistance == 2 and dmg.damage == 3 and dmg.hp == 5


@pytest.mark.rule("HIT-1")
def test_a_hit_check_below_evasion_misses_and_deals_nothing():
    state = fighter_turn()
    counter = pinned(state.seed, (2, 3), state.rng)
    _, events = when(at(state, counter), Attack(actor="p1", target="e1"))
    assert not of(events, ev.AttackRolled)[0].hit
    assert not [e for e in of(events, ev.DamageRolled) if e.attacker == "p1"]


@pytest.mark.rule("ATTACK-3")
@pytest.mark.rule("HIT-1")
@pytest.mark.rule("FUMBLE-2")
def test_two_sixes_always_hit_and_all_ones_always_miss():
    """The hit check is an action check (ATTACK-3), and the facts filling
    its formula make two 6s an absolute success and all 1s an absolute
    failure whatever the target; it hits only on a success (HIT-1); each 1
    of an action check gives 1 FP (facts: Fills FUMBLE-2)."""
    state = fighter_turn()
    dodgy = edit(state, "e1", base=_replace(state.get("e1").base, evasion=30))
    _, events = when(at(dodgy, pinned(state.seed, (6, 6), state.rng)), Attack(actor="p1", target="e1"))
    assert of(events, ev.AttackRolled)[0].absolute == "success" and of(events, ev.AttackRolled)[0].hit
    easy = edit(state, "e1", base=_replace(state.get("e1").base, evasion=-10))
    _, events = when(at(easy, pinned(state.seed, (1, 1), state.rng)), Attack(actor="p1", target="e1"))
    first = of(events, ev.AttackRolled)[0]
    assert first.absolute == "failure" and not first.hit and first.fp == 2


@pytest.mark.rule("CRIT-1")
@pytest.mark.rule("CRIT-2")
def test_three_sixes_and_one_one_is_a_critical_that_adds_four_dice():
    state = fighter_turn()
    counter = pinned(state.seed, (6, 6, 6, 1, 3), state.rng)
    d = decision(at(state, counter))
    damage(d, d.state.get("p1"), d.state.get("e1"), None, None)  # 6 - 1 = 5 dice
    rolled = of(d.events, ev.DamageRolled)[0]
    assert rolled.critical and rolled.faces[:5] == (6, 6, 6, 1, 3) and len(rolled.faces) == 9
    assert rolled.dealt == sum(1 for f in rolled.faces if f > 2)


@pytest.mark.rule("CRIT-1")
def test_two_sixes_and_one_one_is_no_critical():
    state = edit(fighter_turn(), "p1", weapon="")  # patk 2 - defense 1 + ... use a 4-dice attack below
    state = edit(state, "e1", base=_replace(state.get("e1").base, defense=-2))
    counter = pinned(state.seed, (6, 6, 1, 4), state.rng)
    d = decision(at(state, counter))
    damage(d, d.state.get("p1"), d.state.get("e1"), None, None)
    rolled = of(d.events, ev.DamageRolled)[0]
    assert rolled.faces == (6, 6, 1, 4) and not rolled.critical


def _replace(struct, **changes):
    from msgspec.structs import replace

    return replace(struct, **changes)


@pytest.mark.rule("FUMBLE-1")
@pytest.mark.rule("FUMBLE-2")
@pytest.mark.rule("MAIN-5")
def test_an_all_ones_activation_roll_fails_the_skill_and_gives_fp_per_one():
    state = start()
    state, _ = when(state, Pass(actor="p1"), Pass(actor="p2"))
    assert state.acting == "p2"
    counter = pinned(state.seed, (1, 1), state.rng)
    state, events = when(at(state, counter), UseSkill(actor="p2", skill="heal", target="p1"))
    used = of(events, ev.SkillUsed)[0]
    assert used.faces == (1, 1) and used.fumbled and used.fp == 2 and used.tp == 2  # cost paid (OQ 9)
    assert of(events, ev.SkillFumbled) and not of(events, ev.Healed)
    assert state.get("p2").fp == 3


@pytest.mark.rule("FUMBLE-2")
def test_in_a_multi_target_attack_only_the_first_hit_check_gives_fp_for_its_1s():
    """facts (Fills FUMBLE-2): in a multi-target action FP from 1s is
    gained only on the first check of that Main action. Flame Burst's first
    hit check is its roll (MAIN-5); the second, against e2, shows a 1."""
    state = start()
    state, _ = when(state, Pass(actor="p1"), Pass(actor="p2"))
    before = state.get("p2").fp
    for counter in range(state.rng, state.rng + 500):
        after, events = when(at(state, counter), UseSkill(actor="p2", skill="flame-burst"))
        checks = [e for e in of(events, ev.AttackRolled) if e.attacker == "p2"]
        if len(checks) == 2 and 1 not in checks[0].faces and 1 in checks[1].faces:
            break
    else:
        raise AssertionError("no counter puts a 1 on the second check only")
    assert [c.target for c in checks] == ["e1", "e2"] and [c.fp for c in checks] == [0, 0]
    assert after.get("p2").fp == before


@pytest.mark.rule("FUMBLE-2")
@pytest.mark.rule("CHASE-1")
def test_a_pursuers_first_check_in_an_allys_action_gives_it_fp_for_its_1s():
    """facts (Fills FUMBLE-2): FP from 1s once per Main action per
    character: p1's hit check is p1's, the Pursuit's that follows is p2's
    own first check of the action, so its 1s count."""
    state = fighter_turn()
    state = edit(state, "p2", row=state.get("p1").row, buffs=(ActiveBuff(kind=Buff.CHASE, target="p1", turns=3),))
    for counter in range(state.rng, state.rng + 2000):
        after, events = when(at(state, counter), Attack(actor="p1", target="e1"))
        ended = next(i for i, e in enumerate(events) if isinstance(e, ev.ActionEnded) and e.who == "p1")
        rolls = of(events[:ended], ev.AttackRolled)
        if [r.attacker for r in rolls] == ["p1", "p2"] and 1 not in rolls[0].faces and 1 in rolls[1].faces:
            break
    else:
        raise AssertionError("no counter puts a 1 on the pursuit's check only")
    assert (rolls[1].mode, rolls[1].fp) == ("pursuit", rolls[1].faces.count(1))


@pytest.mark.rule("HIT-2")
@pytest.mark.rule("PASSIVE-3")
def test_a_multi_target_attack_makes_one_check_per_target_against_its_own_evasion():
    state = start()
    state = edit(state, "e2", base=_replace(state.get("e2").base, evasion=9))
    state, _ = when(state, Pass(actor="p1"), Pass(actor="p2"))
    state = at(state, pinned(state.seed, (4, 4), state.rng))  # no all-1s activation
    state, events = when(state, UseSkill(actor="p2", skill="flame-burst"))
    checks = [e for e in of(events, ev.AttackRolled) if e.attacker == "p2"]
    assert [(c.target, c.evasion) for c in checks] == [("e1", 7), ("e2", 9)]


@pytest.mark.rule("ATTACK-3")
def test_a_near_attack_from_the_back_row_is_refused():
    state = fighter_turn()
    state = edit(state, "p1", row=Row.BACK)
    violates(state, Attack(actor="p1", target="e1"), "ATTACK-3")


@pytest.mark.rule("STANDBY-6")
@pytest.mark.rule("STANDBY-7")
def test_full_defense_halves_the_damage_rounded_down_and_skips_the_main_action():
    state = start()
    state, events = when(state, FullDefense(actor="p1"), Pass(actor="p2"))
    assert of(events, ev.FullDefenseTaken) and state.get("p1").full_defense
    d = decision(state)
    counter = pinned(state.seed, (4, 5, 6), state.rng)  # slime: 5 patk - 2 defense = 3 dice above 3
    d = decision(at(state, counter))
    damage(d, d.state.get("e1"), d.state.get("p1"), None, None)
    rolled = of(d.events, ev.DamageRolled)[0]
    assert rolled.dealt == 3 and rolled.damage == 1 and "full defense" in rolled.halved
    # five dice above resistance (Power Strike's 2 more): 5 halved, rounded down, is 2
    counter = pinned(state.seed, (4, 5, 6, 4, 5), state.rng)
    d = decision(at(state, counter))
    damage(d, d.state.get("e1"), d.state.get("p1"), SKILLS["power-strike"].effects[0], None)
    rolled = of(d.events, ev.DamageRolled)[0]
    assert (rolled.dealt, rolled.damage, rolled.hp) == (5, 2, state.get("p1").hp - 2)


@pytest.mark.rule("WAIT-1")
def test_a_character_in_the_waiting_state_takes_no_main_action():
    state = start(gm_enemies=True)
    state, events = when(state, FullDefense(actor="p1"), Pass(actor="p2"))
    assert state.acting == "p2"  # the mage (speed 9) acts before the fighter (8)
    state, events = when(state, Pass(actor="p2"))
    assert [e.rule for e in of(events, ev.ActionSkipped) if e.who == "p1"] == ["WAIT-1"]
    assert waits_for(state) == "gm"


@pytest.mark.rule("PASSIVE-1")
@pytest.mark.rule("PASSIVE-2")
def test_a_guard_passive_answers_the_first_hit_and_halves_it():
    state = fighter_turn()
    d = decision(state)
    counter = pinned(state.seed, (6, 5, 6, 6, 6), state.rng)  # hit, then 3 dice all dealing
    d = decision(at(state, counter))
    attack(d, "e1", ("p1",), mode="normal")
    used = of(d.events, ev.PassiveUsed)
    assert [(u.who, u.skill, u.tp) for u in used] == [("p1", "guard", 1)]
    rolled = of(d.events, ev.DamageRolled)[0]
    assert rolled.halved == "guard" and rolled.damage == rolled.dealt // 2


def test_a_blow_to_a_unit_already_down_does_not_fell_it_a_second_time():
    """A unit falls once, when a blow takes its HP from above 0 to 0 or less:
    a later blow to it (struck again before it is cleared) records no second
    fall and no second vanishing of its tokens (found by mutation testing)."""
    state = edit(fighter_turn(), "e1", hp=0)
    d = decision(state)
    damage(d, d.state.get("p1"), d.state.get("e1"), None, None)
    assert of(d.events, ev.DamageRolled)
    assert not of(d.events, ev.Incapacitated)
