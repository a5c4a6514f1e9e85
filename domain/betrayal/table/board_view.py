"""A Betrayal battle as the page draws it ("hexes"): the map's hexes (axial
q, r with their labels, tiles and markers), the units on them, each
adventurer's HP, track and active slots (each die as `rk status` names
it, ``text``, its face counted 1 to 6 as rolled), each enemy, and each companion
(its mark, HP, hex or none while it waits, its controller) with, in the
Companion Turns step (``ally_step``), the one whose turn is under way
(``ally_turn``, ROUND-6). A delve adds its tiles' tags and icons on each
hex, what may be explored, its skyshards and the tile waiting to be placed
with every legal placement (``delve``: board_delve)."""

from __future__ import annotations

from typing import Any

from domain.kernel.hexes import label

from domain.betrayal.battle.names import active_die, marks, track_die
from domain.betrayal.battle.state import PHASE_NAMES, BattleState, Phase

from .board_delve import hex_marks, progress


def board(seen: Any) -> dict[str, Any]:
    state: BattleState = seen.state
    ctx = seen.context()
    b = ctx.board
    pack = seen.pack
    delving = ctx.delve is not None
    more = hex_marks(state, ctx) if delving else {}
    hexes = []
    for h in b.all_hexes():
        cell = b._cells[h]  # noqa: SLF001 - the board keeps its diagram cells; reading one is safe
        hexes.append(
            {
                "q": h[0],
                "r": h[1],
                "label": _label(h),
                "tile": cell.tile,
                "blocked": cell.impassable,
                "marker": cell.marker.value,
                "number": cell.number,
                **more.get(tuple(h), {}),
            }
        )
    turn = state.turn.hero if state.turn is not None else None
    heroes = [
        {
            "id": h.id,
            "name": h.name,
            "race": h.race,
            "hp": h.hp,
            "max_hp": h.max_hp,
            "form": h.form.value,
            "pos": _pos(h.pos),
            "defeated": h.defeated,
            "turn": h.id == turn,
            "track": [
                {
                    "kind": d.kind.value,
                    "face": _face(d.face),
                    "status": d.status.value if d.status else None,
                    "text": track_die(pack, h, d),
                }
                for d in h.track
            ],
            "active": [
                {"kind": d.kind.value, "face": _face(d.face), "amount": d.amount, "text": active_die(pack, h, d)}
                for d in h.active
            ],
            "dice": len(h.dice),
            "ready": list(h.ready),
        }
        for h in state.heroes
    ]
    foes = []
    for f in state.foes:
        enemy = pack.enemies.get(f.enemy)
        foes.append(
            {
                "id": f.id,
                "name": enemy.name if enemy else f.enemy,
                "level": f.level,
                "hp": f.hp,
                "max_hp": f.max_hp,
                "pos": _pos(f.pos),
                "defeated": f.defeated,
                "marks": [m.status.value for m in f.marks],
            }
        )
    ally_turn = state.ally_turn.companion if state.ally_turn is not None else None
    mark = marks(state)
    names = {h.id: h.name for h in state.heroes}
    companions = [
        {
            "id": a.id,
            "name": a.name,
            "mark": mark.get(a.id, a.id[:1]),
            "hp": a.hp,
            "max_hp": a.max_hp,
            "pos": _pos(a.pos),
            "controller": a.controller,
            "controller_name": names.get(a.controller, a.controller),
            "defeated": a.defeated or a.withdrawn,
            "acted": a.acted,
            "turn": a.id == ally_turn,
            "statuses": [x.value for x in a.statuses],
        }
        for a in state.companions
    ]
    drawn: dict[str, Any] = {
        "kind": "hexes",
        "phase": state.phase.value,
        "phase_name": PHASE_NAMES[state.phase],
        "round": state.round,
        "turn": turn,
        "ally_turn": ally_turn,
        "ally_step": state.phase is Phase.COMPANION_TURN,
        "outcome": state.outcome.value if state.outcome else None,
        "hexes": hexes,
        "heroes": heroes,
        "foes": foes,
        "companions": companions,
        "caches": [{"q": c.hex[0], "r": c.hex[1], "kind": c.kind.value} for c in state.caches],
    }
    if delving:
        drawn["delve"] = progress(state, ctx, _label)
    return drawn


def _face(face: int) -> int | None:
    """A stored face (0 to 5, -1 where it does not matter) as players count
    it, 1 to 6, as `rk track` and `rk status` show it; None for no face."""
    return face + 1 if face >= 0 else None


def _pos(h: Any) -> dict[str, Any] | None:
    return None if h is None else {"q": h[0], "r": h[1], "label": _label(h)}


def _label(h: Any) -> str:
    try:
        return label(tuple(h))
    except ValueError:  # a delve tile placed left of or above a1
        return f"{h[0]},{h[1]}"
