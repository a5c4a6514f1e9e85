"""The labyrinth ruleset on the kernel: registry, random outcomes checked
against (seed, counter), words, seats; and the battle's end: wipe-out,
drops, incapacitation and the row swap, the GM's Enemy actions."""

from __future__ import annotations

import msgspec
import pytest
from labyrinth_harness import PACK, at, decision, edit, legal, of, pinned, start, violates, when

from domain.kernel import ruleset as registry
from domain.kernel.ruleset import HOST
from domain.labyrinth import casualties
from domain.labyrinth import events as ev
from domain.labyrinth.commands import Attack, EnemyAct, Pass, UseSkill
from domain.labyrinth.ruleset import RULESET
from domain.labyrinth.vocab import Row, Termination


def test_the_kernel_finds_the_labyrinth_ruleset_by_name():
    assert registry.load("labyrinth") is RULESET
    assert "labyrinth" in registry.names()


def test_a_tampered_face_is_caught_by_check_random():
    state, _ = when(start(), Pass(actor="p1"), Pass(actor="p2"))
    produced = RULESET.decide(state, UseSkill(actor="p2", skill="flame-burst"), RULESET.context(PACK, state)).events
    rolled = next(e for e in produced if isinstance(e, ev.AttackRolled))
    before = state
    for e in produced:
        if e is rolled:
            break
        before = RULESET.evolve(before, e)
    assert RULESET.check_random(before, rolled) is None
    bad = msgspec.structs.replace(rolled, faces=(7 - rolled.faces[0], rolled.faces[1]))
    assert RULESET.check_random(before, bad) is not None


def test_commands_read_as_a_person_would_type_them():
    assert RULESET.describe_command(Attack(actor="p1", target="e2")) == "attack p1 e2"
    assert (
        RULESET.describe_command(UseSkill(actor="p2", skill="flame-burst", target="e1"))
        == "skill p2 flame-burst --target e1"
    )


def test_there_is_one_seat_per_pc_and_enemy_actions_are_the_hosts():
    state = start(gm_enemies=True)
    assert [s.key for s in RULESET.seats(state)] == ["p1", "p2"]
    assert RULESET.actor(state, Pass(actor="p2")) == "p2"
    assert RULESET.actor(state, EnemyAct(actor="e1")) == HOST  # the GM's: no seat gives it
    assert RULESET.actor(state, Pass(actor="e1")) == HOST


def test_with_gm_enemies_the_gm_chooses_the_acting_enemys_action():
    state, _ = when(start(gm_enemies=True), Pass(actor="p1"), Pass(actor="p2"), Pass(actor="p2"), Pass(actor="p1"))
    assert state.acting == "e1"
    assert all(isinstance(c, EnemyAct) for c in legal(state))
    state, events = when(state, EnemyAct(actor="e1", target="p1"))
    assert of(events, ev.AttackRolled)[0].attacker == "e1" and state.acting == "e2"
    violates(state, EnemyAct(actor="e1", target="p1"), "ORDER-1")


@pytest.mark.rule("ORDER-1")
def test_a_pc_cannot_act_out_of_turn():
    state, _ = when(start(), Pass(actor="p1"), Pass(actor="p2"))
    violates(state, Attack(actor="p1", target="e1"), "ORDER-1")


def test_a_side_whose_front_row_is_all_out_swaps_rows():
    state = edit(start(), "p1", hp=0)
    d = decision(state)
    casualties.settle(d)
    assert d.state.get("p2").row is Row.FRONT and of(d.events, ev.RowsSwapped)


def test_wiping_out_the_enemies_ends_the_battle_with_a_drop_roll_each():
    state = edit(edit(start(), "e1", hp=0), "e2", hp=0)
    d = decision(at(state, pinned(state.seed, (3, 4, 6, 5), state.rng)))
    casualties.settle(d)
    assert d.state.termination is Termination.PCS_WIN
    drops = of(d.events, ev.DropRolled)
    assert [(x.total, x.item) for x in drops] == [(7, "goo"), (11, "gem")]
    assert d.state.drops == ("goo", "gem")


def test_a_wiped_out_party_loses():
    state = edit(edit(start(), "p1", hp=0), "p2", hp=-1)
    d = decision(state)
    casualties.settle(d)
    assert d.state.termination is Termination.PCS_LOSE and not of(d.events, ev.DropRolled)


def test_a_finished_battle_refuses_further_commands_and_offers_none():
    state = edit(edit(start(), "e1", hp=0), "e2", hp=0)
    d = decision(state)
    casualties.settle(d)
    assert legal(d.state) == []
    violates(d.state, Pass(actor="p1"), "STANDBY-1")
    assert RULESET.summary(d.state).over
