"""What may be done now (``legal_commands``): every command the rules would
accept, found by asking them (``dispatch.decide``), each kind where its own
rules list it: the core's Moves, Explores and Engages here, the race,
class and item abilities', the Defend answers' and the companions' in
their modules. Imported when a list is first asked for (``rules``)."""

from __future__ import annotations

from domain.kernel.errors import MalformedCommand, RuleViolation

from domain.betrayal.vocab import BattleForm, Pool, Status

from . import actions, defense, exploration
from .abilities import class_progress, classes as class_abilities  # class abilities (CLASS-*, ADVANCE-16)
from .abilities import race as race_abilities
from .commands import BattleCommand, ClearActive, EndTurn, Engage, Explore, Move, MoveToExplore, NextRound, PlaceTile
from .commands import Resolve, Retreat, RollEnemyDice
from .companions import turn as companion_turn
from .context import RulesContext
from .decision import Decision
from .heroes import available_dice, die_of, statuses
from .items import use as item_use
from .reach import Target, check_target, occupied
from .dispatch import decide
from .state import BattleState, Hero, Phase


def legal_commands(state: BattleState, ctx: RulesContext) -> list[BattleCommand]:
    """What may be done now. Engages are listed once per form and target,
    gathering every free die the form and the stat limits allow; any subset
    of those dice is legal too."""
    if state.phase is Phase.ENDED:
        return []
    if state.phase is Phase.ENEMY_ROLL:
        return [RollEnemyDice(faces=(0,) * state.roll_waiting.dice)]
    d = Decision(state, ctx)
    if state.phase is Phase.DEFEND:
        return [
            *defense.legal_defenses(d, lambda cmd: _is_legal(d, cmd)),
            *item_use.legal_defenses(d, lambda cmd: _is_legal(d, cmd)),
        ]
    if state.phase is Phase.END_OF_ROUND:
        return [NextRound(), Retreat(), *race_abilities.legal(d, lambda cmd: _is_legal(d, cmd))]
    if state.phase is Phase.COMPANION_TURN:
        return [
            *companion_turn.legal(d, lambda cmd: _is_legal(d, cmd)),
            *race_abilities.legal(d, lambda cmd: _is_legal(d, cmd)),
        ]  # RACE-WOOD-ELF: before a turn starts
    if state.phase is Phase.ENGAGE_RESOLVE:
        n = len(state.engage_waiting.dice)
        held = state.hero(state.turn.hero).active if state.turn is not None else ()
        return [
            Resolve(),
            Resolve(skip=tuple(range(n))),
            *(ClearActive(slot=i) for i in range(len(held))),
            *item_use.legal(d, lambda cmd: _is_legal(d, cmd)),
            *class_abilities.legal(d, lambda cmd: _is_legal(d, cmd)),
        ]  # a reroll (CLASS-1)
    if ctx.delve is not None and ctx.delve.placing is not None:
        return [PlaceTile(rotation=p.rotation, origin=p.origin) for p in exploration.placements(d)]
    hero = state.hero(state.acting.hero)
    out: list[BattleCommand] = []
    out += _moves(d, hero)
    out += _explores(d, hero)
    engages = _engages(d, hero)
    out += [e for e in engages if not _rolls_nothing(hero, e)]
    out += item_use.legal_engages(d, hero, engages, lambda cmd: _is_legal(d, cmd))  # WEAPON-1, OVERTAX-2
    out += [ClearActive(slot=i) for i in range(len(hero.active))]
    out += race_abilities.legal(d, lambda cmd: _is_legal(d, cmd))
    out += item_use.legal(d, lambda cmd: _is_legal(d, cmd))  # ITEM-3, ITEM-5
    out += class_abilities.legal(d, lambda cmd: _is_legal(d, cmd))  # CLASS-1, CLOTHING-2
    out += class_progress.legal_turns(d)  # ADVANCE-16
    out.append(EndTurn())
    return out


