"""The labyrinth ruleset's contract: ``decide`` a command into events (then
play on until a player is needed, ``flow.advance``), ``evolve`` events
into state (``evolve.py``), list the ``legal_commands``. Refusals are
RuleViolations naming the rule."""

from __future__ import annotations

import msgspec

from domain.kernel.errors import MalformedCommand, RuleViolation

from . import events as ev
from . import flow, reactions, setup, skills, standby
from .commands import (
    Attack,
    EnemyAct,
    Escape,
    FullDefense,
    Hold,
    LabyrinthCommand,
    Move,
    Pass,
    React,
    SpendFp,
    StartLabyrinth,
    SwapWeapons,
    TypeFaces,
    UseItem,
    UseSkill,
    UseStandbySkill,
)
from .critical import trigger
from .decision import Decision, RulesContext
from .enemies import ATTACK, attack_choices, fastest_skills, perform, skill_choices, usable_skills
from .evolve import evolve, replay
from .fp import Boost, check_cost
from .offered import does_something
from .state import Combatant, Declaration, LabyrinthState, Question
from .targeting import attack_pending, cannot_act, choices, effect_reach, skill_blocked
from .vocab import DIE, Phase, Row, Side, Speed, Timing

__all__ = ["decide", "evolve", "replay", "legal_commands"]

STANDBY_ACTIONS = {Move: "move", SwapWeapons: "swap", UseStandbySkill: "skill", FullDefense: "defend", Escape: "escape"}


def decide(state: LabyrinthState | None, command: LabyrinthCommand, ctx: RulesContext) -> list[ev.LabyrinthEvent]:
    """The events ``command`` produces from ``state``, or RuleViolation /
    MalformedCommand. Pure: same inputs, same events."""
    d = Decision(state, ctx, on_critical=trigger)
    if isinstance(command, StartLabyrinth):
        if state is not None:
            raise RuleViolation("STANDBY-1", "this battle is already set up")
        setup.start(d, command)
        return d.events
    if state is None:
        raise MalformedCommand("no battle has been set up yet")
    if state.over:
        raise RuleViolation("STANDBY-1", f"the battle is over ({state.termination})")
    if isinstance(command, TypeFaces) and not command.actor and state.question is not None:
        command = msgspec.structs.replace(command, actor=state.question.who)  # the roller asked
    c = state.find(getattr(command, "actor", ""))
    if c is None:
        raise MalformedCommand(f"no one called {getattr(command, 'actor', '')!r} is in this battle")
    if state.question is not None or isinstance(command, (React, SpendFp, TypeFaces)):
        _answer(d, c, command)
    elif isinstance(command, EnemyAct) and state.phase is Phase.STANDBY:
        _enemy_declare(d, c, command)
    elif isinstance(command, Hold):
        _hold(d, c)
    elif state.phase is Phase.STANDBY:
        _declare(d, c, command)
    else:
        reactions.settle(d, lambda: _act(d, c, command), command)
    flow.advance(d)
    return d.events


def _answer(d: Decision, c: Combatant, command: LabyrinthCommand) -> None:
    """A choice made by hand in the middle of a step: a passive action
    (PASSIVE-1 .. PASSIVE-3, ``ask_passives``) or the FP spent on a
    Suppression defense roll (FUMBLE-2, ``ask_fp``). Recorded, then the
    interrupted step resolved again from its start with it (``reactions.py``)."""
    q = d.state.question
    if q is None:
        if isinstance(command, TypeFaces):
            raise RuleViolation(
                "STANDBY-1" if d.state.phase is Phase.STANDBY else "MAIN-1",
                "no roll waits for typed faces"
                if d.state.options.physical_dice
                else "this battle rolls its own dice: faces are typed only with --physical-dice",
            )
        rule, what = (
            ("FUMBLE-2", "no check waits for FP")
            if isinstance(command, SpendFp)
            else ("PASSIVE-1", "no attack roll waits for a passive action")
        )
        raise RuleViolation(rule, what)
    if q.kind == "faces":
        _type_faces(d, c, command, q)
    elif isinstance(command, TypeFaces):
        raise RuleViolation(
            "FUMBLE-2" if q.kind == "fp" else "PASSIVE-1",
            f"no roll waits for faces: {d.state.get(q.who).name} is asked "
            + ("the FP to spend first" if q.kind == "fp" else "for a passive action first"),
        )
    elif q.kind == "fp":
        _spend(d, c, command, q.who, q.check)
    else:
        _react(d, c, command, q.who, q.attacker, q.skills)
    if q.command:
        resumed = msgspec.json.decode(q.command, type=LabyrinthCommand)
        actor = d.state.get(getattr(resumed, "actor"))
        reactions.settle(d, lambda: _act(d, actor, resumed), resumed)


