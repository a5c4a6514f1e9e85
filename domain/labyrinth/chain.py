"""Pursuits (CHASE-1 .. CHASE-5, BUFF-CHASE): after an ordinary attack roll
by a character, everyone holding Pursuit:<that character> makes a Normal
attack's physical attack roll on its target, in acting order, once the
triggering roll is fully resolved (facts default). A Pursuit never follows
a Pursuit or a Counter; a Counter may answer a Pursuit (``attack.py``)."""

from __future__ import annotations

from . import buffs
from .attack import NORMAL, PURSUIT, SKILL, attack
from .decision import Decision
from .order import acting_order
from .targeting import ambushed, can_react, effect_reach, in_reach
from .vocab import Buff

FOLLOWED = (NORMAL, SKILL)  # the chain table: only ordinary attack rolls draw a Pursuit


def pursuers(d: Decision, attacker: str) -> list[str]:
    """Who holds Pursuit:``attacker`` and can pursue now, in acting order."""
    a = d.state.get(attacker)
    out = []
    for cid in acting_order(d.state, d.pack):
        c = d.state.get(cid)
        if cid == attacker or c.pc_side != a.pc_side or not can_react(c) or ambushed(d.state, c):
            continue
        if any(b.kind == Buff.CHASE and b.target == attacker for b in c.buffs):
            out.append(cid)
    return out


def pursue(d: Decision, attacker: str, targets: tuple[str, ...], mode: str) -> None:
    """The Pursuits an attack roll of ``mode`` by ``attacker`` draws (CHASE-4, CHASE-5)."""
    if mode not in FOLLOWED:
        return
    for cid in pursuers(d, attacker):
        if d.state.over:
            return
        c = d.state.get(cid)
        if not can_react(c):
            continue
        reach = effect_reach(d.pack, c, None)
        live = [
            t
            for t in targets
            if not d.state.get(t).down
            and (in_reach(c, d.state.get(t), reach) or not d.state.options.follow_ups_need_range)
        ]
        if live:
            attack(d, cid, (live[0],), mode=PURSUIT)
            if not d.state.options.pursuit_stays and not d.state.over:
                # without the OQ 64 reading a Pursuit:● is spent by pursuing once
                held = d.state.get(cid)
                buffs.remove(
                    d,
                    cid,
                    tuple(b for b in held.buffs if b.kind == Buff.CHASE and b.target == attacker),
                    "BUFF-CHASE",
                    "pursued: the grant is spent",
                )
