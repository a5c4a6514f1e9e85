"""The legal placements of a revealed tile waiting to be placed
(EXPLORATION-9b), each with the letter the map shows on its origin, alike
on the page's board (its ghosts) and in `rk status`."""

from __future__ import annotations

from domain.betrayal.battle.context import RulesContext
from domain.betrayal.battle.decision import Decision
from domain.betrayal.battle.state import BattleState
from domain.betrayal.delve.map import Placement

GHOST_LETTERS = "ABCDFGHJKLMNPQRSTUVWXYZ"  # no E (the Entrance's tag), no I or O (read as 1 and 0)


def ghost_letter(n: int) -> str:
    """The letter of the ``n``-th placement (0-based): A, B, C, D, F... then AA, AB..."""
    k = len(GHOST_LETTERS)
    return GHOST_LETTERS[n] if n < k else ghost_letter(n // k - 1) + GHOST_LETTERS[n % k]


def placements(state: BattleState, ctx: RulesContext) -> list[Placement]:
    """The legal placements of the tile waiting, in the order `rk legal`
    lists them; none when no tile waits."""
    from domain.betrayal.battle.exploration import placements as legal

    if ctx.delve is None or ctx.delve.placing is None:
        return []
    return legal(Decision(state, ctx))
