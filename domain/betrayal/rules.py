"""The Betrayal ruleset's contract: ``decide`` a command into events,
``evolve`` events into state, list the ``legal_commands`` now."""

from __future__ import annotations

from domain.kernel.errors import MalformedCommand, RuleViolation

from . import actions, flow, setup
from .commands import (
    BattleCommand,
    ClearActive,
    EndTurn,
    Engage,
    Move,
    NextRound,
    Resolve,
    Retreat,
    RollEnemyDice,
    StartClash,
)
from .context import ENEMY_DIE_FACES, RulesContext
from .decision import Decision
from .events import BattleEvent
from .evolve import evolve, replay
from .heroes import available_dice, die_of, statuses
from .state import BattleState, Phase
from .vocab import BattleForm, Pool, Status

__all__ = ["decide", "evolve", "replay", "legal_commands"]


def decide(state: BattleState | None, command: BattleCommand, ctx: RulesContext) -> list[BattleEvent]:
    """The events ``command`` produces from ``state``, or RuleViolation /
    MalformedCommand. Pure: the same inputs always give the same events."""
    d = Decision(state, ctx)
    if isinstance(command, StartClash):
        if state is not None:
            raise RuleViolation("CLASH-5", "this battle is already set up")
        setup.start_clash(d, command)
        return d.events
    if state is None:
        raise MalformedCommand("no battle has been set up yet")
    if state.phase is Phase.ENDED:
        raise RuleViolation("END-1", f"the battle is over ({state.ended_reason})")
    if state.phase is Phase.ENEMY_ROLL and not isinstance(command, RollEnemyDice):
        raise RuleViolation("ENEMY-6c", f"type the faces of {state.enemy_roll.foe}'s {state.enemy_roll.dice} dice first")
    handler = _HANDLERS.get(type(command))
    if handler is None:
        raise MalformedCommand(f"{type(command).__name__} is not a battle command")
    handler(d, command)
    return d.events


def _roll_enemy(d: Decision, cmd: RollEnemyDice) -> None:
    pending = d.state.enemy_roll
    if d.state.phase is not Phase.ENEMY_ROLL or pending is None:
        raise RuleViolation("ENEMY-6c", "no enemy roll is waiting to be typed")
    if len(cmd.faces) != pending.dice or any(not 0 <= f < len(ENEMY_DIE_FACES) for f in cmd.faces):
        raise MalformedCommand(f"type {pending.dice} faces, each 1 to {len(ENEMY_DIE_FACES)}")
    flow.resume_enemy(d, cmd.faces)


_HANDLERS = {
    Move: actions.move,
    Engage: actions.engage,
    Resolve: actions.resolve,
    ClearActive: actions.clear_active,
    EndTurn: lambda d, c: flow.end_turn(d),
    NextRound: lambda d, c: flow.next_round(d),
    Retreat: lambda d, c: flow.retreat(d),
    RollEnemyDice: _roll_enemy,
}


def legal_commands(state: BattleState, ctx: RulesContext) -> list[BattleCommand]:
    """What may be done now. Engages are listed once per form and target,
    gathering every free die the form and the stat limits allow; any subset
    of those dice is legal too."""
    if state.phase is Phase.ENDED:
        return []
    if state.phase is Phase.ENEMY_ROLL:
        return [RollEnemyDice(faces=(0,) * state.enemy_roll.dice)]
    if state.phase is Phase.END_OF_ROUND:
        return [NextRound(), Retreat()]
    if state.phase is Phase.ENGAGE_RESOLVE:
        n = len(state.pending.dice)
        return [Resolve(), Resolve(skip=tuple(range(n)))]
    d = Decision(state, ctx)
    hero = state.hero(state.turn.hero)
    out: list[BattleCommand] = []
    out += _moves(d, hero)
    out += _engages(d, hero)
    out += [ClearActive(slot=i) for i in range(len(hero.active))]
    out.append(EndTurn())
    return out


def _moves(d: Decision, hero) -> list[Move]:
    try:
        actions.check_move(d, hero)
    except RuleViolation:
        return []
    taken = actions.occupied(d) - {hero.pos}
    reach = d.ctx.board.reachable(hero.pos, taken, hero.stamina)
    return [Move(to=h) for h in sorted(reach, key=lambda h: (h[1], h[0])) if h != hero.pos]


def _engages(d: Decision, hero) -> list[Engage]:
    if d.state.turn.moves >= 2:
        return []
    out = []
    free = available_dice(d, hero)
    physical = d.state.options.physical_dice
    for form in BattleForm:
        dice = _gather(d, hero, form, free)
        faces = (0,) * len(dice) if physical else None  # physical dice: faces to type
        targets: list[str | None] = [None]
        for unit in _possible_targets(d, hero):
            try:
                actions.check_target(d, hero, form, unit.id)
            except RuleViolation:
                continue
            targets.append(unit.id)
        for target in targets:
            cmd = Engage(form=form, target=target, dice=dice, faces=faces)
            if _is_legal(d, cmd):
                out.append(cmd)
    return out


def _possible_targets(d: Decision, hero) -> list:
    """Enemies on the map; allies too for a Blind adventurer (facts: STATUS-1)."""
    units = [f for f in d.state.foes if not f.defeated and f.pos is not None]
    if Status.BLIND in statuses(hero):
        units += [h for h in d.state.heroes if h.id != hero.id and not h.defeated and h.pos is not None]
    return units


def _gather(d: Decision, hero, form: BattleForm, free: list[int]) -> tuple[int, ...]:
    room = {Pool.STAMINA: hero.stamina, Pool.MAGICKA: hero.magicka}
    picked = []
    for uid in free:
        die = die_of(d, hero, uid)
        if die.line == "combat" and form is BattleForm.MAGIC:
            continue
        if die.form is not None and die.form is not form:
            continue
        if room[die.pool] > 0:
            room[die.pool] -= 1
            picked.append(uid)
    return tuple(picked)


def _is_legal(d: Decision, cmd: Engage) -> bool:
    try:
        decide(d.state, cmd, d.ctx)
    except (RuleViolation, MalformedCommand):
        return False
    return True


