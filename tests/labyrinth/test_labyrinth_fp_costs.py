"""FP costs printed on skills (FUMBLE-2; facts: Fills FUMBLE-2, "Spend:
skills"): a skill's ``fp`` is paid with its TP when it is used; using it
needs that FP on top of any committed to its check, or it is refused
naming FUMBLE-2 and nothing is written; the legal commands and the passive
policy leave out what cannot be paid; a failed activation pays it exactly
when it pays the TP (OQ 9). Content gives a whole number 0 .. 9, on a PC's
skill only: an Enemy's skill or an on-critical one with a cost is refused."""

from __future__ import annotations

import pytest
from labyrinth_harness import PACK, at, edit, of, pinned, start, when
from msgspec.structs import replace

from domain.kernel.errors import ContentError, RuleViolation
from domain.kernel.portable.chain import without_skipped_defaults
from domain.kernel.portable.diff import plain
from domain.labyrinth import events as ev
from domain.labyrinth.attack import NORMAL, attack
from domain.labyrinth.catalog import Skill, SkillEffect
from domain.labyrinth.commands import Member, Pass, UseSkill, UseStandbySkill
from domain.labyrinth.critical import trigger
from domain.labyrinth.decision import Decision, RulesContext
from domain.labyrinth.fp import can_pay, cost_text
from domain.labyrinth.narrate import describe_event
from domain.labyrinth.packs import parse_pack, starter_files, starter_pack
from domain.labyrinth.rules import decide, legal_commands
from domain.labyrinth.vocab import Attribute, Effect, Reach, Speed, Timing

# The fixture pack with FP costs: the mage's heal (an activation roll first),
# its flame burst (an attack first), the fighter's guard (a passive) and
# rally (a Standby skill, learned at level 2).
COSTS = {"heal": 1, "flame-burst": 2, "guard": 1, "rally": 1}
FP_PACK = replace(PACK, skills={k: replace(s, fp=COSTS.get(k, 0)) for k, s in PACK.skills.items()})
CTX = RulesContext(pack=FP_PACK)


def mage_up(fp: int, **options):
    """The mage (p2) to act in the Main phase, holding ``fp`` FP."""
    state, _ = when(start(ctx=CTX, **options), Pass(actor="p1"), Pass(actor="p2"), ctx=CTX)
    assert state.acting == "p2"
    return edit(state, "p2", fp=fp)


def refused(state, command) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        decide(state, command, CTX)
    return caught.value


def heal(**spend) -> UseSkill:
    return UseSkill(actor="p2", skill="heal", target="p1", **spend)


# ---------------------------------------------------------------- paying


@pytest.mark.rule("FUMBLE-2")
@pytest.mark.parametrize("held", [1, 3])
def test_a_skill_pays_the_fp_printed_on_it_with_its_tp(held):
    """With exactly its cost, or more: FP goes down by the cost, TP by its TP."""
    state = mage_up(held)
    state = at(state, pinned(state.seed, (3, 4), state.rng))  # no 1s: the roll gives no FP
    tp = state.get("p2").tp
    state, events = when(state, heal(), ctx=CTX)
    used = of(events, ev.SkillUsed)[0]
    assert (used.tp, used.fp_cost, used.fp, used.fumbled) == (2, 1, 0, False)
    assert (state.get("p2").fp, state.get("p2").tp) == (held - 1, tp - 2)


@pytest.mark.rule("FUMBLE-2")
def test_an_attack_first_skill_pays_its_fp_cost_as_it_is_used():
    state = mage_up(2)
    state = at(state, pinned(state.seed, (4, 5), state.rng))
    state, events = when(state, UseSkill(actor="p2", skill="flame-burst", target=""), ctx=CTX)
    assert of(events, ev.SkillUsed)[0].fp_cost == 2 and state.get("p2").fp == 0


@pytest.mark.rule("FUMBLE-2")
def test_fp_spent_on_the_check_and_the_skills_cost_are_both_paid():
    state = mage_up(2)
    state = at(state, pinned(state.seed, (3, 4, 5), state.rng))
    state, events = when(state, heal(fp=1), ctx=CTX)
    assert [(e.amount, e.reason) for e in of(events, ev.FpSpent)] == [(1, "extra dice")]
    assert of(events, ev.SkillUsed)[0].fp_cost == 1 and state.get("p2").fp == 0


