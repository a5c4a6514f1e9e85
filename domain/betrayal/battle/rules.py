"""The Betrayal ruleset's contract: ``decide`` a command into events,
``evolve`` events into state, list the ``legal_commands`` now.

This is the top of the battle engine. Deciding (``dispatch``) imports each
command's rules when a command of its kind is first decided, and the race,
class and item abilities when a hook point is first read (``hooks``);
listing what may be done (``legal``) asks every rule, and is imported when
a list is first asked for: a command decided alone never pays for it."""

from __future__ import annotations

from .commands import BattleCommand
from .context import RulesContext
from .dispatch import decide, decision
from .evolve import evolve, replay
from .state import BattleState

__all__ = ["decide", "decision", "evolve", "replay", "legal_commands"]


def legal_commands(state: BattleState, ctx: RulesContext) -> list[BattleCommand]:
    """What may be done now (``legal.legal_commands``)."""
    from .legal import legal_commands as listed

    return listed(state, ctx)
