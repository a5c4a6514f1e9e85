"""The exceptions to the [Speed] order (ORDER-3; facts: Fills ORDER-3, a
pre-emptive action is a "fastest" one): all fastest actions come first,
all delayed actions last, ties inside each as ORDER-2.

A skill's ``speed`` says which. Since a PC chooses its action only when its
turn comes, the Main phase opens with a fastest window: everyone who could
take a fastest action now (a usable fastest skill, able to act, not
Waiting, not confused, not in a link group, which acts together) is asked,
fastest first, to use one or to hold. A delayed skill chosen in [Speed]
order is put aside (``ActionDelayed``) and taken in the delayed group,
when its target must still be there."""

from __future__ import annotations

from . import enemies
from . import events as ev
from .catalog import Pack
from .decision import Decision
from .fp import can_pay
from .order import in_group, order_key
from .state import Combatant, Deferred, LabyrinthState
from .targeting import cannot_act, skill_blocked
from .vocab import Speed


def why_not_fastest(state: LabyrinthState, pack: Pack, c: Combatant) -> str:
    """Why ``c`` is not offered a fastest action now, or ""."""
    reason = cannot_act(state, c)[0]
    if reason:
        return reason
    if c.acted:
        return "has acted"
    if c.waiting:
        return "is in the Waiting state"
    if c.confused:
        return "is confused"
    if c.link:
        return "acts with its link group"
    if not enemies.fastest_skills(state, pack, c):
        return "has no fastest skill it can use"
    return ""


def fastest_candidates(state: LabyrinthState, pack: Pack, queue: tuple[str, ...]) -> tuple[str, ...]:
    """Who the fastest window asks, in the fastest group's order."""
    return in_group(
        state, pack, [cid for cid in queue if not why_not_fastest(state, pack, state.get(cid))], Speed.FASTEST
    )


def up_fastest(d: Decision, who: str) -> None:
    """``who``'s place in the fastest window: asked, or held if it can no
    longer take a fastest action (something earlier in the window stopped it)."""
    reason = why_not_fastest(d.state, d.pack, d.state.get(who))
    d.emit(ev.Held(who=who, reason=reason) if reason else ev.ActorUp(who=who, window="fastest"))


def next_delayed(state: LabyrinthState, pack: Pack) -> Deferred:
    """The delayed action taken next: the delayed group in ORDER-2 order."""
    return min(state.delayed, key=lambda x: order_key(state, pack, state.get(x.who), Speed.DELAYED))


def up_delayed(d: Decision) -> None:
    """Take the next delayed action, unless its user can no longer act or
    use the skill, or its target is gone (then it lapses, nothing paid)."""
    x = next_delayed(d.state, d.pack)
    c = d.state.get(x.who)
    skill = d.pack.skills[x.skill]
    reason, rule = cannot_act(d.state, c)
    if not reason and skill_blocked(c, skill):
        reason, rule = "is bound from the skill", skill_blocked(c, skill)
    elif not reason and not can_pay(c, skill):  # its TP, and FP (FUMBLE-2)
        reason, rule = "cannot pay for the skill", "MAIN-4"
    elif not reason and skill.effects and x.target not in enemies.skill_choices(d.state, d.pack, c, skill):
        reason, rule = "finds its target gone: the delayed action lapses", "ORDER-3"
    if reason:
        d.emit(ev.ActionSkipped(who=c.id, reason=reason, rule=rule))
        return
    d.emit(ev.ActorUp(who=c.id, window="delayed"))
    d.fp_given = set()
    if c.confused and (d.state.options.confused_alone_does_nothing or enemies.confused_targets(d.state, d.pack, c)):
        enemies.confused(d, c.id)
    else:
        enemies.perform(d, c.id, x.skill, x.target)
