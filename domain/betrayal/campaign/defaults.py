"""What a player may leave out of a campaign command, found in the store:
the campaign it acts on (the one of the adventurer it names, else the
newest), where a promotion happens, and the battle, XP and loot of a Reward
Phase. The adapters reach these through the campaign's surface
(``Surface.find_game``, ``Verb.find_game``, ``Verb.complete``), so the
command line, and anything else that gives campaign commands by their
words, fill them alike."""

from __future__ import annotations

from typing import Any

from domain.kernel.errors import MalformedCommand, NotFound
from domain.kernel.games import GameApp

from domain.betrayal.battle.application import adventurer as find_adventurer

from . import application as ca


def campaign_of(app: GameApp, fields: dict[str, Any]) -> str:
    """The campaign a command acts on when none is named: the one the
    adventurer it names belongs to, else the newest (with no fields: the
    newest, what `rk campaign status` shows); NotFound when there is none."""
    return ca.find_campaign(app, None, fields.get("adventurer") or None)


def recruiting(app: GameApp, fields: dict[str, Any]) -> str:
    """The campaign a recruit joins: the newest. An adventurer is made for a
    campaign, so in a store without one a campaign is begun for it (adept,
    the pack's dial; `rk new campaign` begins one of your choosing), unless
    the recruit is refused anyway (its name is taken)."""
    found = ca.campaigns(app)
    if found:
        return found[-1]
    name = str(fields.get("name", ""))
    try:
        find_adventurer(app, name)
    except NotFound:
        return ca.new_campaign(app).battle.state.battle_id
    raise MalformedCommand(
        f"an adventurer named {name} exists already: `rk campaign enlist {name}` brings it into a campaign"
    )


def promoting(app: GameApp, fields: dict[str, Any]) -> str:
    """Where an adventurer's sheet turns: in the battle it fights, whose
    own command that is (ADVANCE-16, mid-battle), else its campaign
    (ADVANCE-15); "" for a name no adventurer has (a battle's hero id, as
    its `rk legal` writes it: that battle's own promote)."""
    name = str(fields.get("adventurer", ""))
    try:
        found = find_adventurer(app, name)
    except NotFound:
        return ""
    return found.fighting or ca.find_campaign(app, None, name)


def reward(app: GameApp, campaign_id: str, fields: dict[str, Any]) -> dict[str, Any]:
    """A Reward Phase's fields, completed: the battle as its id (default:
    the last one the party finished without its Reward Phase), the XP it
    gave (REWARD-1: ``battle_reward``), its loot (ITEM-1:
    ``battle_loot``) and the item cards given up in it (ITEM-9:
    ``battle_discards``), each unless given."""
    out = dict(fields)
    if out.get("battle_id"):
        out["battle_id"] = app.find_battle(str(out["battle_id"])).battle_id
    else:
        out["battle_id"] = waiting_battle(app, campaign_id)
    if out.get("xp") is None:
        out["xp"] = ca.battle_reward(app, out["battle_id"])
    if "loot" not in out:
        out["loot"] = ca.battle_loot(app, out["battle_id"])
    if "discarded" not in out:
        out["discarded"] = ca.battle_discards(app, out["battle_id"])
    return out


def waiting_battle(app: GameApp, campaign_id: str) -> str:
    """The last battle the party finished without its Reward Phase yet."""
    state = ca.campaign(app, campaign_id)
    fought = [b for m in state.party for b in find_adventurer(app, m.name).battles]
    waiting = [b for b in fought if b not in state.rewarded]
    if not waiting:
        raise MalformedCommand("the party has no finished battle without its Reward Phase: name one (rk reward BATTLE)")
    return waiting[-1]
