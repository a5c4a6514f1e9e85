"""The duel's rules: ``decide`` a command into events, and the
``legal_commands`` now. Pure: the one source of chance is the kernel's
counter RNG at the state's counter.

DUEL-1 setup; DUEL-2 turns alternate, a round is both turns; DUEL-3 step;
DUEL-4 pledge, a free action before the turn's act, one card at a time;
DUEL-5 strike; DUEL-6 the end.
"""

from __future__ import annotations

from typing import Any

from domain.kernel import rng
from domain.kernel.errors import MalformedCommand, RuleViolation
from domain.kernel.hexes import adjacent, name
from domain.kernel.rng import check_seed

from . import board
from . import events as ev
from .commands import DuelCommand, Pass, Pledge, StartDuel, Step, Strike
from .state import DuelState
from .vocab import CARDS, DIE, HIT, MAX_WIDTH, MIN_WIDTH, NAMES, ROUNDS, RULES_VERSION


def decide(state: DuelState | None, command: DuelCommand, pack: Any) -> list[ev.DuelEvent]:
    """The events ``command`` produces from ``state``, or RuleViolation /
    MalformedCommand. Same inputs, same events."""
    if isinstance(command, StartDuel):
        return _start(state, command, pack)
    if state is None:
        raise MalformedCommand("no duel has been set up yet")
    if state.over:
        raise RuleViolation("DUEL-6", f"the duel is over ({state.reason})")
    side = state.turn
    match command:
        case Step():
            return [_step(state, side, tuple(command.to)), *_end_turn(state)]
        case Pledge():
            if state.pledges[side]:
                raise RuleViolation("DUEL-4", f"{NAMES[side]} holds a pledge already; a strike reveals it")
            if command.card not in CARDS:
                raise MalformedCommand(f"no card {command.card!r}: one of {', '.join(CARDS)}")
            return [ev.CardPledged(side=side, card=command.card)]
        case Strike():
            return _strike(state, side)
        case Pass():
            return _end_turn(state)
    raise MalformedCommand(f"{type(command).__name__} is not a duel command")


def _start(state: DuelState | None, command: StartDuel, pack: Any) -> list[ev.DuelEvent]:
    if state is not None:
        raise RuleViolation("DUEL-1", "this duel is already set up")
    check_seed(command.seed)
    if not MIN_WIDTH <= command.width <= MAX_WIDTH:
        raise MalformedCommand(f"the board is {MIN_WIDTH} to {MAX_WIDTH} hexes wide, not {command.width}")
    return [
        ev.DuelStarted(
            battle_id=command.battle_id,
            rules_version=RULES_VERSION,
            pack_id=pack.id,
            pack_hash=pack.hash,
            seed=command.seed,
            width=command.width,
            pawns=board.homes(command.width),
        )
    ]


def _step(state: DuelState, side: int, to: tuple[int, int]) -> ev.PawnStepped:
    here, other = state.pawns[side], state.pawns[1 - side]
    if to not in board.hexes(state.width):
        raise RuleViolation("DUEL-3", f"{name(to)} is not on the board")
    if not adjacent(here, to):
        raise RuleViolation("DUEL-3", f"{name(to)} is not next to {NAMES[side]}'s hex, {name(here)}")
    if to == other:
        raise RuleViolation("DUEL-3", f"{name(to)} is taken by {NAMES[1 - side]}")
    return ev.PawnStepped(side=side, to=to)


def _strike(state: DuelState, side: int) -> list[ev.DuelEvent]:
    if not adjacent(state.pawns[side], state.pawns[1 - side]):
        raise RuleViolation("DUEL-5", f"{NAMES[side]} must stand next to {NAMES[1 - side]} to strike")
    face = roll(state.seed, state.rng)
    card = state.pledges[side]
    bonus = CARDS.get(card, 0)
    hit = face + bonus >= HIT
    struck = ev.StrikeRolled(
        side=side, face=face, counter=state.rng, card=card, bonus=bonus, total=face + bonus, hit=hit
    )
    if hit:
        return [struck, ev.DuelEnded(winner=side, reason=f"{NAMES[side]} struck home")]
    return [struck, *_end_turn(state)]


def roll(seed: int, counter: int) -> int:
    """The d6 face the RNG gives at ``counter`` (verify re-derives it so)."""
    return rng.draw(seed, counter, DIE) + 1


def _end_turn(state: DuelState) -> list[ev.DuelEvent]:
    """DUEL-2: the other side acts; after the last round's second turn, DUEL-6."""
    if state.turn == 1 and state.round >= ROUNDS:
        return [ev.DuelEnded(winner=-1, reason=f"{ROUNDS} rounds without a winner")]
    return [ev.TurnPassed(turn=1 - state.turn, round=state.round + state.turn)]


def legal_commands(state: DuelState, pack: Any) -> list[DuelCommand]:
    """What the side on turn may do now: each step, a strike when next to
    the other pawn, each pledge while it holds none, and a pass."""
    if state.over:
        return []
    side = state.turn
    here, other = state.pawns[side], state.pawns[1 - side]
    out: list[DuelCommand] = [Step(to=h) for h in board.steps(state.width, here, other)]
    if adjacent(here, other):
        out.append(Strike())
    if not state.pledges[side]:
        out += [Pledge(card=card) for card in CARDS]  # type: ignore[arg-type]
    return out + [Pass()]
