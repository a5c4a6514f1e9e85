"""Betrayal's entry module, named as every ruleset's is: the rulesets the
kernel registers: its battles (``battle.ruleset``, in ``RULESETS``) and the
campaign between them (``campaign.ruleset``, given by where it is in
``LATER``: registered when first asked for, so a battle's command does not
import the campaign's rules). Loading it also keeps the topics the stored
classes had before they moved into sub-packages (``topics``)."""

from . import topics  # noqa: F401 - registers the old topics
from .battle.ruleset import ADVENTURERS, BETRAYAL, DELVES

RULESETS = (BETRAYAL,)
LATER = {"betrayal-campaign": "domain.betrayal.campaign.ruleset:CAMPAIGN"}

__all__ = ["ADVENTURERS", "BETRAYAL", "DELVES", "LATER", "RULESETS"]
