"""Physical dice in a labyrinth battle (the ``physical_dice`` option):
every roll waits for the faces the table types (`rk roll --faces`), the
rules check them against the roll (how many, each 1 to 6) and refuse
others with the roll's rule, the events record them as typed and the RNG
counter does not move."""

from __future__ import annotations

import json

import pytest
from labyrinth_harness import legal, of, start, violates, when

from domain.kernel.errors import RuleViolation
from domain.labyrinth import events as ev
from domain.labyrinth.commands import Escape, Pass, TypeFaces, UseSkill
from domain.labyrinth.ruleset import RULESET


def _main(**options):
    """Turn 1's Main phase with the Mage (p2, fastest) to act."""
    state, _ = when(start(physical_dice=True, **options), Pass(actor="p1"), Pass(actor="p2"))
    assert state.acting == "p2" and state.question is None
    return state


def _asked(state, rule: str, dice: int, who: str = "p2"):
    q = state.question
    assert q is not None and (q.kind, q.rule, q.dice, q.who) == ("faces", rule, dice, who), q
    assert legal(state) == [TypeFaces(actor=who, faces=(1,) * dice)]


def _typed_through(state, *given: tuple[int, ...]):
    """Type ``given`` for the rolls asked, in turn, then 1s (a miss, no
    damage) until the step is resolved; the state and the events."""
    events, given_left = [], list(given)
    while state.question is not None and state.question.kind == "faces":
        faces = given_left.pop(0) if given_left else (1,) * state.question.dice
        state, produced = when(state, TypeFaces(faces=faces))
        events += produced
    return state, events


@pytest.mark.rule("ATTACK-3")
def test_an_attack_roll_waits_for_its_typed_faces_and_records_them_as_typed():
    s = _main()
    s1, events = when(s, UseSkill(actor="p2", skill="flame-burst"))
    assert not of(events, ev.AttackRolled)
    _asked(s1, "ATTACK-3", 2)
    s2, events = _typed_through(s1, (5, 4))
    rolled = of(events, ev.AttackRolled)[0]
    assert rolled.faces == (5, 4) and rolled.typed and rolled.counter == s.rng
    assert RULESET.check_random(s1, rolled) is None  # nothing to re-derive from the seed


@pytest.mark.rule("ATTACK-3")
def test_typed_faces_of_the_wrong_count_or_off_the_die_are_refused_with_the_rolls_rule():
    s, _ = when(_main(), UseSkill(actor="p2", skill="flame-burst"))
    for faces in ((5,), (5, 4, 3), (0, 4), (7, 1)):
        err = violates(s, TypeFaces(actor="p2", faces=faces), "ATTACK-3")
        assert "D6" in err.message
    violates(s, TypeFaces(actor="p1", faces=(5, 4)), "ATTACK-3")  # the roll is p2's
    violates(s, Pass(actor="p2"), "ATTACK-3")  # nothing else before the faces


@pytest.mark.rule("DAMAGE-1")
@pytest.mark.rule("CRIT-2")
def test_damage_dice_and_a_criticals_four_more_wait_for_their_faces_in_turn():
    s, _ = when(_main(), UseSkill(actor="p2", skill="flame-burst"), TypeFaces(faces=(6, 6)))
    n = s.question.dice
    _asked(s, "DAMAGE-1", n)
    assert s.question.check == "damage dice"  # what the table is asked to roll
    s, _ = when(s, TypeFaces(faces=(6,) * n))  # six upon six: a critical (CRIT-1)
    _asked(s, "CRIT-2", 4)
    after, events = _typed_through(s, (2, 2, 2, 2))
    damage = of(events, ev.DamageRolled)[0]
    assert damage.faces == (6,) * n + (2, 2, 2, 2) and damage.critical and damage.typed


@pytest.mark.rule("HEAL-3")
@pytest.mark.rule("MAIN-5")
def test_a_recovery_roll_follows_its_typed_activation_roll():
    s, _ = when(_main(), UseSkill(actor="p2", skill="heal", target="p1"))
    _asked(s, "MAIN-5", 2)
    s, _ = when(s, TypeFaces(faces=(3, 4)))
    _asked(s, "HEAL-3", s.question.dice)
    after, events = _typed_through(s, (4,) * s.question.dice)
    healed = of(events, ev.Healed)[0]
    assert healed.typed and set(healed.faces) == {4}


@pytest.mark.rule("STANDBY-8")
def test_an_escape_check_takes_everyones_typed_faces():
    s, _ = when(start(physical_dice=True), Escape(actor="p1"), Escape(actor="p2"))
    n = 2 * len([c for c in s.combatants if not c.down])
    _asked(s, "STANDBY-8", n, who="p1")
    # the question says what the dice are for, and names no attack (it answers none)
    q = s.question
    assert (q.check, q.attacker, q.mode) == ("Escape: everyone's [Evasion] check, in battle order", "", "")
    after, events = _typed_through(s, (6,) * 4 + (1,) * (n - 4))
    assert of(events, ev.EscapeRolled)[0].typed and after.over