def _react(
    d: Decision, c: Combatant, command: LabyrinthCommand, who: str, attacker: str, skills: tuple[str, ...]
) -> None:
    asked = d.state.get(who)
    if not isinstance(command, React):
        raise RuleViolation(
            "PASSIVE-1",
            f"{d.state.get(attacker).name}'s attack roll against {asked.name} "
            f"waits for {asked.name}'s passive action (or none) first",
        )
    if c.id != who:
        raise RuleViolation(
            "PASSIVE-1", f"the attack roll is against {asked.name}, not {c.name}: only {asked.name} answers it"
        )
    if command.skill and command.skill not in skills:
        offered = ", ".join(d.pack.skills[s].name for s in skills)
        raise RuleViolation("PASSIVE-2", f"{c.name} may answer with {offered}, or none; not {command.skill!r}")
    d.emit(ev.ReactionChosen(who=c.id, skill=command.skill))


def _spend(d: Decision, c: Combatant, command: LabyrinthCommand, who: str, check: str) -> None:
    asked = d.state.get(who)
    if not isinstance(command, SpendFp):
        raise RuleViolation(
            "FUMBLE-2",
            f"{asked.name}'s Suppression defense roll ({check}) waits for the FP "
            f"{asked.name} spends on it (or none) first",
        )
    if c.id != who:
        raise RuleViolation("FUMBLE-2", f"the roll is {asked.name}'s, not {c.name}'s: only {asked.name} spends on it")
    need = command.fp + (d.state.options.fp_reroll_cost if command.reroll else 0)
    if command.fp < 0 or need > c.fp:
        raise RuleViolation("FUMBLE-2", f"{c.name} has {c.fp} FP; that needs {need}")
    d.emit(ev.ReactionChosen(who=c.id, fp=command.fp, reroll=command.reroll, kind="fp"))


def _type_faces(d: Decision, c: Combatant, command: LabyrinthCommand, q: Question) -> None:
    """Physical dice: the faces typed for the roll asked, checked against
    it (how many, each 1 to 6) and refused with the roll's rule."""
    asked = d.state.get(q.who)
    if not isinstance(command, TypeFaces):
        raise RuleViolation(
            q.rule, f"{asked.name}'s roll ({q.check}) waits for the faces of its {q.dice} dice first (rk roll --faces)"
        )
    if c.id != q.who:
        raise RuleViolation(q.rule, f"the roll is {asked.name}'s, not {c.name}'s")
    if len(command.faces) != q.dice:
        raise RuleViolation(
            q.rule, f"{asked.name}'s roll ({q.check}) is {q.dice} D6: type {q.dice} faces, not {len(command.faces)}"
        )
    wrong = [f for f in command.faces if not 1 <= f <= DIE]
    if wrong:
        raise RuleViolation(q.rule, f"a D6 shows 1 to {DIE}, not {wrong[0]}")
    d.emit(ev.ReactionChosen(who=c.id, faces=tuple(command.faces), kind="faces"))


def _act(d: Decision, c: Combatant, command: LabyrinthCommand) -> None:
    """A Main action given by a player, or by the GM for an Enemy."""
    if isinstance(command, EnemyAct):
        _enemy_act(d, c, command)
    else:
        _main(d, c, command)


