"""The Elder Scrolls: Betrayal of the Second Era: battle, adventurer and
delve rules (spec: shared/rules/betrayal.md)."""

RULES_VERSION = "betrayal-0.1"