@pytest.mark.rule("ENEMY-3")
def test_identify_before_turn_one_waits_for_the_partys_faces():
    s = start(physical_dice=True, identify=True)
    assert s.turn == 0
    _asked(s, "ENEMY-3", 4, who="p1")
    after, events = _typed_through(s, (6, 6, 1, 1))
    assert of(events, ev.Identified)[0].typed and after.turn == 1


@pytest.mark.rule("ATTACK-3")
@pytest.mark.rule("MAIN-5")
def test_a_main_action_may_carry_the_faces_of_its_first_roll():
    s, events = when(_main(), UseSkill(actor="p2", skill="flame-burst", faces=(6, 5)))
    _asked(s, "DAMAGE-1", s.question.dice)  # the hit check took the faces carried: the damage dice are asked
    after, events = _typed_through(s)
    assert of(events, ev.AttackRolled)[0].faces == (6, 5)
    s, _ = when(_main(), UseSkill(actor="p2", skill="heal", target="p1", faces=(3, 4)))
    _asked(s, "HEAL-3", s.question.dice)


@pytest.mark.rule("ATTACK-3")
@pytest.mark.rule("MAIN-4")
def test_faces_carried_by_a_main_action_are_checked_at_their_roll():
    violates(_main(), UseSkill(actor="p2", skill="flame-burst", faces=(6, 5, 4)), "ATTACK-3")
    violates(_main(), UseSkill(actor="p2", skill="flame-burst", faces=(6, 0)), "ATTACK-3")
    s, _ = when(start(), Pass(actor="p1"), Pass(actor="p2"))
    violates(s, UseSkill(actor="p2", skill="flame-burst", faces=(6, 5)), "MAIN-4")


@pytest.mark.rule("MAIN-1")
def test_faces_cannot_be_typed_in_a_battle_that_rolls_its_own_dice():
    s, _ = when(start(), Pass(actor="p1"), Pass(actor="p2"))
    err = violates(s, TypeFaces(actor="p2", faces=(3, 3)), "MAIN-1")
    assert "--physical-dice" in err.message


@pytest.mark.rule("ATTACK-3")
def test_a_refused_faces_command_writes_nothing():
    s, _ = when(_main(), UseSkill(actor="p2", skill="flame-burst"))
    with pytest.raises(RuleViolation):
        when(s, TypeFaces(actor="p2", faces=(9, 9)))
    assert s.question is not None and s.question.rule == "ATTACK-3"


# --- through `rk` ---------------------------------------------------------------------------------

NEW = [
    "new",
    "labyrinth",
    "--encounter",
    "mossy-hollow",
    "--party",
    "vanguard",
    "--party",
    "mender",
    "--seed",
    "7",
    "--physical-dice",
    "--option",
    "identify=true",
]


@pytest.mark.rule("ENEMY-3")
def test_rk_legal_lists_the_roll_as_typed_faces_and_rk_roll_types_them(table):  # noqa: F811 (the fixture)
    table(*NEW)
    assert table("legal").stdout.splitlines()[0] == "rk roll p1 --faces F,F,F,F"
    listed = table("legal", json=True).json()[0]
    faces = next(p for p in listed["params"] if p["name"] == "faces")
    assert (faces["how"], faces["size"]) == ("typed", 4)
    code, _, err = table("roll", "--faces", "3,4", "--json", code=None)
    assert code != 0 and json.loads(err)["rule"] == "ENEMY-3"
    table("roll", "--faces", "3,4,5,6")
    assert "Identify [3 4 5 6]" in table("log").stdout
    assert "rk pass p1" in table("legal").stdout
    table("verify")


@pytest.mark.rule("SUPPRESS-2")
@pytest.mark.rule("FUMBLE-2")
def test_a_suppression_defense_and_its_reroll_for_fp_are_asked_by_name_under_their_rule():
    """With physical dice the table is asked for a Suppression defense roll
    by what it is, and for its reroll bought with FP under the same rule
    (found by mutation testing)."""
    from domain.labyrinth import ailments
    from domain.labyrinth.decision import Boost, NeedReaction
    from domain.labyrinth.fp import roll_spending
    from labyrinth_harness import decision, edit

    state = edit(start(physical_dice=True), "p1", fp=3)
    with pytest.raises(NeedReaction) as asked:
        ailments.check(decision(state), "p1", 10, "fear", "resist")
    q = asked.value
    assert (q.who, q.rule, q.dice, q.check) == ("p1", "SUPPRESS-2", 2, "Suppression defense: resist fear against 10")
    d = decision(state)
    d.answers = (TypeFaces(actor="p1", faces=(1, 2)),)  # the first roll fails
    with pytest.raises(NeedReaction) as asked:
        roll_spending(d, "p1", Boost("p1", reroll=True), lambda kept, absolute: False, rule="SUPPRESS-2", what="it")
    q = asked.value
    assert (q.who, q.rule, q.check) == ("p1", "SUPPRESS-2", "it, rerolled for FP")
