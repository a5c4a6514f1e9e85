"""The Elder Scrolls: Betrayal of the Second Era: battle, adventurer and
delve rules (spec: shared/rules/betrayal.md). Registers itself with the
kernel as the ruleset "betrayal"."""

RULES_VERSION = "betrayal-0.1"

from domain.kernel.ruleset import register  # noqa: E402

from .ruleset import BETRAYAL  # noqa: E402

register(BETRAYAL)

from .campaign_ruleset import CAMPAIGN  # noqa: E402

register(CAMPAIGN)
