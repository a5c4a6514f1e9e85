"""The Betrayal ruleset's contract: ``decide`` a command into events,
``evolve`` events into state, list the ``legal_commands`` now.

This is the top of the battle engine: it imports the core rules and every
ability module, and importing an ability module registers its hooks with
the core (``hooks``), so they are all in place before a command is decided."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.kernel.errors import MalformedCommand, RuleViolation
from domain.kernel.hexes import as_hex

from domain.betrayal.vocab import BattleForm, Pool, Status

from . import exploration
from . import actions, defense, flow, setup
from .abilities import class_progress, classes as class_abilities  # class abilities (CLASS-*, ADVANCE-16)
from .abilities import race as race_abilities
from .commands import (
    BattleCommand,
    ClearActive,
    Defend,
    EndTurn,
    Engage,
    Explore,
    Move,
    MoveToExplore,
    PlaceTile,
    NextRound,
    Resolve,
    Retreat,
    RollEnemyDice,
    StartClash,
    StartDelve,
    StartDungeon,
    UseGear,
    UseRaceAbility,
)
from .commands import CompanionEngage, CompanionMove, EndCompanionTurn, TurnClassSheet, UseClassAbility
from .companions import turn as companion_turn
from .context import ENEMY_DIE_FACES, RulesContext
from .decision import Decision
from .events import BattleEvent
from .evolve import evolve, replay
from .heroes import available_dice, die_of, statuses
from .items import use as item_use, wards as item_wards  # noqa: F401 (item_wards: imported for its hook)
from .reach import Target, check_target, occupied
from .state import BattleState, Hero, Phase

__all__ = ["decide", "evolve", "replay", "legal_commands"]


def decide(state: BattleState | None, command: BattleCommand, ctx: RulesContext) -> list[BattleEvent]:
    """The events ``command`` produces from ``state``, or RuleViolation /
    MalformedCommand. Pure: the same inputs always give the same events."""
    return decision(state, command, ctx).events


def decision(state: BattleState | None, command: BattleCommand, ctx: RulesContext) -> Decision:
    """The whole decision: the battle's events and, in a delve, the Delve
    stream's (``delve_events``)."""
    d = Decision(state, ctx)
    if isinstance(command, (StartClash, StartDelve)):
        if state is not None:
            rule = (
                "DELVE-7"
                if isinstance(command, StartDelve)
                else ("DUNGEON-6" if isinstance(command, StartDungeon) else "CLASH-5")
            )
            raise RuleViolation(rule, "this battle is already set up")
        if isinstance(command, StartDelve):
            setup.start_delve(d, command)
        else:
            setup.start_clash(d, command)
        return d
    if state is None:
        raise MalformedCommand("no battle has been set up yet")
    if state.phase is Phase.ENDED:
        raise RuleViolation("END-1", f"the battle is over ({state.ended_reason})")
    if state.phase is Phase.ENEMY_ROLL and not isinstance(command, RollEnemyDice):
        roll = state.roll_waiting
        raise RuleViolation("ENEMY-6c", f"type the faces of {roll.foe}'s {roll.dice} dice first")
    if state.phase is Phase.DEFEND and not isinstance(command, Defend):
        defense = state.defense_waiting
        who = defense.targets[defense.index]
        raise RuleViolation("COMBAT-4", f"choose how {who} defends against {defense.amount} damage first (rk defend)")
    placing = ctx.delve.placing if ctx.delve is not None else None
    if placing is not None and not isinstance(command, PlaceTile):
        raise RuleViolation("EXPLORATION-9", f"place the revealed tile {placing.tile} first (`rk legal` lists where)")
    handler = _HANDLERS.get(type(command))
    if handler is None:
        raise MalformedCommand("that is not a command of a Betrayal battle: `rk legal` lists what may be done")
    handler(d, command)
    class_progress.after(d, state)  # what the events set off for class abilities and promotion
    return d


def _explore(d: Decision, cmd: Explore) -> None:
    hero = actions.current_hero(d)
    exploration.explore(d, hero, None if cmd.hex is None else as_hex(cmd.hex))
    flow.finish_if_fallen(d, hero.id)


