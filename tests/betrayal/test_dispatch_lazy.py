"""A battle's command loads the rules it runs (``battle.dispatch``): every
command class has a handler, named by where it is and found when a command
of its kind is first decided, the one the eager table held; the race, class
and item abilities are imported the first time a hook point is read
(``hooks.ABILITIES``, exactly the modules that register there), so a
command finds every ability in place whatever it loaded. The checks of
what is imported run in a fresh process (this one has every rule loaded)."""

from __future__ import annotations

import importlib
import pkgutil
import typing

from fresh_process import answer_of

import domain.betrayal.battle as battle
from domain.betrayal.battle import actions, defense, dispatch, hooks
from domain.betrayal.battle.abilities import class_progress, classes as class_abilities, race as race_abilities
from domain.betrayal.battle.commands import (
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
    StartFromPosition,
    TurnClassSheet,
    UseClassAbility,
    UseGear,
    UseRaceAbility,
)
from domain.betrayal.battle.companions import turn as companion_turn
from domain.betrayal.battle.items import use as item_use

# Set up by ``decision`` itself (``setup``), or by the kernel from a position.
SETUPS = {StartClash, StartDungeon, StartDelve, StartFromPosition}
# The table as it was written before its handlers were found lazily.
EAGER = {
    Move: actions.move,
    MoveToExplore: actions.move,
    Explore: dispatch._explore,
    PlaceTile: dispatch._place_tile,
    Engage: actions.engage,
    Resolve: actions.resolve,
    ClearActive: actions.clear_active,
    EndTurn: dispatch._end_turn,
    NextRound: dispatch._next_round,
    Retreat: dispatch._retreat,
    RollEnemyDice: dispatch._roll_enemy,
    UseRaceAbility: race_abilities.use,
    Defend: defense.defend,
    UseGear: item_use.use,
    UseClassAbility: class_abilities.use,
    TurnClassSheet: class_progress.turn_sheet,
    CompanionMove: companion_turn.move,
    CompanionEngage: companion_turn.engage,
    EndCompanionTurn: companion_turn.end,
}
# Modules a Move on a clash does not need: loaded by other commands, the hooks or a list.
NOT_FOR_A_MOVE = {
    f"domain.betrayal.battle.{m}"
    for m in (
        "legal",
        "setup",
        "defense",
        "abilities.race",
        "abilities.classes",
        "items.use",
        "items.wards",
        "companions.turn",
        "companions.setup",
        "choices",
    )
}


def test_every_command_of_a_battle_has_a_handler_named_by_where_it_is():
    commands = set(typing.get_args(BattleCommand))
    assert set(dispatch._HANDLED_BY) == commands - SETUPS
    for kind, where in dispatch._HANDLED_BY.items():
        module, _, name = where.partition(":")
        assert callable(getattr(importlib.import_module(f"domain.betrayal.battle.{module}"), name)), kind


def test_the_handlers_found_lazily_are_those_of_the_eager_table():
    assert {kind: dispatch._handler(kind) for kind in dispatch._HANDLED_BY} == EAGER
    assert dispatch._handler(StartFromPosition) is None and dispatch._handler(int) is None


def test_the_abilities_the_hooks_import_are_the_modules_that_register_there():
    for info in pkgutil.walk_packages(battle.__path__, "domain.betrayal.battle."):
        importlib.import_module(info.name)
    points = [p for p in vars(hooks).values() if isinstance(p, hooks.HookPoint)]
    registering = {fn.__module__ for point in points for fn in point}
    assert len(points) == 14
    assert registering == set(hooks.ABILITIES)


def test_importing_the_rules_loads_neither_the_abilities_nor_the_other_commands_rules():
    """(A whole `rk move` on a clash is checked in ``tests/cli/test_direct.py``.)"""
    answer = answer_of(
        "import sys\n"
        "import domain.betrayal.battle.rules\n"
        "answer = sorted(m for m in sys.modules if m.startswith('domain.betrayal.battle'))"
    )
    assert "domain.betrayal.battle.dispatch" in answer
    assert not set(answer) & NOT_FOR_A_MOVE


def test_reading_any_hook_point_first_puts_every_ability_in_place():
    answer = answer_of(
        "import sys\n"
        "from domain.betrayal.battle import hooks, rules\n"
        "loaded = [m for m in hooks.ABILITIES if m in sys.modules]\n"
        "guards = [f'{f.__module__}.{f.__qualname__}' for f in hooks.PREVENT_DAMAGE]\n"
        "answer = [loaded, guards, [m in sys.modules for m in hooks.ABILITIES]]"
    )
    assert answer == [[], ["domain.betrayal.battle.abilities.classes.prevent"], [True] * len(hooks.ABILITIES)]
