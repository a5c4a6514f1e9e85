"""Using a skill (STANDBY-5, MAIN-4, MAIN-5, FUMBLE-1, FUMBLE-2) or an item
(MAIN-6): pay the cost (its TP, and any FP printed on it), roll the
activation (unless the first effect is an attack, whose first hit check is
the roll), then each effect in order: attack rolls, Recovery rolls
(HEAL-1 .. HEAL-3), buffs, ailments, binds, cures, Pursuit grants, tokens.
A delayed attack (a skill with a ``delay``) is used and paid now and lands
in a later End phase (facts section 8)."""

from __future__ import annotations

from . import ailments, buffs, chain, tokens
from . import events as ev
from .attack import SKILL, attack
from .catalog import SkillEffect
from .decision import Decision
from .fp import roll_check
from .state import ActiveBuff
from .stats import stats
from .targeting import effect_reach, resolve
from .vocab import Ailment, Bind, Buff, Effect

HEALED_FROM = 4  # each recovery die showing 4 or more heals 1 (HEAL-3)


def use_skill(d: Decision, who: str, skill_id: str, target: str) -> None:
    """``who`` uses ``skill_id`` on ``target`` (checked legal by the rules)."""
    skill = d.pack.skills[skill_id]
    attacks_first = bool(skill.effects) and skill.effects[0].effect is Effect.ATTACK
    faces: tuple[int, ...] = ()
    counter = d.state.rng
    fumbled = False
    fp = 0
    kept: tuple[int, ...] = ()
    if not attacks_first:
        check = roll_check(
            d, who, lambda kept, result: result != "failure", rule="MAIN-5", what=f"activation roll of {skill_id}"
        )
        faces, counter, kept, fumbled, fp = check.faces, check.counter, check.kept, not check.ok, check.fp
    pays = not fumbled or d.state.options.failed_activation_pays  # OQ 9: its TP and FP costs alike
    d.emit(
        ev.SkillUsed(
            who=who,
            skill=skill_id,
            tp=skill.tp if pays else 0,
            faces=faces,
            counter=counter,
            fumbled=fumbled,
            fp=fp,
            kept=kept,
            fp_cost=skill.fp if pays else 0,
        )
    )
    if fumbled:
        d.emit(ev.SkillFumbled(who=who, skill=skill_id))
        return
    if skill.delay:
        # A delayed attack: its attack rolls (the first one its activation) come in a later End phase.
        d.emit(ev.DelayedAttackSet(who=who, skill=skill_id, target=target, due=d.state.turn + skill.delay))
        return
    run_effects(d, who, skill.effects, target, activation=skill_id if attacks_first else "", item=False)


def land_delayed(d: Decision, who: str, skill_id: str, target: str) -> None:
    """End phase step 1: a delayed attack lands, its first hit check its
    activation roll (MAIN-5); lost if its user is out of the fight."""
    c = d.state.get(who)
    if c.down:
        d.emit(ev.DelayedAttackResolved(who=who, skill=skill_id, landed=False, reason="its user is out of the fight"))
        return
    d.emit(ev.DelayedAttackResolved(who=who, skill=skill_id, landed=True))
    skill = d.pack.skills[skill_id]
    attacks_first = skill.effects[0].effect is Effect.ATTACK
    run_effects(d, who, skill.effects, target, activation=skill_id if attacks_first else "", item=False)


def use_item(d: Decision, who: str, item_id: str, target: str) -> None:
    """``who`` uses an item it carries: no activation roll; a healing item
    rolls only its own dice (no [Elemental attack])."""
    d.emit(ev.ItemUsed(who=who, item=item_id))
    run_effects(d, who, d.pack.items[item_id].effects, target, activation="", item=True)


def run_effects(
    d: Decision,
    who: str,
    effects: tuple[SkillEffect, ...],
    target: str,
    *,
    activation: str,
    item: bool,
    follow_ups: bool = True,
) -> None:
    """Each effect in order; ``follow_ups`` False: its attack rolls draw no
    Pursuit (a skill triggered by a critical, CRIT-3)."""
    last_hit: list[str] = []
    attacked: list[str] = []
    for effect in effects:
        if d.state.over or d.state.get(who).down:
            return
        user = d.state.get(who)
        reach = effect_reach(d.pack, user, effect.reach)
        ids = tuple(last_hit) if effect.on_hit else resolve(d.state, user, effect.targets, reach, target)
        kind = effect.effect
        if kind is Effect.ATTACK:
            hit, fumbled = attack(d, who, ids, mode=SKILL, effect=effect, activation=activation)
            if fumbled:
                return
            activation = ""
            last_hit = hit
            attacked += [i for i in ids if i not in attacked]
        elif kind is Effect.HEAL:
            for tid in ids:
                heal(d, who, tid, effect.dice, item)
        elif kind is Effect.BUFF and effect.buff is not None:
            for tid in ids:
                buffs.apply(
                    d,
                    tid,
                    ActiveBuff(kind=effect.buff, amount=effect.amount, element=effect.element, turns=effect.turns),
                )
        elif kind in (Effect.AILMENT, Effect.BIND):
            value = stats(user, d.pack).satk + effect.target_bonus
            what = (
                Ailment(effect.ailment)
                if kind is Effect.AILMENT and effect.ailment
                else (Bind(effect.bind) if effect.bind else None)
            )
            for tid in ids:
                if what is not None and not d.state.over:
                    ailments.inflict(d, who, tid, what, value)
        elif kind is Effect.CURE:
            for tid in ids:
                ailments.cure(d, tid, effect.cures, "cure")
        elif kind is Effect.CHASE:
            # The user pursues the attacks of the ally it names (● fixed at grant, facts default).
            for tid in ids:
                if tid != who:
                    buffs.apply(d, who, ActiveBuff(kind=Buff.CHASE, target=tid, turns=effect.turns))
        elif kind is Effect.TOKEN:
            tokens.place(d, who, effect)
    if attacked and follow_ups and not d.state.over:
        chain.pursue(d, who, tuple(attacked), SKILL)


def heal(d: Decision, who: str, target: str, modifier: int, item: bool) -> None:
    """A Recovery roll: [Elemental attack] + modifier D6 (an item: its own
    dice), each 4+ heals 1, never above the maximum (HEAL-3, facts default)."""
    t = d.state.get(target)
    if t.down:
        return
    n = modifier + (0 if item else stats(d.state.get(who), d.pack).eatk)
    faces, counter = d.roll(max(n, 0), who=who, rule="HEAL-3", what=f"Recovery roll for {target}")
    amount = sum(1 for f in faces if f >= HEALED_FROM)
    hp = min(t.hp + amount, max(stats(t, d.pack).max_hp, t.hp))
    d.emit(ev.Healed(who=who, target=target, faces=faces, counter=counter, amount=hp - t.hp, hp=hp))
