"""A labyrinth battle as the page draws it ("rows"): the two sides, each a
front and a back row of combatants in their left-to-right order, with HP,
TP, FP, ailments and binds with their depth, buffs and debuffs with their
turns left; the turn, the phase, and who the battle waits for (the PCs
whose Standby declarations are awaited, the PC acting, or the GM)."""

from __future__ import annotations

from typing import Any

from .flow import waits_for
from .standby import awaiting
from .state import Combatant, LabyrinthState
from .stats import stats
from .vocab import Phase, Row


def board(seen: Any) -> dict[str, Any]:
    """The "rows" board: ``awaited`` lists the ids the battle waits for
    (PCs to declare, the acting PC, the acting Enemy under the GM, or the
    one whose passive action is asked: ``question``)."""
    s: LabyrinthState = seen.state
    pack = seen.pack
    who = waits_for(s)
    q = s.question
    if q is not None:  # a passive action chosen by hand (PASSIVE-1 .. PASSIVE-3)
        awaited = [q.who]
    elif who == "standby":
        awaited = [c.id for c in awaiting(s, pack)]
    elif who:
        awaited = [s.acting]
    else:
        awaited = []
    return {
        "kind": "rows",
        "turn": s.turn,
        "round": s.turn,
        "phase": s.phase.value,
        "phase_name": "over" if s.phase is Phase.OVER else s.phase.value.title(),
        "waits_for": who,
        "awaited": awaited,
        "acting": s.acting or None,
        "question": None
        if q is None
        else {
            "kind": q.kind,
            "who": q.who,
            "attacker": q.attacker,
            "skills": list(q.skills),
            "check": q.check,
            "dice": q.dice,
            "rule": q.rule,
        },
        "window": s.window or None,
        "queue": list(s.queue),
        "outcome": s.termination.value if s.termination is not None else None,
        "sides": [
            {"side": side, "rows": {row.value: [_card(s, pack, c) for c in _row(s, pc, row)] for row in Row}}
            for side, pc in (("party", True), ("enemies", False))
        ],
    }


def _row(s: LabyrinthState, pc: bool, row: Row) -> list[Combatant]:
    return sorted((c for c in s.side(pc) if c.row is row and not c.vanished), key=lambda c: (c.order, c.roster))


def _card(s: LabyrinthState, pack: Any, c: Combatant) -> dict[str, Any]:
    now = stats(c, pack)
    declared = s.declared(c.id) if s.phase is Phase.STANDBY else None
    return {
        "id": c.id,
        "name": c.name,
        "kind": c.kind,
        "level": c.level,
        "order": c.order,
        "hp": c.hp_shown,
        "max_hp": now.max_hp,
        "tp": c.tp,
        "max_tp": now.max_tp,
        "fp": c.fp if c.pc_side else None,
        "ailments": [{"kind": a.kind, "depth": a.depth} for a in c.ailments],
        "binds": [{"kind": b.kind, "depth": b.depth} for b in c.binds],
        "buffs": [
            {
                "kind": b.kind.value,
                "amount": b.amount,
                "element": b.element.value if b.element else None,
                "turns": b.turns,
                "target": b.target or None,
            }
            for b in c.buffs
        ],
        "token_of": c.placer or None,
        "link": c.link or None,
        "waiting": c.waiting,
        "full_defense": c.full_defense,
        "confused": c.confused,
        "lost_turn": c.inactive,
        "declared": declared.action if declared is not None else None,
        "acting": c.id == s.acting and not s.over,
        "incapacitated": c.hp <= 0,
        "out": c.down,  # incapacitated or petrified: out of the fight
    }
