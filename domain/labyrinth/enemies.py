"""Actions taken without a player: an Enemy's (by the seeded policy, or the
GM's choice with ``gm_enemies``), a token's and a confused character's.
Every random choice is an event (``ActionChosen``, ``TargetPicked``) with
its counter. ``perform`` carries out any Main action, a PC's too: a
delayed skill waits for the delayed group (ORDER-3)."""

from __future__ import annotations

from . import chain, skills
from . import events as ev
from .attack import NORMAL, attack
from .catalog import Pack, Skill
from .decision import Decision
from .fp import can_pay
from .state import Combatant, Declaration, LabyrinthState
from .targeting import allies, attack_pending, choices, effect_reach, in_reach, skill_blocked
from .vocab import Speed, Targets, Timing

ATTACK = "attack"  # the policy's name for a Normal attack


def usable_skills(state: LabyrinthState, pack: Pack, c: Combatant, timing: Timing) -> list[Skill]:
    """Skills of ``timing`` that ``c`` can pay for (TP, and FP, FUMBLE-2), is
    not bound from, and can aim; a delayed attack not while another of its
    own is on the way."""
    out = []
    for sid in c.skills:
        skill = pack.skills.get(sid)
        if skill is None or skill.timing is not timing or not can_pay(c, skill) or skill_blocked(c, skill):
            continue
        if skill.delay and attack_pending(state, c.id):
            continue
        if not skill.effects or skill_choices(state, pack, c, skill):
            out.append(skill)
    return out


def fastest_skills(state: LabyrinthState, pack: Pack, c: Combatant) -> list[Skill]:
    """The fastest Main-action skills ``c`` can use now (ORDER-3)."""
    return [s for s in usable_skills(state, pack, c, Timing.MAIN) if s.speed is Speed.FASTEST]


def skill_choices(state: LabyrinthState, pack: Pack, c: Combatant, skill: Skill) -> list[str]:
    """The target values a skill may be given (its first effect aims it)."""
    first = skill.effects[0]
    return choices(state, c, first.targets, effect_reach(pack, c, first.reach))


def attack_choices(state: LabyrinthState, pack: Pack, c: Combatant) -> list[str]:
    """Opponents a Normal attack can reach."""
    return choices(state, c, Targets.OPPONENT, effect_reach(pack, c, None))


def _options(d: Decision, c: Combatant) -> list[str]:
    return ([ATTACK] if attack_choices(d.state, d.pack, c) else []) + [
        s.id for s in usable_skills(d.state, d.pack, c, Timing.MAIN)
    ]


def _still_open(d: Decision, c: Combatant, planned: str) -> bool:
    return bool(planned) and planned in _options(d, c)


def act(d: Decision, who: str) -> None:
    """The Enemy policy: uniformly one of Normal attack and its usable
    Main-action skills (or what it chose in the fastest window, if it still
    can), then uniformly a target in range (facts section 8)."""
    c = d.state.get(who)
    if _still_open(d, c, c.planned):
        _aim_and_perform(d, who, c.planned)
        return
    options = _options(d, c)
    if not options:
        d.emit(ev.Passed(who=who))
        return
    chosen = options[0]
    if len(options) > 1:
        chosen, counter = d.pick(tuple(options))
        d.emit(ev.ActionChosen(who=who, among=tuple(options), chosen=chosen, counter=counter))
    _aim_and_perform(d, who, chosen)


def act_fastest(d: Decision, who: str) -> None:
    """In the fastest window the policy makes its whole choice at once: a
    fastest skill is used now; anything else is kept for its place in the
    [Speed] order (ORDER-3)."""
    c = d.state.get(who)
    options = _options(d, c)
    fast = {s.id for s in fastest_skills(d.state, d.pack, c)}
    chosen = options[0] if options else ""
    if len(options) > 1:
        chosen, counter = d.pick(tuple(options))
        d.emit(
            ev.ActionChosen(who=who, among=tuple(options), chosen=chosen, counter=counter, planned=chosen not in fast)
        )
    if chosen in fast:
        _aim_and_perform(d, who, chosen)
    else:
        d.emit(ev.Held(who=who))


def _aim_and_perform(d: Decision, who: str, chosen: str) -> None:
    c = d.state.get(who)
    among = tuple(
        attack_choices(d.state, d.pack, c)
        if chosen == ATTACK
        else skill_choices(d.state, d.pack, c, d.pack.skills[chosen])
    )
    target = among[0]
    if len(among) > 1:
        target, counter = d.pick(among)
        d.emit(ev.TargetPicked(who=who, among=among, chosen=target, counter=counter))
    perform(d, who, chosen, target)


def perform(d: Decision, who: str, action: str, target: str) -> None:
    """Carry out a Normal attack (``attack``) or a skill, and end the action;
    a delayed skill is only put aside until the delayed group (ORDER-3)."""
    if action == ATTACK:
        normal_attack(d, who, target)
    else:
        if d.pack.skills[action].speed is Speed.DELAYED and d.state.window != "delayed":
            d.emit(ev.ActionDelayed(who=who, skill=action, target=target))
            return
        skills.use_skill(d, who, action, target)
    if not d.state.over:
        d.emit(ev.ActionEnded(who=who))


def normal_attack(d: Decision, who: str, target: str) -> None:
    """A Normal attack (MAIN-2, MAIN-3) and the Pursuits it draws."""
    attack(d, who, (target,), mode=NORMAL)
    if not d.state.over:
        chain.pursue(d, who, (target,), NORMAL)


def confused_targets(state: LabyrinthState, pack: Pack, c: Combatant) -> tuple[str, ...]:
    """The allies a confused ``c`` may strike: of its own row, not itself, in reach."""
    reach = effect_reach(pack, c, None)
    return tuple(a.id for a in allies(state, c) if a.id != c.id and a.row is c.row and in_reach(c, a, reach))


def confused(d: Decision, who: str) -> None:
    """A Normal attack on a random ally of its own row, not itself; with none
    in reach it does nothing (AILMENT-CONFUSE, OQ 42; with the option off
    the flow lets it act as it chooses instead)."""
    among = confused_targets(d.state, d.pack, d.state.get(who))
    if not among:
        d.emit(ev.Passed(who=who))
        return
    target, counter = d.pick(among)
    d.emit(ev.TargetPicked(who=who, among=among, chosen=target, counter=counter))
    attack(d, who, (target,), mode=NORMAL)
    if not d.state.over:
        d.emit(ev.ActionEnded(who=who))


def declare_standby(d: Decision, who: str) -> None:
    """The policy's Standby action: an Enemy (or token) with usable Standby
    skills uses one, chosen uniformly, on a uniform target (STANDBY-5)."""
    c = d.state.get(who)
    found = [s.id for s in usable_skills(d.state, d.pack, c, Timing.STANDBY)]
    if not found:
        return
    chosen = found[0]
    if len(found) > 1:
        chosen, counter = d.pick(tuple(found))
        d.emit(ev.ActionChosen(who=who, among=tuple(found), chosen=chosen, counter=counter))
    skill = d.pack.skills[chosen]
    among = tuple(skill_choices(d.state, d.pack, c, skill)) if skill.effects else ("",)
    target = among[0]
    if len(among) > 1:
        target, counter = d.pick(among)
        d.emit(ev.TargetPicked(who=who, among=among, chosen=target, counter=counter))
    d.emit(ev.Declared(declaration=Declaration(who=who, action="skill", skill=chosen, target=target)))
