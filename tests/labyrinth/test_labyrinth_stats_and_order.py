"""Derived stats by the facts' formulas with equipment, ailments, binds and
buffs applied; the Main-phase acting order."""

from __future__ import annotations

import pytest
from labyrinth_harness import PACK, edit, start

from domain.labyrinth.order import acting_order
from domain.labyrinth.state import ActiveBuff, Affliction
from domain.labyrinth.stats import stats
from domain.labyrinth.vocab import Ailment, Bind, Buff, Side


@pytest.mark.rule("MAIN-2")
def test_a_level_1_fighter_has_the_stats_of_the_facts_formulas_with_its_gear():
    fighter = start().get("p1")  # STR 12, TEC 5, VIT 11, AGI 8, LUC 6; sword +4, mail 2
    s = stats(fighter, PACK)
    assert (s.max_hp, s.max_tp, s.phit, s.ehit, s.evasion) == (10, 5, 1, 1, 6)
    assert (s.patk, s.eatk, s.defense, s.satk, s.sdef, s.speed) == (6, 1, 2, 1, 1, 8)
    assert fighter.hp == 10 and fighter.tp == 5 and fighter.fp == 1


@pytest.mark.rule("AILMENT-BLIND")
def test_blindness_takes_3_from_both_hits_and_evasion():
    state = start()
    base = edit(state, "p1", base=_with(state.get("p1").base, phit=7, ehit=6, evasion=5))
    blind = edit(base, "p1", ailments=(Affliction(kind=Ailment.BLIND.value, depth=10),))
    s = stats(blind.get("p1"), PACK)
    assert (s.phit, s.ehit, s.evasion) == (4, 3, 2)


def _with(base, **changes):
    from msgspec.structs import replace

    return replace(base, **changes)


@pytest.mark.rule("BIND-HEAD")
@pytest.mark.rule("BIND-ARM")
@pytest.mark.rule("BIND-LEG")
def test_binds_cost_hits_attack_and_evasion():
    state = start()
    plain = stats(state.get("p1"), PACK)
    for part, check in (
        (Bind.HEAD, lambda s: (s.phit, s.ehit) == (plain.phit - 2, plain.ehit - 2)),
        (Bind.ARM, lambda s: s.patk == plain.patk - 4),
        (Bind.LEG, lambda s: s.evasion == 0),
    ):
        bound = edit(state, "p1", binds=(Affliction(kind=part.value, depth=9),))
        assert check(stats(bound.get("p1"), PACK)), part


@pytest.mark.rule("BUFF-PATK-UP")
@pytest.mark.rule("BUFF-SPD-DOWN")
@pytest.mark.rule("BUFF-HIT-UP")
def test_buffs_and_debuffs_move_their_stats_by_their_amount():
    state = edit(
        start(),
        "p1",
        buffs=(
            ActiveBuff(kind=Buff.PATK_UP, amount=3),
            ActiveBuff(kind=Buff.SPD_DOWN, amount=2),
            ActiveBuff(kind=Buff.HIT_UP, amount=1),
        ),
    )
    s = stats(state.get("p1"), PACK)
    assert (s.patk, s.speed, s.phit, s.ehit) == (9, 6, 2, 2)


@pytest.mark.rule("ORDER-1")
def test_speed_below_zero_counts_as_zero_and_the_fastest_acts_first():
    state = edit(start(), "p1", buffs=(ActiveBuff(kind=Buff.SPD_DOWN, amount=30),))
    assert stats(state.get("p1"), PACK).speed == 0
    assert acting_order(state, PACK) == ("p2", "e1", "e2", "p1")


@pytest.mark.rule("ORDER-2")
def test_a_speed_tie_goes_pc_then_allied_npc_then_enemy():
    state = start()
    speed8 = lambda c: _with(c.base, speed=8)  # noqa: E731
    state = edit(state, "p1", base=speed8(state.get("p1")))
    state = edit(state, "p2", base=_with(state.get("p2").base, speed=8), side=Side.NPC, weapon="", armor="")
    state = edit(state, "e2", base=speed8(state.get("e2")))
    state = edit(state, "e1", base=_with(state.get("e1").base, speed=8))
    # The Enemies come first in the roster of this check; the tie still puts them last.
    assert acting_order(state, PACK) == ("p1", "p2", "e1", "e2")
