"""The turn's flow: Standby -> Main -> End, repeated until a side is wiped
out or the party escapes (facts: Fills STANDBY-1). ``advance`` runs every
step that needs no player and stops where one is needed: a PC's Standby
declaration, a PC's Main action (or its fastest-or-hold choice), or
(``gm_enemies``) the GM's choice for an Enemy.

The Main phase runs in three parts (ORDER-3): the fastest window (each
participant that could take a fastest action is offered it, fastest
first), the [Speed] order (ORDER-1, ORDER-2), then the delayed group."""

from __future__ import annotations

from . import ailments, end_phase, enemies, reactions, standby, windows
from . import events as ev
from .decision import Decision
from .identify import identify, tec_bonuses
from .order import acting_order
from .state import LabyrinthState
from .targeting import automatic, cannot_act
from .vocab import Phase, Side, Termination


def waits_for(state: LabyrinthState) -> str:
    """Who the battle waits for: "standby" (declarations), a PC's id (its
    Main action, or its passive action against an attack roll), "gm" (the
    acting Enemy's action or passive), or "" (over)."""
    if state.over:
        return ""
    if state.question is not None:
        return state.question.who if state.get(state.question.who).side is Side.PC else "gm"
    if state.phase is Phase.STANDBY:
        return "standby"
    acting = state.find(state.acting)
    if acting is None:
        return ""
    return acting.id if acting.side is Side.PC else "gm"


ALLIES_ALONE_TURNS = 10  # turns the allied NPCs fight on once no PC stands (engine default)


def advance(d: Decision) -> None:
    """Play every automatic step until a player's decision is needed: also
    a passive action chosen by hand in the middle of a step (``reactions``).

    With every PC down, the allied NPCs fight on by themselves (their side
    is not wiped out while they stand: facts section 8), for at most
    ``ALLIES_ALONE_TURNS`` turns: a bound where no one could break a
    stalemate, which a GM would call. Then the party has lost."""
    alone = 0
    while not d.state.over and d.state.question is None:
        turn = d.state.turn
        if not reactions.settle(d, lambda: _step(d)):
            return
        if d.state.turn != turn and not d.state.over and not _pcs_standing(d.state):
            alone += 1
            if alone > ALLIES_ALONE_TURNS:
                d.emit(ev.BattleEnded(termination=Termination.PCS_LOSE))


def _pcs_standing(state: LabyrinthState) -> bool:
    return any(c.side is Side.PC and not c.down for c in state.combatants)


def _step(d: Decision) -> bool:
    """One automatic step; False where a player is needed."""
    s = d.state
    if s.turn == 0:
        begin(d)
        return True
    if s.phase is Phase.STANDBY:
        if standby.awaiting(s, d.pack):
            return False
        standby.resolve(d)
        if not d.state.over:
            start_main(d)
        return True
    if s.acting:
        c = s.get(s.acting)
        # Confusion comes first: a confused Enemy attacks its own row too (AILMENT-CONFUSE).
        if c.confused and (s.options.confused_alone_does_nothing or enemies.confused_targets(s, d.pack, c)):
            d.fp_given = set()
            enemies.confused(d, c.id)
        elif automatic(s, c):
            d.fp_given = set()
            (enemies.act_fastest if s.window == "fastest" else enemies.act)(d, c.id)
        else:
            return False
        return True
    if s.fastest:
        windows.up_fastest(d, s.fastest[0])
    elif s.queue:
        up(d, s.queue[0])
    elif s.delayed:
        windows.up_delayed(d)
    else:
        end_phase.run(d)
        if not d.state.over:
            start_turn(d)
    return True


def begin(d: Decision) -> None:
    """The battle's first step, after setup: Identify if the table plays
    it (ENEMY-3, ENEMY-4), then turn 1."""
    if d.state.options.identify:
        identify(d, tec_bonuses(d.state))
    start_turn(d)


def start_main(d: Decision) -> None:
    """The Main phase's order: everyone in [Speed] order, and first the
    fastest window's candidates (ORDER-1 .. ORDER-3)."""
    queue = acting_order(d.state, d.pack)
    d.emit(ev.MainStarted(queue=queue, fastest=windows.fastest_candidates(d.state, d.pack, queue)))


def up(d: Decision, who: str) -> None:
    """``who``'s turn in the Main order: it acts, or is skipped with the
    reason (incapacitated, asleep, lost its turn, Waiting: WAIT-1)."""
    c = d.state.get(who)
    reason, rule = cannot_act(d.state, c)
    if not reason and c.waiting:
        reason, rule = "is in the Waiting state", "WAIT-1"
    if reason:
        d.emit(ev.ActionSkipped(who=who, reason=reason, rule=rule))
    else:
        d.emit(ev.ActorUp(who=who))


def start_turn(d: Decision) -> None:
    """A new turn: the Standby phase, after the 1D6s of Paralysis, Fear and
    Confusion (rolled before declarations, facts default)."""
    d.emit(ev.TurnStarted(turn=d.state.turn + 1))
    ailments.standby_rolls(d)
