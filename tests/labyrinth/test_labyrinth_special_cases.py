"""Tokens (facts section 8), skills that trigger on a critical (CRIT-3),
Identify before the battle (ENEMY-3, ENEMY-4), and Enemies' Standby
skills (STANDBY-5)."""

from __future__ import annotations

import pytest
import labyrinth_harness as harness
from labyrinth_harness import at, edit, of, pinned
from labyrinth_more import CTX, MORE, PARTY, decision, legal, not_ones, seed_for, start, when
from msgspec.structs import replace

from domain.kernel.errors import ContentError
from domain.labyrinth import casualties, end_phase
from domain.labyrinth import events as ev
from domain.labyrinth.attack import damage
from domain.labyrinth.commands import EnemyAct, Hold, Pass, StartLabyrinth
from domain.labyrinth.flow import waits_for
from domain.labyrinth.packs import parse_pack, starter_files, starter_pack
from domain.labyrinth.rules import decide
from domain.labyrinth.state import Affliction, Options
from domain.labyrinth.stats import stats
from domain.labyrinth.tokens import place
from domain.labyrinth.catalog import Encounter, EncounterEnemy
from domain.labyrinth.decision import RulesContext
from domain.labyrinth.vocab import Attribute, Buff, Phase, Reach, Side, Targets, Termination

# --- tokens ------------------------------------------------------------------------------------


def placed():
    """Turn 1 against the caller (speed 7) and a slime: the GM has the
    caller place its stub (2 turns)."""
    state, _ = when(
        start(encounter="caller", gm_enemies=True),
        Pass(actor="p1"),
        Pass(actor="p2"),
        Hold(actor="p1"),
        Pass(actor="p2"),
    )
    assert state.acting == "e1"
    state, events = when(at(state, not_ones(state)), EnemyAct(actor="e1", skill="call-stub"))
    return state, events


@pytest.mark.rule("ATTACK-1")
def test_a_token_acts_at_its_placers_speed_from_the_turn_it_is_placed():
    state, events = placed()
    token = of(events, ev.TokenPlaced)[0].token
    assert (token.id, token.side, token.placer, token.row, token.expires) == ("e3", Side.ENEMY, "e1", "front", 2)
    assert state.acting == "e3" and state.queue == ("e2", "p1")  # right after its placer, this turn
    state, _ = when(state, EnemyAct(actor="e3", skill="pass"), EnemyAct(actor="e2", skill="pass"), Pass(actor="p1"))
    state, events = when(state, Pass(actor="p1"), Pass(actor="p2"))
    assert of(events, ev.MainStarted)[0].queue == ("p2", "e1", "e3", "e2", "p1")


@pytest.mark.rule("ATTACK-1")
def test_a_token_vanishes_when_its_placer_is_incapacitated_and_drops_nothing():
    state, _ = placed()
    state = edit(edit(state, "e1", hp=0), "e2", hp=0)
    d = decision(state)
    casualties.incapacitated(d, "e1")
    assert [(e.who, e.reason) for e in of(d.events, ev.TokenVanished)] == [("e3", "its placer is incapacitated")]
    assert d.state.termination is Termination.PCS_WIN
    assert "e3" not in [x.enemy for x in of(d.events, ev.DropRolled)]


@pytest.mark.rule("ATTACK-1")
def test_a_token_vanishes_when_its_turns_run_out_and_placing_it_again_renews_them():
    state, _ = placed()
    d = decision(state)
    end_phase.run(d)
    assert not of(d.events, ev.TokenVanished)  # placed in turn 1 for 2 turns
    renewed = decision(state)
    place(renewed, "e1", MORE.skills["call-stub"].effects[0])
    again = of(renewed.events, ev.TokenPlaced)[0].token
    assert again.id == "e3" and len(renewed.state.combatants) == len(state.combatants)
    late = decision(replace(state, turn=2))
    end_phase.run(late)
    assert [e.who for e in of(late.events, ev.TokenVanished)] == ["e3"]


# --- on-critical skills ------------------------------------------------------------------------


