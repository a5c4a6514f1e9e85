"""Setting a Betrayal battle up from a request (``surface.NewClash``,
``NewDungeon``, ``NewDelve``): the one builder of each behind `rk new`,
the API and the lobby, with the defaults they share (a random seed, the
party's XP from its campaign, a name from the setup)."""

from __future__ import annotations

from typing import Any

from domain.kernel.errors import MalformedCommand
from domain.kernel.games import GameApp, Result
from domain.kernel.surface import random_seed
from domain.kernel.surface.declared import MAX_SEED

from domain.betrayal.battle import application


def start_clash(app: GameApp, r: Any) -> Result:
    """Set up the clash ``r`` asks for (CLASH-5 to CLASH-10); refused with
    the reason, writing nothing."""
    return application.new_clash(app, setup=r.setup, **_options(app, r, r.setup))


def start_dungeon(app: GameApp, r: Any) -> Result:
    """Set up the dungeon ``r`` asks for (DUNGEON-6 to DUNGEON-11)."""
    return application.new_dungeon(app, setup=r.setup, specials=tuple(r.specials), **_options(app, r, r.setup))


def start_delve(app: GameApp, r: Any) -> Result:
    """Set up the delve ``r`` asks for (DELVE-7 to DELVE-12)."""
    from domain.betrayal.campaign.application import party_item_deck

    options = _options(app, r, r.delve)
    deck = party_item_deck(app, [m.name for m in options["party"]])  # ITEM-9: a campaign party's caches
    return application.new_delve(app, delve=r.delve, item_deck=deck, **options)


def party_xp(app: GameApp, names: list[str], xp: int | None, climax: bool) -> int:
    """The XP a battle's EP is worked out from: as given; for a session's
    climax battle the session-end table's XP (SESSION-EP-2); else the dial
    of the campaign the whole party belongs to (EP-2); else 1."""
    from domain.betrayal.campaign.application import climax_xp, party_campaign

    if xp is not None and climax:
        raise MalformedCommand("--xp or --climax, not both: a climax battle's EP comes from the session table")
    if xp is not None:
        return xp
    campaign = party_campaign(app, names)
    if climax:
        if campaign is None:
            raise MalformedCommand("--climax needs a party of one campaign (see `rk campaign status`)")
        return climax_xp(app, campaign, len(names))
    return campaign.dial if campaign is not None else 1


def _options(app: GameApp, r: Any, setup: str) -> dict[str, Any]:
    """What every setup passes on: the party and its XP, the seed, the
    battle's id (its name, else after its setup: ``waystone-1``) and the
    table's options."""
    if not r.party:
        raise MalformedCommand("a party needs at least one adventurer (--party)")
    seed = r.seed if r.seed is not None else random_seed()
    if not 0 <= seed <= MAX_SEED:
        raise MalformedCommand("seed must be a whole number from 0 to 2^63-1")
    party = list(r.party)
    return dict(
        party=party,
        xp=party_xp(app, [m.name for m in party], r.xp, r.climax),
        seed=seed,
        battle_id=r.name or app.new_battle_id(setup),
        difficulty=r.difficulty,
        physical_dice=r.physical_dice,
        placements=tuple(tuple(h) for h in r.placements),
        choose_defense=r.choose_defense,
        companions=tuple(r.companions),
    )
