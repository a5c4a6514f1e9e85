"""Edges that mutation testing (tests/MUTATION.md) found unguarded: the
stronger Poison kept when a held one is inflicted again, and what a
refusal says, not only that it comes."""

from __future__ import annotations

import pytest
from labyrinth_harness import CTX, PARTY, at, decision, edit, pinned, start, violates, when

from domain.labyrinth import ailments
from domain.kernel.errors import RuleViolation
from domain.labyrinth.commands import Pass, StartLabyrinth, TypeFaces
from domain.labyrinth.enemies import usable_skills
from domain.labyrinth.rules import decide
from domain.labyrinth.state import Affliction, Options
from domain.labyrinth.stats import stats
from domain.labyrinth.vocab import Ailment, Timing


@pytest.mark.rule("AILMENT-POISON")
@pytest.mark.rule("DEPTH-2")
def test_a_stronger_poison_inflicted_again_replaces_the_weaker_one_it_finds():
    """The Mage (p2, Suppression attack 2) poisons e1, who holds p1's
    Poison of 1: the depth rises (DEPTH-2) and the stronger Poison stays."""
    state = edit(start(), "e1", ailments=(Affliction(kind="poison", depth=5, poison=1, source="p1"),))
    d = decision(at(state, pinned(state.seed, (1, 1), state.rng)))  # the Suppression roll fails
    assert ailments.inflict(d, "p2", "e1", Ailment.POISON, 10)
    held = d.state.get("e1").ailment(Ailment.POISON)
    assert stats(state.get("p2"), d.pack).satk == 2
    assert (held.depth, held.poison, held.source) == (10, 2, "p2")


@pytest.mark.rule("MAIN-1")
def test_faces_typed_when_no_roll_waits_are_refused_saying_so():
    state, _ = when(start(physical_dice=True), Pass(actor="p1"), Pass(actor="p2"))
    assert state.question is None
    rv = violates(state, TypeFaces(actor="p2", faces=(3,)), "MAIN-1")
    assert rv.message == "no roll waits for typed faces"


@pytest.mark.rule("MAIN-4")
def test_an_enemy_skill_with_no_one_to_aim_at_is_not_among_its_usable_skills():
    state = edit(start(), "e1", skills=("power-strike",), tp=10)
    usable = usable_skills(state, CTX.pack, state.get("e1"), Timing.MAIN)
    assert [s.id for s in usable] == ["power-strike"]
    alone = edit(edit(state, "p1", hp=0), "p2", hp=0)  # no opponent left standing to aim at
    assert usable_skills(alone, CTX.pack, alone.get("e1"), Timing.MAIN) == []


@pytest.mark.rule("STANDBY-1")
def test_a_battle_set_up_already_is_not_set_up_again():
    state = start()
    cmd = StartLabyrinth(battle_id="t", encounter="slimes", party=PARTY, seed=1, options=Options())
    with pytest.raises(RuleViolation) as caught:
        decide(state, cmd, CTX)
    assert (caught.value.rule, caught.value.message) == ("STANDBY-1", "this battle is already set up")
