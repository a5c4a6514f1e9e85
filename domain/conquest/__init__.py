"""Conquest: The Last Argument of Kings, the round sequence (spec:
shared/rules/conquest.md; defaults: conquest-facts.md).

One aggregate, the battle: its state in ``state.py``, commands in
``commands.py``, events in ``events.py``, ``decide``/``legal_commands`` in
``rules.py`` (one module per phase: ``reinforcement``, ``supremacy``,
``activation``, ``victory``; positions in ``board``), ``evolve`` in
``evolve.py``, content in ``packs.py``/``catalog.py``/``content/``, the
narrator in ``narrate.py``, players in ``bots.py``. What the table sees is
declared in ``surface.py`` (verbs, setup, listings, views). The entry
module, ``ruleset.py``, gives the kernel ``RULESETS``: the kernel imports it
on first use of "conquest"; importing this package loads nothing else.
"""
