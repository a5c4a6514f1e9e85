"""The labyrinth battle (spec: shared/rules/labyrinth.md; facts and
defaults: labyrinth-facts.md), an Etrian Odyssey-style TRPG battle.

One aggregate, the battle: state in ``state.py``, commands in
``commands.py``, events in ``events.py`` (bases in ``event_base.py``, the
special cases in ``events_special.py``), ``decide``/``legal_commands`` in
``rules.py`` with the turn's flow in ``flow.py`` (``standby``, ``order``,
``windows`` (fastest and delayed actions), ``enemies``, ``attack``,
``critical``, ``chain``, ``skills``, ``tokens``, ``ailments``, ``buffs``,
``end_phase``, ``escape``, ``casualties``), derived stats in ``stats.py``,
``evolve`` in ``evolve.py``, content in ``packs.py``/``catalog.py``/
``content/``. What the table sees is declared as data in ``surface.py``
(the verbs, the setup and its request, ``request.py``, the listings), with
``views.py`` (the status), ``listings.py`` and ``new_game.py`` (the one
setup builder) loaded only when needed. The entry module, ``ruleset.py``,
gives the kernel ``RULESETS``: the kernel imports it on first use of
"labyrinth"; importing this package loads nothing else.
"""
