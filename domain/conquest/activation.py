"""Phase IV, the Action Phase: alternate activations (ACT-1, ACT-7), the
activation steps (ACT-2 to ACT-18) and the Action List (ACTIONS-1 to
ACTIONS-8). Each ``check_*`` raises the rule an action breaks and returns
what the action's event needs; ``action_options`` lists the legal actions
from the same checks, so the two can never disagree."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from domain.kernel.errors import AmbiguousCommand, MalformedCommand, RuleViolation

from .board import distance, entry_possible, gap, march_value
from .commands import Charge, Clash, DrawCard, EndActivation, March, Reform, ResolveDrawEvent, Volley, Withdraw
from .context import RulesContext
from .decision import Decision
from .events import (
    ActivationEnded,
    CardDiscarded,
    CardDrawn,
    DrawEventResolved,
    EntryRefused,
    PlayPassed,
    RegimentCharged,
    RegimentMarched,
    RegimentReformed,
    RegimentWithdrew,
    StandsRemoved,
)
from .state import ConquestState, Regiment
from .vocab import (
    COMBAT,
    MAX_ACTIONS,
    NON_COMBAT,
    REPEATABLE,
    STANDARD_ACTIONS,
    Action,
    DrawEffect,
    Phase,
    Step,
    Use,
    Where,
)

# ---------------------------------------------------------------- turns


def pass_play(d: Decision, after: int) -> None:
    """Play passes to the opponent; a player with an empty stack is skipped
    (ACT-7); when both stacks are empty the Action Phase ends and the Victory
    Phase begins (facts ACT-7, VICTORY-1)."""
    for side in (1 - after, after):
        if d.state.sides[side].stack:
            d.emit(PlayPassed(phase=Phase.ACTION, step=Step.NONE, turn=side))
            return
    d.emit(PlayPassed(phase=Phase.VICTORY, step=Step.NONE, turn=d.state.first))


def candidates(state: ConquestState, side: int, card: str) -> list[Regiment]:
    """The Regiments ``card`` may activate: those with the card's army-list
    entry name (ACT-3), or the Regiment a Character's card's Character joined
    (CMD-3 default), not destroyed and not activated yet (ACT-4, ACT-6)."""
    character = state.character(card)
    if character is not None:
        pool = [state.regiment(character.regiment)]
    else:
        entry = state.regiment(card).entry
        pool = [r for r in state.regiments if r.side == side and r.entry == entry]
    return [r for r in pool if r.where in (Where.FIELD, Where.ARRIVING) and not r.activated]


def first_usable(state: ConquestState, side: int) -> tuple[list[str], list[Regiment]]:
    """The cards that will be discarded (ACT-6) and the candidates of the first usable card."""
    discarded: list[str] = []
    for card in state.sides[side].stack:
        found = candidates(state, side, card)
        if found:
            return discarded, found
        discarded.append(card)
    return discarded, []


def draw_card(d: Decision, cmd: DrawCard) -> None:
    side = d.state.turn
    while d.state.sides[side].stack:
        card = d.state.sides[side].stack[0]
        found = candidates(d.state, side, card)
        if not found:
            d.emit(CardDiscarded(side=side, card=card, reason=_why_unusable(d.state, card)))
            continue
        r = _designate(d.state, card, found, cmd.regiment)
        if r.where is Where.ARRIVING and not entry_possible(d.state, d.ctx, side):
            d.emit(CardDrawn(side=side, card=card, regiment=r.id))
            d.emit(EntryRefused(regiment=r.id))
            pass_play(d, side)
            return
        events = _card_events(d.state, card) if r.where is Where.FIELD else ()  # ACT-9
        d.emit(CardDrawn(side=side, card=card, regiment=r.id, draw_events=events))
        _maybe_end(d)
        return
    pass_play(d, side)  # ACT-7


def _why_unusable(state: ConquestState, card: str) -> str:
    unit = state.character(card)
    rid = unit.regiment if unit is not None else card
    return "destroyed" if state.regiment(rid).where is Where.DESTROYED else "already activated"


def _designate(state: ConquestState, card: str, found: list[Regiment], named: str) -> Regiment:
    if not named:
        if len(found) > 1:
            raise AmbiguousCommand(f"card {card} can activate {', '.join(r.id for r in found)}: name one")
        return found[0]
    for r in found:
        if r.id == named:
            return r
    other = state.find(named)
    if other is not None and other.activated:
        raise RuleViolation("ACT-4", f"{named} has already activated this Round")
    raise RuleViolation("ACT-3", f"card {card} activates {' or '.join(r.id for r in found)}, not {named}")


def _card_events(state: ConquestState, card: str) -> tuple[str, ...]:
    unit = state.character(card) or state.regiment(card)
    return unit.draw_events


# ---------------------------------------------------------------- draw events


def resolve_draw_event(d: Decision, cmd: ResolveDrawEvent) -> None:
    act = d.state.current_activation()
    if not cmd.event:
        d.emit(DrawEventResolved(side=act.side, card=act.card))
        _maybe_end(d)
        return
    drawn = _card_events(d.state, act.card)
    if cmd.event not in drawn:
        raise RuleViolation(
            "ACT-8", f"card {act.card} has no draw event {cmd.event!r} (it has: {', '.join(drawn) or 'none'})"
        )
    event = d.ctx.pack.draw_events[cmd.event]
    if event.effect is DrawEffect.OUT_OF_SEQUENCE_MARCH:
        target = _oos_target(d, cmd)
        d.emit(DrawEventResolved(side=act.side, card=act.card, event=event.id, effect=event.effect))
        d.emit(
            RegimentMarched(
                regiment=target.id, inches=cmd.inches, front=target.front + cmd.inches, use=Use.OUT_OF_SEQUENCE
            )
        )
    else:
        d.emit(
            DrawEventResolved(side=act.side, card=act.card, event=event.id, effect=event.effect, action=event.action)
        )
    _maybe_end(d)


def _oos_target(d: Decision, cmd: ResolveDrawEvent) -> Regiment:
    """Another friendly Regiment marches out of sequence (ACTIONS-6)."""
    target = d.state.find(cmd.target)
    act = d.state.current_activation()
    if target is None:
        raise MalformedCommand("name another friendly Regiment to march out of sequence")
    if target.side != act.side or target.id == act.regiment:
        whose = "the enemy's" if target.side != act.side else "the one activated"
        raise RuleViolation(
            "ACTIONS-6", f"{target.id} is {whose}: an out-of-sequence march moves another friendly Regiment"
        )
    if target.where is not Where.FIELD or target.partly_on:
        raise RuleViolation("ACTIONS-6", f"{target.id} is not wholly on the battlefield")
    if d.state.in_contact(target.id):
        raise RuleViolation("ACTIONS-1", f"{target.id} is in contact with an enemy and cannot March")
    _distance(d.state, d.ctx, target, cmd.inches)
    return target


# ---------------------------------------------------------------- paying for actions


def payment(state: ConquestState, r: Regiment, action: Action) -> Use:
    """How ``action`` is paid for, or the rule it breaks: the 3-action cap
    (ACTIONS-5), the no-repeat rule save March (ACT-14), free actions that
    do not allow a repeat (ACTIONS-3), additional actions that do
    (ACTIONS-4 default), and the two standard actions (ACT-16)."""
    act = state.current_activation()
    if len(act.performed) >= MAX_ACTIONS:
        raise RuleViolation("ACTIONS-5", f"{r.id} has performed {MAX_ACTIONS} actions in this activation")
    repeat = action in r.actions and action not in REPEATABLE
    if action in act.free and not repeat:
        return Use.FREE
    if act.standard >= STANDARD_ACTIONS:
        if action in act.free:
            raise RuleViolation("ACTIONS-3", f"a free {action.value} does not allow repeating it")
        raise RuleViolation("ACT-16", f"{r.id} has used both its actions")
    if repeat:
        if action in act.additional:
            return Use.ADDITIONAL
        raise RuleViolation("ACT-14", f"{r.id} already performed {action.value} this Round; only March may be repeated")
    return Use.STANDARD


def _active(state: ConquestState, named: str, action: Action) -> Regiment:
    act = state.current_activation()
    if named != act.regiment:
        raise RuleViolation("ACT-5", f"card {act.card} activated {act.regiment}, not {named}")
    r = state.regiment(act.regiment)
    if r.where is Where.ARRIVING or r.partly_on:
        if action is not Action.MARCH:
            rule = "ACT-11" if not act.performed else "ARRIVE-3"
            raise RuleViolation(rule, f"{r.id} must March onto the battlefield first")
    elif not act.performed and r.arrived == state.round and action is not Action.MARCH:
        raise RuleViolation("ACT-11", f"{r.id} arrived this Round: its first action must be March")
    engaged = bool(state.in_contact(r.id))
    if engaged and action in NON_COMBAT:
        raise RuleViolation("ACTIONS-1", f"{r.id} is in contact with an enemy: {action.value} is a non-combat action")
    if not engaged and action in COMBAT:
        raise RuleViolation("ACTIONS-1", f"{r.id} is not in contact with an enemy: {action.value} is a combat action")
    return r


def _distance(state: ConquestState, ctx: RulesContext, r: Regiment, inches: int) -> None:
    limit = march_value(state, ctx, r)
    if not 1 <= inches <= limit:
        raise RuleViolation("ARRIVE-2", f"{r.id} marches 1 to {limit} inches, not {inches}")
    if r.where is Where.FIELD and r.front + inches > ctx.scenario.depth:
        raise RuleViolation("ARRIVE-2", f"{r.id} would march off the far table edge")


def _enemy(state: ConquestState, r: Regiment, target: str) -> Regiment:
    t = state.find(target)
    if t is None or t.side == r.side:
        raise MalformedCommand(f"{target!r} is not an enemy Regiment")
    if t.where is not Where.FIELD:
        raise RuleViolation("ACT-10", f"{target} is not on the battlefield")
    return t


# ---------------------------------------------------------------- the actions


def check_march(state: ConquestState, ctx: RulesContext, cmd: March) -> RegimentMarched:
    r = _active(state, cmd.regiment, Action.MARCH)
    use = payment(state, r, Action.MARCH)
    if r.where is Where.ARRIVING:
        if cmd.side_edge:
            line = state.sides[r.side].line
            if not r.depth <= cmd.side_edge <= line:
                raise RuleViolation(
                    "ARRIVE-4",
                    f'a side-edge entry must lie wholly between the own edge and the Reinforcement Line at {line}"',
                )
            _distance(state, ctx, r, cmd.inches)
            return RegimentMarched(
                regiment=r.id, inches=cmd.inches, front=cmd.side_edge, use=use, entered=True, side_edge=True
            )
        _distance(state, ctx, r, cmd.inches)
        return RegimentMarched(regiment=r.id, inches=cmd.inches, front=cmd.inches, use=use, entered=True)
    if cmd.side_edge:
        raise MalformedCommand("only a Regiment entering the battlefield uses a side edge")
    _distance(state, ctx, r, cmd.inches)
    if r.partly_on and r.front + cmd.inches < r.depth:
        raise RuleViolation(
            "ARRIVE-3", f"the second March must bring the rest of {r.id} on (at least {r.depth - r.front} inches)"
        )
    return RegimentMarched(regiment=r.id, inches=cmd.inches, front=r.front + cmd.inches, use=use)


def check_charge(state: ConquestState, ctx: RulesContext, cmd: Charge) -> RegimentCharged:
    r = _active(state, cmd.regiment, Action.CHARGE)
    if r.arrived == state.round:
        raise RuleViolation("ACT-12", f"{r.id} arrived this Round and cannot Charge")
    t = _enemy(state, r, cmd.target)
    use = payment(state, r, Action.CHARGE)
    reach = charge_reach(state, ctx, r, t)
    if cmd.inches != reach:
        raise RuleViolation(
            "ACT-12",
            f'{r.id} is {reach}" from {t.id}: a Charge moves straight into contact, {reach} inches, not {cmd.inches}',
        )
    return RegimentCharged(
        regiment=r.id, target=t.id, inches=cmd.inches, front=r.front + cmd.inches, contact=True, use=use
    )


def charge_reach(state: ConquestState, ctx: RulesContext, r: Regiment, t: Regiment) -> int:
    """How far ``r`` moves to charge ``t`` into contact, or the rule that
    stops it (facts: Fills ACT-12): straight ahead (an enemy it has marched
    past is behind it), no farther than its March value. A Charge that
    would fall short is no Charge: the players measure before declaring,
    and the engine's positions say whether it reaches."""
    reach = distance(ctx, r, t)
    if gap(ctx, r, t) < 0 < reach:
        raise RuleViolation("ACT-12", f'{t.id} is behind {r.id} ({reach}" from its rear): a Charge goes straight ahead')
    limit = march_value(state, ctx, r)
    if reach > limit:
        raise RuleViolation("ACT-12", f'{t.id} is {reach}" away, beyond {r.id}\'s charge reach of {limit}" (its March)')
    return reach


