"""Companion units in a battle (ROUND-6, ROUND-6a, CLASH-9, DELVE-11,
DUNGEON-10, EXPLORATION-3d, CLEANUP-3c; facts §2 "Fills ROUND-6").

A companion is a party member but not an adventurer: it joins at setup
under an adventurer's control (its seat at the table), waits beside the
Entrance when there is no room (``setup``), takes its turn in the
Companion Turns step in the order the party chooses (``turn``), is a unit
enemies may target, and leaves the party for good when defeated. Its
in-battle state is ``state``, its commands ``commands``, its events
``events`` (applied by ``evolve``, narrated by ``narrate``). The battle
aggregate holds it: ``BattleState.companions``.

Leaf modules (``state``, ``commands``) import nothing of the battle, so the
battle's own ``state`` and ``commands`` can name them."""
