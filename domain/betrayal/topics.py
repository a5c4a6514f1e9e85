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
The old module names are registered, not the classes: the module a class
moved to is imported when a topic first names one of its classes.
The entry module (``ruleset``) imports this one, so it holds in every
process that has loaded the ruleset and the library (which a read of a
game alone may never load: ``domain.kernel.stores.old_topics``)."""

from __future__ import annotations

import importlib
import inspect
from types import ModuleType

from domain.kernel.stores.old_topics import register_module

MOVED: dict[str, str] = {
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
"""Old module name -> the module's name now, for the modules that define
the stored event classes, the snapshot states, the commands an issued
command carries, and the types inside them."""

SINCE_THE_MOVE: tuple[str, ...] = ("domain.betrayal.battle.companions.",)
"""Packages written after the move (companions, issue 22): their classes
were never stored under a module path, so they need no old topic."""


class _MovedModule(ModuleType):
    """Stands for an old module in the library's topic cache: a class is
    looked up in the module it moved to when a topic first names it, so a
    process imports (say) the campaign's modules only when it meets one of
    their events. Only the classes defined there resolve, as before."""

    def __init__(self, old: str, now: str) -> None:
        super().__init__(old)
        self.moved_to = now

    def __getattr__(self, name: str) -> type:
        found = getattr(importlib.import_module(self.moved_to), name, None)
        if inspect.isclass(found) and found.__module__ == self.moved_to:
            return found
        raise AttributeError(f"module {self.__name__!r} had no class {name!r}")


def old_topics() -> dict[str, type]:
    """Every class defined in a moved module, by its topic before the move
    (imports every moved module)."""
    found: dict[str, type] = {}
    for old, now in MOVED.items():
        module = importlib.import_module(now)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == now:
                found[f"{old}:{cls.__qualname__}"] = cls
    return found


def register_old_topics() -> None:
    """Register each old module name, so its classes' old topics resolve
    (again: a no-op). The library is told when it is loaded
    (``domain.kernel.stores.old_topics``), not imported for it here."""
    for old, now in MOVED.items():
        register_module(old, _MOVED_MODULES.setdefault(old, _MovedModule(old, now)))


_MOVED_MODULES: dict[str, _MovedModule] = {}
register_old_topics()
