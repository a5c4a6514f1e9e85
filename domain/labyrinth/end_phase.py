"""The End phase (facts section 6), in its fixed order: 1 delayed attacks
due this turn, 2 Poison, 3 regen and other "in the End phase" effects,
4 natural recovery, 5 buff durations −1, 6 depth −1; then tokens whose
turns ran out vanish and the turn ends (the Waiting state, Stun and this
turn's losses with it)."""

from __future__ import annotations

from . import ailments, buffs, casualties, skills, tokens
from . import events as ev
from .decision import Decision
from .order import order_key
from .stats import buff_total, stats
from .vocab import Ailment, Buff


def run(d: Decision) -> None:
    d.emit(ev.EndStarted())
    _delayed_attacks(d)
    for step in (_poison, _regen, _recovery, _durations, _depths):
        for c in d.state.combatants:
            if d.state.over:
                return
            if not d.state.get(c.id).down:
                step(d, c.id)
    if not d.state.over:
        if tokens.expire(d):
            casualties.settle(d)  # a side may be left with no one up
    if not d.state.over:
        d.emit(ev.TurnEnded(turn=d.state.turn))


def _delayed_attacks(d: Decision) -> None:
    """Step 1: the delayed attacks due this turn, in acting order (facts
    section 8; the order among them is the engine's default)."""
    due = [x for x in d.state.pending if x.due <= d.state.turn]
    due.sort(key=lambda x: order_key(d.state, d.pack, d.state.get(x.who)))
    for x in due:
        if d.state.over:
            return
        d.fp_given = set()
        skills.land_delayed(d, x.who, x.skill, x.target)


def _poison(d: Decision, who: str) -> None:
    """Step 2: the poisoner's [Suppression attack] (recorded at infliction:
    it does not change in a battle), as Actual damage that ignores [Defense]
    and resistance and is never halved (AILMENT-POISON, OQ 8, facts
    default); after the poisoner has left the battle, still that recorded
    value (OQ 43). Without those readings, [Defense] takes from it, and a
    gone poisoner's poison deals nothing."""
    c = d.state.get(who)
    held = c.ailment(Ailment.POISON)
    if held is None:
        return
    options = d.state.options
    poisoner = d.state.find(held.source)
    amount = held.poison
    if poisoner is not None and poisoner.down and not options.poison_recorded_if_gone:
        amount = 0
    if not options.poison_ignores_defense:
        amount -= stats(c, d.pack).defense
    if amount <= 0:
        return
    hp = c.hp - amount
    d.emit(ev.HpLost(who=who, amount=amount, hp=hp, cause="poison"))
    if hp <= 0:
        casualties.incapacitated(d, who)


def _regen(d: Decision, who: str) -> None:
    """Step 3: HP and TP regen, never above the maximum (facts default)."""
    c = d.state.get(who)
    hp_up, tp_up = buff_total(c, Buff.HP_REGEN), buff_total(c, Buff.TP_REGEN)
    if not hp_up and not tp_up:
        return
    s = stats(c, d.pack)
    d.emit(
        ev.Regenerated(who=who, hp=max(c.hp, min(c.hp + hp_up, s.max_hp)), tp=max(c.tp, min(c.tp + tp_up, s.max_tp)))
    )


def _recovery(d: Decision, who: str) -> None:
    ailments.natural_recovery(d, who)


def _durations(d: Decision, who: str) -> None:
    buffs.count_down(d, who)


def _depths(d: Decision, who: str) -> None:
    ailments.lower_depths(d, who)
