"""Choices made by hand in the middle of a step: passive actions
(PASSIVE-1 .. PASSIVE-3, the ``ask_passives`` option), the FP a PC
spends on its Suppression defense rolls (FUMBLE-2, the ``ask_fp`` option)
and the faces of every roll made with real dice (the ``physical_dice``
option: ``Decision.roll``).

A passive action answers an attack roll against oneself, and whoever
controls the target chooses it: the player for a PC, the GM for an Enemy
under ``gm_enemies`` (allied NPCs and tokens keep the default policy). A
PC's player may spend FP on any check of its PC's (facts: Fills FUMBLE-2),
and a Suppression defense roll comes unbidden: when an ailment or bind
strikes, or in the End phase. These choices come in the middle of a step:
a PC's Main action, an Enemy's turn, the End phase, a Pursuit or a Counter
inside them.

Rather than freeze a half-resolved step, the step is resolved again from
its start: resolution is a pure function of the state, and asking changes
neither the state's dice counter nor anything the step reads but the
answers. So ``settle`` runs a step; where an attack roll needs an answer
not yet given (``NeedReaction``), it drops the step's events, restores the
state from before it and records the question instead. The answer
(``React``) is recorded, and the step is run again from its start with the
answers given so far, used in the order the questions came. A step asks as
many questions as it has choices to make.
"""

from __future__ import annotations

from collections.abc import Callable

from . import events as ev
from .catalog import Skill
from .commands import LabyrinthCommand
from .decision import Decision, NeedReaction
from .fp import Boost
from .fp import can_pay
from .state import Combatant, LabyrinthState
from .targeting import skill_blocked
from .vocab import Effect, Side, Timing

COUNTER_MODE = "counter"


def asks(state: LabyrinthState, c: Combatant) -> bool:
    """Whether ``c``'s passive actions are chosen by hand: the option is on
    and a player (a PC) or the GM (an Enemy, ``gm_enemies``) controls it."""
    if not state.options.ask_passives:
        return False
    return c.side is Side.PC or (c.side is Side.ENEMY and state.options.gm_enemies)


def usable(d: Decision, c: Combatant, mode: str) -> tuple[Skill, ...]:
    """The passive skills ``c`` may use against this attack roll: a guard,
    or a Counter unless the roll is itself a Counter (COUNTER-4), that it
    can pay for and whose part is not bound (BIND-*)."""
    out = []
    for sid in c.skills:
        skill = d.pack.skills.get(sid)
        if skill is None or skill.timing is not Timing.PASSIVE or not can_pay(c, skill) or skill_blocked(c, skill):
            continue
        kinds = {e.effect for e in skill.effects}
        if Effect.GUARD in kinds or (Effect.COUNTER in kinds and mode != COUNTER_MODE):
            out.append(skill)
    return tuple(out)


def answer(d: Decision, c: Combatant, attacker: str, mode: str, offered: tuple[Skill, ...]) -> Skill | None:
    """The passive chosen by hand for this attack roll: the next answer
    given, or ``NeedReaction`` when there is none yet."""
    if d.asked >= len(d.answers):
        raise NeedReaction(c.id, attacker, mode, tuple(s.id for s in offered))
    chosen = d.answers[d.asked].skill
    d.asked += 1
    return next((s for s in offered if s.id == chosen), None)


def spend(d: Decision, c: Combatant, check: str) -> Boost | None:
    """The FP ``c``'s player spends on its Suppression defense roll
    ``check`` (FUMBLE-2, ``ask_fp``): asked only of a PC holding FP; the
    next answer given, or ``NeedReaction`` when there is none yet."""
    if not d.state.options.ask_fp or c.side is not Side.PC or c.fp <= 0:
        return None
    if d.asked >= len(d.answers):
        raise NeedReaction(c.id, kind="fp", check=check)
    given = d.answers[d.asked]
    d.asked += 1
    return Boost(who=c.id, dice=given.fp, reroll=given.reroll) if given.fp or given.reroll else None


def settle(d: Decision, step: Callable[[], object], command: LabyrinthCommand | None = None) -> object:
    """Run ``step`` with the answers given so far, and give back what it
    returns. If it needs a passive chosen first, nothing of it is kept, the
    question is recorded (``ReactionAsked``, with ``command`` to resume)
    and the result is None."""
    mark, state = len(d.events), d.state
    fp_given, boost, triggering = set(d.fp_given), d.boost, d.triggering
    d.answers, d.asked = state.answers, 0
    # faces the command itself carries (physical dice) are its first roll's, whatever is asked before it
    carried = getattr(command, "faces", None)
    d.carried = tuple(carried) if carried is not None else None
    try:
        return step()
    except NeedReaction as need:
        del d.events[mark:]
        d.state, d.fp_given, d.boost, d.triggering = state, fp_given, boost, triggering
        d.emit(
            ev.ReactionAsked(
                who=need.who,
                attacker=need.attacker,
                mode=need.mode,
                skills=need.skills,
                command=command,
                kind=need.kind,
                check=need.check,
                dice=need.dice,
                rule=need.rule,
            )
        )
        return None
    finally:
        d.answers, d.asked, d.carried = (), 0, None