def strike(state, faces):
    """The scout's damage roll on the first slime: 6 [Physical attack] − 1
    [Defense] = 5 dice, the first of them ``faces``."""
    d = decision(at(state, pinned(state.seed, faces, state.rng)))
    damage(d, d.state.get("p1"), d.state.get("e1"), None, None)
    return d


@pytest.mark.rule("CRIT-3")
def test_an_on_critical_skill_triggers_at_once_on_its_users_critical_and_pays_its_tp():
    state = edit(start(), "e1", hp=30)
    d = strike(state, (6, 6, 6, 1, 3))
    kinds = [type(e) for e in d.events]
    at_roll = kinds.index(ev.DamageRolled)
    assert d.events[at_roll].critical and kinds[at_roll + 1] is ev.CriticalTriggered
    trig = d.events[at_roll + 1]
    assert (trig.who, trig.skill, trig.target, trig.tp) == ("p1", "keen-edge", "e1", 1)
    assert d.state.get("p1").tp == state.get("p1").tp - 1
    assert [(b.kind, b.amount) for b in d.state.get("p1").buffs] == [(Buff.PATK_UP, 2)]


@pytest.mark.rule("CRIT-3")
def test_nothing_triggers_without_a_critical_or_without_the_tp_or_with_its_part_bound():
    state = edit(start(), "e1", hp=30)
    assert not of(strike(state, (6, 6, 1, 4, 2)).events, ev.CriticalTriggered)
    assert not of(strike(edit(state, "p1", tp=0), (6, 6, 6, 1, 3)).events, ev.CriticalTriggered)
    # keen-edge is an arm skill; the bind's −4 [Physical attack] is made up so the roll stays 5 dice
    bound = edit(
        state,
        "p1",
        binds=(Affliction(kind="arm", depth=9),),
        base=replace(state.get("p1").base, patk=state.get("p1").base.patk + 4),
    )
    assert not of(strike(bound, (6, 6, 6, 1, 3)).events, ev.CriticalTriggered)


@pytest.mark.rule("CRIT-3")
def test_an_on_critical_effect_on_opponents_reaches_the_foe_just_hit():
    state = edit(edit(start(), "e1", hp=30), "p1", skills=("rend",))
    d = strike(state, (6, 6, 6, 1, 3))
    assert of(d.events, ev.CriticalTriggered)[0].skill == "rend"
    resist = of(d.events, ev.SuppressionRolled)[0]
    assert (resist.who, resist.kind, resist.purpose) == ("e1", "arm", "resist")


@pytest.mark.rule("CRIT-3")
def test_on_critical_skills_are_never_actions():
    state, _ = when(start(), Pass(actor="p1"), Pass(actor="p2"), Hold(actor="p1"), Pass(actor="p2"))
    assert state.acting == "p1"
    assert not [c for c in legal(state) if getattr(c, "skill", "") == "keen-edge"]


# --- Identify ----------------------------------------------------------------------------------


@pytest.mark.rule("ENEMY-3")
@pytest.mark.rule("ENEMY-4")
def test_each_pc_makes_one_tec_check_against_every_enemys_rarity_before_the_battle():
    # the scout and the mage both have TEC bonus 2; the slimes' Rarity is 10
    seed = seed_for((3, 3, 4, 4))
    events = decide(
        None,
        StartLabyrinth(battle_id="t", encounter="slimes", party=PARTY, seed=seed, options=Options(identify=True)),
        CTX,
    )
    kinds = [type(e) for e in events]
    assert kinds.index(ev.BattleStarted) < kinds.index(ev.Identified) < kinds.index(ev.TurnStarted)
    check = of(events, ev.Identified)[0]
    assert (check.ids, check.faces, check.totals) == (("p1", "p2"), (3, 3, 4, 4), (8, 10))
    assert (check.known, check.unknown) == (("e1", "e2"), ())
    state = start(seed, identify=True)
    scout = state.get("p1")  # it cost nothing: TP, HP and items as at setup
    assert (scout.tp, scout.hp) == (scout.base.max_tp, scout.base.max_hp)


