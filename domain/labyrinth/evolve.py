"""``evolve(state, event) -> state``: apply one event. It never validates or
rolls, so replay cannot fail or drift: events carry their consequences and
this module assigns them. Random events move the RNG counter on past the
outcomes they carry."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import msgspec
from msgspec.structs import replace

from domain.kernel.position.messages import taken

from . import events as ev
from .state import Answer, Combatant, Deferred, DelayedAttack, LabyrinthState, Question
from .vocab import Ailment, Phase


def evolve(state: LabyrinthState | None, event: ev.LabyrinthEvent) -> LabyrinthState:
    """The state after ``event``. Pure."""
    if isinstance(event, (ev.Rolled, ev.Picked)):
        # only the setup event finds no state, and it rolls and picks nothing
        assert state is not None
        if not (isinstance(event, ev.Rolled) and event.typed):  # typed faces draw nothing from the RNG
            moved = len(event.faces) if isinstance(event, ev.Rolled) else 1
            state = replace(state, rng=event.counter + moved)
    if state is not None and state.answers and type(event) not in _ASKING:
        # the answers were for the step now resolved (``reactions.py``): spent
        state = replace(state, answers=())
    return _APPLY[type(event)](state, event)


def replay(events: Iterable[ev.LabyrinthEvent], state: LabyrinthState | None = None) -> LabyrinthState:
    """Fold ``events`` from ``state`` (None: from before setup)."""
    for event in events:
        state = evolve(state, event)
    # None only for an empty fold from before setup; every caller folds a battle from its setup event
    return state  # type: ignore[return-value]


def _one(state: LabyrinthState, cid: str, **changes) -> LabyrinthState:
    return replace(state, combatants=tuple(replace(c, **changes) if c.id == cid else c for c in state.combatants))


def _asked(s: LabyrinthState, e: ev.ReactionAsked) -> LabyrinthState:
    command = msgspec.json.encode(e.command).decode() if e.command is not None else ""
    return replace(
        s,
        question=Question(
            who=e.who,
            attacker=e.attacker,
            mode=e.mode,
            skills=e.skills,
            command=command,
            kind=e.kind,
            check=e.check,
            dice=e.dice,
            rule=e.rule,
        ),
    )


def _started(_: None, e: ev.BattleStarted) -> LabyrinthState:
    return LabyrinthState(
        battle_id=e.battle_id,
        rules_version=e.rules_version,
        pack_id=e.pack_id,
        pack_hash=e.pack_hash,
        seed=e.seed,
        encounter=e.encounter,
        options=e.options,
        combatants=e.combatants,
    )


def _turn_started(s: LabyrinthState, e: ev.TurnStarted) -> LabyrinthState:
    return replace(s, turn=e.turn, phase=Phase.STANDBY, declarations=(), queue=(), acting="")


def _turn_lost(s: LabyrinthState, e: ev.TurnLost) -> LabyrinthState:
    return _one(s, e.who, inactive=True, waiting=False, full_defense=False)


def _places(s: LabyrinthState, places: tuple[ev.Place, ...]) -> LabyrinthState:
    where = {p.id: p for p in places}
    return replace(
        s,
        combatants=tuple(
            replace(c, row=where[c.id].row, order=where[c.id].order) if c.id in where else c for c in s.combatants
        ),
    )


def _skill_used(s: LabyrinthState, e: ev.SkillUsed) -> LabyrinthState:
    c = s.get(e.who)
    return _one(s, e.who, tp=c.tp - e.tp, fp=c.fp + e.fp - e.fp_cost)


def _item_used(s: LabyrinthState, e: ev.ItemUsed) -> LabyrinthState:
    items = list(s.get(e.who).items)
    items.remove(e.item)
    return _one(s, e.who, items=tuple(items))


def _fp(s: LabyrinthState, who: str, fp: int) -> LabyrinthState:
    return _one(s, who, fp=s.get(who).fp + fp) if fp else s


def _passive(s: LabyrinthState, e: ev.PassiveUsed) -> LabyrinthState:
    c = s.get(e.who)
    return _one(s, e.who, tp=c.tp - e.tp, fp=c.fp - e.fp_cost)


def _turn_ended(s: LabyrinthState, e: ev.TurnEnded) -> LabyrinthState:
    # Stun always ends with its turn; the Waiting state and this turn's losses too.
    return replace(
        s,
        phase=Phase.END,
        acting="",
        queue=(),
        fastest=(),
        delayed=(),
        window="",
        combatants=tuple(
            replace(
                c,
                waiting=False,
                full_defense=False,
                acted=False,
                inactive=False,
                confused=False,
                planned="",
                ailments=tuple(a for a in c.ailments if a.kind != Ailment.STUN),
            )
            for c in s.combatants
        ),
    )


def _main_started(s: LabyrinthState, e: ev.MainStarted) -> LabyrinthState:
    return replace(s, phase=Phase.MAIN, queue=e.queue, fastest=e.fastest, delayed=(), window="", declarations=())


def _actor_up(s: LabyrinthState, e: ev.ActorUp) -> LabyrinthState:
    s = replace(s, acting=e.who, window=e.window)
    if e.window == "fastest":
        return replace(s, fastest=tuple(q for q in s.fastest if q != e.who))
    if e.window == "delayed":
        first = next(x for x in s.delayed if x.who == e.who)
        return replace(s, delayed=tuple(x for x in s.delayed if x is not first))
    return replace(s, queue=tuple(q for q in s.queue if q != e.who))


def _done(s: LabyrinthState, who: str) -> LabyrinthState:
    """``who``'s Main action is over (or given up): it leaves every window."""
    return replace(
        _one(s, who, acted=True),
        acting="",
        window="",
        queue=tuple(q for q in s.queue if q != who),
        fastest=tuple(q for q in s.fastest if q != who),
        delayed=tuple(x for x in s.delayed if x.who != who),
    )


