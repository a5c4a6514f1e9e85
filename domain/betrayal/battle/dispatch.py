"""Deciding a battle's command: ``decision`` checks what the battle waits
for, then hands the command to its kind's handler (``_HANDLED_BY``),
imported when a command of that kind is first decided, so a Move loads the
core rules it runs (``actions``, ``flow``, ``exploration``) and not the
class abilities', the items' or the companions'. The race, class and item
abilities act at the core's hook points (``hooks``), which import them all
the first time any point is read: a command finds every ability in place
whichever modules it loaded."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from domain.kernel.errors import MalformedCommand, RuleViolation
from domain.kernel.hexes import as_hex

from . import actions, exploration, flow
from .abilities import class_progress
from .commands import (
    BattleCommand,
    ClearActive,
    CompanionEngage,
    CompanionMove,
    Defend,
    EndCompanionTurn,
    EndTurn,
    Engage,
    Explore,
    Move,
    MoveToExplore,
    NextRound,
    PlaceTile,
    Resolve,
    Retreat,
    RollEnemyDice,
    StartClash,
    StartDelve,
    StartDungeon,
    TurnClassSheet,
    UseClassAbility,
    UseGear,
    UseRaceAbility,
)
from .context import ENEMY_DIE_FACES, RulesContext
from .decision import Decision
from .events import BattleEvent
from .state import BattleState, Phase


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
        from . import setup  # a battle is set up once: its commands never load it again

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
    handler = _handler(type(command))
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


def _end_turn(d: Decision, cmd: EndTurn) -> None:
    flow.end_turn(d)


def _next_round(d: Decision, cmd: NextRound) -> None:
    flow.next_round(d)


def _retreat(d: Decision, cmd: Retreat) -> None:
    flow.retreat(d)


# Each command's handler, as "module:function" of this package; the
# handler takes the command of its key's type. A module is imported when a
# command of its kind is first decided (``_handler``).
_HANDLED_BY: dict[type, str] = {
    Move: "actions:move",
    MoveToExplore: "actions:move",
    Explore: "dispatch:_explore",
    PlaceTile: "dispatch:_place_tile",
    Engage: "actions:engage",
    Resolve: "actions:resolve",
    ClearActive: "actions:clear_active",
    EndTurn: "dispatch:_end_turn",
    NextRound: "dispatch:_next_round",
    Retreat: "dispatch:_retreat",
    RollEnemyDice: "dispatch:_roll_enemy",
    UseRaceAbility: "abilities.race:use",
    Defend: "defense:defend",
    UseGear: "items.use:use",
    UseClassAbility: "abilities.classes:use",
    TurnClassSheet: "abilities.class_progress:turn_sheet",
    CompanionMove: "companions.turn:move",  # ROUND-6
    CompanionEngage: "companions.turn:engage",
    EndCompanionTurn: "companions.turn:end",
}
_HANDLERS: dict[type, Callable[[Decision, Any], None]] = {}  # those found so far


def _handler(kind: type) -> Callable[[Decision, Any], None] | None:
    """The handler of a command of class ``kind`` (None: not a battle's
    command), its module imported the first time."""
    found = _HANDLERS.get(kind)
    if found is None and kind in _HANDLED_BY:
        module, _, name = _HANDLED_BY[kind].partition(":")
        found = _HANDLERS[kind] = getattr(importlib.import_module(f".{module}", __package__), name)
    return found