@pytest.mark.rule("ENEMY-3")
def test_an_enemy_no_pc_identified_has_its_resistances_counted_as_at_least_3():
    state = start(seed_for((3, 3, 4, 3)), identify=True)  # 8 and 9: below Rarity 10
    slime = state.get("e1")
    assert slime.unknown
    resist = stats(slime, MORE).resist
    assert resist[Attribute.CUT] == 3 and resist[Attribute.FIRE] == 3 and resist[Attribute.ICE] == 3
    plain = start(seed_for((3, 3, 4, 3)))  # the option off: no check, the sheet's numbers
    assert not plain.get("e1").unknown and stats(plain.get("e1"), MORE).resist[Attribute.CUT] == 2


@pytest.mark.rule("ENEMY-3")
@pytest.mark.rule("FUMBLE-2")
def test_identify_is_an_action_check_its_ones_give_fp():
    state = start(seed_for((1, 2, 4, 4)), identify=True)
    assert state.get("p1").fp == 2 and state.get("p2").fp == 1  # 1 at the start, +1 for the 1 rolled


# --- Enemies' Standby skills -------------------------------------------------------------------


@pytest.mark.rule("STANDBY-5")
@pytest.mark.rule("STANDBY-1")
def test_an_enemy_with_a_standby_skill_uses_it_as_the_declarations_resolve():
    state = start(encounter="howler")
    state, _ = when(state, Pass(actor="p1"))
    state, events = when(at(state, not_ones(state)), Pass(actor="p2"))
    declared = [e.declaration for e in of(events, ev.Declared) if e.declaration.who == "e1"]
    assert [(x.action, x.skill) for x in declared] == [("skill", "howl")]
    assert [(b.kind, b.amount) for b in state.get("e1").buffs] == [(Buff.PATK_UP, 1)]
    assert state.phase is Phase.MAIN


# A hexer holds two Standby skills: Howl (itself) and Sap (one opponent in reach: either PC).
_SAP = replace(
    MORE.skills["howl"],
    id="sap",
    name="Sap",
    effects=(replace(MORE.skills["howl"].effects[0], targets=Targets.OPPONENT, buff=Buff.PATK_DOWN, reach=Reach.FAR),),
)
_HEXER = replace(
    MORE,
    skills={**MORE.skills, "sap": _SAP},
    enemies={**MORE.enemies, "hexer": replace(MORE.enemies["howler"], id="hexer", skills=("howl", "sap"))},
    encounters={
        **MORE.encounters,
        "hexer": Encounter(id="hexer", name="A hexer", enemies=(EncounterEnemy(enemy="hexer"),)),
    },
)


@pytest.mark.rule("STANDBY-5")
def test_an_enemy_with_two_standby_skills_picks_one_and_its_target_at_random_and_the_log_says_so():
    ctx = RulesContext(pack=_HEXER)
    state = harness.start(1, "hexer", PARTY, ctx=ctx)
    state, _ = harness.when(state, Pass(actor="p1"), ctx=ctx)
    for counter in range(state.rng, state.rng + 50):  # a counter at which it picks Sap
        _, events = harness.when(at(state, counter), Pass(actor="p2"), ctx=ctx)
        [chosen] = of(events, ev.ActionChosen)
        assert (chosen.who, chosen.among) == ("e1", ("howl", "sap"))
        if chosen.chosen == "sap":
            break
    else:
        raise AssertionError("no counter picked Sap")
    [picked] = of(events, ev.TargetPicked)
    assert (picked.who, set(picked.among)) == ("e1", {"p1", "p2"})
    [declared] = [e.declaration for e in of(events, ev.Declared) if e.declaration.who == "e1"]
    assert (declared.skill, declared.target) == ("sap", picked.chosen)


@pytest.mark.rule("STANDBY-5")
def test_with_gm_enemies_the_gm_declares_an_enemys_standby_skill():
    state, _ = when(start(encounter="howler", gm_enemies=True), Pass(actor="p1"), Pass(actor="p2"))
    assert waits_for(state) == "standby" and state.phase is Phase.STANDBY
    assert set(legal(state)) == {EnemyAct(actor="e1", skill="howl"), EnemyAct(actor="e1", skill="pass")}
    state, events = when(at(state, not_ones(state)), EnemyAct(actor="e1", skill="howl"))
    assert of(events, ev.SkillUsed)[0].who == "e1" and state.phase is Phase.MAIN


