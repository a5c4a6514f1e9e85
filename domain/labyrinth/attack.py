"""The attack roll (ATTACK-1 .. ATTACK-3, facts: Fills MAIN-2): per
target and per hit a hit check (HIT-1, HIT-2), on a hit the damage dice
(DAMAGE-1) with criticals (CRIT-1, CRIT-2) and what triggers on them
(CRIT-3, ``critical.py``), the halving of Full defense
(STANDBY-7) and of a guard, a passive per target (PASSIVE-1 .. PASSIVE-3),
Curse's backlash, Sleep's waking, and a Counter (COUNTER-1 .. COUNTER-5)."""

from __future__ import annotations

from . import casualties, reactions
from . import events as ev
from .catalog import Skill, SkillEffect
from .decision import Decision
from .fp import roll_check
from .state import Combatant
from .stats import resistance, stats
from .targeting import can_react, effect_reach, in_reach
from .vocab import CRITICAL_DICE, Ailment, Effect

NORMAL, SKILL, PURSUIT, COUNTER = "normal", "skill", "pursuit", "counter"
CRITICAL_CHAIN_LIMIT = 5  # criticals in one damage roll when the extra dice may chain (OQ 2 off)


def attack(
    d: Decision,
    attacker: str,
    targets: tuple[str, ...],
    *,
    mode: str,
    effect: SkillEffect | None = None,
    activation: str = "",
) -> tuple[list[str], bool]:
    """One attack roll on each of ``targets``: the ids hit, and whether the
    skill fumbled (``activation``: the skill whose activation roll is its
    first hit check, MAIN-5, FUMBLE-1)."""
    hit_ids: list[str] = []
    first_check = True
    # By default the hits of one action on a target are one attack roll: one
    # reaction, a guard on its first hit (OQ 54); else each hit is its own.
    per_hit = not d.state.options.one_passive_per_action
    for tid in targets:
        if d.state.over or d.state.get(attacker).down or d.state.get(tid).down:
            continue
        guard, counter = _react(d, tid, attacker, mode)
        any_hit = False
        for n in range(effect.hits if effect else 1):
            a, t = d.state.get(attacker), d.state.get(tid)
            if a.down or t.down or d.state.over:
                break
            if per_hit and n > 0:
                guard, counter = _react(d, tid, attacker, mode)
            hit, result = hit_check(d, a, t, mode, effect)
            if activation and first_check and result == "failure":
                d.emit(_fumbled(d, attacker, activation))
                return hit_ids, True
            first_check = False
            if hit:
                any_hit = True
                damage(d, a, t, effect, guard if n == 0 or per_hit else None)
            if per_hit and counter is not None and not d.state.over:
                counter_attack(d, tid, attacker)
        if per_hit:
            counter = None
        t = d.state.get(tid)
        if t.has(Ailment.SLEEP) and not t.down and (any_hit or not d.state.options.sleep_wakes_on_hit_only):
            from .ailments import cure

            cure(d, tid, (Ailment.SLEEP.value,), "woke")
        if any_hit:
            hit_ids.append(tid)
        if counter is not None and not d.state.over:
            counter_attack(d, tid, attacker)
    return hit_ids, False


def _fumbled(d: Decision, who: str, skill_id: str) -> ev.SkillFumbled:
    """A skill whose activation is its first hit check fumbled (MAIN-5,
    FUMBLE-1): its costs were paid as it was used, so without the OQ 9
    reading (``failed_activation_pays`` off) they are given back."""
    if d.state.options.failed_activation_pays:
        return ev.SkillFumbled(who=who, skill=skill_id)
    skill = d.pack.skills[skill_id]
    return ev.SkillFumbled(who=who, skill=skill_id, refund_tp=skill.tp, refund_fp=skill.fp)


def _react(d: Decision, who: str, attacker: str, mode: str) -> tuple[SkillEffect | None, Skill | None]:
    """``who``'s passive action against this attack roll, if any: the guard
    effect it brings, or the counter skill."""
    passive = choose_passive(d, who, mode, attacker)
    if passive is None:
        return None, None
    d.emit(ev.PassiveUsed(who=who, skill=passive.id, against=attacker, tp=passive.tp, fp_cost=passive.fp))
    guard = next((e for e in passive.effects if e.effect is Effect.GUARD), None)
    return guard, passive if guard is None else None


def hit_check(d: Decision, a: Combatant, t: Combatant, mode: str, effect: SkillEffect | None) -> tuple[bool, str]:
    """2D6 + [Physical hit] or [Elemental hit] against [Evasion] (HIT-1),
    with any FP its attacker spends on it (``fp.py``): whether it hit, and
    its absolute result."""
    sa, st = stats(a, d.pack), stats(t, d.pack)
    bonus = sa.ehit if effect and effect.elemental else sa.phit

    def lands(kept: tuple[int, ...], result: str) -> bool:
        return result == "success" or (result != "failure" and sum(kept) + bonus >= st.evasion)

    check = roll_check(d, a.id, lands, rule="ATTACK-3", what=f"attack roll against {t.id}")
    total = sum(check.kept or check.faces) + bonus
    d.emit(
        ev.AttackRolled(
            attacker=a.id,
            target=t.id,
            mode=mode,
            faces=check.faces,
            counter=check.counter,
            total=total,
            evasion=st.evasion,
            hit=check.ok,
            absolute=check.absolute,
            fp=check.fp,
            kept=check.kept,
        )
    )
    return check.ok, check.absolute


