"""Phase V, the Victory Phase (VICTORY-1 to VICTORY-4), the Round limit
(ROUND-3) and surrender; then the next Round with its Reinforcement Lines
set anew (RLINE-2, RLINE-6)."""

from __future__ import annotations

from domain.kernel.errors import MalformedCommand, RuleViolation

from .board import reinforcement_line
from .commands import EndRound, Surrender
from .decision import Decision
from .events import BattleEnded, RoundStarted, VictoryPointsScored
from .state import ConquestState
from .vocab import Termination, Where


def vp_limit(state: ConquestState, ctx) -> int:
    """The most VP one player may declare this Round (scenario data)."""
    return ctx.scenario.vp_per_round if state.round >= ctx.scenario.score_from else 0


def wiped_out(state: ConquestState, side: int) -> bool:
    """Every Regiment of the army destroyed (VICTORY-2); waiting ones are not."""
    return all(r.where is Where.DESTROYED for r in state.regiments if r.side == side)


def end_round(d: Decision, cmd: EndRound) -> None:
    limit = vp_limit(d.state, d.ctx)
    if len(cmd.vp) != 2:
        raise MalformedCommand("give the victory points of both players")
    if any(not 0 <= v <= limit for v in cmd.vp):
        raise RuleViolation("VICTORY-3", f"the scenario allows 0 to {limit} VP per player in Round {d.state.round}")
    if any(cmd.vp):
        totals = (d.state.sides[0].vp + cmd.vp[0], d.state.sides[1].vp + cmd.vp[1])
        d.emit(VictoryPointsScored(vp=cmd.vp, totals=totals))
    s, scenario = d.state, d.ctx.scenario
    vp = (s.sides[0].vp, s.sides[1].vp)
    wiped = [wiped_out(s, 0), wiped_out(s, 1)]
    if all(wiped):
        # facts §6 default: both wiped out in the same Round is a draw
        return d.emit(BattleEnded(winner=-1, termination=Termination.WIPE_OUT, reason="both armies wiped out"))
    if any(wiped):
        loser = wiped.index(True)
        return d.emit(
            BattleEnded(
                winner=1 - loser, termination=Termination.WIPE_OUT, reason=f"player {loser + 1}'s army was wiped out"
            )
        )
    reached = [v >= scenario.vp_to_win for v in vp] if scenario.vp_to_win else [False, False]
    if any(reached):
        return d.emit(
            BattleEnded(
                winner=_more(vp),
                termination=Termination.SCENARIO,
                reason=f"{scenario.vp_to_win} VP reached ({vp[0]}–{vp[1]})",
            )
        )
    if s.round >= scenario.rounds:
        # facts §6 default: at the Round limit more VP wins, equal VP draws
        return d.emit(
            BattleEnded(
                winner=_more(vp),
                termination=Termination.ROUND_LIMIT,
                reason=f"Round {scenario.rounds} played ({vp[0]}–{vp[1]} VP)",
            )
        )
    start_round(d, s.round + 1)  # VICTORY-4


def _more(vp: tuple[int, int]) -> int:
    return -1 if vp[0] == vp[1] else (0 if vp[0] > vp[1] else 1)


def start_round(d: Decision, number: int) -> None:
    lines = (reinforcement_line(d.state, d.ctx, 0), reinforcement_line(d.state, d.ctx, 1))
    d.emit(RoundStarted(round=number, lines=lines))


def surrender(d: Decision, cmd: Surrender) -> None:
    if cmd.side not in (0, 1):
        raise MalformedCommand("side is 0 or 1")
    d.emit(
        BattleEnded(winner=1 - cmd.side, termination=Termination.SURRENDER, reason=f"player {cmd.side + 1} surrendered")
    )
