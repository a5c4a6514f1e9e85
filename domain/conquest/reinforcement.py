"""Phase I, the Reinforcement Phase (REINF-3 to REINF-11), each player in
turn: the optional automatic arrival (REINF-4), Classes forced in by the
Reinforcement Table (REINF-5), Regiments carried over from a refused entry
(ARRIVE-6), then one D6 per remaining waiting Regiment of each Class due
(REINF-6), rolled under the table (REINF-9); each success lets the player
pick any waiting Regiment of that Class (REINF-8)."""

from __future__ import annotations

from domain.kernel.errors import MalformedCommand, RuleViolation

from .catalog import AUTO, NO
from .commands import ChooseArrival, PickArrivals
from .decision import Decision, typed_faces
from .events import PlayPassed, ReinforcementsRolled, RegimentsArrived
from .board import ability_bonus
from .state import ConquestState, Regiment
from .context import RulesContext
from .vocab import DIE, AbilityEffect, Arrival, Phase, RegimentClass, Step, Where


def waiting(state: ConquestState, side: int) -> list[Regiment]:
    """The side's Regiments waiting as reinforcements, grouped by Class in
    the order of the Classes (REINF-3)."""
    out = [r for r in state.regiments if r.side == side and r.where is Where.WAITING]
    return sorted(out, key=lambda r: list(RegimentClass).index(r.cls))


def choosable(state: ConquestState, ctx: RulesContext, side: int) -> list[Regiment]:
    """Regiments that may be named for automatic arrival (REINF-4): waiting,
    of a Class that can arrive this Round, not already carried over."""
    return [r for r in waiting(state, side) if not r.carried and ctx.pack.cell(state.round, r.cls) != NO]


def dice_needed(state: ConquestState, ctx: RulesContext, side: int, chosen: str) -> int:
    """How many dice the Reinforcement Rolls will take if ``chosen`` is named."""
    return sum(len(group) for _, _, group in _rolled_groups(state, ctx, side, chosen))


def _rolled_groups(state, ctx, side, chosen):
    for cls in RegimentClass:
        cell = ctx.pack.cell(state.round, cls)
        if cell in (NO, AUTO):
            continue
        group = [r for r in waiting(state, side) if r.cls is cls and not r.carried and r.id != chosen]
        if group:
            yield cls, cell, group


def choose_arrival(d: Decision, cmd: ChooseArrival) -> None:
    s, side = d.state, d.state.turn
    if cmd.regiment:
        r = s.find(cmd.regiment)
        if r is None or r.side != side:
            raise MalformedCommand(f"you have no Regiment {cmd.regiment!r}")
        if r.where is not Where.WAITING:
            raise RuleViolation("REINF-4", f"{r.id} is not waiting as a reinforcement")
        if r.carried:
            raise RuleViolation("ARRIVE-6", f"{r.id} already passes automatically this Round")
        if d.ctx.pack.cell(s.round, r.cls) == NO:
            raise RuleViolation("REINF-4", f"{r.cls.value} Regiments cannot arrive in Round {s.round}")
    groups = list(_rolled_groups(s, d.ctx, side, cmd.regiment))
    faces = _faces(d, cmd, sum(len(g) for _, _, g in groups))
    if cmd.regiment:
        d.emit(RegimentsArrived(side=side, regiments=(cmd.regiment,), reason=Arrival.CHOSEN))
    carried = tuple(r.id for r in waiting(s, side) if r.carried)
    if carried:
        d.emit(RegimentsArrived(side=side, regiments=carried, reason=Arrival.CARRIED_OVER))
    forced = tuple(r.id for r in waiting(d.state, side) if d.ctx.pack.cell(s.round, r.cls) == AUTO)
    if forced:
        d.emit(RegimentsArrived(side=side, regiments=forced, reason=Arrival.FORCED))
    bonus = ability_bonus(s, d.ctx, side, AbilityEffect.REINFORCEMENT_BONUS)
    for cls, cell, group in groups:
        rolled, faces = faces[: len(group)], faces[len(group) :]
        counter = d.state.rng
        if not s.physical_dice:
            rolled, counter = d.roll(len(group))
        needed = min(DIE - 1, cell + bonus)
        # facts §1: a natural 1 always succeeds, a natural 6 always fails
        successes = sum(1 for f in rolled if f == 1 or (f != DIE and f <= needed))
        everyone = successes >= len(group)
        d.emit(
            ReinforcementsRolled(
                side=side,
                cls=cls,
                faces=tuple(rolled),
                needed=needed,
                successes=successes,
                pick=0 if everyone else successes,
                counter=counter,
                typed=s.physical_dice,
            )
        )
        if everyone:
            d.emit(RegimentsArrived(side=side, regiments=tuple(r.id for r in group), reason=Arrival.ROLLED, cls=cls))
    if not d.state.picks:
        finish(d)


def _faces(d: Decision, cmd: ChooseArrival, n: int) -> tuple[int, ...]:
    return typed_faces(d.state, cmd.faces, n, "REINF-6", "the Reinforcement Rolls, in Class order") or ()


def pick_arrivals(d: Decision, cmd: PickArrivals) -> None:
    pick = d.state.picks[0]
    group = {r.id for r in waiting(d.state, d.state.turn) if r.cls is pick.cls and not r.carried}
    if len(cmd.regiments) != pick.count or len(set(cmd.regiments)) != pick.count:
        raise RuleViolation(
            "REINF-8", f"{pick.count} roll(s) succeeded: name {pick.count} different {pick.cls.value} Regiment(s)"
        )
    wrong = [rid for rid in cmd.regiments if rid not in group]
    if wrong:
        raise RuleViolation("REINF-8", f"{wrong[0]} is not a waiting {pick.cls.value} Regiment")
    d.emit(RegimentsArrived(side=d.state.turn, regiments=tuple(cmd.regiments), reason=Arrival.ROLLED, cls=pick.cls))
    if not d.state.picks:
        finish(d)


def finish(d: Decision) -> None:
    """The player is done; the next one reinforces, or the Command Phase begins (ROUND-2)."""
    if d.state.turn == 0:
        d.emit(PlayPassed(phase=Phase.REINFORCEMENT, step=Step.NONE, turn=1))
    else:
        d.emit(PlayPassed(phase=Phase.COMMAND, step=Step.NONE, turn=0))
