"""Enemies as the other side (ENEMY-1, ENEMY-2); the Main actions' details
(MAIN-3, MAIN-4, MAIN-6, ATTACK-2); ailments that last, petrify, confuse
and paralyse (AILMENT-1, AILMENT-PETRIFY, AILMENT-CONFUSE,
AILMENT-PARALYZE); every buff and debuff kind's effect (BUFF-1, the
BUFF-* table); Pursuit granted by a skill (CHASE-1)."""

from __future__ import annotations

import pytest
from labyrinth_harness import PACK, at, decision, edit, legal, of, pinned, start, violates, when
from msgspec.structs import replace

from domain.labyrinth import ailments, buffs, casualties, end_phase
from domain.labyrinth import events as ev
from domain.labyrinth.attack import damage
from domain.labyrinth.flow import start_turn
from domain.labyrinth.commands import Attack, Member, Pass, SwapWeapons, UseItem, UseSkill
from domain.labyrinth.ruleset import RULESET
from domain.labyrinth.standby import awaiting
from domain.labyrinth.state import ActiveBuff, Affliction
from domain.labyrinth.stats import stats
from domain.labyrinth.vocab import Ailment, Attribute, Buff, Phase, Side, Termination


def fighter_up(state=None, **opts):
    """Turn 1's Main phase with the fighter acting (the mage passed)."""
    state, _ = when(state or start(**opts), Pass(actor="p1"), Pass(actor="p2"), Pass(actor="p2"))
    assert state.acting == "p1"
    return state


# --- Enemies -----------------------------------------------------------------------------------


@pytest.mark.rule("ENEMY-1")
def test_the_encounters_enemies_are_the_other_side_acting_by_the_policy_with_no_seat():
    state = start(encounter="mixed")
    enemies = state.side(False)
    assert [(c.id, c.kind, c.side) for c in enemies] == [("e1", "brute", Side.ENEMY), ("e2", "wasp", Side.ENEMY)]
    assert {s.key for s in RULESET.seats(state)} == {"p1", "p2"}
    state, events = when(state, Pass(actor="p1"), Pass(actor="p2"), Pass(actor="p2"), Pass(actor="p1"))
    attackers = {e.attacker for e in of(events, ev.AttackRolled)}
    assert attackers and attackers <= {"e1", "e2"}  # played without a command


@pytest.mark.rule("ENEMY-2")
def test_felling_the_last_enemy_wins_the_battle():
    state = edit(edit(fighter_up(), "e2", hp=0), "e1", hp=1)
    state = at(state, pinned(state.seed, (6, 6, 6, 5, 5, 5, 5), state.rng))  # hit, then 5 damage dice
    state, events = when(state, Attack(actor="p1", target="e1"))
    assert of(events, ev.BattleEnded)[0].termination is Termination.PCS_WIN and state.over


# --- Main actions ------------------------------------------------------------------------------


@pytest.mark.rule("MAIN-3")
@pytest.mark.rule("STANDBY-4")
def test_a_normal_attack_has_the_attribute_of_the_weapon_in_the_weapon_slot():
    state = fighter_up()
    d = decision(at(state, pinned(state.seed, (4, 4, 4, 4, 4), state.rng)))
    damage(d, d.state.get("p1"), d.state.get("e1"), None, None)
    assert of(d.events, ev.DamageRolled)[0].resistance == 2  # the sword: Cut 2
    swapped, _ = when(start(), SwapWeapons(actor="p1"), Pass(actor="p2"))
    d = decision(swapped)
    damage(d, d.state.get("p1"), d.state.get("e1"), None, None)
    assert of(d.events, ev.DamageRolled)[0].resistance == 0  # the bow: Stab 0


@pytest.mark.rule("MAIN-4")
def test_a_main_action_skill_is_used_with_its_effects_and_a_standby_one_is_refused():
    state, _ = when(
        start(party=(Member(cls="fighter", level=2), Member(cls="mage"))), Pass(actor="p1"), Pass(actor="p2")
    )
    assert state.acting == "p1"  # [Speed] 9 at level 2, as the mage's: the tie goes by roster
    violates(state, UseSkill(actor="p1", skill="rally"), "MAIN-4")
    state = at(state, pinned(state.seed, (6, 6), state.rng))  # the hit check is its activation
    state, events = when(state, UseSkill(actor="p1", skill="power-strike", target="e1"))
    used = of(events, ev.SkillUsed)[0]
    assert (used.skill, used.tp) == ("power-strike", 2) and state.get("p1").tp == 6 - 2
    # [Physical attack] 6 − [Defense] 1, and the skill's +2 dice
    assert [e.base for e in of(events, ev.DamageRolled) if e.attacker == "p1"][0] == 7


