"""Given / when / then for Conquest rules tests, through the pure functions.

A state is built by the real setup (``start``), then adjusted field by field
(``place``, ``acting``); ``when`` runs ``decide`` and folds with ``evolve``."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from domain.conquest.commands import StartConquest
from domain.conquest.context import RulesContext, context_for
from domain.conquest.packs import starter_pack
from domain.conquest.rules import decide, evolve, legal_commands, replay
from domain.conquest.state import Activation, ConquestState
from domain.conquest.vocab import Phase, Step, Where
from domain.kernel.errors import RuleViolation

ARMIES = ("saltmarch", "cinderpact")


def ctx_for(scenario: str = "border-clash") -> RulesContext:
    return context_for(starter_pack(), scenario)


CTX = ctx_for()


def start(seed: int = 1, physical: bool = True, scenario: str = "border-clash", **kw) -> ConquestState:
    cmd = StartConquest(battle_id="t", scenario=scenario, armies=ARMIES, seed=seed, physical_dice=physical, **kw)
    return replay(decide(None, cmd, ctx_for(scenario)))


def when(state: ConquestState, *commands, ctx: RulesContext = CTX):
    """Decide and apply ``commands`` in turn; the final state and every event."""
    events = []
    for command in commands:
        produced = decide(state, command, ctx)
        for event in produced:
            state = evolve(state, event)
        events += produced
    return state, events


def violates(state: ConquestState, command, rule: str, ctx: RulesContext = CTX) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        decide(state, command, ctx)
    assert caught.value.rule == rule, caught.value
    return caught.value


def of(events, cls):
    return [e for e in events if isinstance(e, cls)]


def place(state: ConquestState, **where) -> ConquestState:
    """Put Regiments somewhere: ``a1=12`` on the field with its front 12"
    from its edge, ``a2="arriving"``, ``b1="destroyed"``, or a dict of fields."""
    regs = []
    for r in state.regiments:
        spec = where.get(r.id)
        if isinstance(spec, int):
            r = replace(r, where=Where.FIELD, front=spec)
        elif isinstance(spec, str):
            r = replace(
                r,
                where=Where(spec),
                arrived=state.round if spec == "arriving" else r.arrived,
                stands=0 if spec == "destroyed" else r.stands,
            )
        elif isinstance(spec, dict):
            r = replace(r, **spec)
        regs.append(r)
    return replace(state, regiments=tuple(regs))


def acting(state: ConquestState, regiment: str, round_: int = 2, **activation) -> ConquestState:
    """The Action Phase of ``round_`` with ``regiment`` activated by its own card."""
    side = state.regiment(regiment).side
    act = Activation(side=side, regiment=regiment, card=activation.pop("card", regiment), **activation)
    return replace(state, round=round_, phase=Phase.ACTION, step=Step.NONE, turn=side, activation=act)


def in_phase(state: ConquestState, phase: Phase, step: Step = Step.NONE, turn: int = 0, **kw) -> ConquestState:
    return replace(state, phase=phase, step=step, turn=turn, **kw)


__all__ = ["CTX", "ctx_for", "start", "when", "violates", "of", "place", "acting", "in_phase", "legal_commands"]