def _strike(state: ConquestState, ctx: RulesContext, cmd: Volley | Clash, action: Action) -> StandsRemoved:
    r = _active(state, cmd.regiment, action)
    t = _enemy(state, r, cmd.target)
    if action is Action.VOLLEY:
        if not r.volley:
            raise RuleViolation("ACT-10", f"{r.id} has no missile weapons to Volley with")
        away = distance(ctx, r, t)
        if away > r.volley:
            raise RuleViolation("ACT-10", f'{t.id} is {away}" away, beyond {r.id}\'s Volley range of {r.volley}"')
    elif t.id not in state.in_contact(r.id):
        raise RuleViolation("ACTIONS-1", f"{r.id} can only Clash with an enemy it is in contact with")
    use = payment(state, r, action)
    if not 0 <= cmd.removed <= t.stands:
        raise RuleViolation("ACT-10", f"{t.id} has {t.stands} stands: remove 0 to {t.stands}")
    left = t.stands - cmd.removed
    return StandsRemoved(
        regiment=r.id, target=t.id, action=action, removed=cmd.removed, stands=left, destroyed=left == 0, use=use
    )


def check_volley(state: ConquestState, ctx: RulesContext, cmd: Volley) -> StandsRemoved:
    return _strike(state, ctx, cmd, Action.VOLLEY)