def _place_tile(d: Decision, cmd: PlaceTile) -> None:
    if d.delve is None or d.delve.placing is None:
        raise RuleViolation("EXPLORATION-9", "no revealed tile is waiting to be placed")
    exploration.place_tile(d, cmd.rotation, as_hex(cmd.origin))
    flow.finish_if_fallen(d, d.state.acting.hero)


def _roll_enemy(d: Decision, cmd: RollEnemyDice) -> None:
    pending = d.state.enemy_roll
    if d.state.phase is not Phase.ENEMY_ROLL or pending is None:
        raise RuleViolation("ENEMY-6c", "no enemy roll is waiting to be typed")
    if len(cmd.faces) != pending.dice or any(not 0 <= f < len(ENEMY_DIE_FACES) for f in cmd.faces):
        raise MalformedCommand(f"type {pending.dice} faces, each 1 to {len(ENEMY_DIE_FACES)}")
    flow.resume_enemy(d, cmd.faces)


# Each handler takes the command of its key's type.
_HANDLERS: dict[type, Callable[[Decision, Any], None]] = {
    Move: actions.move,
    MoveToExplore: actions.move,
    Explore: _explore,
    PlaceTile: _place_tile,
    Engage: actions.engage,
    Resolve: actions.resolve,
    ClearActive: actions.clear_active,
    EndTurn: lambda d, c: flow.end_turn(d),
    NextRound: lambda d, c: flow.next_round(d),
    Retreat: lambda d, c: flow.retreat(d),
    RollEnemyDice: _roll_enemy,
    UseRaceAbility: race_abilities.use,
    Defend: defense.defend,
    UseGear: item_use.use,
    UseClassAbility: class_abilities.use,
    TurnClassSheet: class_progress.turn_sheet,
    CompanionMove: companion_turn.move,  # ROUND-6
    CompanionEngage: companion_turn.engage,
    EndCompanionTurn: companion_turn.end,
}


def legal_commands(state: BattleState, ctx: RulesContext) -> list[BattleCommand]:
    """What may be done now. Engages are listed once per form and target,
    gathering every free die the form and the stat limits allow; any subset
    of those dice is legal too."""
    if state.phase is Phase.ENDED:
        return []
    if state.phase is Phase.ENEMY_ROLL:
        return [RollEnemyDice(faces=(0,) * state.roll_waiting.dice)]
    d = Decision(state, ctx)
    if state.phase is Phase.DEFEND:
        return [
            *defense.legal_defenses(d, lambda cmd: _is_legal(d, cmd)),
            *item_use.legal_defenses(d, lambda cmd: _is_legal(d, cmd)),
        ]
    if state.phase is Phase.END_OF_ROUND:
        return [NextRound(), Retreat(), *race_abilities.legal(d, lambda cmd: _is_legal(d, cmd))]
    if state.phase is Phase.COMPANION_TURN:
        return [
            *companion_turn.legal(d, lambda cmd: _is_legal(d, cmd)),
            *race_abilities.legal(d, lambda cmd: _is_legal(d, cmd)),
        ]  # RACE-WOOD-ELF: before a turn starts
    if state.phase is Phase.ENGAGE_RESOLVE:
        n = len(state.engage_waiting.dice)
        held = state.hero(state.turn.hero).active if state.turn is not None else ()
        return [
            Resolve(),
            Resolve(skip=tuple(range(n))),
            *(ClearActive(slot=i) for i in range(len(held))),
            *item_use.legal(d, lambda cmd: _is_legal(d, cmd)),
            *class_abilities.legal(d, lambda cmd: _is_legal(d, cmd)),
        ]  # a reroll (CLASS-1)
    if ctx.delve is not None and ctx.delve.placing is not None:
        return [PlaceTile(rotation=p.rotation, origin=p.origin) for p in exploration.placements(d)]
    hero = state.hero(state.acting.hero)
    out: list[BattleCommand] = []
    out += _moves(d, hero)
    out += _explores(d, hero)
    engages = _engages(d, hero)
    out += [e for e in engages if not _rolls_nothing(hero, e)]
    out += item_use.legal_engages(d, hero, engages, lambda cmd: _is_legal(d, cmd))  # WEAPON-1, OVERTAX-2
    out += [ClearActive(slot=i) for i in range(len(hero.active))]
    out += race_abilities.legal(d, lambda cmd: _is_legal(d, cmd))
    out += item_use.legal(d, lambda cmd: _is_legal(d, cmd))  # ITEM-3, ITEM-5
    out += class_abilities.legal(d, lambda cmd: _is_legal(d, cmd))  # CLASS-1, CLOTHING-2
    out += class_progress.legal_turns(d)  # ADVANCE-16
    out.append(EndTurn())
    return out