def _declare(d: Decision, c: Combatant, command: LabyrinthCommand) -> None:
    state = d.state
    if isinstance(command, (Attack, UseSkill, UseItem)):
        raise RuleViolation("MAIN-1", "it is the Standby phase: declare a Standby action")
    if c.side is not Side.PC:
        raise RuleViolation("STANDBY-3", f"{c.name} is not a PC of the party")
    if state.declared(c.id):
        raise RuleViolation("STANDBY-1", f"{c.name} has already declared a Standby action this turn")
    if not standby.may_declare(state, c):
        reason, rule = cannot_act(state, c)
        raise RuleViolation(
            rule or ("AILMENT-CONFUSE" if c.confused else "STANDBY-1"),
            f"{c.name} {reason or 'is confused'}: no Standby action",
        )
    row, order, skill, target = None, 0, "", ""
    if isinstance(command, Move):
        if not standby.row_has_room(state, c, command.row):
            raise RuleViolation("SCALE-1", f"the {command.row} row already holds 3 of the party")
        row, order = command.row, command.order
    elif isinstance(command, SwapWeapons):
        if not c.other or c.other not in d.pack.weapons or c.weapon not in d.pack.weapons:
            raise RuleViolation("STANDBY-4", f"{c.name} needs weapons in both the Weapon and Other slots")
    elif isinstance(command, UseStandbySkill):
        _check_skill(d, c, command.skill, command.target, Timing.STANDBY, "STANDBY-5")
        skill, target = command.skill, command.target
    fp, reroll = _escape_boost(d, c, command)
    action = STANDBY_ACTIONS.get(type(command), "pass")
    d.emit(
        ev.Declared(
            declaration=Declaration(
                who=c.id, action=action, row=row, order=order, skill=skill, target=target, fp=fp, reroll=reroll
            )
        )
    )


def _escape_boost(d: Decision, c: Combatant, command: LabyrinthCommand) -> tuple[int, bool]:
    """The FP an Escape commits to the PC's [Evasion] check (facts: Fills
    FUMBLE-2, STANDBY-8), refused as ``_boost`` refuses it; paid only if the
    escape is tried."""
    if not isinstance(command, Escape) or (not command.fp and not command.reroll):
        return 0, False
    need = command.fp + (d.state.options.fp_reroll_cost if command.reroll else 0)
    if command.fp < 0 or need > c.fp:
        raise RuleViolation("FUMBLE-2", f"{c.name} has {c.fp} FP; that needs {need}")
    return command.fp, command.reroll


def _main(d: Decision, c: Combatant, command: LabyrinthCommand) -> None:
    state = d.state
    if not isinstance(command, (Attack, UseSkill, UseItem, Pass)):
        raise RuleViolation("STANDBY-1", "Standby actions are declared in the Standby phase only")
    if state.acting != c.id:
        now = state.find(state.acting)
        raise RuleViolation("ORDER-1", f"it is {now.name if now else 'no one'}'s turn, not {c.name}'s")
    if c.side is not Side.PC:
        raise RuleViolation("MAIN-1", f"{c.name} acts by the Enemy policy")
    _fastest_only(d, c, command)
    if getattr(command, "faces", None) is not None and not state.options.physical_dice:
        raise RuleViolation(
            "MAIN-2" if isinstance(command, Attack) else "MAIN-4",
            "this battle rolls its own dice: faces are typed only with --physical-dice",
        )
    d.fp_given = set()
    _boost(d, c, command)
    if isinstance(command, Pass):
        d.emit(ev.Passed(who=c.id))
    elif isinstance(command, Attack):
        if command.target not in attack_choices(state, d.pack, c):
            raise RuleViolation("ATTACK-3", f"{command.target} is not an opponent in range of {c.name}'s weapon")
        perform(d, c.id, ATTACK, command.target)
    elif isinstance(command, UseSkill):
        _check_skill(d, c, command.skill, command.target, Timing.MAIN, "MAIN-4")
        perform(d, c.id, command.skill, command.target)
    else:
        _use_item(d, c, command)
    d.boost = None  # spent on this action's first check, or not at all


def _boost(d: Decision, c: Combatant, command: LabyrinthCommand) -> None:
    """FP committed to the action's first check (facts: Fills FUMBLE-2)."""
    dice, reroll = getattr(command, "fp", 0), getattr(command, "reroll", False)
    if not dice and not reroll:
        return
    skill = d.pack.skills.get(getattr(command, "skill", ""))
    if skill is not None and skill.speed is Speed.DELAYED:
        raise RuleViolation("FUMBLE-2", f"{skill.name} is a delayed action: its checks come later, FP is spent now")
    need = dice + (d.state.options.fp_reroll_cost if reroll else 0)
    if dice < 0 or need > c.fp:
        raise RuleViolation("FUMBLE-2", f"{c.name} has {c.fp} FP; that needs {need}")
    d.boost = Boost(who=c.id, dice=dice, reroll=reroll)