def damage(d: Decision, a: Combatant, t: Combatant, effect: SkillEffect | None, guard: SkillEffect | None) -> None:
    """The damage dice: physical [Physical attack] − [Defense], elemental
    [Elemental attack], plus the skill's dice; each die above the
    resistance deals 1; a critical adds 4 dice (CRIT-1, CRIT-2)."""
    sa, st = stats(a, d.pack), stats(t, d.pack)
    elemental = bool(effect and effect.elemental)
    attributes = (effect.attribute,) if effect and effect.attribute else sa.attributes
    n = (sa.eatk if elemental else sa.patk - st.defense) + (effect.dice if effect else 0)
    if n <= 0 and not d.state.options.zero_dice_deal_nothing:
        n = 1  # without the OQ 1 reading a damage roll is never empty
    res = resistance(st, attributes)
    faces, counter, critical = _damage_dice(d, a.id, max(n, 0), sa.crit_margin)
    dealt = sum(1 for f in faces if f > res)
    amount, why = dealt, []
    if guard is not None:
        amount //= max(guard.divide, 1)
        why.append("guard")
    if t.full_defense:  # while the Waiting state lasts, rounded down (STANDBY-7, facts)
        amount //= 2
        why.append("full defense")
    hp = t.hp - amount
    d.emit(
        ev.DamageRolled(
            attacker=a.id,
            target=t.id,
            faces=faces,
            counter=counter,
            base=max(n, 0),
            resistance=res,
            critical=critical,
            dealt=dealt,
            damage=amount,
            hp=hp,
            halved=", ".join(why),
        )
    )
    if hp <= 0 < t.hp:
        casualties.incapacitated(d, t.id)
    if critical and not d.state.over and d.on_critical is not None:
        d.on_critical(d, a.id, t.id)  # immediately: before anything else follows the roll (CRIT-3)
    if a.has(Ailment.CURSE) and amount >= 2 and not d.state.over:
        curse(d, a.id, amount // 2)


def _damage_dice(d: Decision, who: str, n: int, margin: int) -> tuple[tuple[int, ...], int, bool]:
    """``n`` damage dice, and 4 more on a critical (CRIT-1, CRIT-2): the
    faces, their counter, whether it was a critical. No dice, no damage
    (OQ 1). By default the 4 extra dice make no further critical (OQ 2);
    without that reading each new 4 are judged alike, up to a bound."""
    counter = d.state.rng
    if n <= 0:
        return (), counter, False
    faces, counter = d.roll(n, who=who, rule="DAMAGE-1", what="damage dice")
    judged, critical = faces, False
    for _ in range(CRITICAL_CHAIN_LIMIT):
        if judged.count(6) - judged.count(1) < margin:
            break
        critical = True
        faces = d.more(faces, CRITICAL_DICE, who=who, rule="CRIT-2", what="a critical's extra damage dice")
        judged = faces[-CRITICAL_DICE:]
        if d.state.options.critical_dice_never_crit:
            break
    return faces, counter, critical


def curse(d: Decision, who: str, amount: int) -> None:
    """Half the Actual damage dealt comes back, ignoring [Defense] and
    resistance (AILMENT-CURSE)."""
    c = d.state.get(who)
    hp = c.hp - amount
    if not d.state.options.curse_can_incapacitate:
        hp = max(hp, min(c.hp, 1))
    d.emit(ev.HpLost(who=who, amount=c.hp - hp, hp=hp, cause="curse"))
    if hp <= 0 < c.hp:
        casualties.incapacitated(d, who)


def choose_passive(d: Decision, who: str, mode: str, attacker: str = "") -> Skill | None:
    """``who``'s passive action against this attack roll, one per attack
    roll (PASSIVE-3): chosen by its controller with ``ask_passives``
    (``reactions.py``), else by the default policy: the first it may use."""
    c = d.state.get(who)
    if not can_react(c):
        return None
    if reactions.asks(d.state, c):
        offered = reactions.usable(d, c, mode)
        return reactions.answer(d, c, attacker, mode, offered) if offered else None
    if not d.state.options.auto_passives:
        return None
    return next(iter(reactions.usable(d, c, mode)), None)


def counter_attack(d: Decision, who: str, attacker: str) -> None:
    """A Counter: a Normal attack's physical attack roll on the attacker
    (COUNTER-2, COUNTER-3), in range only by default (OQ 63)."""
    c, a = d.state.get(who), d.state.get(attacker)
    if not can_react(c) or a.down:
        return
    if d.state.options.follow_ups_need_range and not in_reach(c, a, effect_reach(d.pack, c, None)):
        return
    attack(d, who, (attacker,), mode=COUNTER)
