"""Positions: a game as it stands, written to a file and started from one.

A position file (``document``) holds a game's state and the other streams
it needs, in TOML, one format for every ruleset: the kernel writes any
game state field by field from its type (``codec``, ``toml_text``), and a
ruleset adds only what its rules say a position cannot hold
(``Ruleset.check_position``). ``rk new <ruleset> --position FILE`` starts
a game from one with the ``StartFromPosition`` command (``messages``,
``rules``), so the game undoes, exports, imports and verifies as any other
and ``verify`` re-checks the position; ``rk position`` writes the position
of any game at any version (``at``).
"""
