"""Tokens (facts section 8, one of ATTACK-1's special cases): a skill's
``token`` effect places a combatant of an Enemy kind on its user's side.
It acts at its placer's [Speed], right after it, from the turn it is
placed (``order.slot``), and vanishes if its placer is incapacitated.

Defaults where the facts are silent: a token stands at the end of its
placer's row; an Enemy's token is an Enemy, a PC's an allied NPC that acts
by the seeded policy; placing a token its placer already has renews its
turns; a side never holds more than 6 up (SCALE-1); ``turns`` counts the
turn placed (0: until its placer falls); nobody Identifies a token."""

from __future__ import annotations

from msgspec.structs import replace

from . import events as ev
from .catalog import SkillEffect
from .decision import Decision
from .order import order_key
from .state import Combatant, LabyrinthState
from .stats import enemy_base
from .vocab import SIDE_LIMIT, Phase, Side


def place(d: Decision, who: str, effect: SkillEffect) -> None:
    """``who`` places (or renews) the token ``effect`` names."""
    state = d.state
    placer = state.get(who)
    kind = d.pack.enemies.get(effect.token)
    expires = state.turn + effect.turns - 1 if effect.turns else 0
    held = next((c for c in state.combatants if c.placer == who and c.kind == effect.token and not c.down), None)
    if held is not None:
        d.emit(ev.TokenPlaced(who=who, token=replace(held, expires=expires), queue=state.queue))
        return
    if kind is None:
        d.emit(ev.EffectFizzled(who=who, effect="token", reason=f"no Enemy kind {effect.token!r}", rule="ATTACK-1"))
        return
    if sum(1 for c in state.side(placer.pc_side) if not c.down) >= SIDE_LIMIT:
        d.emit(ev.EffectFizzled(who=who, effect="token", reason="its side already has 6 in the fight", rule="SCALE-1"))
        return
    side = Side.ENEMY if not placer.pc_side else Side.NPC
    base = enemy_base(kind)
    prefix = "e" if side is Side.ENEMY else "n"
    number = sum(1 for c in state.combatants if c.id.startswith(prefix) and c.id[1:].isdigit()) + 1
    row_size = sum(1 for c in state.side(placer.pc_side) if c.row is placer.row and not c.down)
    token = Combatant(
        id=f"{prefix}{number}",
        name=kind.name,
        side=side,
        kind=kind.id,
        level=kind.level,
        base=base,
        row=placer.row,
        order=row_size + 1,
        roster=len(state.combatants) + 1,
        hp=base.max_hp,
        tp=base.max_tp,
        skills=kind.skills,
        placer=who,
        expires=expires,
    )
    d.emit(ev.TokenPlaced(who=who, token=token, queue=_queue_with(d, state, token)))


def _queue_with(d: Decision, state: LabyrinthState, token: Combatant) -> tuple[str, ...]:
    """The Main order with the new token in it: at its slot if its placer
    is still to act, else next (its placer's [Speed] has come this turn)."""
    if state.phase is not Phase.MAIN:
        return state.queue
    if token.placer not in state.queue:
        return (token.id,) + state.queue
    with_token = replace(state, combatants=state.combatants + (token,))
    return tuple(sorted(state.queue + (token.id,), key=lambda cid: order_key(with_token, d.pack, with_token.get(cid))))


def vanish_with(d: Decision, placer: str) -> None:
    """Every token of ``placer`` (and theirs in turn) vanishes with it."""
    for c in d.state.combatants:
        if c.placer == placer and not c.vanished:
            d.emit(ev.TokenVanished(who=c.id, reason="its placer is incapacitated"))
            vanish_with(d, c.id)


def expire(d: Decision) -> bool:
    """At the end of the End phase, tokens whose last turn this was vanish;
    whether any did."""
    gone = False
    for c in d.state.combatants:
        if c.placer and c.expires and c.expires <= d.state.turn and not d.state.get(c.id).vanished:
            d.emit(ev.TokenVanished(who=c.id, reason="its turns ran out"))
            vanish_with(d, c.id)
            gone = True
    return gone