# --- on-critical skills in a pack --------------------------------------------------------------


def _crimson_edge(old: str, new: str):
    """The starter files with Crimson Edge's text changed."""
    files = starter_files()
    text = files["skills.toml"].decode()
    start_at = text.index("[skills.crimson-edge]")
    end_at = text.index("[skills.", start_at + 1)
    block = text[start_at:end_at]
    assert old in block
    files["skills.toml"] = (text[:start_at] + block.replace(old, new, 1) + text[end_at:]).encode()
    return files


@pytest.mark.rule("CRIT-3")
def test_the_starter_pack_has_an_on_critical_skill_that_is_no_action():
    skill = starter_pack().skills["crimson-edge"]
    assert skill.on_critical and skill.timing.value == "passive"
    assert any(sid == "crimson-edge" for _, sid in starter_pack().classes["vanguard"].skills)


@pytest.mark.parametrize(
    "old, new, field, reason",
    [
        ('timing = "passive"', 'timing = "main"', "skills.crimson-edge.on_critical", "its timing is"),
        (
            '{ effect = "bind", bind = "arm", target_bonus = 6 }',
            '{ effect = "guard" }',
            "skills.crimson-edge.effects[0].effect",
            "not an on-critical one",
        ),
        (
            '{ effect = "bind", bind = "arm", target_bonus = 6 }',
            '{ effect = "heal", targets = "ally" }',
            "skills.crimson-edge.effects[0].targets",
            "an on-critical effect targets the foe hit",
        ),
    ],
)
def test_a_malformed_on_critical_skill_is_refused(old, new, field, reason):
    with pytest.raises(ContentError) as caught:
        parse_pack(_crimson_edge(old, new))
    assert (caught.value.file, caught.value.field) == ("skills.toml", field) and reason in str(caught.value)


@pytest.mark.rule("STANDBY-5")
@pytest.mark.rule("STANDBY-1")
def test_an_enemy_that_has_lost_its_turn_uses_no_standby_skill():
    """An Enemy that takes no action this turn (here: it has lost the turn)
    declares no Standby skill, though it holds one it could otherwise use
    (found by mutation testing: only a petrified or sleeping one was left out)."""
    state = edit(start(encounter="howler"), "e1", inactive=True)
    state, _ = when(state, Pass(actor="p1"))
    state, events = when(at(state, not_ones(state)), Pass(actor="p2"))
    assert not [e for e in of(events, ev.Declared) if e.declaration.who == "e1" and e.declaration.skill == "howl"]
    assert state.get("e1").buffs == ()


@pytest.mark.rule("STANDBY-1")
def test_a_new_turn_opens_on_its_standby_phase_with_nothing_declared_queued_or_acting():
    """Facts: Fills STANDBY-1 (a turn is Standby, Main, End): the turn after
    an End phase begins again in the Standby phase, with the last turn's
    declarations, Main-phase queue and actor gone."""
    from domain.labyrinth.evolve import evolve as evolve_event
    from domain.labyrinth.state import Declaration
    from domain.labyrinth.vocab import Phase

    ended = replace(
        start(),
        turn=1,
        phase=Phase.END,
        declarations=(Declaration(who="p1", action="pass"),),
        queue=("e1",),
        acting="p1",
    )
    after = evolve_event(ended, ev.TurnStarted(turn=2))
    assert (after.turn, after.phase, after.declarations, after.queue, after.acting) == (2, Phase.STANDBY, (), (), "")


def test_a_command_before_the_battle_is_set_up_is_malformed_saying_so():
    """Found by mutation testing: the words were not checked."""
    from domain.kernel.errors import MalformedCommand
    from domain.labyrinth.commands import Pass
    from domain.labyrinth.rules import decide
    from labyrinth_harness import CTX

    with pytest.raises(MalformedCommand) as caught:
        decide(None, Pass(actor="p1"), CTX)
    assert str(caught.value) == "no battle has been set up yet"
