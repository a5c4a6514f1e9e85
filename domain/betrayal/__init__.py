"""The Elder Scrolls: Betrayal of the Second Era: battle, adventurer and
delve rules (spec: shared/rules/betrayal.md), and the campaign between
battles. The entry module, ``ruleset.py``, gives the kernel "betrayal"
(``RULESETS``) and "betrayal-campaign" (``LATER``, imported when first
asked for): the kernel imports it on first use; importing this package
loads nothing else."""

RULES_VERSION = "betrayal-0.1"