def _fastest_only(d: Decision, c: Combatant, command: LabyrinthCommand) -> None:
    """In the fastest window only a fastest skill, a hold or a pass (ORDER-3)."""
    if d.state.window != "fastest" or isinstance(command, (Pass, Hold)) or getattr(command, "skill", "") == "pass":
        return
    skill = d.pack.skills.get(getattr(command, "skill", ""))
    if skill is None or skill.speed is not Speed.FASTEST:
        raise RuleViolation(
            "ORDER-3",
            f"fastest actions come first: {c.name} uses a fastest skill now or "
            "holds its action for its place in the [Speed] order",
        )


def _hold(d: Decision, c: Combatant) -> None:
    state = d.state
    if state.acting != c.id or state.window != "fastest":
        raise RuleViolation("ORDER-3", f"{c.name} can hold only when offered a fastest action")
    if c.side is not Side.PC and not state.options.gm_enemies:
        raise RuleViolation("MAIN-1", f"{c.name} acts by the Enemy policy")
    d.emit(ev.Held(who=c.id))


def _use_item(d: Decision, c: Combatant, command: UseItem) -> None:
    item = d.pack.items.get(command.item)
    if item is None or command.item not in c.items:
        raise RuleViolation("MAIN-6", f"{c.name} carries no {command.item}")
    if item.effects:
        first = item.effects[0]
        if command.target not in choices(d.state, c, first.targets, effect_reach(d.pack, c, first.reach)):
            raise RuleViolation("MAIN-6", f"{item.name} cannot be used on {command.target or 'that'}")
    skills.use_item(d, c.id, command.item, command.target)
    if not d.state.over:
        d.emit(ev.ActionEnded(who=c.id))


def _check_skill(d: Decision, c: Combatant, skill_id: str, target: str, timing: Timing, rule: str) -> None:
    skill = d.pack.skills.get(skill_id)
    if skill is None or skill_id not in c.skills:
        raise MalformedCommand(f"{c.name} has no skill {skill_id!r}")
    if skill.timing is not timing:
        raise RuleViolation(rule, f"{skill.name} has timing {skill.timing.value}, not {timing.value}")
    blocked = skill_blocked(c, skill)
    if blocked:
        raise RuleViolation(blocked, f"{c.name}'s {skill.part.value} is bound: {skill.name} cannot be used")
    if skill.tp > c.tp:
        raise RuleViolation(rule, f"{skill.name} costs {skill.tp} TP; {c.name} has {c.tp}")
    check_cost(d, c, skill)  # FUMBLE-2: the FP printed on it, with any committed to its check
    if skill.delay and attack_pending(d.state, c.id):
        raise RuleViolation("ATTACK-1", f"{c.name}'s delayed attack has not landed yet: no new one until it does")
    if skill.effects and target not in skill_choices(d.state, d.pack, c, skill):
        raise RuleViolation(rule, f"{skill.name} cannot be aimed at {target or 'that'}")


def _enemy_act(d: Decision, c: Combatant, command: EnemyAct) -> None:
    state = d.state
    if not state.options.gm_enemies:
        raise RuleViolation("MAIN-1", "Enemies act by the seeded policy (the gm_enemies option is off)")
    if state.acting != c.id or c.side is not Side.ENEMY:
        raise RuleViolation("ORDER-1", f"it is not {c.name}'s turn to act as an Enemy")
    _fastest_only(d, c, command)
    d.fp_given = set()
    if command.skill == "pass":
        d.emit(ev.Passed(who=c.id))
    elif command.skill == "":
        if command.target not in attack_choices(state, d.pack, c):
            raise RuleViolation("ATTACK-3", f"{command.target} is not in range of {c.name}")
        perform(d, c.id, ATTACK, command.target)
    else:
        _check_skill(d, c, command.skill, command.target, Timing.MAIN, "MAIN-4")
        perform(d, c.id, command.skill, command.target)


def _enemy_declare(d: Decision, c: Combatant, command: EnemyAct) -> None:
    """The GM's Standby declaration for an Enemy with a Standby skill."""
    state = d.state
    if not state.options.gm_enemies:
        raise RuleViolation("MAIN-1", "Enemies act by the seeded policy (the gm_enemies option is off)")
    if c not in standby.awaiting(state, d.pack):
        raise RuleViolation("STANDBY-1", f"{c.name} has no Standby action to declare now")
    skill, target = "", ""
    if command.skill != "pass":
        _check_skill(d, c, command.skill, command.target, Timing.STANDBY, "STANDBY-5")
        skill, target = command.skill, command.target
    d.emit(
        ev.Declared(declaration=Declaration(who=c.id, action="skill" if skill else "pass", skill=skill, target=target))
    )


