"""The Conquest ruleset's contract: ``decide`` a command into events,
``evolve`` events into state (``evolve.py``), list the ``legal_commands``.
Which command a state awaits is decided in one place, ``awaited``."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from itertools import combinations

from domain.kernel.errors import MalformedCommand, RuleViolation

from . import activation, reinforcement, setup, supremacy, victory
from .commands import (
    Charge,
    ChooseArrival,
    ChooseFirstPlayer,
    Clash,
    ConquestCommand,
    DeclareAbility,
    DrawCard,
    EndActivation,
    EndRound,
    March,
    OrderStack,
    PickArrivals,
    Reform,
    ResolveDrawEvent,
    RollOff,
    StartConquest,
    Surrender,
    Volley,
    Withdraw,
)
from .context import RulesContext
from .decision import Decision
from .events import ConquestEvent
from .evolve import evolve, replay
from .state import ConquestState
from .vocab import Phase, Step

__all__ = ["decide", "evolve", "replay", "legal_commands", "awaited"]

ACTIONS = (March, Charge, Volley, Clash, Withdraw, Reform, EndActivation)


def awaited(state: ConquestState) -> tuple[type, ...]:
    """The command classes the state waits for (besides Surrender)."""
    phase, step = state.phase, state.step
    if phase is Phase.REINFORCEMENT:
        return (PickArrivals,) if step is Step.PICK else (ChooseArrival,)
    if phase is Phase.COMMAND:
        return (OrderStack,)
    if phase is Phase.SUPREMACY:
        return {Step.ROLL_OFF: (RollOff,), Step.CHOOSE: (ChooseFirstPlayer,), Step.DECLARE: (DeclareAbility,)}[step]
    if phase is Phase.ACTION:
        if state.activation is None:
            return (DrawCard,)
        return (ResolveDrawEvent,) if state.activation.step is Step.DRAW_EVENT else ACTIONS
    if phase is Phase.VICTORY:
        return (EndRound,)
    return ()


def decide(state: ConquestState | None, command: ConquestCommand, ctx: RulesContext) -> list[ConquestEvent]:
    """The events ``command`` produces from ``state``, or RuleViolation /
    MalformedCommand / AmbiguousCommand. Pure: same inputs, same events."""
    d = Decision(state, ctx)
    if isinstance(command, StartConquest):
        if state is not None:
            raise RuleViolation("ROUND-1", "this battle is already set up")
        setup.start(d, command)
        return d.events
    if state is None:
        raise MalformedCommand("no battle has been set up yet")
    if state.over:
        raise RuleViolation("ROUND-3", f"the battle is over ({state.final_result().reason})")
    handler = _HANDLERS.get(type(command))
    if handler is None:
        raise MalformedCommand("that is not a command of a Conquest battle: `rk legal` lists what may be done")
    if not isinstance(command, Surrender) and type(command) not in awaited(state):
        raise _out_of_turn(state, command)
    handler(d, command)
    return d.events


def _out_of_turn(state: ConquestState, command: ConquestCommand) -> RuleViolation:
    if isinstance(command, OrderStack) and state.phase in (Phase.SUPREMACY, Phase.ACTION):
        return RuleViolation("CMD-5", "the Command Stack's order is fixed for this Round")
    if isinstance(command, DrawCard) and state.activation is not None:
        return RuleViolation("ACT-16", f"{state.activation.regiment}'s activation is not over")
    if isinstance(command, ACTIONS) and state.phase is Phase.ACTION and state.activation is None:
        return RuleViolation("ACT-2", "draw a Command Card first")
    if isinstance(command, ACTIONS) and state.activation is not None:
        return RuleViolation("ACT-8", "resolve or decline the draw event first")
    wanted = " or ".join(_given_by(c) for c in awaited(state))
    return RuleViolation("ROUND-2", f"the {state.phase.value.title()} Phase must finish first: it waits for {wanted}")


def _given_by(command: type) -> str:
    """The words a player gives ``command`` with (``rk choose-arrival``),
    as the ruleset's surface declares them."""
    from .surface import VERBS  # imported here: the surface reads these rules

    return f"rk {next(v.name for v in VERBS if v.command is command)}"


# Each handler takes the command class it is keyed by, which a Callable type cannot say per key.
_HANDLERS: Mapping[type[ConquestCommand], Callable[..., None]] = {
    ChooseArrival: reinforcement.choose_arrival,
    PickArrivals: reinforcement.pick_arrivals,
    OrderStack: supremacy.order_stack,
    RollOff: supremacy.roll_off,
    ChooseFirstPlayer: supremacy.choose_first,
    DeclareAbility: supremacy.declare,
    DrawCard: activation.draw_card,
    ResolveDrawEvent: activation.resolve_draw_event,
    **{cls: activation.act for cls in activation.CHECKS},
    EndActivation: activation.end_activation,
    EndRound: victory.end_round,
    Surrender: victory.surrender,
}


def legal_commands(state: ConquestState, ctx: RulesContext) -> list[ConquestCommand]:
    """What may be done now: a finite list, never empty until the battle is
    over. Orders of the Command Stack are listed as rotations of the card
    list and its reverse (any order is legal); distances and stand counts
    in whole numbers; Surrender last."""
    if state.over:
        return []
    out = _options(state, ctx)
    return out + [Surrender(side=state.turn)]


def _options(state: ConquestState, ctx: RulesContext) -> list[ConquestCommand]:
    wanted = awaited(state)[0]
    side = state.turn
    if wanted is ChooseArrival:
        names = [""] + [r.id for r in reinforcement.choosable(state, ctx, side)]
        if not state.physical_dice:
            return [ChooseArrival(regiment=n) for n in names]
        return [
            ChooseArrival(regiment=n, faces=(f,) * reinforcement.dice_needed(state, ctx, side, n))
            for n in names
            for f in (1, 6)
        ]
    if wanted is PickArrivals:
        pick = state.picks[0]
        group = [r.id for r in reinforcement.waiting(state, side) if r.cls is pick.cls and not r.carried]
        return [PickArrivals(regiments=c) for c in combinations(group, pick.count)]
    if wanted is OrderStack:
        cards = supremacy.stack_cards(state, side)
        orders = [tuple(cards[i:] + cards[:i]) for i in range(len(cards))] or [()]
        orders += [tuple(reversed(o)) for o in orders if len(o) > 1]
        return [OrderStack(cards=o) for o in dict.fromkeys(orders)]
    if wanted is RollOff:
        return [RollOff(faces=(1, 2)), RollOff(faces=(2, 1))] if state.physical_dice else [RollOff()]
    if wanted is ChooseFirstPlayer:
        return [ChooseFirstPlayer(first=True), ChooseFirstPlayer(first=False)]
    if wanted is DeclareAbility:
        return [DeclareAbility(use=True), DeclareAbility(use=False)]
    if wanted is DrawCard:
        _, found = activation.first_usable(state, side)
        return [DrawCard(regiment=r.id) for r in found] or [DrawCard()]
    if wanted is ResolveDrawEvent:
        return [*activation.draw_options(state, ctx)]
    if wanted is March:
        out: list[ConquestCommand] = [*activation.action_options(state, ctx)]
        act = state.current_activation()
        r = state.regiment(act.regiment)
        if act.performed and not r.partly_on:
            out.append(EndActivation())
        return out
    if wanted is EndRound:
        limit = victory.vp_limit(state, ctx)
        return [EndRound(vp=(a, b)) for a in range(limit + 1) for b in range(limit + 1)]
    raise AssertionError(f"no options for {wanted}")
