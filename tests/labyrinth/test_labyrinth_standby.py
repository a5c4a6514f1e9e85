"""The Standby phase: simultaneous declarations resolved in Main-phase
order (STANDBY-1), moving only oneself within the row limit (STANDBY-2,
STANDBY-3, SCALE-1), swapping weapons (STANDBY-4), Standby skills
(STANDBY-5), Escape (STANDBY-8), ambush."""

from __future__ import annotations

import pytest
from labyrinth_harness import at, edit, legal, of, start, violates, when

from domain.labyrinth import events as ev
from domain.labyrinth.commands import Attack, Escape, Member, Move, Pass, SwapWeapons, UseStandbySkill
from domain.labyrinth.decision import faces_at
from domain.labyrinth.state import Affliction
from domain.labyrinth.vocab import Buff, Phase, Row, Side, Termination


@pytest.mark.rule("STANDBY-1")
def test_declarations_wait_for_every_pc_then_resolve_and_the_main_phase_begins():
    state, events = when(start(), Move(actor="p1", row=Row.BACK, order=1))
    assert state.phase is Phase.STANDBY and state.get("p1").row is Row.FRONT  # not yet resolved
    violates(state, Pass(actor="p1"), "STANDBY-1")  # once each
    state, events = when(state, Pass(actor="p2"))
    assert state.phase is Phase.MAIN and of(events, ev.MainStarted)


@pytest.mark.rule("STANDBY-2")
@pytest.mark.rule("STANDBY-3")
def test_a_move_places_only_the_mover_and_keeps_the_others_order():
    state, events = when(start(), Move(actor="p1", row=Row.BACK, order=1), Pass(actor="p2"))
    # the fighter was the whole front row: moving back empties it, so the rows swap (facts section 8)
    moved = of(events, ev.Moved)[0]
    assert [(p.id, p.row, p.order) for p in moved.places] == [("p1", Row.BACK, 1), ("p2", Row.BACK, 2)]
    assert of(events, ev.RowsSwapped)
    assert {c.row for c in state.side(True)} == {Row.FRONT}


@pytest.mark.rule("SCALE-1")
def test_a_fourth_pc_cannot_join_a_full_row():
    party = tuple(Member(cls="fighter") for _ in range(3)) + (Member(cls="mage"),)
    state = start(party=party)
    violates(state, Move(actor="p4", row=Row.FRONT, order=1), "SCALE-1")
    assert not [c for c in legal(state) if isinstance(c, Move) and c.actor == "p4" and c.row is Row.FRONT]


@pytest.mark.rule("STANDBY-4")
def test_weapons_swap_only_with_a_weapon_in_both_slots():
    state, events = when(start(), SwapWeapons(actor="p1"), Pass(actor="p2"))
    assert (state.get("p1").weapon, state.get("p1").other) == ("bow", "sword")
    violates(start(), SwapWeapons(actor="p2"), "STANDBY-4")


@pytest.mark.rule("STANDBY-5")
def test_a_standby_skill_resolves_in_order_and_a_main_skill_is_refused_in_standby():
    state = start(party=(Member(cls="fighter", level=2), Member(cls="mage")))
    violates(state, UseStandbySkill(actor="p1", skill="power-strike", target="e1"), "STANDBY-5")
    state = at(state, _no_fumble(state))
    state, events = when(state, UseStandbySkill(actor="p1", skill="rally"), Pass(actor="p2"))
    assert [b.kind for b in state.get("p2").buffs] == [Buff.PATK_UP]
    assert state.get("p1").tp == state.get("p1").base.max_tp - 1


def _no_fumble(state):
    counter = state.rng
    while faces_at(state.seed, counter, 2) == (1, 1):
        counter += 1
    return counter


@pytest.mark.rule("MAIN-1")
def test_a_main_action_cannot_be_declared_in_standby():
    violates(start(), Attack(actor="p1", target="e1"), "MAIN-1")


@pytest.mark.rule("STANDBY-8")
def test_escape_needs_the_whole_party():
    state, events = when(start(), Escape(actor="p1"), Pass(actor="p2"))
    assert [e.rule for e in of(events, ev.DeclarationLapsed)] == ["STANDBY-8"]
    assert not of(events, ev.EscapeRolled)


@pytest.mark.rule("STANDBY-8")
def test_escape_succeeds_only_when_the_escapers_best_beats_the_other_sides_best():
    for seed in range(1, 40):
        state, events = when(start(seed), Escape(actor="p1"), Escape(actor="p2"))
        rolled = of(events, ev.EscapeRolled)[0]
        best = dict(zip(rolled.ids, rolled.totals))
        ours, theirs = max(best["p1"], best["p2"]), max(best["e1"], best["e2"])
        assert rolled.escaped == (ours > theirs)
        assert (state.termination is Termination.ESCAPED) == rolled.escaped
        if rolled.escaped:
            assert not of(events, ev.DropRolled)


@pytest.mark.rule("STANDBY-8")
@pytest.mark.rule("BIND-LEG")
def test_leg_bound_escapers_cannot_take_part_and_with_none_the_escape_fails():
    state = start()
    for pc in ("p1", "p2"):
        state = edit(state, pc, binds=(Affliction(kind="leg", depth=20),))
    state, events = when(state, Escape(actor="p1"), Escape(actor="p2"))
    rolled = of(events, ev.EscapeRolled)[0]
    assert rolled.takers == () and not rolled.escaped and not state.over


def test_an_ambushed_party_takes_no_action_in_turn_1():
    state = start(ambush=Side.PC)
    # turn 1 played itself: the party could declare nothing and take no Main action
    assert state.turn >= 2 or state.over
