"""Conquest: The Last Argument of Kings, the round sequence (spec:
shared/rules/conquest.md; defaults: conquest-facts.md).

One aggregate, the battle: its state in ``state.py``, commands in
``commands.py``, events in ``events.py``, ``decide``/``legal_commands`` in
``rules.py`` (one module per phase: ``reinforcement``, ``supremacy``,
``activation``, ``victory``; positions in ``board``), ``evolve`` in
``evolve.py``, content in ``packs.py``/``catalog.py``/``content/``, the
narrator in ``narrate.py``, players in ``bots.py``. ``game.RULESET`` is
registered with the kernel as "conquest".
"""

from domain.kernel.ruleset import register

from .game import RULESET
from .vocab import RULES_VERSION

register(RULESET)

__all__ = ["RULESET", "RULES_VERSION"]