def check_clash(state: ConquestState, ctx: RulesContext, cmd: Clash) -> StandsRemoved:
    return _strike(state, ctx, cmd, Action.CLASH)


def check_withdraw(state: ConquestState, ctx: RulesContext, cmd: Withdraw) -> RegimentWithdrew:
    r = _active(state, cmd.regiment, Action.WITHDRAW)
    use = payment(state, r, Action.WITHDRAW)
    front = max(r.depth, r.front - march_value(state, ctx, r))
    return RegimentWithdrew(regiment=r.id, front=front, use=use)


def check_reform(state: ConquestState, ctx: RulesContext, cmd: Reform) -> RegimentReformed:
    r = _active(state, cmd.regiment, Action.REFORM)
    return RegimentReformed(regiment=r.id, use=payment(state, r, Action.REFORM))


ActionCommand = March | Charge | Volley | Clash | Withdraw | Reform
ActionEvent = RegimentMarched | RegimentCharged | StandsRemoved | RegimentWithdrew | RegimentReformed

# Each check takes the command class it is keyed by, which a Callable type cannot say per key.
CHECKS: Mapping[type[ActionCommand], Callable[..., ActionEvent]] = {
    March: check_march,
    Charge: check_charge,
    Volley: check_volley,
    Clash: check_clash,
    Withdraw: check_withdraw,
    Reform: check_reform,
}


