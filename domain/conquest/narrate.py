"""The one narrator of Conquest: a readable line per event, citing the rule
it applies, and each command as a person would type it as an ``rk`` command."""

from __future__ import annotations

import msgspec

from domain.kernel.commandlog import LAST_COMMAND

from . import commands
from . import events as ev
from .state import ConquestState

_P = ("player a", "player b")  # as the command line names them (--side a, Regiments a1...)


def _who(side: int) -> str:
    return _P[side] if side in (0, 1) else "nobody"


def describe_event(e: ev.ConquestEvent, state: ConquestState | None) -> str:
    """One line for ``e`` (``state`` is the state before it)."""
    match e:
        case ev.CommandIssued():
            return f"rk {describe_command(e.command)}" + (" (redone)" if e.redo_of else "")
        case ev.CommandUndone():
            return f"undo of {LAST_COMMAND}" + (" (forced: it had revealed dice or a card)" if e.forced else "")
        case ev.BattleStarted():
            return (f"Battle {e.battle_id}: {e.armies[0]} against {e.armies[1]} in {e.scenario}, seed {e.seed}; "
                    f"every Regiment waits in reinforcements (REINF-1), Characters joined (REINF-2)")
        case ev.RoundStarted():
            return f"Round {e.round} begins; Reinforcement Lines at {e.lines[0]}\" and {e.lines[1]}\" (RLINE-2)"
        case ev.PlayPassed():
            step = "" if e.step.value == "none" else f" ({e.step.value})"
            return f"{e.phase.value.title()} Phase{step}: {_who(e.turn)} to decide (ROUND-4)"
        case ev.ReinforcementsRolled():
            return (f"{_who(e.side)} rolls {len(e.faces)} {e.cls.value} Reinforcement dice: "
                    f"{', '.join(map(str, e.faces))} needing {e.needed} or less, {e.successes} succeed (REINF-6, REINF-9)")
        case ev.RegimentsArrived():
            rule = {"chosen": "REINF-4", "forced": "REINF-5", "carried-over": "ARRIVE-6", "rolled": "REINF-8"}
            return f"{_who(e.side)}: {', '.join(e.regiments)} will arrive ({e.reason.value}, {rule[e.reason.value]})"
        case ev.StackOrdered():
            return f"{_who(e.side)} stacks {len(e.cards)} Command Cards face down (CMD-1)"
        case ev.SupremacyRolled():
            tail = "a tie: roll again (SUP-4)" if e.lower < 0 else f"{_who(e.lower)} chooses (SUP-3)"
            return f"Supremacy roll-off {e.faces[0]}–{e.faces[1]}, scores {e.scores[0]}–{e.scores[1]} (SUP-2): {tail}"
        case ev.FirstPlayerChosen():
            return f"{_who(e.chooser)} makes {_who(e.first)} the First Player (SUP-3)"
        case ev.AbilityDeclared():
            verb = "uses" if e.used else "does not use"
            return f"{_who(e.side)} {verb} {e.ability} (SUP-11)"
        case ev.CardDrawn():
            return f"{_who(e.side)} draws card {e.card} and activates {e.regiment} (ACT-2)"
        case ev.CardDiscarded():
            return f"{_who(e.side)} discards card {e.card}: {e.reason} (ACT-6)"
        case ev.DrawEventResolved():
            return f"draw event {e.event} resolved (ACT-8)" if e.event else "draw event declined (ACT-8)"
        case ev.RegimentMarched():
            how = " from a side edge (ARRIVE-4)" if e.side_edge else (" onto the battlefield (ARRIVE-2)" if e.entered else "")
            return f"{e.regiment} marches {e.inches}\"{how}, front at {e.front}\" ({e.use.value})"
        case ev.RegimentCharged():
            result = f"reaches {e.target}" if e.contact else f"falls short of {e.target}"
            return f"{e.regiment} charges {e.inches}\" and {result} (ACT-12)"
        case ev.StandsRemoved():
            end = ", destroyed" if e.destroyed else f", {e.stands} left"
            return f"{e.regiment}'s {e.action.value} removes {e.removed} stand(s) of {e.target}{end} (ACT-10)"
        case ev.RegimentWithdrew():
            return f"{e.regiment} withdraws to {e.front}\" (ACTIONS-1)"
        case ev.RegimentReformed():
            return f"{e.regiment} reforms (ACT-10)"
        case ev.EntryRefused():
            return f"{e.regiment} cannot enter and goes back into reinforcements (ARRIVE-5, ACT-18)"
        case ev.ActivationEnded():
            return f"{e.regiment} deactivates{' declining its remaining actions' if e.declined else ''} (ACT-16)"
        case ev.VictoryPointsScored():
            return f"VP scored {e.vp[0]}–{e.vp[1]}, totals {e.totals[0]}–{e.totals[1]} (VICTORY-3)"
        case ev.BattleEnded():
            who = "a draw" if e.winner < 0 else f"{_who(e.winner)} wins"
            return f"The battle ends, {who}: {e.reason} ({e.termination.value}, VICTORY-2)"
    return type(e).__name__


def describe_command(c) -> str:
    """A command as typed: the verb in kebab case, the regiment first, then
    every option not at its default (a yes/no switch always: ``--first`` or
    ``--no-first``). The command line takes exactly this back."""
    name = type(c).__name__
    parts = ["".join("-" + ch.lower() if ch.isupper() else ch for ch in name).lstrip("-")]
    if isinstance(c, commands.StartConquest):
        return _spell_setup(c)
    regiment = getattr(c, "regiment", "")
    if regiment:
        parts.append(regiment)
    for f in msgspec.structs.fields(c):
        if f.name == "regiment":
            continue
        value = getattr(c, f.name)
        flag = "--" + f.name.replace("_", "-")
        if isinstance(value, bool):
            parts.append(flag if value else f"--no-{flag[2:]}")
        elif value != f.default or f.default is msgspec.NODEFAULT:
            if isinstance(value, tuple):
                value = ",".join(":".join(v) if isinstance(v, tuple) else str(v) for v in value)
            parts.append(f"{flag} {value}")
    return " ".join(parts)


def _spell_setup(c: commands.StartConquest) -> str:
    """``new conquest --scenario S --army A --army B --seed N ...``."""
    parts = ["new conquest", f"--scenario {c.scenario}", f"--army {c.armies[0]}", f"--army {c.armies[1]}",
             f"--seed {c.seed}"]
    if c.physical_dice:
        parts.append("--physical-dice")
    parts += [f"--warlord {'ab'[i]}:{w}" for i, w in enumerate(c.warlords) if w]
    parts += [f"--assign {ch}:{r}" for ch, r in c.assignments]
    return " ".join(parts)
