"""Which rule a Conquest event cites: the rule that governs its kind of
event, or, where one kind serves several rules, the one its content picks.
The narration (``rk log``) and the audit cite through here, so they never
disagree."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import commands as cmd
from . import events as ev

_COMMAND_RULES: dict[type, str] = {
    cmd.StartConquest: "REINF-2",
    cmd.ChooseArrival: "REINF-4",
    cmd.PickArrivals: "REINF-8",
    cmd.OrderStack: "CMD-2",
    cmd.RollOff: "SUP-1",
    cmd.ChooseFirstPlayer: "SUP-3",
    cmd.DeclareAbility: "SUP-11",
    cmd.DrawCard: "ACT-2",
    cmd.ResolveDrawEvent: "ACT-8",
    cmd.March: "ARRIVE-2",
    cmd.Charge: "ACT-12",
    cmd.Volley: "ACTIONS-1",
    cmd.Clash: "ACTIONS-1",
    cmd.Withdraw: "ACTIONS-1",
    cmd.Reform: "ACT-10",
    cmd.EndActivation: "ACT-16",
    cmd.EndRound: "VICTORY-1",
    cmd.Surrender: "VICTORY-2",
}

_ARRIVAL_RULES = {"chosen": "REINF-4", "forced": "REINF-5", "carried-over": "ARRIVE-6", "rolled": "REINF-8"}

_RULES: dict[type, str | Callable[[Any], str]] = {
    ev.CommandIssued: lambda e: _COMMAND_RULES.get(type(e.command), ""),
    ev.CommandUndone: lambda e: "UNDO-2" if e.forced else "UNDO",
    ev.BattleStarted: "REINF-1",
    ev.RoundStarted: "RLINE-2",
    ev.PlayPassed: "ROUND-4",
    ev.ReinforcementsRolled: "REINF-6",
    ev.RegimentsArrived: lambda e: _ARRIVAL_RULES.get(e.reason.value, "REINF-10"),
    ev.StackOrdered: "CMD-1",
    ev.SupremacyRolled: lambda e: "SUP-4" if e.lower < 0 else "SUP-3",
    ev.FirstPlayerChosen: "SUP-3",
    ev.AbilityDeclared: "SUP-11",
    ev.CardDrawn: "ACT-2",
    ev.CardDiscarded: "ACT-6",
    ev.DrawEventResolved: "ACT-8",
    ev.RegimentMarched: lambda e: "ARRIVE-4" if e.side_edge else ("ARRIVE-2" if e.entered else "ACT-10"),
    ev.RegimentCharged: "ACT-12",
    ev.StandsRemoved: "ACT-10",
    ev.RegimentWithdrew: "ACTIONS-1",
    ev.RegimentReformed: "ACT-10",
    ev.EntryRefused: "ARRIVE-5",
    ev.ActivationEnded: "ACT-16",
    ev.VictoryPointsScored: "VICTORY-3",
    ev.BattleEnded: "VICTORY-2",
}


def cited_rule(event: Any) -> str:
    """The rule ID ``event`` cites, or "" when no single rule fits."""
    rule = _RULES.get(type(event), "")
    return rule(event) if callable(rule) else rule
