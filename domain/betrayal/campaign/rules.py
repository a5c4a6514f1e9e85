"""The campaign's rules: ``decide`` a command between battles against the
campaign and its party's adventurers, and list what may be done now.

Our own rule IDs name the Reward Phase's order and the End of Day, which
the rules leave to the facts (betrayal-facts "Fills CLEANUP-1 ..." and
"Fills CLEANUP-4c ..."); RULES-COVERAGE.md lists them:
REWARD-1 gain a finished battle's rewards once, REWARD-2 untrain before
advancing, REWARD-3 advancements only in an open Reward Phase, REWARD-4 one
phase at a time and nothing else while it is open, REST-1 to REST-3 the End
of Day (``rest``), BETWEEN-1 an adventurer in a battle not ended is left be.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from uuid import UUID

from msgspec.structs import replace

from domain.kernel.errors import MalformedCommand, RuleViolation
from domain.kernel.messages import Event
from domain.kernel.names import check_name
from domain.kernel.ruleset import Outcome, Write

from domain.betrayal.adventurer import events as ae
from domain.betrayal.adventurer import advancement, inventory
from domain.betrayal.adventurer.aggregate import create  # the battle's own creation, then the campaign's fields on top
from domain.betrayal.adventurer.mat import starting_mat
from domain.betrayal.adventurer.state import AdventurerState

from . import game as cp
from . import item_deck, rest
from . import commands as cc
from .game import CampaignContext


def decide(
    state: cp.CampaignState | None, command: cc.CampaignCommand, ctx: CampaignContext, rules_version: str
) -> Outcome:
    """The outcome of ``command``; RuleViolation or MalformedCommand when it
    may not be done."""
    if isinstance(command, cc.StartCampaign):
        if state is not None:
            raise MalformedCommand("the campaign has begun already")
        return _start(command, ctx, rules_version)
    if state is None:
        raise MalformedCommand("the campaign has not begun")
    handler = _HANDLERS.get(type(command))
    if handler is None:
        raise MalformedCommand("that is not a command of a campaign: `rk campaign legal` lists what may be done")
    return handler(state, command, ctx)


def _start(c: cc.StartCampaign, ctx: CampaignContext, rules_version: str) -> Outcome:
    check_name(c.campaign_id, "campaign name")
    if not 0 <= c.dial <= 80:
        raise MalformedCommand("the XP dial reads 0 to 80")
    pack = ctx.pack
    return Outcome(
        [
            cp.CampaignStarted(
                campaign_id=c.campaign_id,
                rules_version=rules_version,
                pack_id=pack.id,
                pack_hash=pack.campaign_hash,
                difficulty=c.difficulty,
                session=1,
                dial=c.dial,
            )
        ]
    )


def _who(state: cp.CampaignState, ctx: CampaignContext, name: str) -> tuple[cp.Member, AdventurerState]:
    member = state.member(name)
    if member is None:
        party = ", ".join(m.name for m in state.party) or "nobody yet"
        raise MalformedCommand(f"{name!r} is not in the party of {state.battle_id} ({party})")
    adventurer = ctx.adventurers.get(member.adventurer_id)
    assert adventurer is not None, "a party member's stream exists"
    _not_fighting(adventurer)
    return member, adventurer


def _not_fighting(a: AdventurerState) -> None:
    """BETWEEN-1: an adventurer in a battle not ended yet belongs to that
    battle, which writes its state back when it ends."""
    if a.fighting:
        raise RuleViolation(
            "BETWEEN-1", f"{a.name} is in battle {a.fighting}, which has not ended: that waits until it does"
        )


def _to(member: cp.Member, *events: Event) -> Write:
    return Write("adventurer", UUID(member.adventurer_id), tuple(events))


def _check_class(ctx: CampaignContext, class_id: str) -> None:
    if class_id not in ctx.pack.classes:
        raise MalformedCommand(f"no class {class_id!r}; choose one of {', '.join(sorted(ctx.pack.classes))}")


def _recruit(state: cp.CampaignState, c: cc.Recruit, ctx: CampaignContext) -> Outcome:
    _not_in_phase(state, "recruit")
    if state.member(c.name) is not None:
        raise MalformedCommand(f"{c.name} is in the party already")
    _check_class(ctx, c.class_id)
    stream = ctx.stream(c.name)
    if ctx.adventurers.get(str(stream)) is not None:
        raise MalformedCommand(f"an adventurer named {c.name} exists already: enlist it (rk campaign enlist {c.name})")
    made = create(ctx.pack, str(stream), c.name, c.race, c.lines).state
    made = replace(made, campaign=state.battle_id, class_id=c.class_id, mat=starting_mat(ctx.pack, made.lines))
    member = cp.Member(made.name, str(stream))
    return Outcome(
        [cp.MemberEnlisted(name=made.name, adventurer_id=str(stream))],
        (_to(member, ae.AdventurerRecruited(state=made)),),
    )


def _enlist(state: cp.CampaignState, c: cc.Enlist, ctx: CampaignContext) -> Outcome:
    _not_in_phase(state, "enlist")
    if state.member(c.name) is not None:
        raise MalformedCommand(f"{c.name} is in the party already")
    stream = ctx.stream(c.name)
    adventurer = ctx.adventurers.get(str(stream))
    if adventurer is None:
        raise MalformedCommand(f"no adventurer named {c.name!r}: recruit one with a race and a class")
    if adventurer.campaign and adventurer.campaign != state.battle_id:
        raise MalformedCommand(f"{adventurer.name} is in campaign {adventurer.campaign}")
    class_id = c.class_id or adventurer.class_id
    if not class_id:
        raise MalformedCommand(f"{adventurer.name} has no class yet: give one (CLASS-1)")
    _check_class(ctx, class_id)
    member = cp.Member(adventurer.name, str(stream))
    joined = ae.CampaignJoined(
        campaign=state.battle_id, class_id=class_id, mat=adventurer.mat or starting_mat(ctx.pack, adventurer.lines)
    )
    return Outcome([cp.MemberEnlisted(name=adventurer.name, adventurer_id=str(stream))], (_to(member, joined),))


def _not_in_phase(state: cp.CampaignState, what: str) -> None:
    if state.reward:
        raise RuleViolation(
            "REWARD-4", f"the Reward Phase of {state.reward} is open: end it (rk reward done) before you {what}"
        )


def _rewards(state: cp.CampaignState, c: cc.GainRewards, ctx: CampaignContext) -> Outcome:
    _not_in_phase(state, "gain other rewards")
    if c.battle_id in state.rewarded:
        raise RuleViolation("REWARD-1", f"the rewards of {c.battle_id} were gained already")
    if not 0 <= c.xp <= 40:
        raise MalformedCommand("a battle gives 0 to 40 XP")
    fought = [
        (m, a)
        for m in state.party
        if (a := ctx.adventurers.get(m.adventurer_id)) is not None and c.battle_id in a.battles
    ]
    if not fought:
        raise RuleViolation("REWARD-1", f"no one of the party has finished battle {c.battle_id}")
    events: dict[str, list[Event]] = {m.adventurer_id: [ae.XpGained(battle_id=c.battle_id, xp=c.xp)] for m, _ in fought}
    held = {m.adventurer_id: a for m, a in fought}
    for name, item in c.loot:
        member = next((m for m, _ in fought if m.name.lower() == name.strip().lower()), None)
        if member is None:
            raise MalformedCommand(f"loot for {name!r}, who did not fight {c.battle_id}")
        gained = inventory.gain(held[member.adventurer_id], item, ctx.pack)  # READY-1: 8 items at most
        events[member.adventurer_id].append(gained)
        held[member.adventurer_id] = ae.evolve(held[member.adventurer_id], gained)
    writes = tuple(_to(m, *events[m.adventurer_id]) for m, _ in fought)
    cards = item_deck.dealt(ctx.pack, state, tuple(item for _, item in c.loot)) + item_deck.discarded(
        ctx.pack, c.discarded
    )  # ITEM-9: the campaign's item deck
    return Outcome([cp.RewardsGained(battle_id=c.battle_id, xp=c.xp), *cards], writes)


def _in_phase(state: cp.CampaignState, what: str) -> None:
    if not state.reward:
        raise RuleViolation(
            "REWARD-3", f"{what} happens in a Reward Phase: gain a battle's rewards first (rk reward BATTLE)"
        )


def _advance(state: cp.CampaignState, c: cc.Advance, ctx: CampaignContext) -> Outcome:
    _in_phase(state, "buying advancements (ADVANCE-1)")
    member, a = _who(state, ctx, c.adventurer)
    pack = ctx.pack
    what = c.what.strip().lower()
    if what in ("health", "stamina", "magicka"):
        event: Event = advancement.raise_stat(a, what, pack)
    elif what == "cooldown":
        event = advancement.raise_cooldown(a, pack)
    elif what == "tenacity":
        event = advancement.buy_tenacity(a, c.amount, pack)
    elif what in pack.dice:
        event = advancement.add_die(a, what, pack)
    else:
        raise MalformedCommand(
            f"advance what? health, stamina, magicka, cooldown, tenacity or a skill die id, not {c.what!r}"
        )
    taken: list[Event] = (
        [] if member.adventurer_id in state.advanced else [cp.AdvancementTaken(adventurer_id=member.adventurer_id)]
    )
    return Outcome(taken, (_to(member, event),))


def _untrain(state: cp.CampaignState, c: cc.Untrain, ctx: CampaignContext) -> Outcome:
    _in_phase(state, "untraining")
    member, a = _who(state, ctx, c.adventurer)
    if member.adventurer_id in state.advanced:
        raise RuleViolation(
            "REWARD-2", f"{a.name} has bought advancements in this Reward Phase: the Untrain step comes before them"
        )
    what = c.what.strip().lower()
    if c.uid:
        event: Event = advancement.untrain_die(a, c.uid, ctx.pack)
    elif what in ("health", "stamina", "magicka"):
        event = advancement.untrain_stat(a, what, ctx.pack)
    elif what.endswith("-line"):
        event = advancement.untrain_stat(a, what[:-5], ctx.pack, line=True)
    else:
        raise MalformedCommand("untrain what? health, stamina, magicka, magicka-line or a die's number")
    return Outcome([], (_to(member, event),))


def _end_rewards(state: cp.CampaignState, c: cc.EndRewards, ctx: CampaignContext) -> Outcome:
    _in_phase(state, "ending it")
    writes = []
    for m in state.party:
        a = ctx.adventurers.get(m.adventurer_id)
        capped = advancement.cap_saved_xp(a, ctx.pack) if a is not None else None
        if capped is not None:
            writes.append(_to(m, capped))
    return Outcome([cp.RewardPhaseEnded(battle_id=state.reward)], tuple(writes))


def _train(state: cp.CampaignState, c: cc.TrainLine, ctx: CampaignContext) -> Outcome:
    _not_in_phase(state, "visit a trainer")
    member, a = _who(state, ctx, c.adventurer)
    slot = (c.row - 1, c.left) if c.row else None
    return Outcome([], (_to(member, advancement.train_line(a, c.line.strip().lower(), ctx.pack, slot)),))


def _rest(state: cp.CampaignState, c: cc.Rest, ctx: CampaignContext) -> Outcome:
    """The End of Day: each adventurer rests as it chooses (REST-1, REST-2,
    END-1c), then the trades (REST-3); ``rest`` has the rules."""
    _not_in_phase(state, "rest")
    t = rest.terms(ctx.pack, state.difficulty.value)
    picks = {name.lower(): positions for name, positions in c.remove}
    gives = {name.lower(): item for name, item in c.discard}
    for name in [*picks, *gives, *(n for giver, _, receiver in c.trade for n in (giver, receiver))]:
        _who(state, ctx, name)
    events: dict[str, list[Event]] = {}
    now: dict[str, AdventurerState] = {}
    for m in state.party:
        a = ctx.adventurers[m.adventurer_id]
        assert a is not None
        _not_fighting(a)
        done = rest.rest_one(a, t, ctx.pack, gives.get(m.name.lower(), ""), picks.get(m.name.lower()))
        events[m.adventurer_id] = [done]
        now[m.adventurer_id] = ae.evolve(a, done)
    unrested = tuple(now[m.adventurer_id].name for m in state.party if not rest.rested(events[m.adventurer_id][0]))
    for giver_name, item, receiver_name in c.trade:
        giver, receiver = state.member(giver_name), state.member(receiver_name)
        assert giver is not None and receiver is not None  # checked by _who above
        given, received = rest.trade(
            now[giver.adventurer_id], now[receiver.adventurer_id], item.strip().lower(), ctx.pack, t, unrested
        )
        for member, event in ((giver, given), (receiver, received)):
            events[member.adventurer_id].append(event)
            now[member.adventurer_id] = ae.evolve(now[member.adventurer_id], event)
    given_up = [
        e.discarded
        for m in state.party
        for e in events[m.adventurer_id][:1]
        if isinstance(e, ae.Rested) and e.discarded
    ]
    return Outcome(
        [cp.DayEnded(day=state.day), *item_deck.discarded(ctx.pack, given_up)],
        tuple(_to(m, *events[m.adventurer_id]) for m in state.party),
    )


def _promote(state: cp.CampaignState, c: cc.Promote, ctx: CampaignContext) -> Outcome:
    member, a = _who(state, ctx, c.adventurer)
    sheet = ctx.pack.classes.get(a.class_id)
    if sheet is None:
        raise RuleViolation("ADVANCE-15", f"{a.name} has no class sheet to promote")
    if a.master:
        raise RuleViolation("ADVANCE-15", f"{a.name}'s {sheet.name} sheet is on its Master side already")
    if not a.promotable:
        raise RuleViolation("ADVANCE-15", f"{a.name} has not met the promotion requirement yet: {sheet.promotion}")
    return Outcome([], (_to(member, ae.ClassPromoted(class_id=a.class_id)),))


def _end_session(state: cp.CampaignState, c: cc.EndSession, ctx: CampaignContext) -> Outcome:
    _not_in_phase(state, "end the session")
    writes = []
    cards: tuple[str, ...] = ()
    for m in state.party:
        a = ctx.adventurers[m.adventurer_id]
        assert a is not None
        _not_fighting(a)
        gone = tuple(i for i in a.items if str(inventory.gear(ctx.pack, i).kind) in ("pet", "enchantment"))
        writes.append(_to(m, ae.SessionClosed(session=state.session, discarded=gone)))
        cards += gone
    return Outcome([*item_deck.discarded(ctx.pack, cards), cp.SessionEnded(session=state.session)], tuple(writes))


def _item(state: cp.CampaignState, c: cc.ItemCommand, ctx: CampaignContext) -> Outcome:
    _not_in_phase(state, "handle items")
    member, a = _who(state, ctx, c.adventurer)
    item = c.item.strip().lower()
    pack = ctx.pack
    if isinstance(c, cc.GainItem):
        event: Event = inventory.gain(a, item, pack, ready=c.ready)
    elif isinstance(c, cc.ReadyItem):
        event = inventory.move(a, item, pack, ready=True)
    elif isinstance(c, cc.StowItem):
        event = inventory.move(a, item, pack, ready=False)
    elif isinstance(c, cc.DiscardItem):
        event = inventory.discard(a, item)
    elif isinstance(c, cc.UseItem):
        event = inventory.use(a, item, pack)
    else:
        event = inventory.replenish(a, item, pack)
    gone = isinstance(event, ae.ItemDiscarded) or (isinstance(event, ae.ItemUsed) and event.discarded)
    return Outcome(item_deck.discarded(pack, [item]) if gone else [], (_to(member, event),))


# Each handler takes the command of its key's type.
_HANDLERS: dict[type, Callable[[cp.CampaignState, Any, CampaignContext], Outcome]] = {
    cc.Recruit: _recruit,
    cc.Enlist: _enlist,
    cc.GainRewards: _rewards,
    cc.Advance: _advance,
    cc.Untrain: _untrain,
    cc.EndRewards: _end_rewards,
    cc.TrainLine: _train,
    cc.Rest: _rest,
    cc.EndSession: _end_session,
    cc.Promote: _promote,
    cc.GainItem: _item,
    cc.ReadyItem: _item,
    cc.StowItem: _item,
    cc.DiscardItem: _item,
    cc.UseItem: _item,
    cc.ReplenishItem: _item,
}


def legal_commands(state: cp.CampaignState, ctx: CampaignContext) -> list[cc.CampaignCommand]:
    """What may be done now: in a Reward Phase, each advancement someone can
    afford, the untraining of those who have not advanced, and its end;
    otherwise rest, the end of the session, item moves and trainer visits
    are always open (rewards need a battle id and are not listed)."""
    found: list[cc.CampaignCommand] = []

    def fits(command: cc.CampaignCommand) -> None:
        try:
            decide(state, command, ctx, state.rules_version)
        except (RuleViolation, MalformedCommand):
            return
        found.append(command)

    pack = ctx.pack
    for m in state.party:
        a = ctx.adventurers.get(m.adventurer_id)
        if a is None:
            continue
        if state.reward:
            for what in ("health", "stamina", "magicka", "cooldown", "tenacity"):
                fits(cc.Advance(adventurer=m.name, what=what))
            for die in sorted(d for d, spec in pack.dice.items() if spec.line in a.lines + ("combat",)):
                fits(cc.Advance(adventurer=m.name, what=die))
            for what in ("health", "stamina", "magicka", "magicka-line"):
                fits(cc.Untrain(adventurer=m.name, what=what))
            for uid, _ in a.dice:
                fits(cc.Untrain(adventurer=m.name, uid=uid))
        else:
            for item in a.packed:
                fits(cc.ReadyItem(adventurer=m.name, item=item))
            for item in a.ready:
                fits(cc.StowItem(adventurer=m.name, item=item))
            for item in a.items:
                fits(cc.UseItem(adventurer=m.name, item=item))
    if state.reward:
        found.append(cc.EndRewards())
    elif state.party:
        fits(cc.Rest())
        found.append(cc.EndSession())
    return found
