"""Adventurer actions: Move (MOVE-*), Engage and its resolution (ENGAGE-*,
FORM-*, ACTIVE-*, TRACK-11/12, DRAINED-*, INSTANT-*, STATUS-*), and clearing
an active slot (ACTIVE-4). Whom an Engage may target is ``reach``'s; what
race, class and item abilities add to an Engage comes through ``hooks``."""

from __future__ import annotations

from domain.kernel.errors import MalformedCommand, RuleViolation
from domain.kernel.hexes import Hex, as_hex, name

from domain.betrayal.delve.aggregate import TurnMarks
from domain.betrayal.packs.catalog import Face, SkillDie
from domain.betrayal.vocab import AbilityType, BattleForm, Difficulty, Effect, Pool, Status

from . import exploration
from . import events as ev
from . import flow, hooks
from .commands import ClearActive, Engage, Move, MoveToExplore, Resolve
from .context import ACTIVE_SLOTS, ENEMY_DIE, ENEMY_DIE_FACES, MAX_TENACITY
from .damage import heal_hero, strike
from .decision import Decision
from .heroes import available_dice, die_of, exhaust, gain_fatigue, lose_status, statuses
from .hooks import EngagePool
from .reach import Target, check_target, find_unit, occupied
from .state import MOVES_PER_TURN, PHASE_NAMES, ActiveDie, DieKind, Foe, Hero, Phase, Rolled, StatusMark  # noqa: F401 (MOVES_PER_TURN: rules.py reads it here)

WEAPON_FORMS = (BattleForm.LIGHT, BattleForm.HEAVY, BattleForm.RANGED)


def current_hero(d: Decision) -> Hero:
    """The adventurer whose turn it is; refuses when it is nobody's (TURN-5)."""
    s = d.state
    if s.phase is Phase.ENGAGE_RESOLVE:
        raise RuleViolation(
            "TURN-5", "resolve the engage's dice first: each action must be fully resolved before the next"
        )
    if s.phase is not Phase.ADVENTURER_TURN or s.turn is None:
        raise RuleViolation("ROUND-5", f"it is not an adventurer's turn (now: {PHASE_NAMES[s.phase]})")
    return s.hero(s.turn.hero)


# --- Move ----------------------------------------------------------------------


def check_move(d: Decision, hero: Hero) -> None:
    """MOVE-2, MOVE-3, ENGAGE-3, and Daze (facts: STATUS-1)."""
    t = d.state.acting
    if t.moves >= MOVES_PER_TURN:
        raise RuleViolation("MOVE-2", f"you may take at most {MOVES_PER_TURN} Move actions in a turn")
    if t.moves == 1 and t.engages > 0:
        if t.moved_first:
            raise RuleViolation("ENGAGE-3", "you moved before engaging; you cannot move both before and after engaging")
        raise RuleViolation("MOVE-3", "you engaged this turn, so you may take only one Move")
    if Status.DAZE in statuses(hero) and t.rolled:
        raise RuleViolation("STATUS-1", f"{hero.name} is dazed and rolled dice this turn, so cannot move")


