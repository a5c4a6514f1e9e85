"""Old module paths, kept resolvable by the eventsourcing library's topics.

The store names classes by their stable ``TOPIC`` and state topics, never a
module path; the library's own topics (``module:qualname``) did, and a
ruleset whose modules moved keeps the old paths resolvable
(``domain.betrayal.topics``). It registers them here, and here they are
handed to the library's ``register_topic`` once the library is loaded: at
once if it is, else when the application module imports it
(``domain.kernel.stores.application``). A read that never loads the library
(``domain.kernel.stores.plain``) then never imports it for them.
"""

from __future__ import annotations

import sys
from types import ModuleType

LIBRARY = "eventsourcing.utils"
_OLD: dict[str, ModuleType] = {}  # old module name -> the module standing for it


def register_module(old: str, module: ModuleType) -> None:
    """Let the library's topics naming module ``old`` resolve in ``module``."""
    _OLD[old] = module
    if LIBRARY in sys.modules:
        hand_over()


def hand_over() -> None:
    """Register every old module name with the library (again: a no-op)."""
    from eventsourcing.utils import register_topic

    for old, module in _OLD.items():
        register_topic(old, module)