@pytest.mark.rule("MAIN-6")
def test_an_item_follows_its_description_and_is_used_up():
    state = edit(fighter_up(), "p1", hp=3)
    state = at(state, pinned(state.seed, (4, 1, 6), state.rng))
    state, events = when(state, UseItem(actor="p1", item="salve", target="p1"))
    healed = of(events, ev.Healed)[0]
    assert (healed.faces, healed.amount, healed.hp) == ((4, 1, 6), 2, 5)  # its own 3 dice, no [Elemental attack]
    assert "salve" not in state.get("p1").items
    assert not [c for c in legal(state) if isinstance(c, UseItem)]


@pytest.mark.rule("MAIN-6")
def test_an_item_is_refused_on_a_target_its_description_does_not_reach():
    state = edit(fighter_up(), "p1", hp=3)
    rv = violates(state, UseItem(actor="p1", item="salve", target="e1"), "MAIN-6")
    assert rv.message.endswith("cannot be used on e1")


@pytest.mark.rule("ATTACK-2")
def test_physical_and_elemental_attack_rolls_differ_only_in_the_stats_they_read():
    state, _ = when(start(), Pass(actor="p1"), Pass(actor="p2"))
    assert state.acting == "p2"
    state = at(state, pinned(state.seed, (3, 4), state.rng))
    state, events = when(state, UseSkill(actor="p2", skill="flame-burst"))
    check = of(events, ev.AttackRolled)[0]
    assert check.total == 3 + 4 + 2  # [Elemental hit] 2, not [Physical hit] 1
    dealt = [e for e in of(events, ev.DamageRolled) if e.attacker == "p2"][0]
    assert dealt.base == 5 and dealt.resistance == 1  # [Elemental attack] 5, no [Defense]; Fire 1
    physical = fighter_up()
    physical = at(physical, pinned(physical.seed, (3, 4), physical.rng))
    physical, events = when(physical, Attack(actor="p1", target="e1"))
    check = of(events, ev.AttackRolled)[0]
    assert check.total == 3 + 4 + 1
    assert [e.base for e in of(events, ev.DamageRolled) if e.attacker == "p1"][0] == 6 - 1


# --- ailments ----------------------------------------------------------------------------------


@pytest.mark.rule("AILMENT-1")
@pytest.mark.rule("AILMENT-BLIND")
def test_an_ailment_keeps_having_its_effect_turn_after_turn_until_it_is_recovered_from():
    state = edit(start(), "p1", ailments=(Affliction(kind="blind", depth=30),))
    d = decision(state)
    end_phase.run(d)
    p1 = d.state.get("p1")
    assert p1.has(Ailment.BLIND) and stats(p1, PACK).phit == stats(state.get("p1"), PACK).phit


@pytest.mark.rule("AILMENT-PETRIFY")
def test_a_petrified_character_cannot_act_has_no_evasion_no_depth_and_counts_as_out():
    state = start()
    d = decision(at(state, pinned(state.seed, (1, 1), state.rng)))
    assert ailments.inflict(d, "e1", "p1", Ailment.PETRIFY, 12)
    p1 = d.state.get("p1")
    assert p1.ailment(Ailment.PETRIFY).depth == 0 and stats(p1, PACK).evasion == 0 and p1.down
    assert [c.id for c in awaiting(d.state)] == ["p2"]  # declares nothing
    end_phase.run(d)  # no natural recovery roll for it
    assert not [e for e in of(d.events, ev.SuppressionRolled) if e.who == "p1" and e.purpose == "recover"]
    out = edit(d.state, "p2", hp=0)
    d = decision(out)
    casualties.settle(d)
    assert d.state.termination is Termination.PCS_LOSE


def two_fighters():
    return start(party=(Member(cls="fighter"), Member(cls="fighter", name="Second")))


