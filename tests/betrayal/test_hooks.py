"""The hook points through which the core battle rules call the race, class
and item abilities (domain/betrayal/battle/hooks.py): every ability is in place
once the rules are imported, and each point runs race, then class, then
items, whatever order the functions were registered in."""

from __future__ import annotations

import pytest

from domain.betrayal.battle.abilities import classes as class_abilities, race as race_abilities
from domain.betrayal.battle import hooks
from domain.betrayal.battle.items import use as item_use, wards as item_wards
from domain.betrayal.battle.hooks import HookPoint, Layer
from domain.betrayal.battle.rules import decide  # noqa: F401 (importing the rules registers every hook)


def test_every_hook_point_holds_the_abilities_once_the_rules_are_imported():
    assert list(hooks.PREVENT_DAMAGE) == [class_abilities.prevent]
    assert list(hooks.WARD) == [item_wards.gear_ward]
    assert list(hooks.REACT_TO_DAMAGE) == [race_abilities.react]
    assert list(hooks.TURN_START) == [class_abilities.turn_started]
    assert list(hooks.BEFORE_ENEMY_TURN) == [race_abilities.before_enemy_turn]
    assert list(hooks.ENEMY_ENGAGED) == [class_abilities.engaged]
    assert list(hooks.DEFENSE_OFFERED) == [race_abilities.reaction_offered, item_use.can_brace]
    assert list(hooks.ENEMY_BLOW) == [item_use.guard_blow]
    assert list(hooks.LOCKPICK) == [race_abilities.bypass_lock]
    assert list(hooks.ENGAGE_DECLARING) == [race_abilities.reveler, item_use.weapon_declaring]
    assert list(hooks.FREE_ENGAGE) == [class_abilities.free_engage]
    assert list(hooks.ENGAGE_STRIKE) == [item_use.weapon_strike]
    assert list(hooks.ENGAGE_UNROLLED) == [item_use.weapon_alone]
    assert list(hooks.ENGAGE_RESOLVED) == [item_use.engage_over]


def test_a_hook_point_runs_race_then_class_then_items_whatever_the_registration_order():
    point: HookPoint = HookPoint("test", "for this test")

    def item(): ...
    def race(): ...
    def klass(): ...

    point.register(Layer.ITEM, item)
    point.register(Layer.RACE, race)
    point.register(Layer.CLASS, klass)
    assert list(point) == [race, klass, item]


def test_registering_the_same_function_again_is_harmless_and_a_second_one_is_refused():
    point: HookPoint = HookPoint("test", "for this test")

    def first(): ...
    def second(): ...

    point.register(Layer.RACE, first)
    point.register(Layer.RACE, first)
    assert list(point) == [first]
    with pytest.raises(ValueError, match="RACE already has"):
        point.register(Layer.RACE, second)
