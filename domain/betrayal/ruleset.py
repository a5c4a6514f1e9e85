"""Betrayal's entry module, named as every ruleset's is: the rulesets the
kernel registers (``RULESETS``): its battles (``battle_ruleset``) and the
campaign between them (``campaign_ruleset``)."""

from .battle_ruleset import ADVENTURERS, BETRAYAL, DELVES
from .campaign_ruleset import CAMPAIGN

RULESETS = (BETRAYAL, CAMPAIGN)

__all__ = ["ADVENTURERS", "BETRAYAL", "CAMPAIGN", "DELVES", "RULESETS"]