def _moves(d: Decision, hero: Hero) -> list[Move | MoveToExplore]:
    delve = d.delve
    marks = delve.marks_for(d.state.round, hero.id) if delve is not None else None
    if marks is not None and marks.explored:
        return []  # MOVE-4
    limit = hero.stamina
    try:
        actions.check_move(d, hero)
    except RuleViolation:
        if marks is None or not marks.resume:
            return []
        limit = marks.resume  # the rest of an interrupted Move (EXPLORATION-3b)
    taken = occupied(d) - {hero.pos}
    reach = d.ctx.board.reachable(hero.at, taken, limit)
    out: list[Move | MoveToExplore] = [Move(to=h) for h in sorted(reach, key=lambda h: (h[1], h[0])) if h != hero.pos]
    if marks is not None:  # in a delve
        open_ = set(exploration.explorable(d)) - set(marks.spent)
        out += [MoveToExplore(to=m.to) for m in out if m.to in open_]
    return out


def _explores(d: Decision, hero) -> list[Explore]:
    if d.delve is None:
        return []
    out = []
    for cmd in [Explore(), *(Explore(hex=h) for h in exploration.explorable(d))]:
        try:
            decide(d.state, cmd, d.ctx)
        except (RuleViolation, MalformedCommand):
            continue
        out.append(cmd)
    return out


def _engages(d: Decision, hero) -> list[Engage]:
    if d.state.acting.moves >= actions.MOVES_PER_TURN:  # MOVE-3
        return []
    out = []
    free = available_dice(d, hero)
    physical = d.state.options.physical_dice
    for form in BattleForm:
        dice = _gather(d, hero, form, free)
        extra = race_abilities.reveler_dice(hero, form)  # RACE-NORD: its free dice are typed too
        # physical dice: a face to type per die rolled (none rolled: none to type, as a player types it)
        faces = (0,) * (len(dice) + extra) if physical and (dice or extra) else None
        targets: list[str | None] = [None]
        for unit in _possible_targets(d, hero):
            try:
                check_target(d, hero, form, unit.id)
            except RuleViolation:
                continue
            targets.append(unit.id)
        for target in targets:
            cmd = Engage(form=form, target=target, dice=dice, faces=faces)
            if _is_legal(d, cmd):
                out.append(cmd)
    return out


def _rolls_nothing(hero: Hero, cmd: Engage) -> bool:
    """An Engage with no die to roll and no Weapon: the rules allow it
    (ENGAGE-7 is optional) but it only spends the Engage, so it is not
    offered (a trap: RULES-COVERAGE, "Offered commands")."""
    return not cmd.dice and not cmd.weapon and not race_abilities.reveler_dice(hero, cmd.form)


def _possible_targets(d: Decision, hero: Hero) -> list[Target]:
    """Enemies on the map; adventurers and companions too for a Blind
    adventurer (facts: STATUS-1)."""
    units: list[Target] = [f for f in d.state.foes if not f.defeated and f.pos is not None]
    if Status.BLIND in statuses(hero):
        units += [h for h in d.state.heroes if h.id != hero.id and not h.defeated and h.pos is not None]
        units += [a for a in d.state.companions if not a.defeated and a.pos is not None]
    return units


def _gather(d: Decision, hero, form: BattleForm, free: list[int]) -> tuple[int, ...]:
    room = {Pool.STAMINA: hero.stamina, Pool.MAGICKA: hero.magicka}
    picked = []
    for uid in free:
        die = die_of(d, hero, uid)
        if die.line == "combat" and form is BattleForm.MAGIC:
            continue
        if die.form is not None and die.form is not form:
            continue
        if room[die.pool] > 0:
            room[die.pool] -= 1
            picked.append(uid)
    return tuple(picked)


def _is_legal(d: Decision, cmd: BattleCommand) -> bool:
    try:
        decide(d.state, cmd, d.ctx)
    except (RuleViolation, MalformedCommand):
        return False
    return True
