"""What the table is offered (issue 24): nothing legal is a trap, and a
command says what it gives up. A Pursuit skill aimed at its own user and a
Recovery of a target at its maximum are legal (``decide`` takes them) but
only spend the action, so they are not offered; Full defense says it gives
up the Main-phase action."""

from __future__ import annotations

import pytest
from labyrinth_harness import CTX, edit, legal, start, when

from domain.labyrinth import events as ev
from domain.labyrinth.commands import FullDefense, Pass, UseItem, UseSkill
from domain.labyrinth.ruleset import RULESET
from domain.labyrinth.stats import stats
from domain.labyrinth.vocab import Buff


def _mage_up():
    """The Main phase with p2 (the mage, who knows ``follow``) acting, in reach."""
    state, _ = when(start(), Pass(actor="p1"), Pass(actor="p2"))
    assert state.acting == "p2"
    return edit(state, "p2", row=state.get("p1").row)


@pytest.mark.rule("BUFF-CHASE")
def test_a_pursuit_skill_aimed_at_its_user_is_legal_but_not_offered():
    state = _mage_up()
    offered = [c for c in legal(state) if isinstance(c, UseSkill) and c.skill == "follow"]
    assert offered and {c.target for c in offered} == {"p1"}  # p2 pursues p1, never itself
    after, events = when(state, UseSkill(actor="p2", skill="follow", target="p2"))
    assert ev.SkillUsed in {type(e) for e in events}  # the rules take it and the TP is spent
    assert not [b for b in after.get("p2").buffs if b.kind is Buff.CHASE]  # and nothing else


@pytest.mark.rule("HEAL-3")
def test_a_recovery_of_a_target_at_its_maximum_is_not_offered():
    state = _mage_up()
    state = edit(state, "p2", items=("salve",))
    state = edit(state, "p1", hp=stats(state.get("p1"), CTX.pack).max_hp - 1)
    full = stats(state.get("p2"), CTX.pack).max_hp
    state = edit(state, "p2", hp=full)
    targets = {c.target for c in legal(state) if isinstance(c, UseItem)}
    assert "p1" in targets and "p2" not in targets
    _, events = when(state, UseItem(actor="p2", item="salve", target="p2"))  # still legal: heals nothing
    assert [e.amount for e in events if isinstance(e, ev.Healed)] == [0]


@pytest.mark.rule("WAIT-1")
@pytest.mark.rule("STANDBY-6")
def test_full_defense_says_it_gives_up_the_main_phase_action():
    state = start()
    listed = legal(state)
    full = next(c for c in listed if isinstance(c, FullDefense))
    noted = RULESET.gives_up(state, CTX, full, listed)
    assert [(g.what, g.rule) for g in noted] == [("your action in the Main phase (Waiting)", "WAIT-1")]
    assert RULESET.gives_up(state, CTX, next(c for c in listed if isinstance(c, Pass)), listed) == ()
