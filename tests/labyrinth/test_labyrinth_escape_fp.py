"""Spending FP on the Escape check (FUMBLE-2 with STANDBY-8; facts: Fills
FUMBLE-2, Fills STANDBY-8): an escaping PC declares, with its Escape, FP
for extra dice on its own [Evasion] check (+1D6 each, the best 2 kept and
the check judged on them, OQ 4) and a reroll of that check if the escape
fails (once, for ``fp_reroll_cost`` FP, OQ 18). Paid only when the escape
is tried; refused, writing nothing, when the PC lacks the FP.

Exact outcomes: one fighter (Evasion 6) against one slime (Evasion 7), the
faces pinned (``pinned``/``at``): the check rolls the fighter's dice, then
the slime's, then any reroll's, from one counter."""

from __future__ import annotations

import msgspec
import pytest
from labyrinth_harness import PACK, at, edit, of, pinned, start, violates, when
from msgspec.structs import replace

from domain.kernel.portable.chain import without_skipped_defaults
from domain.labyrinth import events as ev
from domain.labyrinth.catalog import Encounter, EncounterEnemy
from domain.labyrinth.commands import Escape, Member, Pass
from domain.labyrinth.decision import RulesContext, faces_at
from domain.labyrinth.narrate import describe_event
from domain.labyrinth.ruleset import RULESET
from domain.labyrinth.state import Affliction
from domain.labyrinth.vocab import Termination

LONE = Encounter(id="lone", name="A lone slime", enemies=(EncounterEnemy(enemy="slime"),))
CTX = RulesContext(pack=replace(PACK, encounters={**PACK.encounters, "lone": LONE}))
FIGHTER, MAGE = Member(cls="fighter"), Member(cls="mage")
EVASION = {"p1": 6, "p2": 6, "e1": 7}  # the fixture's fighter and mage at level 1, and its slime


def battle(fp: int, faces: tuple[int, ...], party=(FIGHTER,), **options):
    """The fighter (and ``party``'s others) against the lone slime, with
    ``fp`` FP each, the next faces rolled being ``faces``."""
    state = start(encounter="lone", party=party, ctx=CTX, **options)
    for c in state.side(True):
        state = edit(state, c.id, fp=fp)
    # 7 faces pinned may lie a few million counters on
    return at(state, pinned(state.seed, faces, state.rng, limit=400000 if len(faces) < 7 else 5000000))


def escape(state, *commands):
    """Decide ``commands`` (the party's declarations) and fold their events."""
    state, events = when(state, *commands, ctx=CTX)
    return state, events, of(events, ev.EscapeRolled)[0]


def spent(events) -> list[tuple[str, int, str]]:
    return [(e.who, e.amount, e.reason) for e in of(events, ev.FpSpent)]


# --- extra dice ---------------------------------------------------------------------------


@pytest.mark.rule("FUMBLE-2")
@pytest.mark.rule("STANDBY-8")
def test_extra_dice_on_the_escape_check_keep_the_best_two_and_the_party_escapes_on_them():
    state, events, rolled = escape(battle(3, (1, 1, 6, 5, 5, 4)), Escape(actor="p1", fp=2))
    assert spent(events) == [("p1", 2, "extra dice")]
    assert (rolled.dice, rolled.kept, rolled.totals) == ((4, 2), (6, 5, 5, 4), (6 + 5 + 6, 5 + 4 + 7))
    assert rolled.checks() == (((1, 1, 6, 5), ()), ((5, 4), ()))
    assert rolled.escaped and state.termination is Termination.ESCAPED
    assert state.get("p1").fp == 1  # 3 - 2, and that roll gives no FP (its two 1s)


@pytest.mark.rule("FUMBLE-2")
@pytest.mark.rule("STANDBY-8")
def test_the_escape_is_judged_on_the_two_dice_kept_not_on_every_die_rolled():
    # every die would make 2 + 2 + 6 + 5 + 6 = 21 > 18; the 2 kept make 17, and 17 < 18 fails
    state, events, rolled = escape(battle(2, (2, 2, 6, 5, 6, 5)), Escape(actor="p1", fp=2))
    assert (rolled.kept, rolled.totals, rolled.escaped) == ((6, 5, 6, 5), (17, 18), False)
    assert not state.over and spent(events) == [("p1", 2, "extra dice")] and state.get("p1").fp == 0


# --- the reroll -----------------------------------------------------------------------------