# ---------------------------------------------------------------- refusals


@pytest.mark.rule("FUMBLE-2")
def test_a_skill_whose_fp_cost_cannot_be_paid_is_refused_and_nothing_is_written():
    state = mage_up(0)
    error = refused(state, heal())
    assert error.rule == "FUMBLE-2" and "costs 1 FP" in error.message and "has 0 FP" in error.message
    assert decide(state, Pass(actor="p2"), CTX)  # the same state takes another command


@pytest.mark.rule("FUMBLE-2")
@pytest.mark.parametrize("spend", [{"fp": 1}, {"reroll": True}])
def test_fp_committed_to_the_check_counts_on_top_of_the_skills_cost(spend):
    """1 FP held: enough for the cost, or for the check, not for both."""
    error = refused(mage_up(1), heal(**spend))
    assert error.rule == "FUMBLE-2" and "committed to its check" in error.message


@pytest.mark.rule("FUMBLE-2")
@pytest.mark.rule("STANDBY-5")
def test_a_standby_skill_with_an_fp_cost_is_refused_when_short_and_paid_when_it_resolves():
    party = (Member(cls="fighter", level=2), Member(cls="mage", level=1))
    state = edit(start(ctx=CTX, party=party), "p1", fp=0)
    assert refused(state, UseStandbySkill(actor="p1", skill="rally")).rule == "FUMBLE-2"
    legal = legal_commands(state, CTX)
    assert not [c for c in legal if isinstance(c, UseStandbySkill) and c.skill == "rally"]
    state = at(edit(state, "p1", fp=1), pinned(state.seed, (3, 4), state.rng))
    assert [c for c in legal_commands(state, CTX) if isinstance(c, UseStandbySkill) and c.skill == "rally"]
    state, events = when(state, UseStandbySkill(actor="p1", skill="rally"), Pass(actor="p2"), ctx=CTX)
    used = [e for e in of(events, ev.SkillUsed) if e.who == "p1"]
    assert used and used[0].fp_cost == 1 and state.get("p1").fp == 0


@pytest.mark.rule("FUMBLE-2")
@pytest.mark.rule("STANDBY-5")
def test_a_standby_declaration_lapses_if_its_fp_cost_can_no_longer_be_paid():
    party = (Member(cls="fighter", level=2), Member(cls="mage", level=1))
    state, _ = when(edit(start(ctx=CTX, party=party), "p1", fp=1), UseStandbySkill(actor="p1", skill="rally"), ctx=CTX)
    state, events = when(edit(state, "p1", fp=0), Pass(actor="p2"), ctx=CTX)
    lapsed = of(events, ev.DeclarationLapsed)
    assert [(e.who, e.rule) for e in lapsed] == [("p1", "STANDBY-5")] and not of(events, ev.SkillUsed)


@pytest.mark.rule("FUMBLE-2")
@pytest.mark.rule("ORDER-3")
def test_a_delayed_skill_is_skipped_if_its_fp_cost_can_no_longer_be_paid_when_its_turn_comes():
    ctx = _slow_bolt()
    state = edit(mage_up(1), "p2", skills=("slow-bolt",))
    state, events = when(state, UseSkill(actor="p2", skill="slow-bolt", target="e1"), ctx=ctx)
    assert of(events, ev.ActionDelayed) and state.acting == "p1"
    state, events = when(edit(state, "p2", fp=0), Pass(actor="p1"), ctx=ctx)
    skipped = [e for e in of(events, ev.ActionSkipped) if e.who == "p2"]
    assert skipped and "cannot pay" in skipped[0].reason and not of(events, ev.SkillUsed)


@pytest.mark.rule("FUMBLE-2")
def test_fp_cannot_be_committed_to_the_checks_of_a_delayed_skill_and_the_refusal_says_why():
    """Found by mutation testing: the refusal lost its rule ID."""
    state = edit(mage_up(3), "p2", skills=("slow-bolt",))
    with pytest.raises(RuleViolation) as caught:
        when(state, UseSkill(actor="p2", skill="slow-bolt", target="e1", fp=1), ctx=_slow_bolt())
    assert (caught.value.rule, caught.value.message) == (
        "FUMBLE-2",
        "Slow Bolt is a delayed action: its checks come later, FP is spent now",
    )


