"""Duel: a small fourth ruleset, kept as test data (tests/plant).

Not a package of the project: ``tests/plant/test_fourth_ruleset.py`` copies
this folder as ``domain/duel/`` into a temporary copy of the project, to
prove that the adapters (``rk``, the API, the page) are built from what a
ruleset declares and name none: nothing outside this package is edited.

Two pawns on a hex board three rows high; each turn a player steps, strikes
or passes, and may pledge a card face down first (the hidden card). The
rules are ``rules.py`` (decide, legal commands) and ``evolve.py``; what the
table sees is declared in ``surface.py``; ``ruleset.py`` is the entry the
kernel loads; ``spec/duel.md`` is the rules text `rk rule` prints.
"""
