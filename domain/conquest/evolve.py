"""``evolve(state, event) -> state``: apply one event. It never validates or
rolls, so replay cannot fail or drift; events carry their consequences and
this module assigns them. The handler table is checked at import."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from msgspec.structs import replace

from domain.kernel.position.messages import taken

from . import events as ev
from .state import Activation, ConquestState, Pick, Result, Side
from .vocab import Action, Arrival, DrawEffect, Phase, Step, Use, Where


def evolve(state: ConquestState | None, event: ev.ConquestEvent) -> ConquestState:
    """The state after ``event``. Pure."""
    return _APPLY[type(event)](state, event)


def replay(events: Iterable[ev.ConquestEvent], state: ConquestState | None = None) -> ConquestState:
    """Fold ``events`` from ``state`` (None: from before setup)."""
    for event in events:
        state = evolve(state, event)
    # None only for an empty fold from before setup; every caller folds a battle from its setup event
    return state  # type: ignore[return-value]


def _regiment(state: ConquestState, regiment_id: str, **changes) -> ConquestState:
    return replace(state, regiments=tuple(replace(r, **changes) if r.id == regiment_id else r for r in state.regiments))


def _side(state: ConquestState, side: int, **changes) -> ConquestState:
    sides = list(state.sides)
    sides[side] = replace(sides[side], **changes)
    return replace(state, sides=tuple(sides))


def _started(_: None, e: ev.BattleStarted) -> ConquestState:
    return ConquestState(
        battle_id=e.battle_id,
        rules_version=e.rules_version,
        pack_id=e.pack_id,
        pack_hash=e.pack_hash,
        seed=e.seed,
        scenario=e.scenario,
        physical_dice=e.physical_dice,
        round=0,
        regiments=e.regiments,
        characters=e.characters,
        sides=(Side(army=e.armies[0]), Side(army=e.armies[1])),
    )


def _round(s: ConquestState, e: ev.RoundStarted) -> ConquestState:
    regiments = tuple(replace(r, activated=False, actions=()) for r in s.regiments)
    sides = tuple(replace(side, line=e.lines[i], stack=(), stacked=False, surge=0) for i, side in enumerate(s.sides))
    return replace(
        s,
        round=e.round,
        phase=Phase.REINFORCEMENT,
        step=Step.NONE,
        turn=0,
        regiments=regiments,
        sides=sides,
        picks=(),
        activation=None,
    )


def _passed(s: ConquestState, e: ev.PlayPassed) -> ConquestState:
    return replace(s, phase=e.phase, step=e.step, turn=e.turn)


def _rolled(s: ConquestState, e: ev.ReinforcementsRolled) -> ConquestState:
    s = replace(s, rng=s.rng if e.typed else e.counter + len(e.faces))
    if e.pick:
        s = replace(s, picks=s.picks + (Pick(e.cls, e.pick),), step=Step.PICK)
    return s


def _arrived(s: ConquestState, e: ev.RegimentsArrived) -> ConquestState:
    for rid in e.regiments:
        s = _regiment(s, rid, where=Where.ARRIVING, arrived=s.round, carried=False)
    if e.cls is not None and e.reason is Arrival.ROLLED:
        s = replace(s, picks=tuple(p for p in s.picks if p.cls is not e.cls))
    return s


def _stacked(s: ConquestState, e: ev.StackOrdered) -> ConquestState:
    return _side(s, e.side, stack=e.cards, stacked=True)


def _supremacy(s: ConquestState, e: ev.SupremacyRolled) -> ConquestState:
    return replace(s, rng=s.rng if e.typed else e.counter + 2)


def _first(s: ConquestState, e: ev.FirstPlayerChosen) -> ConquestState:
    return replace(s, first=e.first)


def _declared(s: ConquestState, e: ev.AbilityDeclared) -> ConquestState:
    if not e.used:
        return s
    return _side(s, e.side, ability_used=True, surge=s.sides[e.side].surge + e.bonus)


def _drawn(s: ConquestState, e: ev.CardDrawn) -> ConquestState:
    s = _side(s, e.side, stack=s.sides[e.side].stack[1:])
    step = Step.DRAW_EVENT if e.draw_events else Step.ACTING
    return replace(s, activation=Activation(side=e.side, regiment=e.regiment, card=e.card, step=step))


def _discarded(s: ConquestState, e: ev.CardDiscarded) -> ConquestState:
    return _side(s, e.side, stack=s.sides[e.side].stack[1:])


def _draw_event(s: ConquestState, e: ev.DrawEventResolved) -> ConquestState:
    # a draw event is resolved only in the activation its CardDrawn began (ACT-8)
    assert s.activation is not None
    act = replace(s.activation, step=Step.ACTING)
    if e.effect is not None and e.effect is DrawEffect.FREE_ACTION:
        act = replace(act, free=act.free + (e.action,))
    elif e.effect is not None and e.effect is DrawEffect.ADDITIONAL_ACTION:
        act = replace(act, additional=act.additional + (e.action,))
    return replace(s, activation=act)


def _acted(s: ConquestState, regiment_id: str, action, use: Use) -> ConquestState:
    """Book an action: the Round's list for ACT-14 and the activation's count
    for ACTIONS-5; out-of-sequence actions count toward neither (ACTIONS-7,
    facts ACT-14 default)."""
    if use is Use.OUT_OF_SEQUENCE:
        return s
    r = s.regiment(regiment_id)
    s = _regiment(s, regiment_id, actions=r.actions + (action,))
    act = s.activation
    if act is None:
        return s
    free, additional = list(act.free), list(act.additional)
    if use is Use.FREE:
        free.remove(action)
    if use is Use.ADDITIONAL:
        additional.remove(action)
    standard = act.standard + (0 if use is Use.FREE else 1)
    act = replace(
        act, performed=act.performed + (action,), standard=standard, free=tuple(free), additional=tuple(additional)
    )
    return replace(s, activation=act)


def _marched(s: ConquestState, e: ev.RegimentMarched) -> ConquestState:
    changes: dict[str, int | Where] = {"front": e.front}
    if e.entered:
        changes["where"] = Where.FIELD
    s = _regiment(s, e.regiment, **changes)
    return _acted(s, e.regiment, Action.MARCH, e.use)


def _charged(s: ConquestState, e: ev.RegimentCharged) -> ConquestState:
    s = _regiment(s, e.regiment, front=e.front)
    if e.contact:
        s = replace(s, contact=s.contact + ((e.regiment, e.target),))
    return _acted(s, e.regiment, Action.CHARGE, e.use)


def _removed(s: ConquestState, e: ev.StandsRemoved) -> ConquestState:
    if e.destroyed:
        s = _regiment(s, e.target, stands=0, where=Where.DESTROYED)
        s = replace(s, contact=tuple(p for p in s.contact if e.target not in p))
    else:
        s = _regiment(s, e.target, stands=e.stands)
    return _acted(s, e.regiment, e.action, e.use)


def _withdrew(s: ConquestState, e: ev.RegimentWithdrew) -> ConquestState:
    s = _regiment(s, e.regiment, front=e.front)
    s = replace(s, contact=tuple(p for p in s.contact if e.regiment not in p))
    return _acted(s, e.regiment, Action.WITHDRAW, e.use)


def _reformed(s: ConquestState, e: ev.RegimentReformed) -> ConquestState:
    return _acted(s, e.regiment, Action.REFORM, e.use)


def _refused(s: ConquestState, e: ev.EntryRefused) -> ConquestState:
    s = _regiment(s, e.regiment, where=Where.WAITING, carried=True, activated=True)
    return replace(s, activation=None)


def _ended(s: ConquestState, e: ev.ActivationEnded) -> ConquestState:
    return replace(_regiment(s, e.regiment, activated=True), activation=None)


def _scored(s: ConquestState, e: ev.VictoryPointsScored) -> ConquestState:
    return _side(_side(s, 0, vp=e.totals[0]), 1, vp=e.totals[1])


def _battle_ended(s: ConquestState, e: ev.BattleEnded) -> ConquestState:
    return replace(
        s,
        phase=Phase.OVER,
        step=Step.NONE,
        activation=None,
        result=Result(winner=e.winner, termination=e.termination, reason=e.reason),
    )


_APPLY: dict[type, Callable[..., ConquestState]] = {
    ev.BattleStarted: _started,
    ev.PositionTaken: taken,
    ev.RoundStarted: _round,
    ev.PlayPassed: _passed,
    ev.ReinforcementsRolled: _rolled,
    ev.RegimentsArrived: _arrived,
    ev.StackOrdered: _stacked,
    ev.SupremacyRolled: _supremacy,
    ev.FirstPlayerChosen: _first,
    ev.AbilityDeclared: _declared,
    ev.CardDrawn: _drawn,
    ev.CardDiscarded: _discarded,
    ev.DrawEventResolved: _draw_event,
    ev.RegimentMarched: _marched,
    ev.RegimentCharged: _charged,
    ev.StandsRemoved: _removed,
    ev.RegimentWithdrew: _withdrew,
    ev.RegimentReformed: _reformed,
    ev.EntryRefused: _refused,
    ev.ActivationEnded: _ended,
    ev.VictoryPointsScored: _scored,
    ev.BattleEnded: _battle_ended,
}

_GAME_EVENTS = {
    c
    for c in vars(ev).values()
    if isinstance(c, type)
    and issubclass(c, ev.ConquestEvent)
    and c not in (ev.ConquestEvent, ev.CommandIssued, ev.CommandUndone)
}
assert _GAME_EVENTS == set(_APPLY), f"evolve misses {_GAME_EVENTS - set(_APPLY)}"