@pytest.mark.rule("FUMBLE-2")
@pytest.mark.rule("STANDBY-8")
@pytest.mark.parametrize("cost", [1, 2])
def test_a_failed_escape_rerolls_the_pcs_check_once_for_fp_reroll_cost(cost):
    # 1 + 2 + 6 = 9 against 5 + 5 + 7 = 17 fails; rolled again, 6 + 6 + 6 = 18 beats it
    state, events, rolled = escape(battle(2, (1, 2, 5, 5, 6, 6), fp_reroll_cost=cost), Escape(actor="p1", reroll=True))
    assert spent(events) == [("p1", cost, "reroll")] and state.get("p1").fp == 2 - cost
    assert (rolled.rerolled, rolled.faces, rolled.dice) == (("p1",), (1, 2, 5, 5, 6, 6), ())
    assert rolled.checks() == (((1, 2), (6, 6)), ((5, 5), ()))
    assert (rolled.kept, rolled.totals, rolled.escaped) == ((6, 6, 5, 5), (18, 17), True)
    assert not of(events, ev.CheckRerolled) and state.termination is Termination.ESCAPED


@pytest.mark.rule("FUMBLE-2")
@pytest.mark.rule("STANDBY-8")
def test_an_escape_that_succeeds_takes_no_reroll_and_pays_nothing():
    state, events, rolled = escape(battle(2, (6, 6, 1, 1)), Escape(actor="p1", reroll=True))
    assert rolled.escaped and spent(events) == [] and state.get("p1").fp == 2
    assert (rolled.rerolled, rolled.kept, rolled.dice) == ((), (), ())  # as an escape with no FP committed


@pytest.mark.rule("FUMBLE-2")
@pytest.mark.rule("STANDBY-8")
def test_the_reroll_is_taken_once_and_paid_even_when_the_escape_still_fails():
    state, events, rolled = escape(battle(3, (1, 1, 6, 6, 1, 1)), Escape(actor="p1", reroll=True))
    assert (rolled.rerolled, rolled.totals, rolled.escaped) == (("p1",), (8, 19), False)
    assert spent(events) == [("p1", 1, "reroll")] and state.get("p1").fp == 2 and not state.over


@pytest.mark.rule("FUMBLE-2")
@pytest.mark.rule("STANDBY-8")
def test_the_added_dice_stay_and_are_rolled_again_with_the_reroll():
    # [1 1 2] keeps [2 1]: 9 < 17; rolled again, [6 6 x] keeps [6 6]: 18 > 17 (x not pinned)
    state, events, rolled = escape(battle(2, (1, 1, 2, 5, 5, 6, 6)), Escape(actor="p1", fp=1, reroll=True))
    assert spent(events) == [("p1", 1, "extra dice"), ("p1", 1, "reroll")] and state.get("p1").fp == 0
    again = (6, 6, rolled.faces[7])
    assert len(rolled.faces) == 8 and rolled.faces[7] == faces_at(state.seed, rolled.counter + 7, 1)[0]
    assert rolled.dice == (3, 2) and rolled.checks() == (((1, 1, 2), again), ((5, 5), ()))
    assert (rolled.kept, rolled.totals, rolled.escaped) == ((6, 6, 5, 5), (18, 17), True)
    line = describe_event(rolled, state)
    assert f"Fighter [1 1 2] rolled again [6 6 {again[2]}] keeping [6 6] 18, Slime [5 5] 17" in line


@pytest.mark.rule("FUMBLE-2")
@pytest.mark.rule("STANDBY-8")
def test_rerolls_are_taken_in_the_checks_order_only_while_the_escape_still_fails():
    # fighter 8, mage 8 against 11: the fighter's reroll starts with a 6, so 6 + 1 + 6 > 10 at least
    state, events, rolled = escape(
        battle(1, (1, 1, 1, 1, 1, 3, 6), party=(FIGHTER, MAGE)),
        Escape(actor="p1", reroll=True),
        Escape(actor="p2", reroll=True),
    )
    assert rolled.rerolled == ("p1",) and rolled.escaped
    assert spent(events) == [("p1", 1, "reroll")]
    assert (state.get("p1").fp, state.get("p2").fp) == (0, 1)
    last = faces_at(state.seed, rolled.counter + 6, 2)
    assert rolled.faces[6:] == last and rolled.totals == (sum(last) + 6, 8, 11)


# --- paid only when it is tried, by those taking part ----------------------------------------


@pytest.mark.rule("FUMBLE-2")
@pytest.mark.rule("STANDBY-8")
def test_nothing_is_paid_when_the_whole_party_does_not_declare_escape():
    state = battle(2, (1, 1), party=(FIGHTER, MAGE))
    state, events = when(state, Escape(actor="p1", fp=1, reroll=True), Pass(actor="p2"), ctx=CTX)
    assert [e.rule for e in of(events, ev.DeclarationLapsed)] == ["STANDBY-8"]
    assert not of(events, ev.EscapeRolled) and spent(events) == [] and state.get("p1").fp == 2


