"""The campaign's verbs on the kernel's application: begin a campaign, find
the one a command acts on, give it a command, and work out what a finished
battle gives in its Reward Phase. The rules are ``rules``'; this
is where the store is read."""

from __future__ import annotations

from domain.kernel.errors import MalformedCommand, NotFound
from domain.kernel.games import GameApp, Result

from domain.betrayal.battle.ruleset import ADVENTURERS, BETRAYAL
from domain.betrayal.battle.state import Outcome
from domain.betrayal.delve.aggregate import DelveConcluded, DelveRestored
from domain.betrayal.delve.deck import ItemDeck
from domain.betrayal.vocab import Difficulty

from . import commands as cc
from .game import CampaignState
from .ruleset import CAMPAIGN

DEFAULT_NAME = "campaign"


def new_campaign(
    app: GameApp, campaign_id: str | None = None, *, difficulty: Difficulty = Difficulty.ADEPT, dial: int | None = None
) -> Result:
    """Begin a campaign (called ``campaign-1``... unless named); the dial
    starts where the pack says (facts: 2) unless given."""
    pack = app.pack_of(CAMPAIGN)
    if pack.campaign is None:
        raise MalformedCommand(f"pack {pack.id} has no campaign content")
    campaign_id = campaign_id or app.new_battle_id(DEFAULT_NAME)
    command = cc.StartCampaign(
        campaign_id=campaign_id, difficulty=difficulty, dial=pack.campaign.start_dial if dial is None else dial
    )
    return app.start(CAMPAIGN.name, command, battle_id=campaign_id)


def campaigns(app: GameApp, *, deleted: bool = False) -> list[str]:
    """The campaigns of the store, oldest first."""
    return [e.battle_id for e in app.index().entries(deleted=deleted) if e.ruleset == CAMPAIGN.name]


def find_campaign(app: GameApp, name: str | None = None, adventurer: str | None = None) -> str:
    """The campaign a command acts on: the one named, else the one
    ``adventurer`` belongs to, else the newest; NotFound when there is none."""
    if name:
        entry = app.find_battle(name)
        if entry.ruleset != CAMPAIGN.name:
            raise NotFound(f"{name!r} is a battle, not a campaign (see `rk campaign list`)")
        return entry.battle_id
    if adventurer:
        try:
            state = app.state_of(ADVENTURERS, BETRAYAL.stream_of(ADVENTURERS.kind, adventurer))
        except NotFound:
            raise NotFound(f"no adventurer named {adventurer!r}") from None
        if state.campaign:
            return state.campaign
    found = campaigns(app)
    if not found:
        raise NotFound("there is no campaign yet: begin one with `rk campaign new` (or `rk adventurer new`)")
    return found[-1]


def campaign(app: GameApp, campaign_id: str, version: int | None = None) -> CampaignState:
    """The campaign now, or at ``version``."""
    return app.battle(campaign_id, version).state


def command(app: GameApp, campaign_id: str, cmd: cc.CampaignCommand) -> Result:
    """Give the campaign a command (the kernel decides it, saves every
    stream it wrote at once, and keeps it for undo)."""
    return app.execute(campaign_id, cmd)


def battle_reward(app: GameApp, battle_id: str) -> int:
    """The XP a finished battle gives its party (REWARD-1): on success the
    encounter's printed reward (content: the pack's reward table, a
    default), on failure nothing, except an Uncover delve's XP per skyshard
    (OBJ-10, OBJ-11), which it gives either way."""
    state = app.battle(battle_id).state
    if getattr(state, "outcome", None) is None:
        raise MalformedCommand(f"battle {battle_id} is not over yet")
    pack = app.pack_of(BETRAYAL)
    printed = pack.campaign.rewards.get(state.setup, 0) if pack.campaign else 0
    xp = printed if state.outcome is Outcome.SUCCESS else 0
    delve = BETRAYAL.stream_of("delve", battle_id)
    skyshard_xp = 0
    for envelope in app.events(delve) if app.events.last(delve) is not None else ():
        event = envelope.event
        if isinstance(event, DelveConcluded):
            skyshard_xp = event.xp
        elif isinstance(event, DelveRestored) and (event.restored is None or not event.restored.concluded):
            skyshard_xp = 0  # the ending was undone
    return xp + skyshard_xp


def battle_loot(app: GameApp, battle_id: str) -> tuple[tuple[str, str], ...]:
    """The item cards a delve's caches gave, as (adventurer name, item), each
    to the one who opened the cache (ITEM-1); none for a clash."""
    from domain.betrayal.battle.application import delve_of

    delve = delve_of(app, battle_id)
    if delve is None:
        return ()
    names = {h.id: h.name for h in app.battle(battle_id).state.heroes}
    return tuple((names.get(hero, hero), item) for hero, item in delve.loot)


def battle_discards(app: GameApp, battle_id: str) -> tuple[str, ...]:
    """The item cards the party of a finished battle gave up in it
    (OVERTAX-4, CONSUMABLE-1, PET-3): onto the item deck's pile (ITEM-9)."""
    return tuple(item for h in app.battle(battle_id).state.heroes for item in h.discarded)


def party_item_deck(app: GameApp, names: list[str]) -> ItemDeck | None:
    """The item deck a delve of ``names`` is dealt: their campaign's
    (ITEM-9), or None when they are not one campaign's party."""
    from .item_deck import deck

    state = party_campaign(app, names)
    return deck(app.pack_of(CAMPAIGN), state) if state is not None else None


def party_campaign(app: GameApp, names: list[str]) -> CampaignState | None:
    """The campaign every one of ``names`` belongs to, or None (some are
    new, or in no campaign, or in different ones)."""
    found = set()
    for name in names:
        try:
            state = app.state_of(ADVENTURERS, BETRAYAL.stream_of(ADVENTURERS.kind, name))
        except NotFound:
            return None
        if state is None or not state.campaign:
            return None
        found.add(state.campaign)
    if len(found) != 1:
        return None
    return campaign(app, found.pop())


def climax_xp(app: GameApp, state: CampaignState, players: int) -> int:
    """SESSION-EP-2 to SESSION-EP-4: the XP goal of the session-end table
    for the campaign's session and difficulty and ``players`` adventurers
    (EP = that XP x party size, as EP-2 works it out)."""
    from .session_ep import session_ep

    return session_ep(app.pack_of(CAMPAIGN), state.session, state.difficulty.value, players).xp
