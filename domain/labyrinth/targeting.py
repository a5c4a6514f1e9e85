"""Who can act, who can be reached, and whom a skill's ``targets`` names
(facts: Fills MAIN-2 step 1, range; facts section 8, incapacitated)."""

from __future__ import annotations

from .catalog import Pack, Skill
from .state import Combatant, LabyrinthState
from .vocab import Ailment, Bind, Reach, Row, Side, Targets


def cannot_act(state: LabyrinthState, c: Combatant) -> tuple[str, str]:
    """Why ``c`` takes no action this turn, as (reason, rule), or ("", "")."""
    if c.hp <= 0:
        return "is incapacitated", ""
    for ailment, rule in ((Ailment.PETRIFY, "AILMENT-PETRIFY"), (Ailment.SLEEP, "AILMENT-SLEEP")):
        if c.has(ailment):
            return f"is {'petrified' if ailment is Ailment.PETRIFY else 'asleep'}", rule
    if c.inactive:
        return "has lost this turn", ""
    if ambushed(state, c):
        return "is ambushed: passive actions only in turn 1", ""
    return "", ""


def ambushed(state: LabyrinthState, c: Combatant) -> bool:
    """The ambushed side takes only passive actions in turn 1 (facts section 8)."""
    side = state.options.ambush
    return state.turn == 1 and side is not None and (c.side is Side.ENEMY) == (side is Side.ENEMY)


def can_react(c: Combatant) -> bool:
    """Whether ``c`` can make a passive action or a follow-up now."""
    return not c.down and not c.inactive and not c.has(Ailment.SLEEP)


def in_reach(attacker: Combatant, target: Combatant, reach: Reach) -> bool:
    """Near: attacker in its front row and target in its side's front row; far: anywhere."""
    return reach is Reach.FAR or (attacker.row is Row.FRONT and target.row is Row.FRONT)


def opponents(state: LabyrinthState, c: Combatant) -> tuple[Combatant, ...]:
    return tuple(o for o in state.side(not c.pc_side) if not o.down)


def allies(state: LabyrinthState, c: Combatant) -> tuple[Combatant, ...]:
    return tuple(a for a in state.side(c.pc_side) if not a.down)


def attack_pending(state: LabyrinthState, cid: str) -> bool:
    """``cid`` has a delayed attack still to land: it starts no other (facts section 8)."""
    return any(x.who == cid for x in state.pending)


def automatic(state: LabyrinthState, c: Combatant) -> bool:
    """Whether ``c`` acts by the seeded policy: an Enemy unless the GM
    chooses (``gm_enemies``), and an allied NPC (a PC's token) always."""
    return c.side is Side.NPC or (c.side is Side.ENEMY and not state.options.gm_enemies)


def skill_blocked(c: Combatant, skill: Skill) -> str:
    """The bind rule that forbids ``skill`` to ``c`` (BIND-HEAD/ARM/LEG), or ""."""
    if skill.part and c.bound(Bind(skill.part.value)):
        return f"BIND-{skill.part.value.upper()}"
    return ""


def choices(state: LabyrinthState, c: Combatant, targets: Targets, reach: Reach) -> list[str]:
    """The ``target`` values a command may give for ``targets``: an id, or
    "" where the effect names its targets itself (self, a whole side)."""
    if targets in (Targets.SELF, Targets.ALLIES):
        return [""]
    if targets in (Targets.ALLY, Targets.ROW_ALLIES):
        return [a.id for a in allies(state, c)]
    reachable = [o.id for o in opponents(state, c) if in_reach(c, o, reach)]
    if targets is Targets.OPPONENTS:
        return [""] if reachable else []
    return reachable


def resolve(state: LabyrinthState, c: Combatant, targets: Targets, reach: Reach, target: str) -> tuple[str, ...]:
    """The ids an effect reaches: ``target`` expanded by ``targets``."""
    if targets is Targets.SELF:
        return (c.id,)
    if targets is Targets.ALLIES:
        return tuple(a.id for a in allies(state, c))
    if targets is Targets.OPPONENTS:
        return tuple(o.id for o in opponents(state, c) if in_reach(c, o, reach))
    chosen = state.find(target)
    if chosen is None or chosen.down:
        return ()
    if targets is Targets.ROW_ALLIES:
        return tuple(a.id for a in allies(state, c) if a.row is chosen.row)
    if targets is Targets.ROW_OPPONENTS:
        return tuple(o.id for o in opponents(state, c) if o.row is chosen.row and in_reach(c, o, reach))
    return (chosen.id,)


def effect_reach(pack: Pack, c: Combatant, reach: Reach | None) -> Reach:
    """An effect's reach: its own, else the weapon's (an Enemy's: its sheet's)."""
    if reach is not None:
        return reach
    weapon = pack.weapons.get(c.weapon)
    return weapon.reach if weapon else c.base.reach
