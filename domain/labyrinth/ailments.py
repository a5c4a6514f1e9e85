"""Ailments and binds: resisting them by a Suppression defense roll
(SUPPRESS-1 .. SUPPRESS-3), their depth (DEPTH-1, DEPTH-2), what they do
at once (Stun; the 1D6 of Paralysis, Fear, Confusion), natural recovery
(End step 4), depth −1 (End step 6) and cures."""

from __future__ import annotations

from msgspec.structs import replace

from . import casualties, reactions
from . import events as ev
from .decision import Decision
from .fp import roll_spending
from .state import Affliction, Combatant
from .stats import stats
from .vocab import NO_DEPTH, Ailment, Bind

ROLLED = (Ailment.PARALYZE, Ailment.FEAR, Ailment.CONFUSE)  # 1D6 at infliction and each Standby


def check(d: Decision, who: str, target_value: int, kind: str, purpose: str) -> bool:
    """A Suppression defense roll: 2D6 + [Suppression defense] >= target;
    two 6s always succeed, all 1s always fail (facts: Fills ATTACK-3).
    Each 1 gives the roller FP; with ``ask_fp`` a PC's player may spend FP
    on it first (facts: Fills FUMBLE-2), and then its 1s give none."""
    c = d.state.get(who)
    sdef = stats(c, d.pack).sdef
    boost = reactions.spend(d, c, f"{purpose} {kind} against {target_value}")
    rolled = roll_spending(
        d,
        who,
        boost,
        lambda kept, absolute: absolute == "success" or (absolute != "failure" and sum(kept) + sdef >= target_value),
        rule="SUPPRESS-2",
        what=f"Suppression defense: {purpose} {kind} against {target_value}",
    )
    d.emit(
        ev.SuppressionRolled(
            who=who,
            kind=kind,
            purpose=purpose,
            target_value=target_value,
            faces=rolled.faces,
            counter=rolled.counter,
            total=sum(rolled.kept or rolled.faces) + sdef,
            success=rolled.ok,
            absolute=rolled.absolute,
            fp=rolled.fp,
            kept=rolled.kept,
        )
    )
    return rolled.ok


def inflict(d: Decision, source: str, who: str, kind: Ailment | Bind, target_value: int) -> bool:
    """``source`` tries to inflict ``kind`` on ``who``: resisted by a
    Suppression roll against ``target_value`` (SUPPRESS-3), else it takes
    hold with that value as its depth (DEPTH-1). True if it took hold."""
    c = d.state.get(who)
    if c.down or check(d, who, target_value, kind.value, "resist"):
        return False
    c = d.state.get(who)
    options = d.state.options
    bind = isinstance(kind, Bind)
    held = c.binds if bind else c.ailments
    depth = 0 if kind in NO_DEPTH else target_value
    poison = stats(d.state.get(source), d.pack).satk if kind is Ailment.POISON else 0
    old = next((a for a in held if a.kind == kind), None)
    by = source if kind is Ailment.POISON else ""
    if old is not None and options.reapply_raises_depth:
        new = replace(
            old,
            depth=max(old.depth, depth),
            poison=max(old.poison, poison),
            source=by if poison >= old.poison else old.source,
        )
    else:
        new = Affliction(kind=kind.value, depth=depth, poison=poison, source=by)
    after: tuple[Affliction, ...]
    if not bind and options.one_ailment_at_a_time:
        after = (new,)
    else:
        after = tuple(new if a.kind == kind else a for a in held) if old else held + (new,)
    d.emit(
        ev.Afflicted(who=who, kind=kind.value, ailments=c.ailments if bind else after, binds=after if bind else c.binds)
    )
    if kind is Ailment.STUN:
        d.emit(ev.TurnLost(who=who, cause="stun"))
    elif isinstance(kind, Ailment) and kind in ROLLED:  # ROLLED holds ailments only
        roll_turn(d, who, kind)
    elif kind is Ailment.PETRIFY:
        casualties.settle(d)
    return True


def roll_turn(d: Decision, who: str, kind: Ailment) -> None:
    """The 1D6 of Paralysis, Fear or Confusion: 1-3 loses the turn (or, for
    Confusion, turns its action on its own row)."""
    faces, counter = d.roll(1, who=who, rule=f"AILMENT-{kind.name}", what=f"{kind.value}: 1-3 loses the turn")
    lost = faces[0] <= 3
    d.emit(ev.AilmentRolled(who=who, ailment=kind.value, faces=faces, counter=counter, lost=lost))
    if lost and kind is Ailment.CONFUSE:
        d.emit(ev.Confused(who=who))
    elif lost and not d.state.get(who).inactive:
        d.emit(ev.TurnLost(who=who, cause=kind.value))


def standby_rolls(d: Decision) -> None:
    """Before Standby declarations (facts default): everyone's 1D6s."""
    for c in d.state.combatants:
        if c.down:
            continue
        for kind in ROLLED:
            if d.state.get(c.id).has(kind):
                roll_turn(d, c.id, kind)


def cure(d: Decision, who: str, kinds: tuple[str, ...], cause: str) -> None:
    """Remove ``kinds`` (all ailments and binds if empty) from ``who``."""
    c = d.state.get(who)
    gone = tuple(a.kind for a in c.ailments + c.binds if not kinds or a.kind in kinds)
    if gone:
        _cured(d, c, gone, cause)


def _cured(d: Decision, c: Combatant, gone: tuple[str, ...], cause: str) -> None:
    d.emit(
        ev.Cured(
            who=c.id,
            removed=gone,
            cause=cause,
            ailments=tuple(a for a in c.ailments if a.kind not in gone),
            binds=tuple(b for b in c.binds if b.kind not in gone),
        )
    )


def natural_recovery(d: Decision, who: str) -> None:
    """End step 4: a Suppression roll against depth for each ailment (not
    Petrify or Stun) and bind; a success removes it (SUPPRESS-3)."""
    c = d.state.get(who)
    for held in [a for a in c.ailments if a.kind not in NO_DEPTH] + list(c.binds):
        if check(d, who, held.depth, held.kind, "recover"):
            c = d.state.get(who)
            if held in c.binds:
                d.emit(
                    ev.Cured(
                        who=who,
                        removed=(held.kind,),
                        cause="natural recovery",
                        ailments=c.ailments,
                        binds=tuple(b for b in c.binds if b != held),
                    )
                )
            else:
                d.emit(
                    ev.Cured(
                        who=who,
                        removed=(held.kind,),
                        cause="natural recovery",
                        ailments=tuple(a for a in c.ailments if a != held),
                        binds=c.binds,
                    )
                )


def lower_depths(d: Decision, who: str) -> None:
    """End step 6: depth −1 for every ailment and bind left, stopping at 0
    with the ailment kept (OQ 38); without that reading one at 0 ends."""
    c = d.state.get(who)
    if not any(a.kind not in NO_DEPTH for a in c.ailments) and not c.binds:
        return
    ailments = tuple(a if a.kind in NO_DEPTH else replace(a, depth=max(a.depth - 1, 0)) for a in c.ailments)
    binds = tuple(replace(b, depth=max(b.depth - 1, 0)) for b in c.binds)
    d.emit(ev.DepthLowered(who=who, ailments=ailments, binds=binds))
    if not d.state.options.depth_zero_keeps_ailment:
        spent = tuple(a.kind for a in ailments + binds if a.kind not in NO_DEPTH and a.depth <= 0)
        if spent:
            _cured(d, d.state.get(who), spent, "depth 0")