@pytest.mark.rule("FUMBLE-2")
@pytest.mark.rule("BIND-LEG")
def test_a_leg_bound_pc_kept_out_of_the_check_spends_nothing():
    state = battle(2, (1, 1), party=(FIGHTER, MAGE))
    state = edit(state, "p1", binds=(Affliction(kind="leg", depth=20),))
    state, events, rolled = escape(state, Escape(actor="p1", fp=2), Escape(actor="p2"))
    assert rolled.takers == ("p2",) and rolled.dice == () and spent(events) == [] and state.get("p1").fp == 2


@pytest.mark.rule("FUMBLE-2")
@pytest.mark.rule("STANDBY-8")
def test_the_escape_check_gives_no_fp_for_its_ones():
    """The reading kept (see escape.py): STANDBY-8 calls Escape a special
    check, so its 1s give no FP, as before FP could be spent on it."""
    state, events, rolled = escape(battle(1, (1, 1, 6, 6)), Escape(actor="p1"))
    assert rolled.faces[:2] == (1, 1) and not rolled.escaped and state.get("p1").fp == 1


# --- refused when short ----------------------------------------------------------------------


@pytest.mark.rule("FUMBLE-2")
@pytest.mark.parametrize(
    "command, options",
    [
        (Escape(actor="p1", fp=2), {}),
        (Escape(actor="p1", fp=1, reroll=True), {}),
        (Escape(actor="p1", reroll=True), {"fp_reroll_cost": 2}),
        (Escape(actor="p1", fp=-1), {}),
    ],
)
def test_an_escape_spending_more_fp_than_the_pc_holds_is_refused_writing_nothing(command, options):
    state = start(**options)
    assert state.get("p1").fp == 1  # 1 FP at the start
    assert "FP" in str(violates(state, command, "FUMBLE-2"))  # raised: no event comes back, nothing is written


@pytest.mark.rule("FUMBLE-2")
def test_the_declaration_records_what_is_committed_and_the_narration_says_it():
    state, events = when(edit(start(), "p1", fp=3), Escape(actor="p1", fp=2, reroll=True))
    x = of(events, ev.Declared)[0].declaration
    assert (x.action, x.fp, x.reroll) == ("escape", 2, True) and state.get("p1").fp == 3  # not paid yet
    assert (
        describe_event(of(events, ev.Declared)[0], state)
        == "Fighter declares escape (2 FP for extra dice, a reroll if it fails)"
    )
    assert RULESET.describe_command(Escape(actor="p1", fp=2, reroll=True)) == "escape p1 --fp 2 --reroll"
    assert RULESET.describe_command(Escape(actor="p1")) == "escape p1"


@pytest.mark.rule("STANDBY-8")
def test_a_plain_escape_is_stored_and_digested_as_before_the_fp_fields():
    assert without_skipped_defaults(Escape(actor="p1")) == {"type": "Escape", "actor": "p1"}
    state, events, rolled = escape(battle(0, (1, 2, 3, 4)), Escape(actor="p1"))
    assert set(msgspec.to_builtins(without_skipped_defaults(rolled))) == {
        "faces",
        "counter",
        "ids",
        "totals",
        "takers",
        "escaped",
    }
    declared = of(events, ev.Declared)[0].declaration
    assert set(msgspec.to_builtins(without_skipped_defaults(declared))) == {
        "who",
        "action",
        "row",
        "order",
        "skill",
        "target",
    }


# --- the command line ------------------------------------------------------------------------


@pytest.mark.rule("FUMBLE-2")
@pytest.mark.rule("STANDBY-8")
def test_rk_escape_takes_fp_and_reroll_refuses_what_a_pc_lacks_and_the_log_shows_them(table):
    code, out, err = table(
        "new",
        "labyrinth",
        "--encounter",
        "mossy-hollow",
        "--party",
        "vanguard",
        "--party",
        "mender",
        "--seed",
        "4",
        "--battle",
        "lab",
        code=None,
    )
    assert code == 0, err
    app = table.defaults.apps["memory"]
    before = app.battle("lab").version
    code, out, err = table("escape", "p1", "--fp", "1", "--reroll", code=None)  # 1 FP held, 2 needed
    assert (code, err.split(":")[0]) == (2, "FUMBLE-2"), err
    assert app.battle("lab").version == before
    table("escape", "p1", "--fp", "1")
    table("escape", "p2", "--reroll")
    code, log, err = table("log", code=None)
    text = " ".join(log.split())
    assert "rk escape p1 --fp 1" in text and "rk escape p2 --reroll" in text
    assert "declares escape (1 FP for extra dice)" in text and "spends 1 FP: extra dice" in text
    assert "escape check" in text
    code, out, err = table("verify", code=None)
    assert code == 0 and "ok" in out, (out, err)
