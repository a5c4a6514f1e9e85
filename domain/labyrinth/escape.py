"""Escape (STANDBY-8, facts: Fills STANDBY-8): when the whole party
declares it, everyone in the battle makes an [Evasion] check at once; the
escapers' best must be strictly higher than the other side's best. A Leg
bind keeps an escaper out of the check; with no escaper in it, it fails."""

from __future__ import annotations

from . import events as ev
from .decision import Decision
from .stats import stats
from .vocab import Bind, Side, Termination


def unanimous(d: Decision, escapers: set[str]) -> bool:
    """Every PC still up declared Escape (allied NPCs and tokens follow the party)."""
    party = [c.id for c in d.state.side(True) if c.side is Side.PC and not c.down]
    return bool(party) and all(cid in escapers for cid in party)


def attempt(d: Decision, escapers: set[str]) -> bool:
    """Everyone's check in one event; the battle ends if the party got away."""
    everyone = [c for c in d.state.combatants if not c.down]
    faces, counter = d.roll(2 * len(everyone))
    totals = tuple(faces[2 * i] + faces[2 * i + 1] + stats(c, d.pack).evasion for i, c in enumerate(everyone))
    takers = tuple(c.id for c in everyone if c.id in escapers and not c.bound(Bind.LEG))
    best = {c.id: t for c, t in zip(everyone, totals)}
    ours = max((best[cid] for cid in takers), default=None)
    theirs = max((best[c.id] for c in everyone if not c.pc_side), default=0)
    escaped = ours is not None and ours > theirs  # a tie fails: the escapers are the active side
    d.emit(ev.EscapeRolled(ids=tuple(c.id for c in everyone), faces=faces, counter=counter, totals=totals,
                           takers=takers, escaped=escaped))
    if escaped:
        d.emit(ev.BattleEnded(termination=Termination.ESCAPED))  # no drop rolls after an escape
    return escaped