def _end_started(s: LabyrinthState, e: ev.EndStarted) -> LabyrinthState:
    s = replace(s, phase=Phase.END, acting="", queue=(), fastest=(), window="")
    if s.options.full_defense_through_end:
        return s
    # Without the OQ 27 reading the Waiting state (and its halving) ends as the End phase begins.
    return replace(s, combatants=tuple(replace(c, waiting=False, full_defense=False) for c in s.combatants))


def _token_placed(s: LabyrinthState, e: ev.TokenPlaced) -> LabyrinthState:
    if s.find(e.token.id) is None:
        s = replace(s, combatants=s.combatants + (e.token,))
    else:
        s = replace(s, combatants=tuple(e.token if c.id == e.token.id else c for c in s.combatants))
    return replace(s, queue=e.queue)


def _identified(s: LabyrinthState, e: ev.Identified) -> LabyrinthState:
    gains = dict(zip(e.ids, e.fp))
    return replace(
        s,
        combatants=tuple(
            _spotted(replace(c, unknown=c.id in e.unknown, fp=c.fp + gains.get(c.id, 0)), e) for c in s.combatants
        ),
    )


def _spotted(c: Combatant, e: ev.Identified) -> Combatant:
    """A rare variant some PC spotted shows as rare from now on (facts: Fills ENEMY-3)."""
    return replace(c, name=c.rare, spotted=True) if c.id in e.spotted and c.rare else c


def _resolved(s: LabyrinthState, e: ev.DelayedAttackResolved) -> LabyrinthState:
    first = next((x for x in s.pending if x.who == e.who and x.skill == e.skill), None)
    return replace(s, pending=tuple(x for x in s.pending if x is not first))


def _ended(s: LabyrinthState, e: ev.BattleEnded) -> LabyrinthState:
    return replace(s, termination=e.termination, phase=Phase.OVER, acting="", queue=())


def _drop(s: LabyrinthState, e: ev.DropRolled) -> LabyrinthState:
    return replace(s, drops=s.drops + (e.item,)) if e.item else s


