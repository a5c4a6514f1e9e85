"""What an adventurer's command gives up of what it could still do this
turn (``Ruleset.gives_up``): a second Move gives up the Engage (MOVE-3), an
Engage the second Move (MOVE-3), a Move the Explore action and an Explore
the Move (EXPLORE-3), ending the turn whatever was left (TURN-6), a
retreat the encounter itself (RETREAT-2: it ends at once). Read
from the legal commands listed now, so a note names only what is still
open. Pure."""

from __future__ import annotations

from collections.abc import Sequence

from domain.kernel.ruleset import GivesUp

from .commands import BattleCommand, EndTurn, Engage, Explore, Move, MoveToExplore, Retreat
from .state import BattleState


def gives_up(state: BattleState, command: BattleCommand, legal: Sequence[BattleCommand]) -> tuple[GivesUp, ...]:
    """What ``command`` (one of ``legal``) gives up, each with its rule."""
    if isinstance(command, Retreat):  # given at the end of a round, between turns (RETREAT-1)
        return (GivesUp("the encounter: it ends at once", "RETREAT-2"),)
    turn = state.acting if state.turn is not None else None
    if turn is None:
        return ()
    can_move = any(isinstance(c, (Move, MoveToExplore)) for c in legal)
    can_engage = any(isinstance(c, Engage) for c in legal)
    can_explore = any(isinstance(c, Explore) and c.hex is not None for c in legal)
    out: list[GivesUp] = []
    if isinstance(command, (Move, MoveToExplore)):
        if turn.moves == 1 and turn.engages == 0 and can_engage:
            out.append(GivesUp("your Engage this turn (a second Move)", "MOVE-3"))
        if can_explore:
            out.append(GivesUp("your Explore action this turn", "EXPLORE-3"))
    elif isinstance(command, Engage):
        if turn.engages == 0 and can_move:
            out.append(GivesUp("a second Move this turn", "MOVE-3"))
    elif isinstance(command, Explore) and command.hex is not None:
        if can_move:
            out.append(GivesUp("your Move this turn", "EXPLORE-3"))
    elif isinstance(command, EndTurn):
        left = [what for what, open_ in (("Move", can_move), ("Engage", can_engage), ("Explore", can_explore)) if open_]
        if left:
            out.append(GivesUp("your unused " + ", ".join(left), "TURN-6"))
    return tuple(out)