@pytest.mark.rule("AILMENT-CONFUSE")
def test_confusion_rolls_1d6_when_inflicted_and_on_1_to_3_turns_its_attack_on_its_own_row():
    state = two_fighters()
    d = decision(at(state, pinned(state.seed, (1, 1, 2), state.rng)))  # fails to resist, then 2
    assert ailments.inflict(d, "e1", "p1", Ailment.CONFUSE, 12)
    rolled = of(d.events, ev.AilmentRolled)[0]
    assert (rolled.ailment, rolled.faces, rolled.lost) == ("confuse", (2,), True)
    assert d.state.get("p1").confused
    # confused: no Standby action; in the Main phase a Normal attack on the ally in its row
    confused = d.state
    assert [c.id for c in awaiting(confused)] == ["p2"]
    confused, events = when(confused, Pass(actor="p2"))
    picked = [e for e in of(events, ev.TargetPicked) if e.who == "p1"][0]
    assert picked.among == ("p2",)
    assert [(e.attacker, e.target) for e in of(events, ev.AttackRolled) if e.attacker == "p1"][0] == ("p1", "p2")


@pytest.mark.rule("AILMENT-CONFUSE")
def test_with_physical_dice_the_ailing_unit_itself_is_asked_for_its_standby_roll():
    """The 1D6 an ailment rolls in the Standby phase is the ailing unit's
    own, so the table is asked for that unit's faces (found by mutation
    testing: the question went to the first PC)."""
    from domain.labyrinth.decision import NeedReaction

    fighters = (Member(cls="fighter"), Member(cls="fighter", name="Second"))
    state = edit(start(party=fighters, physical_dice=True), "p2", ailments=(Affliction(kind="confuse", depth=30),))
    with pytest.raises(NeedReaction) as asked:
        start_turn(decision(state))
    q = asked.value
    assert (q.who, q.kind, q.rule, q.dice, q.check) == (
        "p2",
        "faces",
        "AILMENT-CONFUSE",
        1,
        "confuse: 1-3 loses the turn",
    )


@pytest.mark.rule("AILMENT-CONFUSE")
def test_confusion_rolls_again_in_each_standby_phase():
    state = edit(two_fighters(), "p1", ailments=(Affliction(kind="confuse", depth=30),))
    d = decision(at(state, pinned(state.seed, (5,), state.rng)))
    start_turn(d)  # the next turn's Standby phase
    rolled = of(d.events, ev.AilmentRolled)
    assert [(e.who, e.ailment, e.faces, e.lost) for e in rolled] == [("p1", "confuse", (5,), False)]
    assert not d.state.get("p1").confused and [c.id for c in awaiting(d.state)] == ["p1", "p2"]


@pytest.mark.rule("AILMENT-PARALYZE")
def test_paralysis_on_1_to_3_loses_the_turn_and_on_4_to_6_does_not():
    state = start()
    d = decision(at(state, pinned(state.seed, (1, 1, 5), state.rng)))
    assert ailments.inflict(d, "e1", "p1", Ailment.PARALYZE, 12)
    assert not of(d.events, ev.TurnLost) and not d.state.get("p1").inactive
    d = decision(at(state, pinned(state.seed, (1, 1, 3), state.rng)))
    ailments.inflict(d, "e1", "p1", Ailment.PARALYZE, 12)
    lost = of(d.events, ev.TurnLost)[0]
    assert lost.cause == "paralyze" and stats(d.state.get("p1"), PACK).evasion == 0
    assert [c.id for c in awaiting(d.state)] == ["p2"]


# --- buffs and debuffs -------------------------------------------------------------------------


@pytest.mark.rule("BUFF-1")
@pytest.mark.rule("BUFF-5")
def test_buffs_and_debuffs_are_counted_apart_three_kinds_of_each():
    kinds = (Buff.PATK_UP, Buff.DEF_UP, Buff.SPD_UP, Buff.EATK_DOWN, Buff.EVA_DOWN, Buff.SDEF_DOWN)
    d = decision(start())
    for k in kinds:
        buffs.apply(d, "p1", ActiveBuff(kind=k, amount=1))
    assert [b.kind for b in d.state.get("p1").buffs] == list(kinds)  # 3 buffs and 3 debuffs stand together
    assert {e.rule for e in of(d.events, ev.BuffsChanged)} == {"BUFF-1"}
    buffs.apply(d, "p1", ActiveBuff(kind=Buff.HIT_DOWN, amount=1))  # a 4th debuff: the oldest debuff goes
    assert [b.kind for b in d.state.get("p1").buffs] == list(kinds[:3]) + [Buff.EVA_DOWN, Buff.SDEF_DOWN, Buff.HIT_DOWN]


_STAT = {
    "eatk": lambda s: s.eatk,
    "defense": lambda s: s.defense,
    "speed": lambda s: s.speed,
    "evasion": lambda s: s.evasion,
    "sdef": lambda s: s.sdef,
    "patk": lambda s: s.patk,
    "phit": lambda s: s.phit,
    "ehit": lambda s: s.ehit,
}