def _slow_bolt() -> RulesContext:
    """FP_PACK with Slow Bolt: a delayed Volt attack costing 1 FP."""
    slow = Skill(
        id="slow-bolt",
        name="Slow Bolt",
        timing=Timing.MAIN,
        speed=Speed.DELAYED,
        delay=1,
        tp=1,
        fp=1,
        effects=(SkillEffect(effect=Effect.ATTACK, elemental=True, attribute=Attribute.VOLT, reach=Reach.FAR),),
    )
    return RulesContext(pack=replace(FP_PACK, skills={**FP_PACK.skills, slow.id: slow}))


# ---------------------------------------------------------------- what is offered


@pytest.mark.rule("FUMBLE-2")
def test_legal_commands_do_not_offer_a_skill_its_user_cannot_pay_for():
    def offered(state):
        state = edit(state, "p1", hp=1)  # someone to heal (a Recovery of no one hurt is not offered)
        return {c.skill for c in legal_commands(state, CTX) if isinstance(c, UseSkill)}

    assert offered(mage_up(0)) == {"follow"}  # heal 1 FP, flame burst 2 FP: neither
    assert offered(mage_up(1)) == {"follow", "heal"}
    assert offered(mage_up(2)) == {"follow", "heal", "flame-burst"}


@pytest.mark.rule("FUMBLE-2")
@pytest.mark.rule("PASSIVE-2")
@pytest.mark.parametrize("held, guarded", [(0, False), (1, True)])
def test_a_passive_with_an_fp_cost_is_used_only_when_its_user_can_pay(held, guarded):
    state = edit(start(ctx=CTX), "p1", fp=held)
    d = Decision(state, CTX, on_critical=trigger)
    attack(d, "e1", ("p1",), mode=NORMAL)
    used = of(d.events, ev.PassiveUsed)
    assert bool(used) is guarded
    if guarded:
        assert (used[0].skill, used[0].fp_cost) == ("guard", 1) and d.state.get("p1").fp == 0
    else:
        assert d.state.get("p1").fp == 0


@pytest.mark.rule("FUMBLE-2")
def test_can_pay_weighs_tp_fp_and_fp_committed_to_the_check():
    c = mage_up(1).get("p2")
    heal_ = FP_PACK.skills["heal"]
    assert can_pay(c, heal_) and not can_pay(c, heal_, committed=1)
    assert not can_pay(replace(c, tp=1), heal_)  # heal's 2 TP


# ---------------------------------------------------------------- a failed activation (OQ 9)


@pytest.mark.rule("FUMBLE-1")
@pytest.mark.rule("FUMBLE-2")
@pytest.mark.parametrize("pays, cost, after", [(True, 1, 1 - 1 + 2), (False, 0, 1 + 2)])
def test_a_failed_activation_pays_the_fp_cost_exactly_when_it_pays_the_tp(pays, cost, after):
    """All 1s: the skill fails and its two 1s give 2 FP; the FP cost is paid
    with the TP by default (OQ 9), neither with the option off."""
    state = mage_up(1, failed_activation_pays=pays)
    state = at(state, pinned(state.seed, (1, 1), state.rng))
    state, events = when(state, heal(), ctx=CTX)
    used = of(events, ev.SkillUsed)[0]
    assert used.fumbled and (used.tp, used.fp_cost, used.fp) == (2 if pays else 0, cost, 2)
    assert state.get("p2").fp == after


# ---------------------------------------------------------------- events and views


@pytest.mark.rule("FUMBLE-2")
def test_an_event_without_an_fp_cost_is_written_as_before_fp_costs_existed():
    used = ev.SkillUsed(who="p1", skill="heal", tp=2, faces=(3, 4), counter=0)
    passive = ev.PassiveUsed(who="p1", skill="guard", against="e1", tp=1)
    assert "fp_cost" not in plain(without_skipped_defaults(used))
    assert "fp_cost" not in plain(without_skipped_defaults(passive))
    assert plain(without_skipped_defaults(replace(used, fp_cost=1)))["fp_cost"] == 1


