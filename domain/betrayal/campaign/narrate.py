"""One readable line for each event of a campaign: the campaign's own
stream and what its commands write to the adventurers (rewards,
advancements, items, rest). Registered with the battle narrator too, so a
battle's log that carries an adventurer's history reads the same."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


from domain.betrayal.adventurer import events as ae
from domain.betrayal.battle import narrate
from domain.betrayal.packs.catalog import Pack

from . import game as cp


RULESET = "betrayal-campaign"  # ruleset.CAMPAIGN's name (that module imports this one)


def _name(pack: Pack | None, item: str) -> str:
    card = pack.gear.get(item) if pack is not None else None
    return card.name if card is not None else item


def _die(pack: Pack | None, die: str) -> str:
    spec = pack.dice.get(die) if pack is not None else None
    return f"{spec.name} (level {spec.level})" if spec is not None else die


# (the rule it cites, the words): one entry per event type.
_LINES: dict[type, tuple[str, Callable[[Any, Pack | None], str]]] = {
    cp.CampaignStarted: (
        "",
        lambda e, p: f"campaign {e.campaign_id} begins at {e.difficulty.value} difficulty, the XP dial at {e.dial}",
    ),
    cp.MemberEnlisted: ("", lambda e, p: f"{e.name} joins the party"),
    cp.RewardsGained: (
        "REWARD-1",
        lambda e, p: f"the Reward Phase of {e.battle_id}: {e.xp} XP each, the dial rises by {e.xp}",
    ),
    cp.AdvancementTaken: ("REWARD-2", lambda e, p: "the Untrain step is behind {who}"),
    cp.RewardPhaseEnded: ("REWARD-4", lambda e, p: f"the Reward Phase of {e.battle_id} ends"),
    cp.DayEnded: ("REST-1", lambda e, p: f"day {e.day} ends: the adventurers rest"),
    cp.SessionEnded: ("", lambda e, p: f"session {e.session} ends"),
    cp.ItemCardsDealt: ("ITEM-9", lambda e, p: "the item deck gives up " + ", ".join(_name(p, i) for i in e.cards)),
    cp.ItemCardsDiscarded: (
        "ITEM-9",
        lambda e, p: ", ".join(_name(p, i) for i in e.cards) + " onto the item deck's discard pile",
    ),
    cp.ItemPileShuffledBack: (
        "ITEM-9",
        lambda e, p: f"the item deck ran out: its discard pile of {len(e.cards)} shuffled back into the tray",
    ),
    ae.AdventurerRecruited: (
        "CLASS-1",
        lambda e, p: (
            f"{e.state.name} the {e.state.race} {e.state.class_id} is"
            f" recruited: {e.state.hp} HP, lines"
            f" {', '.join(e.state.lines) or '—'}"
        ),
    ),
    ae.CampaignJoined: (
        "",
        lambda e, p: f"joins campaign {e.campaign}" + (f" as a {e.class_id}" if e.class_id else ""),
    ),
    ae.BattleJoined: ("BETWEEN-1", lambda e, p: f"goes into battle {e.battle_id}"),
    ae.XpGained: ("REWARD-1", lambda e, p: f"gains {e.xp} XP from {e.battle_id}"),
    ae.StatRaised: (
        "ADVANCE-4",
        lambda e, p: (
            f"buys a {e.stat} token in column {e.column + 1} for {e.cost} XP"
            + (" and gains 1 HP (HEALTH-6)" if e.stat == "health" else "")
        ),
    ),
    ae.DieAdded: (
        "ADVANCE-6",
        lambda e, p: f"buys {_die(p, e.die)} as die {e.uid}, column {e.column + 1}, for {e.cost} XP",
    ),
    ae.CooldownRaised: ("ADVANCE-9", lambda e, p: f"raises Cooldown to {e.to} for {e.cost} XP"),
    ae.TenacityBought: ("ADVANCE-11", lambda e, p: f"buys {e.amount} Tenacity for {e.amount} XP"),
    ae.StatUntrained: (
        "MAGICKA-3",
        lambda e, p: (
            "untrains Magicka whole"
            if e.line
            else f"untrains a {e.stat} token" + (f", {e.hp} HP left" if e.stat == "health" else "")
        ),
    ),
    ae.DieUntrained: ("REWARD-2", lambda e, p: f"untrains die {e.uid}" + (f" and with it {e.line}" if e.line else "")),
    ae.LineTrained: ("ADVANCE-13", lambda e, p: f"trains {e.line} on row {e.row + 1}, {'left' if e.left else 'right'}"),
    ae.XpCapped: ("ADVANCE-12", lambda e, p: f"keeps {e.kept} XP; {e.tenacity} buys Tenacity, {e.lost} is lost"),
    ae.Rested: (
        "REST-1",
        lambda e, p: (
            f"rests: heals {e.healed} HP, {len(e.removed)} cooldown dice off"
            + (f", gives up {_name(p, e.discarded)} (REST-2)" if e.discarded else "")
        ),
    ),
    ae.RestForgone: (
        "REST-2",
        lambda e, p: (
            "keeps its items and does not rest (a rest costs one here)"
            if e.held
            else "has no item to give up and does not rest"
        ),
    ),
    ae.PartyFell: (
        "END-1c",
        lambda e, p: (
            f"fell with the whole party in {e.battle_id}: its next rest is owed"
            " (on Expert 1 HP without an item given up)"
        ),
    ),
    ae.ItemGiven: ("REST-3", lambda e, p: f"gives {_name(p, e.item)} to {e.to} in a trade"),
    ae.ItemReceived: (
        "REST-3",
        lambda e, p: (
            f"receives {_name(p, e.item)} from {e.giver} into the Pack" + (" (expended)" if e.expended else "")
        ),
    ),
    ae.ItemGained: (
        "READY-1",
        lambda e, p: f"gains {_name(p, e.item)} into " + ("a ready slot" if e.ready else "the Pack"),
    ),
    ae.ItemMoved: (
        "READY-4",
        lambda e, p: f"moves {_name(p, e.item)} to " + ("a ready slot" if e.ready else "the Pack"),
    ),
    ae.ItemDiscarded: ("", lambda e, p: f"discards {_name(p, e.item)}" + (f" ({e.why})" if e.why else "")),
    ae.ItemUsed: (
        "ITEM-7",
        lambda e, p: (
            f"uses {_name(p, e.item)}"
            + (f": heals {e.healed} HP" if e.healed else "")
            + (f": gains {e.tenacity} Tenacity" if e.tenacity else "")
            + (f": {len(e.recovered)} dice off the track" if e.recovered else "")
            + (", now expended (POTION-2)" if e.expended else "")
            + (", discarded (CONSUMABLE-1)" if e.discarded else "")
        ),
    ),
    ae.ItemReplenished: ("EXPEND-3", lambda e, p: f"replenishes {_name(p, e.item)} at an alchemy station"),
    ae.PromotionEarned: (
        "ADVANCE-16",
        lambda e, p: f"meets the promotion requirement in {e.battle_id}: it may turn its class sheet (rk promote)",
    ),
    ae.ClassPromoted: ("ADVANCE-15", lambda e, p: f"turns the {e.class_id} sheet to its Master side"),
    ae.ItemsReturned: (
        "",
        lambda e, p: (
            f"comes back from {e.battle_id}"
            + (f"; expended: {', '.join(_name(p, i) for i in e.expended)}" if e.expended else "")
            + (f"; discarded: {', '.join(_name(p, i) for i in e.discarded)}" if e.discarded else "")
            + (f"; back in the Pack: {', '.join(_name(p, i) for i in e.stowed)}" if e.stowed else "")
            + (f"; readied: {', '.join(_name(p, i) for i in e.readied)}" if e.readied else "")
            + (f"; attached for the session: {', '.join(_name(p, i) for i in e.attached)}" if e.attached else "")
        ),
    ),
    ae.CompanionsKept: (
        "CLEANUP-3c",
        lambda e, p: (
            f"keeps its permanent companions after {e.battle_id}: "
            + (", ".join(p.companions[c].name if p and c in p.companions else c for c in e.companions) or "none")
        ),
    ),
    ae.SessionClosed: (
        "",
        lambda e, p: (
            f"session {e.session} ends: Tenacity back to 0"
            + (f", discards {', '.join(_name(p, i) for i in e.discarded)}" if e.discarded else "")
        ),
    ),
}


def cited_rule(event: Any) -> str:
    """The rule a campaign event cites ("" when none)."""
    found = _LINES.get(type(event))
    return found[0] if found else ""


def describe(event: Any, pack: Pack | None, state: cp.CampaignState | None = None) -> str | None:
    """One line for a campaign event, starting ``RULE-ID: `` when it cites
    one; None for an event of another kind. ``state`` (the campaign just
    before) names the adventurer an event of the campaign's stream is about."""
    found = _LINES.get(type(event))
    if found is None:
        return None
    return _said(event, found, pack, state)


def _said(
    event: Any, found: tuple[str, Callable[[Any, Pack | None], str]], pack: Pack | None, state: cp.CampaignState | None
) -> str:
    """``describe``'s line for an event of a kind it has (``found``)."""
    rule, words = found
    text = words(event, pack)
    if "{who}" in text:
        member = (
            next((m for m in state.party if m.adventurer_id == getattr(event, "adventurer_id", "")), None)
            if state is not None
            else None
        )
        text = text.replace("{who}", member.name if member else "this adventurer")
    return f"{rule}: {text}" if rule else text


def _register() -> None:
    """Let the battle narrator read the adventurer's campaign events too."""
    for kind in _LINES:
        if kind.__module__ == ae.__name__:
            narrate._describe.register(kind)(_adventurer_line)


def _adventurer_line(event: Any, state: Any, pack: Pack | None) -> str:
    """An adventurer's campaign event as the battle narrator says it (only
    a kind ``_LINES`` has is registered)."""
    return _said(event, _LINES[type(event)], pack, None)


_register()