@pytest.mark.parametrize(
    "kind, stat, change",
    [
        pytest.param(Buff.EATK_UP, "eatk", 2, marks=pytest.mark.rule("BUFF-EATK-UP")),
        pytest.param(Buff.DEF_UP, "defense", 2, marks=pytest.mark.rule("BUFF-DEF-UP")),
        pytest.param(Buff.SPD_UP, "speed", 2, marks=pytest.mark.rule("BUFF-SPD-UP")),
        pytest.param(Buff.EVA_UP, "evasion", 2, marks=pytest.mark.rule("BUFF-EVA-UP")),
        pytest.param(Buff.SDEF_UP, "sdef", 2, marks=pytest.mark.rule("BUFF-SDEF-UP")),
        pytest.param(Buff.PATK_DOWN, "patk", -2, marks=pytest.mark.rule("BUFF-PATK-DOWN")),
        pytest.param(Buff.EATK_DOWN, "eatk", -2, marks=pytest.mark.rule("BUFF-EATK-DOWN")),
        pytest.param(Buff.DEF_DOWN, "defense", -2, marks=pytest.mark.rule("BUFF-DEF-DOWN")),
        pytest.param(Buff.HIT_DOWN, "phit", -2, marks=pytest.mark.rule("BUFF-HIT-DOWN")),
        pytest.param(Buff.HIT_DOWN, "ehit", -2, marks=pytest.mark.rule("BUFF-HIT-DOWN")),
        pytest.param(Buff.EVA_DOWN, "evasion", -2, marks=pytest.mark.rule("BUFF-EVA-DOWN")),
        pytest.param(Buff.SDEF_DOWN, "sdef", -2, marks=pytest.mark.rule("BUFF-SDEF-DOWN")),
    ],
)
def test_each_stat_buff_and_debuff_moves_its_stat_by_its_amount(kind, stat, change):
    state = start()
    before = _STAT[stat](stats(state.get("p1"), PACK))
    after = _STAT[stat](stats(edit(state, "p1", buffs=(ActiveBuff(kind=kind, amount=2),)).get("p1"), PACK))
    assert after - before == change


@pytest.mark.rule("BUFF-MAXHP-UP")
def test_max_hp_up_raises_the_maximum_leaves_hp_and_cuts_it_back_when_it_ends():
    state = start()
    d = decision(state)
    buffs.apply(d, "p1", ActiveBuff(kind=Buff.MAXHP_UP, amount=4, turns=1))
    p1 = d.state.get("p1")
    assert stats(p1, PACK).max_hp == 14 and p1.hp == 10
    healed = edit(d.state, "p1", hp=13)
    d = decision(healed)
    buffs.count_down(d, "p1")
    assert d.state.get("p1").buffs == () and d.state.get("p1").hp == 10


@pytest.mark.rule("BUFF-TP-REGEN")
def test_tp_regen_restores_tp_in_the_end_phase_up_to_the_maximum():
    state = edit(start(), "p1", tp=2, buffs=(ActiveBuff(kind=Buff.TP_REGEN, amount=2, turns=3),))
    d = decision(state)
    end_phase.run(d)
    assert d.state.get("p1").tp == 4
    full = edit(start(), "p1", tp=4, buffs=(ActiveBuff(kind=Buff.TP_REGEN, amount=3, turns=3),))
    d = decision(full)
    end_phase.run(d)
    assert d.state.get("p1").tp == 5  # its maximum


@pytest.mark.rule("BUFF-ELEMENT")
def test_an_element_grant_makes_the_attack_compound_and_the_lowest_resistance_applies():
    state = edit(fighter_up(), "p1", buffs=(ActiveBuff(kind=Buff.ELEMENT, element=Attribute.FIRE),))
    assert stats(state.get("p1"), PACK).attributes == (Attribute.CUT, Attribute.FIRE)
    d = decision(state)
    damage(d, d.state.get("p1"), d.state.get("e1"), None, None)
    assert of(d.events, ev.DamageRolled)[0].resistance == 1  # Cut 2, Fire 1