def move(d: Decision, cmd: Move | MoveToExplore) -> None:
    """MOVE-1 to MOVE-3: up to Stamina hexes by a free route, at most two Moves, one with engaging.
    In a delve also MOVE-4 (no Move after Explore), MOVE-5 (what entering a
    hex sets off interrupts the move, which then goes on), EXPLORATION-3a/3b
    (explore on entering, then the rest of the move)."""
    hero = current_hero(d)
    delve = d.delve
    marks = delve.marks_for(d.state.round, hero.id) if delve is not None else None
    if cmd.explore and delve is None:
        raise RuleViolation("EXPLORE-2", "exploring belongs to delves only")
    if marks is not None and marks.explored:
        raise RuleViolation("MOVE-4", "you took the Explore action this turn, so you cannot Move (EXPLORE-3)")
    board = d.ctx.board
    to = as_hex(cmd.to)
    if not board.contains(to):
        raise RuleViolation("MOVE-1", f"hex {name(to)} is not on this map")
    if not board.passable(to):
        raise RuleViolation("MOVE-1", "that hex is impassable")
    if to == hero.pos:
        raise RuleViolation("MOVE-1", "you are already on that hex")
    taken = occupied(d) - {hero.pos}
    if to in taken:
        raise RuleViolation("MOVE-1", "that hex holds another unit; no unit may end its move there")
    route = board.path(hero.at, to, taken)
    if route is None:
        raise RuleViolation("MOVE-1", "no route reaches that hex without passing through a unit or an impassable hex")
    steps = len(route) - 1
    continuing = marks is not None and 0 < steps <= marks.resume  # EXPLORATION-3b
    if not continuing:
        check_move(d, hero)
        if steps > hero.stamina:
            raise RuleViolation("MOVE-1", f"that hex is {steps} hexes away; you move at most {hero.stamina} (Stamina)")
    if marks is None:  # outside a delve (where exploring was refused above)
        d.emit(ev.HeroMoved(hero=hero.id, path=tuple(route[1:])))
        return
    if cmd.explore:
        if to in marks.spent:
            raise RuleViolation("EXPLORATION-7b", f"you explored {name(to)} this turn: leave it and enter it again")
        why = exploration.why_not_explorable(d, to)
        if why is not None:
            raise RuleViolation(*why)
    _walk(d, hero.id, route, continuing)
    if d.state.hero(hero.id).defeated:
        flow.finish_if_fallen(d, hero.id)
        return
    left = (marks.resume if continuing else hero.stamina) - steps
    spent = tuple(h for h in marks.spent if h not in route[:-1])
    if cmd.explore:
        d_marks = TurnMarks(round=marks.round, hero=hero.id, spent=(*spent, to), explored=False, resume=left)
        exploration.mark(d, d_marks)
        exploration.begin(d, d.state.hero(hero.id), to, entered=True)
        flow.finish_if_fallen(d, hero.id)
    else:
        # The rest of an interrupted Move may itself be walked in parts, so an
        # adventurer can leave a hex and enter it again within it (EX-16,
        # EXPLORATION-7b); a fresh Move ends where it stops.
        rest = left if continuing else 0
        exploration.mark(d, TurnMarks(round=marks.round, hero=hero.id, spent=spent, explored=False, resume=rest))


def _walk(d: Decision, hero_id: str, route: list[Hex], continuing: bool) -> None:
    """Move along ``route`` hex by hex in a delve, stopping to resolve what
    each hex entered sets off (MOVE-5, SKYSHARD-6) and going on after it,
    unless the adventurer fell."""
    start = 0
    first = not continuing
    for i in range(1, len(route)):
        stop = exploration.interrupts(d, route[i], route[i - 1])
        if not stop and i < len(route) - 1:
            continue
        _segment(d, hero_id, tuple(route[start + 1 : i + 1]), first)
        if not stop:
            return
        first = False
        start = i
        exploration.entered(d, hero_id, route[i], route[i - 1])
        if d.state.hero(hero_id).defeated:
            return


def _segment(d: Decision, hero_id: str, path: tuple, first: bool) -> None:
    if first:
        d.emit(ev.HeroMoved(hero=hero_id, path=path))
    else:
        d.emit(ev.HeroStepped(hero=hero_id, path=path))


# --- Engage --------------------------------------------------------------------


def check_dice(d: Decision, hero: Hero, form: BattleForm, uids: tuple[int, ...]) -> list[SkillDie]:
    """ENGAGE-7: gather only free dice (TRACK-5, DRAINED-2), within the
    Stamina and Magicka limits (ENGAGE-7a, COMBAT-6), matching the form
    (ENGAGE-7b), no Combat dice in Magic (ENGAGE-7d, FORM-8, COMBAT-5)."""
    if len(set(uids)) != len(uids):
        raise MalformedCommand("a die is named twice")
    free = set(available_dice(d, hero))
    dice = []
    for uid in uids:
        try:
            die = die_of(d, hero, uid)
        except KeyError:
            raise MalformedCommand(f"{hero.name} has no die #{uid}") from None
        if uid not in free:
            where = _where(d, hero, uid)
            raise RuleViolation(where[0], f"die #{uid} ({die.name}) is {where[1]} and cannot be rolled")
        if die.line == "combat" and form is BattleForm.MAGIC:
            raise RuleViolation("ENGAGE-7d", "Combat dice cannot be rolled in the Magic form")
        if die.form is not None and die.form is not form:
            raise RuleViolation(
                "ENGAGE-7b", f"die #{uid} ({die.name}) carries the {die.form.value} icon, not {form.value}"
            )
        dice.append(die)
    stamina = sum(1 for die in dice if die.pool is Pool.STAMINA)
    magicka = sum(1 for die in dice if die.pool is Pool.MAGICKA)
    if stamina > hero.stamina:
        raise RuleViolation("ENGAGE-7a", f"{stamina} Stamina dice gathered; your Stamina allows {hero.stamina}")
    if magicka > hero.magicka:
        raise RuleViolation("ENGAGE-7a", f"{magicka} Magicka dice gathered; your Magicka allows {hero.magicka}")
    return dice