def _moves(d: Decision, hero: Hero) -> list[Move | MoveToExplore]:
    delve = d.delve
    marks = delve.marks_for(d.state.round, hero.id) if delve is not None else None
    if marks is not None and marks.explored:
        return []  # MOVE-4
    limit = hero.stamina
    try:
        actions.check_move(d, hero)
    except RuleViolation:
        if marks is None or not marks.resume:
            return []
        limit = marks.resume  # the rest of an interrupted Move (EXPLORATION-3b)
    taken = occupied(d) - {hero.pos}
    reach = d.ctx.board.reachable(hero.at, taken, limit)
    out: list[Move | MoveToExplore] = [Move(to=h) for h in sorted(reach, key=lambda h: (h[1], h[0])) if h != hero.pos]
    if marks is not None:  # in a delve
        open_ = set(exploration.explorable(d)) - set(marks.spent)
        out += [MoveToExplore(to=m.to) for m in out if m.to in open_]
    return out


def _explores(d: Decision, hero) -> list[Explore]:
    if d.delve is None:
        return []
    out = []
    for cmd in [Explore(), *(Explore(hex=h) for h in exploration.explorable(d))]:
        try:
            decide(d.state, cmd, d.ctx)
        except (RuleViolation, MalformedCommand):
            continue
        out.append(cmd)
    return out


def _engages(d: Decision, hero) -> list[Engage]:
    if d.state.acting.moves >= actions.MOVES_PER_TURN:  # MOVE-3
        return []
    out = []
    free = available_dice(d, hero)
    physical = d.state.options.physical_dice
    for form in BattleForm:
        dice = _gather(d, hero, form, free)
        extra = race_abilities.reveler_dice(hero, form)  # RACE-NORD: its free dice are typed too
        # physical dice: a face to type per die rolled (none rolled: none to type, as a player types it)
        faces = (0,) * (len(dice) + extra) if physical and (dice or extra) else None
        targets: list[str | None] = [None]
        for unit in _possible_targets(d, hero):
            try:
                check_target(d, hero, form, unit.id)
            except RuleViolation:
                continue
            targets.append(unit.id)
        for target in targets:
            cmd = Engage(form=form, target=target, dice=dice, faces=faces)
            if _is_legal(d, cmd):
                out.append(cmd)
    return out


def _rolls_nothing(hero: Hero, cmd: Engage) -> bool:
    """An Engage with no die to roll and no Weapon: the rules allow it
    (ENGAGE-7 is optional) but it only spends the Engage, so it is not
    offered (a trap: RULES-COVERAGE, "Offered commands")."""
    return not cmd.dice and not cmd.weapon and not race_abilities.reveler_dice(hero, cmd.form)


def _possible_targets(d: Decision, hero: Hero) -> list[Target]:
    """Enemies on the map; adventurers and companions too for a Blind
    adventurer (facts: STATUS-1)."""
    units: list[Target] = [f for f in d.state.foes if not f.defeated and f.pos is not None]
    if Status.BLIND in statuses(hero):
        units += [h for h in d.state.heroes if h.id != hero.id and not h.defeated and h.pos is not None]
        units += [a for a in d.state.companions if not a.defeated and a.pos is not None]
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


def _is_legal(d: Decision, cmd: BattleCommand) -> bool:
    try:
        decide(d.state, cmd, d.ctx)
    except (RuleViolation, MalformedCommand):
        return False
    return True
