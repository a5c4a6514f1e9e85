"""Beginning a campaign from a request (``campaign_surface.NewCampaign``,
or the API's, which has the same fields): the one builder behind `rk new
campaign` (and `rk campaign new`), the API and the lobby."""

from __future__ import annotations

from typing import Any

from domain.kernel.errors import MalformedCommand
from domain.kernel.games import GameApp, Result

from domain.betrayal.campaign.application import new_campaign
from domain.betrayal.vocab import Difficulty

MAX_DIAL = 80  # the XP dial reads 0 to 80 (EP-2)


def start(app: GameApp, request: Any) -> Result:
    """Begin the campaign ``request`` asks for (``name``, ``difficulty``,
    ``dial``); refused with the reason, writing nothing."""
    if request.dial is not None and not 0 <= request.dial <= MAX_DIAL:
        raise MalformedCommand(f"dial must be a whole number from 0 to {MAX_DIAL} (as `rk new campaign --dial`)")
    try:
        difficulty = Difficulty(str(request.difficulty).strip().lower())
    except ValueError:
        raise MalformedCommand(
            f"difficulty must be one of {', '.join(d.value for d in Difficulty)}, not {request.difficulty!r}"
        ) from None
    return new_campaign(app, request.name or None, difficulty=difficulty, dial=request.dial)