def _where(d: Decision, hero: Hero, uid: int) -> tuple[str, str]:
    if any(t.kind is DieKind.SKILL and t.uid == uid for t in hero.track):
        return ("TRACK-5", "on the cooldown track")
    if uid in hero.drained:
        return ("DRAINED-2", "drained until the end of the battle")
    if any(a.uid == uid and a.kind is DieKind.SKILL for a in hero.active):
        return ("ACTIVE-2", "in an active slot")
    return ("STATUS-2", "placed on an enemy as a status effect")


def engage(d: Decision, cmd: Engage) -> None:
    """ENGAGE-4 to ENGAGE-7: fatigue from the second engage, form, target, gather and roll."""
    hero = current_hero(d)
    t = d.state.acting
    if t.moves >= MOVES_PER_TURN:
        raise RuleViolation("MOVE-3", f"you took {MOVES_PER_TURN} Move actions this turn, so you cannot engage")
    if cmd.target is not None:
        check_target(d, hero, cmd.form, cmd.target)
    dice = check_dice(d, hero, cmd.form, cmd.dice)
    # RACE-NORD's free enemy Combat dice; the Weapon, chosen before rolling
    # (WEAPON-1 to WEAPON-3), whose extra dice are free dice too
    extras = [declaring(d, hero, cmd) for declaring in hooks.ENGAGE_DECLARING]
    extra = sum(x.dice for x in extras)
    if (dice or extra) and Status.DAZE in statuses(hero) and t.moves > 0:
        raise RuleViolation("STATUS-1", f"{hero.name} is dazed and moved this turn, so cannot roll dice")
    faces = _faces(d, cmd, dice, extra)
    number = t.engages + 1
    if d.delve is not None:  # ENGAGE-3: the rest of an interrupted Move cannot follow an Engage
        exploration.end_interrupted_move(d, hero.id)
    d.emit(ev.EngageDeclared(hero=hero.id, number=number, form=cmd.form, target=cmd.target))
    # an extra Engage action of a class ability has no fatigue
    if number >= 2 and not any(free(d, hero.id) for free in hooks.FREE_ENGAGE):  # ENGAGE-4, ENGAGE-4a
        count = 2 if d.state.difficulty is Difficulty.EXPERT else 1
        gain_fatigue(d, hero.id, DieKind.LIGHT_FATIGUE, count, "ENGAGE-4a" if count == 2 else "ENGAGE-4")
    for x in extras:  # Reveler is spent, the Weapon wielded
        if x.declared is not None:
            x.declared()
    if not dice and not extra:
        for unrolled in hooks.ENGAGE_UNROLLED:
            unrolled(d, hero.id, cmd.target)
        end_engage(d, hero.id)
        return
    if faces is None:
        rolled, counter = d.roll(len(dice) + extra)
        typed = False
    else:
        rolled, counter, typed = list(faces), d.state.rng, True
    own = tuple(Rolled(uid, die.id, f) for uid, die, f in zip(cmd.dice, dice, rolled))
    free = tuple(Rolled(0, ENEMY_DIE, f) for f in rolled[len(dice) :])  # uid 0: no adventurer's die
    d.emit(ev.DiceRolled(unit=hero.id, counter=counter, typed=typed, dice=own + free))


def _faces(d: Decision, cmd: Engage, dice: list[SkillDie], extra: int = 0) -> tuple[int, ...] | None:
    """Physical dice: the typed faces, checked against the dice (DESIGN);
    ``extra`` free enemy Combat dice (RACE-NORD) come after the gathered ones."""
    if not d.state.options.physical_dice:
        if cmd.faces is not None:
            raise MalformedCommand(
                "this battle rolls its own dice; faces can be typed only with the physical-dice option"
            )
        return None
    if not dice and not extra and not cmd.faces:  # nothing rolled (ENGAGE-7 is optional), nothing to type
        return ()
    n = len(dice) + extra
    if cmd.faces is None or len(cmd.faces) != n:
        also = f" (with {extra} enemy Combat die of Reveler last)" if extra else ""
        raise MalformedCommand(f"physical dice: type one face (1-6) for each of the {n} dice rolled{also}")
    for f, die in zip(cmd.faces, dice):
        if not 0 <= f < len(die.faces):
            raise MalformedCommand(f"{die.name} has faces 1 to {len(die.faces)}, not {f + 1}")
    for f in cmd.faces[len(dice) :]:
        if not 0 <= f < len(ENEMY_DIE_FACES):
            raise MalformedCommand(f"an enemy Combat die has faces 1 to {len(ENEMY_DIE_FACES)}, not {f + 1}")
    return cmd.faces


