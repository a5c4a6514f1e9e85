"""A duel as a table sees it: ``status`` and ``compact`` as document blocks
for ``rk``, and ``board``, the page's drawing of kind "hexes".

The command line is the whole table at one screen: a pledge is shown only
to the side on turn, the other's face down, as a player looking at the
screen would allow. The page's board is drawn from the state as the asking
seat may see it (the server masks it with ``seen_by``)."""

from __future__ import annotations

from typing import Any

from domain.kernel.hexes import label
from domain.kernel.surface.document import Block, HexCell, HexMap, Lines, table

from . import board as geometry
from .state import DuelState
from .vocab import HIDDEN, NAMES, ROUNDS, SIDES

TILE = "D"  # the one tile of the board


def header(state: DuelState, name: str) -> Lines:
    """Where the duel stands, on a line."""
    if state.over:
        who = "a draw" if state.winner == -1 else f"{NAMES[state.winner]} wins"
        return Lines((f"Duel {name} is over after round {state.round}: {who} ({state.reason})",), strong=True)
    return Lines((f"{name}: round {state.round} of {ROUNDS}, {NAMES[state.turn]} ({SIDES[state.turn]}) to act",))


def status(seen: Any) -> tuple[Block, ...]:
    """The header, the map and each pawn."""
    s: DuelState = seen.state
    cells = []
    for h in geometry.hexes(s.width):
        here = [i for i, pawn in enumerate(s.pawns) if tuple(pawn) == h]
        if here:
            side = here[0]
            cells.append(HexCell(at=h, text=SIDES[side].upper(), tone="strong" if side == s.turn else ""))
        else:
            cells.append(HexCell(at=h, text="·", tone="dim", tile=TILE))
    rows = [[SIDES[i], NAMES[i], label(tuple(s.pawns[i])), _pledge(s, i, shown=i == s.turn or s.over)] for i in (0, 1)]
    legend = "A and B: the pawns; step to a neighbouring hex, strike when next to the other (5+ on a d6 and the pledge)"
    return (
        header(s, seen.name),
        HexMap(cells=tuple(cells), legend=legend),
        table(("seat", "pawn", "hex", "pledge"), rows, edge=False),
    )


def compact(seen: Any) -> tuple[Block, ...]:
    """The header alone."""
    return (header(seen.state, seen.name),)


def _pledge(s: DuelState, side: int, shown: bool = True) -> str:
    """A side's pledge: its card when ``shown`` and not masked, else face down."""
    card = s.pledges[side]
    if not card:
        return "no pledge"
    return card if shown and card != HIDDEN else "face down"


def board(seen: Any) -> dict[str, Any]:
    """The duel as the page draws a "hexes" board: the hexes, and each pawn
    as a unit with what the page shows of one (its pledge as its form)."""
    s: DuelState = seen.state
    hexes = [
        {"q": h[0], "r": h[1], "label": label(h), "tile": TILE, "blocked": False, "marker": "none", "number": None}
        for h in geometry.hexes(s.width)
    ]
    turn = None if s.over else SIDES[s.turn]
    pawns = [
        {
            "id": SIDES[i],
            "name": NAMES[i],
            "race": "pawn",
            "hp": 0 if s.winner == 1 - i else 1,
            "max_hp": 1,
            "form": _pledge(s, i),
            "pos": {"q": s.pawns[i][0], "r": s.pawns[i][1], "label": label(tuple(s.pawns[i]))},
            "defeated": s.winner == 1 - i,
            "turn": SIDES[i] == turn,
            "track": [],
            "active": [],
            "dice": 1,
            "ready": [],
        }
        for i in (0, 1)
    ]
    outcome = None if not s.over else ("draw" if s.winner == -1 else f"{NAMES[s.winner]} wins")
    return {
        "kind": "hexes",
        "phase": "over" if s.over else "duel",
        "round": s.round,
        "turn": turn,
        "outcome": outcome,
        "hexes": hexes,
        "heroes": pawns,
        "foes": [],
        "caches": [],
    }
