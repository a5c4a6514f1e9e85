"""One Betrayal battle, the aggregate that lives for one encounter: its
state (``state``), the commands a party gives (``commands``) and the events
they produce (``events``); ``decide`` and ``legal_commands`` (``rules``:
each command handed to its kind's rules in ``dispatch``, what may be done
listed in ``legal``),
``evolve``; what ``decide`` needs beside the state (``context``) and the
decision in progress (``decision``); setting a clash up (``setup``); the
round sequence (``flow``), the adventurers' actions (``actions``), damage,
exploring a delve (``exploration``), an adventurer's dice (``heroes``) and
cooldown track (``track``), targets and occupied hexes (``reach``),
positions a command chooses (``choices``), the map (``board``), the Defend
answer (``defense``), who gives a command at a table (``seats``); the hook
points (``hooks``) where the abilities and items register; which rule an
event cites (``citations``), the narrator (``narrate``, ``names``), the
players for demos and tests (``bots``); Betrayal as the kernel sees it
(``ruleset``) and its verbs on the kernel's application (``application``).

Its parts with a concern of their own: the enemies' side (``enemies/``),
the race and class abilities (``abilities/``), the items used in battle
(``items/``) and the companion units (``companions/``)."""