# --- Resolve ---------------------------------------------------------------------


def resolve(d: Decision, cmd: Resolve) -> None:
    """ENGAGE-8: resolve each rolled die by its ability, then apply the pooled damage once."""
    s = d.state
    if s.phase is not Phase.ENGAGE_RESOLVE or s.pending is None:
        raise RuleViolation("ENGAGE-8", "there are no rolled dice waiting to be resolved")
    pending = s.pending
    for i in cmd.skip:
        if not 0 <= i < len(pending.dice):
            raise MalformedCommand(f"there is no rolled die at position {i + 1}")
    hero_id = pending.hero
    target = find_unit(d, pending.target, allies=True) if pending.target else None
    pool = EngagePool()
    for i, rolled in enumerate(pending.dice):
        _resolve_die(d, hero_id, pending.form, target, rolled, i in cmd.skip, pool)
    for weapon in hooks.ENGAGE_STRIKE:  # the engage's Weapon (WEAPON-1, OVERTAX-2)
        weapon(d, hero_id, target, pool)
    hero = d.state.hero(hero_id)
    if target is not None and (pool.combat or pool.physical or pool.true):
        combat = pool.combat // 2 if Status.MAIM in statuses(hero) else pool.combat  # Maim
        lost = strike(d, target, combat + pool.physical, pool.true, source=hero_id, rule="ENGAGE-8c")
        if lost and Status.STEALTH in statuses(d.state.hero(hero_id)):
            lose_status(d, hero_id, Status.STEALTH, "STATUS-1")
    end_engage(d, hero_id)


def end_engage(d: Decision, hero_id: str) -> None:
    """The engage ends (EngageResolved); then what ends with it, given the
    adventurer as the engage left it (hooks.ENGAGE_RESOLVED: an Overtaxed
    Weapon is discarded, OVERTAX-4)."""
    hero = d.state.hero(hero_id)
    d.emit(ev.EngageResolved(hero=hero_id))
    for resolved in hooks.ENGAGE_RESOLVED:
        resolved(d, hero)


def _tenacity_face(die: SkillDie) -> int:
    return next((i for i, f in enumerate(die.faces) if f.tenacity), -1)


def _resolve_die(
    d: Decision, hero_id: str, form: BattleForm, target: Target | None, rolled: Rolled, skip: bool, pool: EngagePool
) -> None:
    if rolled.die == ENEMY_DIE:  # RACE-NORD: a free enemy Combat die deals its damage, then goes back to the supply
        if not skip and target is not None and form in WEAPON_FORMS:
            pool.combat += ENEMY_DIE_FACES[rolled.face]
        return
    hero = d.state.hero(hero_id)
    die = d.ctx.die(rolled.die)
    face = die.faces[rolled.face]
    if skip or face.effect is Effect.BLANK and not face.tenacity:
        # ENGAGE-8e; TRACK-12: a track die not resolved shows its Tenacity face
        shown = _tenacity_face(die) if face.ability is AbilityType.TRACK else rolled.face
        exhaust(d, hero_id, rolled.uid, shown, "TRACK-12" if face.ability is AbilityType.TRACK else "ENGAGE-8e")
        return
    if face.tenacity:  # ENGAGE-8d
        gained = min(1, MAX_TENACITY - hero.tenacity)
        exhaust(d, hero_id, rolled.uid, rolled.face, "ENGAGE-8d")
        if gained:
            d.emit(ev.TenacityGained(hero=hero_id, amount=1, tenacity=hero.tenacity + 1))
        return
    if Status.FEAR in statuses(hero) and die.line != "combat":
        # Fear: non-Combat skills do nothing, so a track face stays unresolved (TRACK-12)
        shown = _tenacity_face(die) if face.ability is AbilityType.TRACK else rolled.face
        exhaust(d, hero_id, rolled.uid, shown, "STATUS-1")
        return
    if face.effect is Effect.COMBAT:
        _combat_face(d, hero_id, form, target, rolled, face, pool)
        return
    ability = face.ability
    if ability is AbilityType.ACTIVE:
        _to_active(d, hero_id, rolled, face.amount, "ACTIVE-10")
    elif ability is AbilityType.TRACK:
        exhaust(d, hero_id, rolled.uid, rolled.face, "TRACK-11")
    elif ability is AbilityType.STATUS:
        _place_status(d, hero_id, target, rolled, face)
    else:
        if not _apply_effect(d, hero_id, target, face, pool):
            exhaust(d, hero_id, rolled.uid, rolled.face, "ENGAGE-8e")
            return
        if ability is AbilityType.DRAINED:  # DRAINED-1, DRAINED-2
            d.emit(ev.DieDrained(hero=hero_id, uid=rolled.uid, drained=d.state.hero(hero_id).drained + (rolled.uid,)))
        else:  # INSTANT-1, INSTANT-2
            exhaust(d, hero_id, rolled.uid, rolled.face, "INSTANT-2")


