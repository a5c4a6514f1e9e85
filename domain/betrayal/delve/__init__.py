"""The Delve aggregate, which lives for one delve battle (``aggregate``):
its deck, tile stacks, placed tiles, caches and skyshards, and the geometry
of its growing map (``map``). Exploring it is a battle's rule
(``battle.exploration``)."""