@pytest.mark.rule("FUMBLE-2")
def test_the_narration_and_the_classes_table_show_the_fp_cost_beside_the_tp():
    state = mage_up(1)
    used = ev.SkillUsed(who="p2", skill="heal", tp=2, faces=(3, 4), counter=0, fp_cost=1)
    assert "(2 TP, 1 FP, activation" in describe_event(used, state)
    assert "(1 TP, 1 FP)" in describe_event(
        ev.PassiveUsed(who="p1", skill="guard", against="e1", tp=1, fp_cost=1), state
    )
    assert cost_text(2, 0) == "2 TP" and cost_text(5, 1) == "5 TP, 1 FP"


@pytest.mark.rule("FUMBLE-2")
def test_rk_labyrinth_classes_shows_the_starter_skills_fp_costs():
    from domain.kernel.surface.document import plain
    from domain.labyrinth.listings import classes

    shown = " ".join(
        plain(cell) for block in classes(None).view if hasattr(block, "rows") for row in block.rows for cell in row
    )
    assert "soothing-chorus (5 TP, 1 FP)" in shown and "gathering-storm (5 TP, 1 FP)" in shown
    assert "sundering-blow (" not in shown  # a skill without an FP cost stays a bare id


# ---------------------------------------------------------------- content


def _mutated(file: str, old: str, new: str) -> dict[str, bytes]:
    files = starter_files()
    text = files[file].decode()
    assert old in text, f"{old!r} is not in {file}"
    files[file] = text.replace(old, new, 1).encode()
    return files


def _refusal(files: dict[str, bytes]) -> ContentError:
    with pytest.raises(ContentError) as caught:
        parse_pack(files)
    return caught.value


def test_the_starter_pack_prints_fp_costs_on_two_level_3_skills_only():
    pack = starter_pack()
    assert {s.id: s.fp for s in pack.skills.values() if s.fp} == {"soothing-chorus": 1, "gathering-storm": 1}
    for sheet in pack.classes.values():
        assert all(level >= 3 for level, sid in sheet.skills if pack.skills[sid].fp)


@pytest.mark.rule("FUMBLE-2")
@pytest.mark.parametrize(
    "value, says",
    [
        ("10", "must be from 0 to 9, got 10"),
        ("-1", "must be from 0 to 9, got -1"),
        ('"1"', "expected an integer"),
        ("1.5", "expected an integer"),
        ("true", "expected an integer"),
    ],
)
def test_an_fp_cost_that_is_not_a_whole_number_0_to_9_is_refused_with_its_place(value, says):
    error = _refusal(
        _mutated(
            "skills.toml",
            'tp = 2\ntext = "A full two-handed swing',
            f'tp = 2\nfp = {value}\ntext = "A full two-handed swing',
        )
    )
    assert (error.file, error.field) == ("skills.toml", "skills.sundering-blow.fp") and says in error.reason


@pytest.mark.rule("FUMBLE-2")
def test_an_enemys_skill_with_an_fp_cost_is_refused_naming_the_enemy_and_skill():
    enemy_skill = next(sid for kind in starter_pack().enemies.values() for sid in kind.skills)
    header = f"[skills.{enemy_skill}]\n"
    error = _refusal(_mutated("skills.toml", header, header + "fp = 1\n"))
    assert error.file == "enemies.toml" and ".skills[" in error.field
    assert enemy_skill in error.reason and "Enemies have no FP" in error.reason


@pytest.mark.rule("FUMBLE-2")
@pytest.mark.rule("CRIT-3")
def test_an_on_critical_skill_with_an_fp_cost_is_refused():
    error = _refusal(_mutated("skills.toml", "on_critical = true\n", "on_critical = true\nfp = 1\n"))
    assert error.file == "skills.toml" and error.field.endswith(".fp") and "on-critical" in error.reason


@pytest.mark.rule("FUMBLE-2")
def test_rk_labyrinth_classes_json_gives_each_skills_tp_and_fp_cost(table):
    listed = table("labyrinth-classes", json=True).json()
    pack = starter_pack()
    for entry in listed:
        costs = entry["skill_costs"]
        assert set(costs) == {sid for _, sid in pack.classes[entry["id"]].skills}
        assert all(costs[sid] == {"tp": pack.skills[sid].tp, "fp": pack.skills[sid].fp} for sid in costs)
    assert any(c["fp"] == 1 for entry in listed for c in entry["skill_costs"].values())