@pytest.mark.rule("BUFF-WEAK")
@pytest.mark.rule("BUFF-RESIST")
def test_weakness_grant_takes_1_from_that_resistance_and_resistance_grant_adds_1():
    state = start()
    weak = edit(state, "e1", buffs=(ActiveBuff(kind=Buff.WEAK, element=Attribute.FIRE),))
    assert stats(weak.get("e1"), PACK).resist[Attribute.FIRE] == 0
    assert stats(weak.get("e1"), PACK).resist[Attribute.CUT] == 2
    tough = edit(state, "e1", buffs=(ActiveBuff(kind=Buff.RESIST, element=Attribute.CUT),))
    assert stats(tough.get("e1"), PACK).resist[Attribute.CUT] == 3


@pytest.mark.rule("BUFF-CRIT-UP")
@pytest.mark.rule("CRIT-1")
def test_with_critical_up_sixes_outnumbering_ones_by_one_is_a_critical():
    state = edit(fighter_up(), "e1", base=replace(fighter_up().get("e1").base, defense=2), hp=30)
    for held, critical in (((), False), ((ActiveBuff(kind=Buff.CRIT_UP),), True)):
        keen = edit(state, "p1", buffs=held)
        d = decision(at(keen, pinned(keen.seed, (6, 6, 1, 4), keen.rng)))  # 6 − 2 = 4 dice
        damage(d, d.state.get("p1"), d.state.get("e1"), None, None)
        rolled = of(d.events, ev.DamageRolled)[0]
        assert rolled.faces[:4] == (6, 6, 1, 4) and rolled.critical is critical


# --- pursuit -----------------------------------------------------------------------------------


@pytest.mark.rule("CHASE-1")
@pytest.mark.rule("BUFF-CHASE")
def test_a_skill_grants_pursuit_and_the_holder_follows_the_named_allys_attack():
    state, _ = when(start(), Pass(actor="p1"), Pass(actor="p2"))
    state = edit(state, "p2", row=state.get("p1").row)  # in reach of the slimes with its staff
    state = at(state, pinned(state.seed, (4, 4), state.rng))
    state, events = when(state, UseSkill(actor="p2", skill="follow", target="p1"))
    granted = [b for b in state.get("p2").buffs if b.kind is Buff.CHASE]
    assert [(b.target, b.turns) for b in granted] == [("p1", 3)]
    state, events = when(state, Attack(actor="p1", target="e1"))
    modes = [(e.attacker, e.mode) for e in of(events, ev.AttackRolled)][:2]
    assert modes == [("p1", "normal"), ("p2", "pursuit")]
    assert state.phase in (Phase.MAIN, Phase.STANDBY)


@pytest.mark.rule("MAIN-6")
def test_an_item_the_user_does_not_carry_is_refused_saying_so():
    state = edit(fighter_up(), "p1", items=())
    rv = violates(state, UseItem(actor="p1", item="salve", target="p1"), "MAIN-6")
    assert rv.message == f"{state.get('p1').name} carries no salve"


@pytest.mark.rule("STANDBY-3")
def test_only_a_pc_of_the_party_declares_a_standby_action_and_an_enemy_is_told_why():
    state = start()
    rv = violates(state, Pass(actor="e1"), "STANDBY-3")
    assert rv.message == f"{state.get('e1').name} is not a PC of the party"


@pytest.mark.rule("MAIN-1")
def test_without_the_gm_enemies_option_an_enemy_command_is_refused_saying_the_policy_acts():
    from domain.labyrinth.commands import EnemyAct

    for state in (start(), fighter_up()):  # a Standby declaration, then a Main action
        assert not state.options.gm_enemies
        rv = violates(state, EnemyAct(actor="e1", skill="pass"), "MAIN-1")
        assert rv.message == "Enemies act by the seeded policy (the gm_enemies option is off)"


@pytest.mark.rule("CHASE-1")
@pytest.mark.rule("BUFF-CHASE")
def test_the_pursuit_holder_follows_the_named_allys_attack_skill_too():
    """A skill's attack draws the same Pursuit a plain Attack does (only a
    skill set off by a critical draws none, CRIT-3)."""
    state, _ = when(start(), Pass(actor="p1"), Pass(actor="p2"))
    state = edit(state, "p2", row=state.get("p1").row)
    state = at(state, pinned(state.seed, (4, 4), state.rng))
    state, _ = when(state, UseSkill(actor="p2", skill="follow", target="p1"))
    state, events = when(state, UseSkill(actor="p1", skill="power-strike", target="e1"))
    modes = [(e.attacker, e.mode) for e in of(events, ev.AttackRolled)][:2]
    assert modes == [("p1", "skill"), ("p2", "pursuit")]
