"""A new game from a request (``wire.NewGame``): the same domain verbs as
`rk new`, with the same defaults (a random seed; the campaign's XP dial,
else 1; a name from the setup's first word)."""

from __future__ import annotations

import enum
import secrets
from typing import Any

from domain.kernel.errors import MalformedCommand
from domain.kernel.games import GameApp, Result

from domain.labyrinth.sheet_files import MAX_LEVEL  # noqa: F401 (the lobby's bound, server.tables)

from .wire import NewBetrayalGame, NewCampaign, NewConquestGame, NewGame, NewLabyrinthGame

MAX_SEED = 2**63
MAX_DIAL = 80  # as `rk campaign new --dial` takes it


def start(app: GameApp, request: NewGame) -> Result:
    """Set the game up; refused with the rules' reason, writing nothing."""
    if isinstance(request, NewCampaign):
        return _campaign(app, request)
    seed = request.seed if request.seed is not None else secrets.randbelow(2**31)
    if not 0 <= seed < MAX_SEED:
        raise MalformedCommand("seed must be a whole number from 0 to 2^63-1")
    if isinstance(request, NewBetrayalGame):
        return _betrayal(app, request, seed)
    if isinstance(request, NewLabyrinthGame):
        return _labyrinth(app, request, seed)
    return _conquest(app, request, seed)


def _betrayal(app: GameApp, r: NewBetrayalGame, seed: int) -> Result:
    from domain.betrayal import application as betrayal
    from domain.betrayal.campaign_app import party_campaign
    from domain.betrayal.vocab import BattleForm, Difficulty

    if not r.party:
        raise MalformedCommand("a party needs at least one adventurer")
    party = [betrayal.PartySpec(m.name.strip(), m.race or None, tuple(m.lines), _choice(BattleForm, m.form, "form"))
             for m in r.party]
    xp = r.xp
    if xp is None:
        campaign = party_campaign(app, [m.name for m in party])
        xp = campaign.dial if campaign is not None else 1
    options: dict[str, Any] = dict(
        party=party, xp=xp, seed=seed, battle_id=r.name or app.new_battle_id(r.setup),
        difficulty=_choice(Difficulty, r.difficulty, "difficulty"), physical_dice=r.physical_dice,
        choose_defense=r.choose_defense)
    if r.kind == "delve":
        return betrayal.new_delve(app, delve=r.setup, **options)
    if r.kind == "dungeon":
        return betrayal.new_dungeon(app, setup=r.setup, **options)
    return betrayal.new_clash(app, setup=r.setup, **options)


def _conquest(app: GameApp, r: NewConquestGame, seed: int) -> Result:
    from domain.conquest import commands as c

    if len(r.armies) != 2:
        raise MalformedCommand(f"name two armies, the first player's then the second's, not {len(r.armies)}")
    battle_id = r.name or app.new_battle_id(r.scenario)
    command = c.StartConquest(battle_id=battle_id, scenario=r.scenario, armies=(r.armies[0], r.armies[1]),
                              seed=seed, physical_dice=r.physical_dice)
    return app.start("conquest", command, battle_id=battle_id)


AMBUSHED = ("pcs", "enemies")  # the lobby's choices (server.tables), as the labyrinth's builder takes them


def _labyrinth(app: GameApp, r: NewLabyrinthGame, seed: int) -> Result:
    """The ruleset's own builder, on the request as the API took it."""
    import msgspec

    from domain.labyrinth.new_game import start as start_labyrinth
    from domain.labyrinth.request import NewLabyrinth

    fields = {k: v for k, v in msgspec.to_builtins(r).items() if k != "ruleset"}
    return start_labyrinth(app, msgspec.convert({**fields, "seed": seed}, NewLabyrinth))


def _campaign(app: GameApp, r: NewCampaign) -> Result:
    from domain.betrayal.campaign_setup import start as begin  # the one builder, as `rk new campaign`'s

    return begin(app, r)


def _choice(kind: type[enum.Enum], value: str, what: str) -> Any:
    try:
        return kind(value)
    except ValueError:
        raise MalformedCommand(f"{what} must be one of {', '.join(str(k.value) for k in kind)}, not {value!r}") \
            from None


__all__ = ["start", "NewGame", "NewBetrayalGame", "NewCampaign", "NewConquestGame", "NewLabyrinthGame"]
