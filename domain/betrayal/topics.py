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
from importlib import import_module

from eventsourcing.utils import register_topic

MOVED = {
    "domain.betrayal.state": "domain.betrayal.battle.state",
    "domain.betrayal.commands": "domain.betrayal.battle.commands",
    "domain.betrayal.events": "domain.betrayal.battle.events",
    "domain.betrayal.adventurer": "domain.betrayal.adventurer.aggregate",
    "domain.betrayal.adventurer_events": "domain.betrayal.adventurer.events",
    "domain.betrayal.adventurer_state": "domain.betrayal.adventurer.state",
    "domain.betrayal.delve": "domain.betrayal.delve.aggregate",
    "domain.betrayal.campaign": "domain.betrayal.campaign.game",
    "domain.betrayal.campaign_commands": "domain.betrayal.campaign.commands",
}
"""Old module -> new module, for the modules that define the stored event
classes, the snapshot states, the commands an issued command carries, and
the types inside them."""


def old_topics() -> dict[str, type]:
    """Every class defined in a moved module, by its topic before the move."""
    found: dict[str, type] = {}
    for old, new in MOVED.items():
        module = import_module(new)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == new:
                found[f"{old}:{cls.__qualname__}"] = cls
    return found


def register_old_topics() -> None:
    """Register each class under its old topic (again: a no-op)."""
    for topic, cls in old_topics().items():
        register_topic(topic, cls)


register_old_topics()
