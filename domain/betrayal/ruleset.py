"""Betrayal's entry module, named as every ruleset's is: the rulesets the
kernel registers (``RULESETS``): its battles (``battle.ruleset``) and the
campaign between them (``campaign.ruleset``). Loading it also keeps the
topics the stored classes had before they moved into sub-packages
(``topics``)."""

from . import topics  # noqa: F401 - registers the old topics
from .battle.ruleset import ADVENTURERS, BETRAYAL, DELVES
from .campaign.ruleset import CAMPAIGN

RULESETS = (BETRAYAL, CAMPAIGN)

__all__ = ["ADVENTURERS", "BETRAYAL", "CAMPAIGN", "DELVES", "RULESETS"]
