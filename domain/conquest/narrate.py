"""The one narrator of Conquest: a readable line per event, citing the rule
it applies (a command as given, and an undo, are the kernel's to narrate:
``domain.kernel.narration``)."""

from __future__ import annotations

from domain.kernel.messages import Event

from . import events as ev
from .state import ConquestState
from .vocab import SIDES, Termination


def player(state: ConquestState | None, side: int) -> str:
    """A player as the table knows them: by their army; with its key (the
    ``a`` or ``b`` of ``--side`` and of its Regiments' ids) only when both
    players field the same army."""
    if side not in (0, 1):
        return "nobody"
    if state is None or not state.sides[side].army:
        return f"player {SIDES[side]}"
    armies = [s.army for s in state.sides]
    army = armies[side]
    return f"{army} ({SIDES[side]})" if armies[0] == armies[1] else army


def ending_reason(state: ConquestState | None, winner: int, termination: Termination, reason: str) -> str:
    """Why the battle ended, naming the players as the table knows them.
    The event's own ``reason`` counted players from 1 ("player 2
    surrendered") where every other line says their army or ``a``/``b``;
    it stays in the event, as logged, and is worded again here."""
    if winner in (0, 1) and termination is Termination.SURRENDER:
        return f"{player(state, 1 - winner)} surrendered"
    if winner in (0, 1) and termination is Termination.WIPE_OUT:
        return f"{player(state, 1 - winner)}'s army was wiped out"
    return reason


def describe_event(e: Event, state: ConquestState | None) -> str:
    """One line for ``e`` (``state`` is the state before it); an event it does
    not know is named by its class."""
    match e:
        case ev.BattleStarted():
            return (
                f"Battle {e.battle_id}: {e.armies[0]} against {e.armies[1]} in {e.scenario}, seed {e.seed}; "
                f"every Regiment waits in reinforcements (REINF-1), Characters joined (REINF-2)"
            )
        case ev.RoundStarted():
            return f'Round {e.round} begins; Reinforcement Lines at {e.lines[0]}" and {e.lines[1]}" (RLINE-2)'
        case ev.PlayPassed():
            step = "" if e.step.value == "none" else f" ({e.step.value})"
            return f"{e.phase.value.title()} Phase{step}: {player(state, e.turn)} to decide (ROUND-4)"
        case ev.ReinforcementsRolled():
            return (
                f"{player(state, e.side)} rolls {len(e.faces)} {e.cls.value} Reinforcement dice: "
                f"{', '.join(map(str, e.faces))} needing {e.needed} or less, {e.successes} succeed"
                " (REINF-6, REINF-9)"
            )
        case ev.RegimentsArrived():
            rule = {"chosen": "REINF-4", "forced": "REINF-5", "carried-over": "ARRIVE-6", "rolled": "REINF-8"}
            return (
                f"{player(state, e.side)}: {', '.join(e.regiments)} will arrive"
                f" ({e.reason.value}, {rule[e.reason.value]})"
            )
        case ev.StackOrdered():
            return f"{player(state, e.side)} stacks {len(e.cards)} Command Cards face down (CMD-1)"
        case ev.SupremacyRolled():
            tail = "a tie: roll again (SUP-4)" if e.lower < 0 else f"{player(state, e.lower)} chooses (SUP-3)"
            return f"Supremacy roll-off {e.faces[0]}–{e.faces[1]}, scores {e.scores[0]}–{e.scores[1]} (SUP-2): {tail}"
        case ev.FirstPlayerChosen():
            return f"{player(state, e.chooser)} makes {player(state, e.first)} the First Player (SUP-3)"
        case ev.AbilityDeclared():
            verb = "uses" if e.used else "does not use"
            return f"{player(state, e.side)} {verb} {e.ability} (SUP-11)"
        case ev.CardDrawn():
            return f"{player(state, e.side)} draws card {e.card} and activates {e.regiment} (ACT-2)"
        case ev.CardDiscarded():
            return f"{player(state, e.side)} discards card {e.card}: {e.reason} (ACT-6)"
        case ev.DrawEventResolved():
            return f"draw event {e.event} resolved (ACT-8)" if e.event else "draw event declined (ACT-8)"
        case ev.RegimentMarched():
            how = (
                " from a side edge (ARRIVE-4)"
                if e.side_edge
                else (" onto the battlefield (ARRIVE-2)" if e.entered else "")
            )
            return f'{e.regiment} marches {e.inches}"{how}, front at {e.front}" ({e.use.value})'
        case ev.RegimentCharged():
            result = f"reaches {e.target}" if e.contact else f"falls short of {e.target}"
            return f'{e.regiment} charges {e.inches}" and {result} (ACT-12)'
        case ev.StandsRemoved():
            end = ", destroyed" if e.destroyed else f", {e.stands} left"
            return f"{e.regiment}'s {e.action.value} removes {e.removed} stand(s) of {e.target}{end} (ACT-10)"
        case ev.RegimentWithdrew():
            return f'{e.regiment} withdraws to {e.front}" (ACTIONS-1)'
        case ev.RegimentReformed():
            return f"{e.regiment} reforms (ACT-10)"
        case ev.EntryRefused():
            return f"{e.regiment} cannot enter and goes back into reinforcements (ARRIVE-5, ACT-18)"
        case ev.ActivationEnded():
            return f"{e.regiment} deactivates{' declining its remaining actions' if e.declined else ''} (ACT-16)"
        case ev.VictoryPointsScored():
            return f"VP scored {e.vp[0]}–{e.vp[1]}, totals {e.totals[0]}–{e.totals[1]} (VICTORY-3)"
        case ev.BattleEnded():
            who = "a draw" if e.winner < 0 else f"{player(state, e.winner)} wins"
            why = ending_reason(state, e.winner, e.termination, e.reason)
            return f"The battle ends, {who}: {why} ({e.termination.value}, VICTORY-2)"
    return type(e).__name__