def _combat_face(d, hero_id, form, target, rolled, face, pool) -> None:
    """COMBAT-3: damage in the weapon forms; COMBAT-4: an active block die in
    the Defensive form (facts: ENGAGE-8d)."""
    if form is BattleForm.DEFENSIVE:
        _to_active(d, hero_id, rolled, face.amount, "COMBAT-4")
    elif target is not None:
        pool.combat += face.amount
        exhaust(d, hero_id, rolled.uid, rolled.face, "COMBAT-3")
    else:
        exhaust(d, hero_id, rolled.uid, rolled.face, "ENGAGE-8e")


def _to_active(d: Decision, hero_id: str, rolled: Rolled, amount: int, rule: str) -> None:
    hero = d.state.hero(hero_id)
    if len(hero.active) >= ACTIVE_SLOTS:  # ACTIVE-3: no room, so it stays unresolved
        exhaust(d, hero_id, rolled.uid, rolled.face, "ACTIVE-3")
        return
    die = ActiveDie(DieKind.SKILL, rolled.uid, rolled.face, amount)
    d.emit(ev.ActiveChanged(hero=hero_id, active=hero.active + (die,), rule=rule))


def _place_status(d: Decision, hero_id: str, target: Target | None, rolled: Rolled, face: Face) -> None:
    """STATUS-1: the die goes on the target; one of each status at a time
    (STATUS-7); quest units take none from adventurers (STATUS-3)."""
    foe = d.state.foe(target.id) if isinstance(target, Foe) else None
    if foe is None or foe.defeated:
        exhaust(d, hero_id, rolled.uid, rolled.face, "ENGAGE-8e")
    elif foe.quest:
        exhaust(d, hero_id, rolled.uid, rolled.face, "STATUS-3")
    elif any(m.status is face.status for m in foe.marks):
        exhaust(d, hero_id, rolled.uid, rolled.face, "STATUS-7")
    else:
        d.emit(ev.StatusPlaced(foe=foe.id, mark=StatusMark(face.placed, hero_id, rolled.uid)))


def _apply_effect(d: Decision, hero_id: str, target: Target | None, face: Face, pool: EngagePool) -> bool:
    """Instant or drained effects; False when it cannot resolve."""
    if face.effect is Effect.DAMAGE:
        if target is None:
            return False
        pool.physical += face.amount
    elif face.effect is Effect.TRUE_DAMAGE:
        if target is None:
            return False
        pool.true += face.amount
    elif face.effect is Effect.HEAL:
        heal_hero(d, hero_id, face.amount)
    elif face.effect is Effect.BONUS_HP:
        heal_hero(d, hero_id, face.amount, bonus=True)
    else:
        return False
    return True


# --- Clear an active slot --------------------------------------------------------


def clear_active(d: Decision, cmd: ClearActive) -> None:
    """ACTIVE-4: on your turn, remove an active die unresolved; it is
    exhausted (ACTIVE-6), a fatigue die goes to the track (ACTIVE-9b). "At
    any time during your turn": also while rolled dice wait to be resolved,
    to make room for a die the engage will place."""
    s = d.state
    if s.phase is Phase.ENGAGE_RESOLVE and s.turn is not None:
        hero = s.hero(s.turn.hero)
    else:
        hero = current_hero(d)
    if not 0 <= cmd.slot < len(hero.active):
        raise MalformedCommand(f"{hero.name} has no active die in slot {cmd.slot + 1}")
    die = hero.active[cmd.slot]
    keep = tuple(a for i, a in enumerate(hero.active) if i != cmd.slot)
    d.emit(ev.ActiveChanged(hero=hero.id, active=keep, rule="ACTIVE-4"))
    if die.kind is DieKind.SKILL:
        exhaust(d, hero.id, die.uid, die.face, "ACTIVE-6")
    else:
        gain_fatigue(d, hero.id, die.kind, 1, "ACTIVE-9b")
