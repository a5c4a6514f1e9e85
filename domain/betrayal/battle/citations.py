"""Which rule an event cites: its own ``rule`` field when it carries one,
the rule ID leading its ``reason``, or the rule that governs its kind of
event. The audit and the command line's narration both cite through here,
so they never disagree."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from domain.betrayal.adventurer import aggregate as adv
from domain.betrayal.delve import aggregate as dv
from domain.betrayal.vocab import Objective

from . import commands as cmd
from . import events as ev

_RULE_PREFIX = re.compile(r"^([A-Z][A-Z-]*-\d+[a-z]?):\s*")
_FOE_ID = re.compile(r"^e\d+$")  # foes are e1, e2... in placement order (setup.py)


def cited_rule(event: Any) -> str:
    """The rule ID ``event`` cites, or "" when no single rule fits."""
    if isinstance(event, dv.DelveConcluded):  # its reason says why the battle ended, not the objective
        return concluded_rule(event)
    rule = getattr(event, "rule", "")
    if isinstance(rule, str) and rule:
        return rule
    reason = getattr(event, "reason", "")
    if isinstance(reason, str):
        found = _RULE_PREFIX.match(reason)
        if found:
            return found.group(1)
    rule = _RULES.get(type(event), "")
    return rule(event) if callable(rule) else rule


def concluded_rule(event: dv.DelveConcluded, objective: Objective | None = None) -> str:
    """The objective a delve was played for: OBJ-4 Survey or OBJ-8 Uncover."""
    objective = objective or event.objective
    return "OBJ-8" if objective == Objective.UNCOVER else "OBJ-4"


def is_foe(unit: str) -> bool:
    """Whether a unit id names an enemy (``e1``) rather than an adventurer."""
    return bool(_FOE_ID.match(unit))


_COMMAND_RULES: dict[type, str | Callable[[Any], str]] = {
    cmd.StartClash: "CLASH-5",
    cmd.StartDungeon: "DUNGEON-6",
    cmd.StartDelve: "DELVE-7",
    cmd.Move: "MOVE-1",
    cmd.MoveToExplore: "EXPLORATION-3a",
    cmd.Explore: lambda c: "EXPLORATION-3a" if c.hex is None else "EXPLORE-1",
    cmd.PlaceTile: "EXPLORATION-9",
    cmd.Engage: "ENGAGE-4",
    cmd.Resolve: "ENGAGE-8",
    cmd.ClearActive: "ACTIVE-4",
    cmd.EndTurn: "TURN-6",
    cmd.RollEnemyDice: "ENEMY-6c",
    cmd.NextRound: "ROUND-8",
    cmd.Retreat: "RETREAT-1",
    cmd.Defend: "COMBAT-4",
    # the race's rule is not in the command; the events that follow cite it
    cmd.UseRaceAbility: "",
    cmd.UseClassAbility: "CLASS-1",  # the events that follow cite the timing's rule
    cmd.UseGear: "ITEM-3",  # items in battle; the events that follow cite the item type's rule
    cmd.TurnClassSheet: "ADVANCE-16",
}

# Rules of events that carry none; a callable picks by the event's content.
_RULES: dict[type, str | Callable[[Any], str]] = {
    ev.CommandIssued: lambda e: _command_rule(e.command),
    ev.CommandUndone: lambda e: "UNDO-2" if e.forced else "UNDO",
    ev.BattleStarted: lambda e: "DELVE-7" if e.objective in (Objective.SURVEY, Objective.UNCOVER) else "EP-2",
    ev.CachePlaced: "CLASH-6",
    ev.EnemyPlaced: lambda e: "EP-8" if e.quest else "CLASH-7a",
    ev.EnemyPoolClosed: "EP-7",
    ev.AdventurerPlaced: "CLASH-8",
    ev.RoundStarted: "ROUND-4",
    ev.TurnStarted: "TURN-3",
    ev.DiceRecovered: "RECOVER-1",
    ev.TurnEnded: "TURN-6",
    ev.EnemyTurnStarted: "ENEMY-1",
    ev.EnemyTurnEnded: "ENEMY-7",
    ev.RoundEnded: "ROUND-8",
    ev.PartyRetreated: "RETREAT-1",
    ev.BattleEnded: "END-1",
    ev.HeroCleanedUp: "CLEANUP-3",
    ev.HeroMoved: "MOVE-1",
    ev.EngageDeclared: "ENGAGE-5",
    ev.DiceRolled: lambda e: "ENEMY-6c" if is_foe(e.unit) else "ENGAGE-7",
    ev.TenacityGained: "ENGAGE-8d",
    ev.DieDrained: "DRAINED-2",
    ev.StatusPlaced: "STATUS-1",
    ev.HeroStatusGained: lambda e: "TRACK-10" if e.refreshed else "TRACK-1",
    ev.UnitDefeated: lambda e: "" if is_foe(e.unit) else "HEALTH-5",
    ev.EngageResolved: "ENGAGE-8",
    ev.EnemyEngaged: "ENEMY-6a",
    ev.EnemyRollAwaited: "ENEMY-6c",
    # delves: the battle's own events
    ev.Explored: "EXPLORATION-6",
    ev.EnemyPoolOpened: "DELVE-4",
    ev.HeroStepped: "MOVE-5",
    ev.LockpickTested: "MOVE-5",  # facts: the lockpick test (MOVE-5, DELVE-3)
    ev.CacheOpened: "DELVE-3",
    # race abilities carry their rule; the choose-defense option
    ev.DamagePrevented: "COMBAT-4",
    ev.DefenseAwaited: "COMBAT-4",
    ev.DefenseChosen: "COMBAT-4",
    # the Delve stream
    dv.DelveBegun: "DELVE-7",
    dv.CardDrawn: "EXPLORATION-6",
    dv.ShortageSkyshard: "EXPLORATION-7a",
    dv.TileDrawn: "EXPLORATION-7",
    dv.TileEpRaised: "EXPLORATION-8",
    dv.TilePlaced: "EXPLORATION-9",
    dv.TileReturned: "EXPLORATION-9f",
    dv.CardKept: "EXPLORATION-12",
    dv.CardDiscarded: "EXPLORATION-12",
    dv.SkyshardObtained: "SKYSHARD-5",
    dv.TurnMarked: "EXPLORATION-3b",
    dv.ItemFound: "DELVE-3",
    dv.ItemCycled: "DELVE-3",
    dv.TrapSprung: "EXPLORATION-12",
    dv.ItemDeckReshuffled: "ITEM-9",
    dv.DelveRestored: "UNDO",
    adv.AdventurerCreated: "HEALTH-1",
    adv.BattleConcluded: "CLEANUP-3b",
    adv.AdventurerRestored: "UNDO",
}


def _command_rule(command: Any) -> str:
    rule = _COMMAND_RULES.get(type(command), "")
    return rule(command) if callable(rule) else rule
