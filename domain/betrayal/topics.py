"""Where the classes of stored events and states stood before Betrayal's
modules moved into sub-packages (issue 20), kept resolvable.

The store never holds a module path: each event is stored under its class's
stable ``TOPIC`` (``betrayal.DiceRolled``) and each snapshot under its
state topic (``betrayal.snapshot.Battle``), which no move changes. The
library's own topics (``module:qualname``, what ``eventsourcing.utils``
``resolve_topic`` reads) did name the old modules, though, so every class
of the modules whose classes are stored (events and the states they carry)
is registered under its old topic as well: ``domain.betrayal.events:DiceRolled``
still resolves to the class now in ``domain.betrayal.battle.events``.
The entry module (``ruleset``) imports this one, so it holds in every
process that has loaded the ruleset."""

from __future__ import annotations

import inspect
from types import ModuleType

from eventsourcing.utils import register_topic

from .adventurer import aggregate as adventurer, events as adventurer_events, state as adventurer_state
from .battle import commands, events, state
from .campaign import commands as campaign_commands, game as campaign
from .delve import aggregate as delve

MOVED: dict[str, ModuleType] = {
    "domain.betrayal.state": state,
    "domain.betrayal.commands": commands,
    "domain.betrayal.events": events,
    "domain.betrayal.adventurer": adventurer,
    "domain.betrayal.adventurer_events": adventurer_events,
    "domain.betrayal.adventurer_state": adventurer_state,
    "domain.betrayal.delve": delve,
    "domain.betrayal.campaign": campaign,
    "domain.betrayal.campaign_commands": campaign_commands,
}
"""Old module name -> the module now, for the modules that define the
stored event classes, the snapshot states, the commands an issued command
carries, and the types inside them."""

SINCE_THE_MOVE: tuple[str, ...] = ("domain.betrayal.battle.companions.",)
"""Packages written after the move (companions, issue 22): their classes
were never stored under a module path, so they need no old topic."""


def old_topics() -> dict[str, type]:
    """Every class defined in a moved module, by its topic before the move."""
    found: dict[str, type] = {}
    for old, module in MOVED.items():
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == module.__name__:
                found[f"{old}:{cls.__qualname__}"] = cls
    return found


def register_old_topics() -> None:
    """Register each class under its old topic (again: a no-op)."""
    for topic, cls in old_topics().items():
        register_topic(topic, cls)


register_old_topics()
