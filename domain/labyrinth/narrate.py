"""One readable line per labyrinth event; a command is written as it is
typed, by the surface's grammar (``rk legal`` and the command line use
the same). Names come from the state just before the event when there is
one, else ids are used."""

from __future__ import annotations

import re
from typing import Any

from . import events as ev
from .views import buff_text
from .vocab import BUFF_NAMES

# The rules whose notes name buff kinds by their value (domain.labyrinth.buffs),
# and each value's name as the rules give it.
_KIND_NOTES = frozenset({"BUFF-4", "BUFF-5", "BUFF-6", "BUFF-7"})
_BUFF_WORDS: dict[str, str] = {kind.value: name for kind, name in BUFF_NAMES.items()}


def _n(state: Any, cid: str) -> str:
    c = state.find(cid) if state is not None and cid else None
    return c.name if c is not None else cid


def _faces(faces: tuple[int, ...]) -> str:
    return "[" + " ".join(str(f) for f in faces) + "]"


def describe_event(e: Any, state: Any) -> str:
    """The narration of ``e``."""
    n = lambda cid: _n(state, cid)  # noqa: E731
    match e:
        case ev.BattleStarted():
            return (
                f"battle {e.battle_id} set up: encounter {e.encounter}, "
                f"{', '.join(f'{c.id} {c.name} ({c.row.value})' for c in e.combatants)}"
            )
        case ev.TurnStarted():
            return f"turn {e.turn}: Standby phase"
        case ev.AilmentRolled():
            return (
                f"{n(e.who)} rolls {_faces(e.faces)} for {e.ailment}: " + ("loses" if e.lost else "keeps") + " the turn"
            )
        case ev.TurnLost():
            return f"{n(e.who)} cannot act this turn ({e.cause}): Waiting cancelled, Evasion 0"
        case ev.Confused():
            return f"{n(e.who)} is confused: it will attack its own row"
        case ev.Declared():
            x = e.declaration
            extra = (
                f" {x.row} {x.order}" if x.action == "move" else f" {x.skill} {x.target}".rstrip() if x.skill else ""
            )
            fp = [f"{x.fp} FP for extra dice" if x.fp else "", "a reroll if it fails" if x.reroll else ""]
            spent = f" ({', '.join(w for w in fp if w)})" if x.fp or x.reroll else ""  # on its check (FUMBLE-2)
            return f"{n(x.who)} declares {x.action}{extra}{spent}"
        case ev.Moved():
            p = next(p for p in e.places if p.id == e.who)
            return f"{n(e.who)} moves to the {p.row.value} row, place {p.order}"
        case ev.RowsSwapped():
            return "a side's front row is all out: its rows swap"
        case ev.DeclarationLapsed():
            return f"{n(e.who)}'s {e.action} lapses: {e.reason}"
        case ev.WeaponsSwapped():
            return f"{n(e.who)} swaps weapons: now wielding {e.weapon}"
        case ev.FullDefenseTaken():
            return f"{n(e.who)} takes Full defense: Waiting, damage halved"
        case ev.EscapeRolled():
            rolls = ", ".join(f"{n(i)} {t}" for i, t in zip(e.ids, e.totals)) if not e.kept else _escape_rolls(e, n)
            return f"escape check {_faces(e.faces)}: {rolls}: " + ("the party escapes" if e.escaped else "escape fails")
        case ev.MainStarted():
            first = f"; fastest actions first: {', '.join(n(i) for i in e.fastest)}" if e.fastest else ""
            return "Main phase, order: " + ", ".join(n(i) for i in e.queue) + first
        case ev.ActorUp():
            return {
                "fastest": f"{n(e.who)} may take a fastest action",
                "delayed": f"{n(e.who)} takes its delayed action",
            }.get(e.window, f"{n(e.who)} acts")
        case ev.Held():
            return f"{n(e.who)} holds its action for its place in the order" + (f" (it {e.reason})" if e.reason else "")
        case ev.ActionDelayed():
            return f"{n(e.who)} readies {e.skill}: it will act after everyone else"
        case ev.DelayedAttackSet():
            return f"{n(e.who)}'s {e.skill} will land at the end of turn {e.due}"
        case ev.DelayedAttackResolved():
            return f"{n(e.who)}'s {e.skill} " + ("lands" if e.landed else f"is lost: {e.reason}")
        case ev.TokenPlaced():
            return f"{n(e.who)} places {e.token.name} ({e.token.id})" + (
                f", until the end of turn {e.token.expires}" if e.token.expires else ""
            )
        case ev.TokenVanished():
            return f"{n(e.who)} vanishes: {e.reason}"
        case ev.CriticalTriggered():
            return f"critical! {n(e.who)}'s {e.skill} triggers on {n(e.target)} ({e.tp} TP)"
        case ev.FpSpent():
            return f"{n(e.who)} spends {e.amount} FP: {e.reason}"
        case ev.CheckRerolled():
            return f"{n(e.who)}'s check {_faces(e.faces)} fails: rolled again"
        case ev.EffectFizzled():
            return f"{n(e.who)}'s {e.effect} does nothing: {e.reason}"
        case ev.Identified():
            rolls = ", ".join(f"{n(i)} {t}" for i, t in zip(e.ids, e.totals))
            return (
                f"Identify {_faces(e.faces)}: {rolls}; identified: {', '.join(n(i) for i in e.known) or 'none'}"
                + (f"; unknown (resistances at least 3): {', '.join(n(i) for i in e.unknown)}" if e.unknown else "")
                + (f"; spotted as rare: {', '.join(n(i) for i in e.spotted)}" if e.spotted else "")
            )
        case ev.ActionSkipped():
            return f"{n(e.who)} {e.reason}: no action"
        case ev.Passed():
            return f"{n(e.who)} passes"
        case ev.ActionEnded():
            return f"{n(e.who)}'s action ends"
        case ev.SkillFumbled():
            back = f" ({e.refund_tp} TP, {e.refund_fp} FP given back)" if e.refund_tp or e.refund_fp else ""
            return f"{n(e.who)}'s {e.skill or 'skill'} fails: all 1s{back}"
        case ev.ActionChosen():
            return f"{n(e.who)} chooses {e.chosen} (random among {len(e.among)})"
        case ev.TargetPicked():
            return f"{n(e.who)} targets {n(e.chosen)} (random among {len(e.among)})"
        case ev.SkillUsed():
            roll = (
                f", activation {_faces(e.faces)}" + (f" keeping {_faces(e.kept)}" if e.kept else "") if e.faces else ""
            )
            paid = f", {e.fp_cost} FP" if e.fp_cost else ""  # an FP cost printed on the skill (FUMBLE-2)
            return f"{n(e.who)} uses {e.skill} ({e.tp} TP{paid}{roll})" + (f", +{e.fp} FP" if e.fp else "")
        case ev.ItemUsed():
            return f"{n(e.who)} uses {e.item}"
        case ev.AttackRolled():
            verdict = "hits" if e.hit else "misses"
            extra = f" ({e.absolute})" if e.absolute else ""
            kept = f" keeping {_faces(e.kept)}" if e.kept else ""
            return (
                f"{n(e.attacker)} {e.mode} attack on {n(e.target)}: {_faces(e.faces)}{kept} = {e.total} "
                f"vs Evasion {e.evasion}: {verdict}{extra}"
            )
        case ev.DamageRolled():
            crit = " critical!" if e.critical else ""
            why = f", reduced by {e.halved}" if e.halved else ""
            left = max(e.hp, 0)  # 0 once incapacitated, as `rk status` reads it
            return (
                f"damage {_faces(e.faces)} above {e.resistance}:{crit} {e.dealt} dealt, "
                f"{n(e.target)} takes {e.damage}{why} ({left} HP left)"
            )
        case ev.PassiveUsed():
            return f"{n(e.who)} answers with {e.skill}" + (f" ({e.tp} TP, {e.fp_cost} FP)" if e.fp_cost else "")
        case ev.ReactionAsked() if e.kind == "faces":
            return f"{n(e.who)}'s roll ({e.check}) waits: type the faces of {e.dice} D6"
        case ev.ReactionChosen() if e.kind == "faces":
            return f"{n(e.who)} rolls {_faces(e.faces)}"
        case ev.ReactionAsked() if e.kind == "fp":
            return f"{n(e.who)}'s Suppression defense roll ({e.check}) waits: FP to spend on it?"
        case ev.ReactionAsked():
            return (
                f"{n(e.attacker)}'s attack roll against {n(e.who)} waits: {n(e.who)} may answer with "
                f"{' or '.join(e.skills)}, or none"
            )
        case ev.ReactionChosen() if e.kind == "fp":
            spending = ([f"{e.fp} for extra dice"] if e.fp else []) + (["a reroll if it fails"] if e.reroll else [])
            return (
                f"{n(e.who)} spends on its roll: {', '.join(spending)}"
                if spending
                else f"{n(e.who)} spends no FP on it"
            )
        case ev.ReactionChosen():
            return f"{n(e.who)} chooses {e.skill}" if e.skill else f"{n(e.who)} makes no passive action"
        case ev.HpLost():
            return f"{n(e.who)} loses {e.amount} HP to {e.cause} ({e.hp} left)"
        case ev.Incapacitated():
            return f"{n(e.who)} is incapacitated"
        case ev.Healed():
            return f"{n(e.who)} heals {n(e.target)}: {_faces(e.faces)}, +{e.amount} HP ({e.hp})"
        case ev.SuppressionRolled():
            kept = f" keeping {_faces(e.kept)}" if e.kept else ""
            return (
                f"{n(e.who)} Suppression roll to {e.purpose} {e.kind}: {_faces(e.faces)}{kept} = {e.total} "
                f"vs {e.target_value}: " + ("success" if e.success else "failure")
            )
        case ev.Afflicted():
            return f"{n(e.who)} suffers {e.kind}"
        case ev.Cured():
            return f"{n(e.who)} is free of {', '.join(e.removed)} ({e.cause})"
        case ev.BuffsChanged():
            held = ", ".join(buff_text(b) for b in e.buffs)
            now = f"{n(e.who)} now holds {held}" if held else f"{n(e.who)} now holds no buff or debuff"
            return now + (f" ({_buff_note(e)})" if e.note else "")
        case ev.Regenerated():
            return f"{n(e.who)} regenerates to {e.hp} HP, {e.tp} TP"
        case ev.EndStarted():
            return "End phase"
        case ev.DepthLowered():
            return f"{n(e.who)}'s depths fall by 1"
        case ev.TurnEnded():
            return f"turn {e.turn} ends"
        case ev.BattleEnded():
            return f"the battle is over: {e.termination.value}"
        case ev.DropRolled():
            return f"drop roll for {n(e.enemy)}: {_faces(e.faces)} = {e.total}: {e.item or 'nothing'}"
    return type(e).__name__


def _buff_note(e: ev.BuffsChanged) -> str:
    """The event's note with each buff kind by the name the rules give it.
    The event keeps the engine's words ("hit-down", "the larger patk-up
    applies"): a re-decided log must find the same event to verify."""
    told = "".join(_BUFF_WORDS.get(w, w) for w in re.split(r"([\w-]+)", e.note)) if e.rule in _KIND_NOTES else e.note
    return f"{told} wore off" if e.rule == "BUFF-4" else told


def _escape_rolls(e: ev.EscapeRolled, n: Any) -> str:
    """Each one's faces, those rolled again, the 2 kept and the total, when
    FP was spent on the escape check (FUMBLE-2): ``Ada [1 6 2] keeping [6 2] 14``."""
    out = []
    for (first, again), i, t, k in zip(e.checks(), e.ids, e.totals, zip(e.kept[::2], e.kept[1::2])):
        last = again or first
        text = f"{n(i)} {_faces(first)}" + (f" rolled again {_faces(again)}" if again else "")
        out.append(text + (f" keeping {_faces(k)}" if len(last) > 2 else "") + f" {t}")
    return ", ".join(out)
