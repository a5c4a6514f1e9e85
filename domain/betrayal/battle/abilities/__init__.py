"""The race abilities (``race``: RACE-*) and the class abilities
(``classes``: CLASS-*, with how their events change a battle,
``class_evolve``, how they read, ``class_narrate``, and what a battle's
events mean for them, ``class_progress``). They register at the core's hook
points (``battle.hooks``); the core rules never import them."""