def legal_commands(state: LabyrinthState | None, ctx: RulesContext) -> list[LabyrinthCommand]:
    """What may be done now: never empty until the battle is over. A skill
    or an item that could only spend the action is not offered
    (``offered.does_something``), though ``decide`` takes it."""
    if state is None or state.over:
        return []
    return [c for c in _listed(state, ctx) if does_something(state, ctx.pack, c)]


def _listed(state: LabyrinthState, ctx: RulesContext) -> list[LabyrinthCommand]:
    pack = ctx.pack
    if state.question is not None:
        q = state.question
        if q.kind == "faces":  # any faces will do: the listing shows one to type (open: F,F)
            return [TypeFaces(actor=q.who, faces=(1,) * q.dice)]
        if q.kind == "fp":
            fp, cost = state.get(q.who).fp, state.options.fp_reroll_cost
            return [
                SpendFp(actor=q.who, fp=n, reroll=r)
                for n in range(fp + 1)
                for r in (False, True)
                if n + (cost if r else 0) <= fp
            ]
        return [*(React(actor=q.who, skill=sid) for sid in q.skills), React(actor=q.who)]
    who = flow.waits_for(state)
    out: list[LabyrinthCommand] = []
    if who == "standby":
        for c in standby.awaiting(state, pack):
            if c.side is not Side.PC:
                out += [
                    EnemyAct(actor=c.id, skill=s.id, target=t)
                    for s in usable_skills(state, pack, c, Timing.STANDBY)
                    for t in (skill_choices(state, pack, c, s) if s.effects else [""])
                ]
                out.append(EnemyAct(actor=c.id, skill="pass"))
                continue
            out += [
                Move(actor=c.id, row=row, order=n)
                for row in Row
                for n in range(1, 4)
                if standby.row_has_room(state, c, row) and (row, n) != (c.row, c.order)
            ]
            if c.other in pack.weapons and c.weapon in pack.weapons:
                out.append(SwapWeapons(actor=c.id))
            out += [
                UseStandbySkill(actor=c.id, skill=s.id, target=t)
                for s in usable_skills(state, pack, c, Timing.STANDBY)
                for t in (skill_choices(state, pack, c, s) if s.effects else [""])
            ]
            out += [FullDefense(actor=c.id), Escape(actor=c.id), Pass(actor=c.id)]
        return out
    c = state.get(state.acting)
    if state.window == "fastest":
        skills = fastest_skills(state, pack, c)
        act = (
            (lambda s, t: EnemyAct(actor=c.id, skill=s.id, target=t))
            if who == "gm"
            else (lambda s, t: UseSkill(actor=c.id, skill=s.id, target=t))
        )
        return [
            *(act(s, t) for s in skills for t in (skill_choices(state, pack, c, s) if s.effects else [""])),
            Hold(actor=c.id),
            EnemyAct(actor=c.id, skill="pass") if who == "gm" else Pass(actor=c.id),
        ]
    if who == "gm":
        return [
            *(EnemyAct(actor=c.id, target=t) for t in attack_choices(state, pack, c)),
            *(
                EnemyAct(actor=c.id, skill=s.id, target=t)
                for s in usable_skills(state, pack, c, Timing.MAIN)
                for t in skill_choices(state, pack, c, s)
            ),
            EnemyAct(actor=c.id, skill="pass"),
        ]
    out += [Attack(actor=c.id, target=t) for t in attack_choices(state, pack, c)]
    out += [
        UseSkill(actor=c.id, skill=s.id, target=t)
        for s in usable_skills(state, pack, c, Timing.MAIN)
        for t in (skill_choices(state, pack, c, s) if s.effects else [""])
    ]
    for item_id in dict.fromkeys(c.items):
        item = pack.items.get(item_id)
        if item is None:
            continue
        first = item.effects[0] if item.effects else None
        targets = choices(state, c, first.targets, effect_reach(pack, c, first.reach)) if first else [""]
        out += [UseItem(actor=c.id, item=item_id, target=t) for t in targets]
    return out + [Pass(actor=c.id)]