_APPLY: dict[type, Callable[..., LabyrinthState]] = {
    ev.BattleStarted: _started,
    ev.PositionTaken: taken,
    ev.TurnStarted: _turn_started,
    ev.AilmentRolled: lambda s, e: s,
    ev.TurnLost: _turn_lost,
    ev.Confused: lambda s, e: _one(s, e.who, confused=True),
    ev.Declared: lambda s, e: replace(s, declarations=s.declarations + (e.declaration,)),
    ev.Moved: lambda s, e: _places(s, e.places),
    ev.RowsSwapped: lambda s, e: _places(s, e.places),
    ev.DeclarationLapsed: lambda s, e: s,
    ev.WeaponsSwapped: lambda s, e: _one(s, e.who, weapon=e.weapon, other=e.other),
    ev.FullDefenseTaken: lambda s, e: _one(s, e.who, waiting=True, full_defense=True),
    ev.EscapeRolled: lambda s, e: s,
    ev.MainStarted: _main_started,
    ev.ActorUp: _actor_up,
    ev.Held: lambda s, e: replace(s, acting="", window="", fastest=tuple(q for q in s.fastest if q != e.who)),
    ev.ActionDelayed: lambda s, e: replace(
        s, acting="", window="", delayed=s.delayed + (Deferred(who=e.who, skill=e.skill, target=e.target),)
    ),
    ev.DelayedAttackSet: lambda s, e: replace(
        s, pending=s.pending + (DelayedAttack(who=e.who, skill=e.skill, target=e.target, due=e.due),)
    ),
    ev.DelayedAttackResolved: _resolved,
    ev.TokenPlaced: _token_placed,
    ev.TokenVanished: lambda s, e: _one(s, e.who, vanished=True),
    ev.CriticalTriggered: lambda s, e: _one(s, e.who, tp=s.get(e.who).tp - e.tp),
    ev.EffectFizzled: lambda s, e: s,
    ev.FpSpent: lambda s, e: _one(s, e.who, fp=s.get(e.who).fp - e.amount),
    ev.CheckRerolled: lambda s, e: s,
    ev.Identified: _identified,
    ev.ActionSkipped: lambda s, e: _done(s, e.who),
    ev.Passed: lambda s, e: _done(s, e.who),
    ev.ActionEnded: lambda s, e: _done(s, e.who),
    ev.SkillFumbled: lambda s, e: (
        _one(s, e.who, tp=s.get(e.who).tp + e.refund_tp, fp=s.get(e.who).fp + e.refund_fp)
        if e.refund_tp or e.refund_fp
        else s
    ),
    ev.ActionChosen: lambda s, e: _one(s, e.who, planned=e.chosen) if e.planned else s,
    ev.TargetPicked: lambda s, e: s,
    ev.SkillUsed: _skill_used,
    ev.ItemUsed: _item_used,
    ev.AttackRolled: lambda s, e: _fp(s, e.attacker, e.fp),
    ev.DamageRolled: lambda s, e: _one(s, e.target, hp=e.hp),
    ev.PassiveUsed: _passive,
    ev.HpLost: lambda s, e: _one(s, e.who, hp=e.hp),
    ev.Incapacitated: lambda s, e: s,
    ev.Healed: lambda s, e: _one(s, e.target, hp=e.hp),
    ev.SuppressionRolled: lambda s, e: _fp(s, e.who, e.fp),
    ev.Afflicted: lambda s, e: _one(s, e.who, ailments=e.ailments, binds=e.binds),
    ev.Cured: lambda s, e: _one(s, e.who, ailments=e.ailments, binds=e.binds),
    ev.BuffsChanged: lambda s, e: replace(_one(s, e.who, buffs=e.buffs, hp=e.hp), buff_seq=max(s.buff_seq, e.seq)),
    ev.Regenerated: lambda s, e: _one(s, e.who, hp=e.hp, tp=e.tp),
    ev.EndStarted: _end_started,
    ev.DepthLowered: lambda s, e: _one(s, e.who, ailments=e.ailments, binds=e.binds),
    ev.TurnEnded: _turn_ended,
    ev.BattleEnded: _ended,
    ev.DropRolled: _drop,
    ev.ReactionAsked: _asked,
    ev.ReactionChosen: lambda s, e: replace(
        s, question=None, answers=s.answers + (Answer(skill=e.skill, fp=e.fp, reroll=e.reroll, faces=e.faces),)
    ),
}
_ASKING = (ev.ReactionAsked, ev.ReactionChosen)

_MISSING = {
    cls
    for cls in vars(ev).values()
    if isinstance(cls, type)
    and issubclass(cls, ev.LabyrinthEvent)
    and cls.__dict__.get("TOPIC")
    and cls not in _APPLY
    and cls not in (ev.CommandIssued, ev.CommandUndone)
}
assert not _MISSING, f"evolve has no handler for {_MISSING}"
