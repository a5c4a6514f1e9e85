"""A Conquest battle as a table sees it on a screen: where the round
stands and whose decision it is, then each player's line and Regiments
(``rk status``; the short view after a command is the first line).

The command line is one seat at the table, so a Command Stack is shown in
order only to the player whose decision is awaited; the opponent's is a
count (CMD-4 lets a player look through their own stack, never the other's).
"""

from __future__ import annotations

from typing import Any

from domain.kernel.surface.document import Block, Column, Lines, Words, table

from .board import entry_possible, reinforcement_line
from .narrate import ending_reason, player
from .state import ConquestState, Regiment
from .vocab import SIDES, Phase, Where


def status(seen: Any) -> tuple[Block, ...]:
    """The round, the phase, whose decision, both players and every Regiment."""
    state: ConquestState = seen.state
    return (header(state, seen.name), *(block for side in (0, 1) for block in _side(state, side)))


def compact(seen: Any) -> tuple[Block, ...]:
    """Where the round stands and who decides."""
    return (header(seen.state, seen.name),)


def legal_note(state: ConquestState, commands: list[Any]) -> str:
    """What a listing of legal commands adds: with physical dice, how faces are typed."""
    if state.physical_dice and any(getattr(cmd, "faces", None) for cmd in commands):
        return "(--faces: type the faces the dice show, 1 to 6)"
    return ""


def header(state: ConquestState, name: str | None = None) -> Lines:
    """Where the battle stands, on a line; ``name``: the battle as this
    store calls it (default its id)."""
    name = name or state.battle_id
    vp = f"VP {state.sides[0].vp}–{state.sides[1].vp}"
    if state.phase is Phase.OVER and state.result is not None:
        winner = "a draw" if state.result.winner < 0 else f"{player(state, state.result.winner)} wins"
        return Lines(
            (
                f"Battle {name} is over after round {state.round}: {winner} "
                f"({ending_reason(state, state.result.winner, state.result.termination, state.result.reason)});"
                f" {vp}",
            ),
            strong=True,
        )
    step = "" if state.step.value == "none" else f", {state.step.value}"
    doing = ""
    if state.activation is not None:
        a = state.activation
        doing = f"; {a.regiment} is active ({len(a.performed)} action(s) done)"
    return Lines(
        (
            f"{name}: round {state.round}, {state.phase.value} phase{step}; "
            f"{player(state, state.turn)} to decide (First Player: {player(state, state.first)}); {vp}{doing}",
        )
    )


def _seat(state: ConquestState, side: int) -> str:
    """A player's heading: their army and their key (``--side a``, a1...)."""
    army = state.sides[side].army
    return f"{army} (player {SIDES[side]})" if army else f"player {SIDES[side]}"


def _side(state: ConquestState, side: int) -> tuple[Block, ...]:
    """A player's line (army, Reinforcement Line, stack, Warlord), then a
    row per Regiment: a joined Character on a line of its own under its
    Regiment's name, so that neither name is split."""
    own = state.sides[side]
    if own.stack:
        # CMD-4: only the player deciding now sees their own stack in order.
        stack = ", ".join(own.stack) if side == state.turn else f"{len(own.stack)} card(s), face down"
    else:
        stack = "empty"
    warlord = state.warlord(side)
    title = f'{_seat(state, side)}  ·  Reinforcement Line {own.line}"  ·  stack: {stack}' + (
        f"  ·  Warlord {warlord.name}" if warlord else ""
    )
    fixed = ("id", "Regiment", "class", "stands", "march")
    columns = tuple(
        Column(name, wrap=name not in fixed)
        for name in ("id", "Regiment", "class", "stands", "where", "march", "contact", "this round")
    )
    characters = {ch.regiment: ch for ch in state.characters if ch.side == side}
    rows: list[list[Words]] = []
    for r in state.side_regiments(side):
        joined = characters.get(r.id)
        rows.append(
            [
                r.id,
                r.name + (f"\n+ {joined.name}" if joined else ""),
                r.cls.value,
                str(r.stands),
                _where(r),
                f'{r.march}"',
                ", ".join(state.in_contact(r.id)) or "—",
                ("activated; " if r.activated else "") + (", ".join(a.value for a in r.actions) or "—"),
            ]
        )
    return Lines((title,)), table(columns, rows, edge=False), Lines(("",))


def _where(r: Regiment) -> str:
    if r.where is Where.FIELD:
        return f'field, front {r.front}"' + (" (partly on)" if r.partly_on else "")
    return r.where.value


def board(seen: Any) -> dict[str, Any]:
    """The battle as the page draws it ("regiments"): each side's regiments
    (where they stand, stands left), the round, the phase and whose
    decision it is; and the battlefield (``field``) as it is measured, in
    whole inches along the axis between the two table edges (facts §3):
    its depth, each side's Reinforcement Line (RLINE-3, RLINE-4) and
    whether a Regiment of it can enter at all (ARRIVE-5), each Regiment's
    front rank and rear edge from its own edge (ARRIVE-3: a rear below 0 is
    a Regiment partly on)."""
    s: ConquestState = seen.state
    ctx = seen.context()
    return {
        "kind": "regiments",
        "round": s.round,
        "phase": s.phase.value,
        "phase_name": "over" if s.phase is Phase.OVER else s.phase.value.title(),  # ROUND-4's Phases
        "turn": SIDES[s.turn] if s.turn in (0, 1) and not s.over else None,  # no one decides once it is over
        "field": {"depth": ctx.scenario.depth, "unit": '"'},
        "sides": [
            {
                "key": SIDES[i],
                "army": side.army,
                "vp": side.vp,
                "stack": len(side.stack),
                "line": reinforcement_line(s, ctx, i),
                "entry": entry_possible(s, ctx, i),
                "regiments": [
                    {
                        "id": r.id,
                        "name": r.name,
                        "class": r.cls.value,
                        "stands": r.stands,
                        "where": r.where.value,
                        "front": r.front,
                        "rear": r.rear,
                        "activated": r.activated,
                    }
                    for r in s.regiments
                    if r.side == i
                ],
            }
            for i, side in enumerate(s.sides)
        ],
    }
