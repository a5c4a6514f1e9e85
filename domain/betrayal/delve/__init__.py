"""The Delve aggregate, which lives for one delve battle (``aggregate``):
the geometry of its growing map (``map``) and exploring it
(``exploration``: EXPLORATION-*, the battle rules that turn tiles and
cards)."""