def act(d: Decision, cmd: ActionCommand) -> None:
    d.emit(CHECKS[type(cmd)](d.state, d.ctx, cmd))
    _maybe_end(d)


def end_activation(d: Decision, cmd: EndActivation) -> None:
    act_ = d.state.current_activation()
    r = d.state.regiment(act_.regiment)
    if not act_.performed:
        rule = "ARRIVE-7" if r.where is Where.ARRIVING else "ACT-10"
        raise RuleViolation(rule, f"{r.id} must take its first action")
    if r.partly_on:
        raise RuleViolation("ARRIVE-3", f"{r.id} must March again to bring its remaining stands on")
    d.emit(ActivationEnded(regiment=r.id, declined=True))
    pass_play(d, act_.side)


def _maybe_end(d: Decision) -> None:
    """Deactivate (ACT-16, ACT-17) once no further action is possible."""
    a = d.state.activation
    if a is None or a.step is not Step.ACTING or action_options(d.state, d.ctx):
        return
    d.emit(ActivationEnded(regiment=a.regiment))
    pass_play(d, a.side)


# ---------------------------------------------------------------- listing


def _legal(state: ConquestState, ctx: RulesContext, cmd: ActionCommand) -> bool:
    try:
        CHECKS[type(cmd)](state, ctx, cmd)
    except RuleViolation:
        return False
    return True


def action_options(state: ConquestState, ctx: RulesContext) -> list[ActionCommand]:
    """Every legal action of the active Regiment, March distances and stand
    counts enumerated in whole numbers; a Charge only at the distance that
    brings it into contact."""
    a = state.current_activation()
    r = state.regiment(a.regiment)
    rid, limit = r.id, march_value(state, ctx, r)
    cands: list[ActionCommand] = [March(regiment=rid, inches=i) for i in range(1, limit + 1)]
    if r.where is Where.ARRIVING:
        line = state.sides[r.side].line
        cands += [March(regiment=rid, inches=limit, side_edge=at) for at in range(r.depth, line + 1)]
    else:
        cands.append(Reform(regiment=rid))
        cands.append(Withdraw(regiment=rid))
        for t in state.regiments:
            if t.side == r.side or t.where is not Where.FIELD:
                continue
            # the one Charge that reaches, if any (charge_reach says which)
            cands.append(Charge(regiment=rid, target=t.id, inches=distance(ctx, r, t)))
            for kind in (Volley, Clash):
                cands += [kind(regiment=rid, target=t.id, removed=n) for n in range(t.stands + 1)]
    return [c for c in cands if _legal(state, ctx, c)]


def draw_options(state: ConquestState, ctx: RulesContext) -> list[ResolveDrawEvent]:
    a = state.current_activation()
    out = [ResolveDrawEvent()]
    for event_id in _card_events(state, a.card):
        event = ctx.pack.draw_events[event_id]
        if event.effect is not DrawEffect.OUT_OF_SEQUENCE_MARCH:
            out.append(ResolveDrawEvent(event=event_id))
            continue
        for t in state.regiments:
            if t.side != a.side or t.id == a.regiment or t.where is not Where.FIELD:
                continue
            if t.partly_on or state.in_contact(t.id):
                continue
            room = min(march_value(state, ctx, t), ctx.scenario.depth - t.front)
            out += [ResolveDrawEvent(event=event_id, target=t.id, inches=i) for i in range(1, room + 1)]
    return out
