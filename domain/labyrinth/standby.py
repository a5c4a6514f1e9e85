"""The Standby phase (STANDBY-1 .. STANDBY-8): every PC able to act declares
one action, simultaneously; once all are in, they resolve in Main-phase
order (facts default). An Enemy (or a token) that has a usable Standby
skill uses one: chosen by the seeded policy as the declarations resolve,
or declared by the GM with ``gm_enemies``."""

from __future__ import annotations

from . import casualties, escape, skills
from . import events as ev
from .catalog import Pack
from .decision import Decision
from .enemies import declare_standby, usable_skills
from .fp import Boost, can_pay
from .order import acting_order
from .state import Combatant, Declaration, LabyrinthState
from .targeting import automatic, cannot_act, skill_blocked
from .vocab import ROW_LIMIT, Row, Side, Timing


def may_declare(state: LabyrinthState, c: Combatant) -> bool:
    """A PC that can act and is not confused (AILMENT-CONFUSE) declares."""
    return c.side is Side.PC and not cannot_act(state, c)[0] and not c.confused


def may_use_standby_skill(state: LabyrinthState, pack: Pack, c: Combatant) -> bool:
    """A participant other than a PC that can act, is not confused, and has
    a Standby skill it can use now."""
    return (
        c.side is not Side.PC
        and not c.down
        and not cannot_act(state, c)[0]
        and not c.confused
        and bool(usable_skills(state, pack, c, Timing.STANDBY))
    )


def awaiting(state: LabyrinthState, pack: Pack | None = None) -> list[Combatant]:
    """Whose declaration the Standby phase still waits for: the PCs', and
    with ``gm_enemies`` (given the ``pack``) the GM's for each Enemy that
    has a usable Standby skill."""
    out = [c for c in state.combatants if may_declare(state, c) and state.declared(c.id) is None]
    if pack is not None and state.options.gm_enemies:
        out += [
            c
            for c in state.combatants
            if c.side is Side.ENEMY and state.declared(c.id) is None and may_use_standby_skill(state, pack, c)
        ]
    return out


def row_has_room(state: LabyrinthState, c: Combatant, row: Row) -> bool:
    """At most 3 of the PCs' side in a row; Enemies have no limit (facts: Fills SCALE-1)."""
    if not c.pc_side or c.row is row:
        return True
    return sum(1 for o in state.side(True) if o.row is row and o.id != c.id) < ROW_LIMIT


def places_after_move(state: LabyrinthState, c: Combatant, row: Row, order: int) -> tuple[ev.Place, ...]:
    """The side's positions once ``c`` alone has moved: the others keep their
    left-to-right order (STANDBY-3)."""
    side = state.side(c.pc_side)
    out = []
    for r in Row:
        members = sorted((o for o in side if o.row is r and o.id != c.id), key=lambda o: o.order)
        ids = [o.id for o in members]
        if r is row:
            ids.insert(len(ids) if order <= 0 else min(order - 1, len(ids)), c.id)
        out += [ev.Place(id=i, row=r, order=n + 1) for n, i in enumerate(ids)]
    return tuple(out)


def resolve(d: Decision) -> None:
    """The policy's Standby skills, then every declaration carried out in
    Main-phase order, then an Escape if the whole party declared it."""
    for who in acting_order(d.state, d.pack):
        c = d.state.get(who)
        if automatic(d.state, c) and d.state.declared(who) is None and may_use_standby_skill(d.state, d.pack, c):
            declare_standby(d, who)
    declared = {x.who: x for x in d.state.declarations}
    escapers = {who for who, x in declared.items() if x.action == "escape"}
    together = escape.unanimous(d, escapers)
    for who in acting_order(d.state, d.pack):
        x = declared.get(who)
        if x is None or x.action == "pass" or d.state.over:
            continue
        d.fp_given = set()
        _carry_out(d, d.state.get(who), x, together)
    casualties.settle(d)
    if together and not d.state.over:
        # the FP each escaping PC declared for its own [Evasion] check (facts: Fills FUMBLE-2)
        boosts = {
            who: Boost(who=who, dice=x.fp, reroll=x.reroll)
            for who, x in declared.items()
            if x.action == "escape" and (x.fp or x.reroll)
        }
        escape.attempt(d, escapers, boosts)


def _carry_out(d: Decision, c: Combatant, x: Declaration, together: bool) -> None:
    reason, rule = cannot_act(d.state, c)
    if reason:
        d.emit(ev.DeclarationLapsed(who=c.id, action=x.action, reason=reason, rule=rule))
        return
    if x.action == "move":
        row = x.row
        assert row is not None  # a move is declared only from a Move command, which names its row
        if not row_has_room(d.state, c, row):
            d.emit(ev.DeclarationLapsed(who=c.id, action="move", reason=f"the {x.row} row is full", rule="SCALE-1"))
            return
        d.emit(ev.Moved(who=c.id, places=places_after_move(d.state, c, row, x.order)))
    elif x.action == "swap":
        d.emit(ev.WeaponsSwapped(who=c.id, weapon=c.other, other=c.weapon))
    elif x.action == "defend":
        d.emit(ev.FullDefenseTaken(who=c.id))
    elif x.action == "skill":
        skill = d.pack.skills[x.skill]
        blocked = skill_blocked(c, skill)
        if blocked or not can_pay(c, skill):  # its TP, and FP (FUMBLE-2)
            d.emit(
                ev.DeclarationLapsed(
                    who=c.id, action="skill", reason="the skill can no longer be used", rule=blocked or "STANDBY-5"
                )
            )
            return
        skills.use_skill(d, c.id, x.skill, x.target)
    elif x.action == "escape" and not together:
        d.emit(
            ev.DeclarationLapsed(
                who=c.id, action="escape", reason="not the whole party declared Escape", rule="STANDBY-8"
            )
        )
