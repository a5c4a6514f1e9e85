"""An enemy's turn (ENEMY-4 to ENEMY-7): start of turn, movement (EMOVE),
engagement with one roll applied to each target (ENEMY-6), end of turn."""

from __future__ import annotations

import msgspec

from domain.kernel.hexes import Hex, distance

from domain.betrayal.vocab import EnemySkill, Priority, Status

from .. import events as ev
from .. import hooks
from ..board import Board
from ..companions import status as ally_status
from ..companions.damage import hurt_ally
from ..context import ENEMY_DIE, ENEMY_DIE_FACES, RulesContext
from ..damage import heal_foe, hurt_foe, hurt_hero, left_after_ward, lift_mark
from ..decision import Decision
from ..heroes import gain_status, statuses
from ..state import BattleState, Foe, Rolled
from .targeting import Candidate, MovePlan, designate, move_plan

SKILL_STATUS = {
    EnemySkill.VENOM: Status.BANE,
    EnemySkill.BLINDING: Status.BLIND,
    EnemySkill.DAZING: Status.DAZE,
    EnemySkill.CRIPPLING: Status.MAIM,
    EnemySkill.TERROR: Status.FEAR,
}
QUEST_LEVEL = 1000  # ENEMY-2: a quest unit counts as the highest level
ENEMY_MOVE = 2  # ENEMY-5: an enemy moves up to 2 hexes


def turn_order(d: Decision) -> tuple[str, ...]:
    """ROUND-7, ENEMY-1 to ENEMY-3: highest level first, quest units first of
    all; equal levels in placement order (our default for the party's choice)."""
    foes = [f for f in d.state.foes if not f.defeated]
    foes.sort(key=lambda f: (-(QUEST_LEVEL if f.quest else f.level), int(f.id[1:])))
    return tuple(f.id for f in foes)


def _marks(foe: Foe) -> set[Status]:
    return {m.status for m in foe.marks}


class Outlook(msgspec.Struct, frozen=True):
    """What an enemy decides its move and targets on, once its start of
    turn is over (ENEMY-5, ENEMY-6a): its hex, its range, priority icon and
    target value as Blind leaves them (STATUS-1), the units it may
    designate (``candidates``), the hostile units it approaches when none
    can be brought into range (``hostiles``, EMOVE-10), every unit's hex
    (``occupied``) and the adventurers Stealth keeps out of its
    candidates (``hidden``, STATUS-1)."""

    foe: str
    start: Hex
    reach: int
    priority: Priority
    count: int
    blind: bool
    candidates: tuple[Candidate, ...]
    hostiles: tuple[Candidate, ...]
    occupied: frozenset[Hex]
    hidden: tuple[str, ...] = ()


def outlook(state: BattleState, ctx: RulesContext, foe_id: str) -> Outlook:
    """The ``Outlook`` of enemy ``foe_id`` in ``state``: the one input of its
    move (``plan``) and of its targets (``targets``)."""
    foe = state.foe(foe_id)
    enemy = ctx.enemy(foe.enemy)
    blind = Status.BLIND in _marks(foe)
    candidates, hidden = _candidates(state, foe, foe.at)
    order = {h: i for i, h in enumerate(state.order)}
    hostiles = tuple(  # EMOVE-10 approaches a hostile unit whether or not it can be targeted
        Candidate(h.id, h.pos, h.hp, order[h.id]) for h in state.heroes if not h.defeated and h.pos is not None
    ) + _companions(state)
    return Outlook(
        foe=foe_id,
        start=foe.at,
        reach=1 if blind else enemy.range,
        priority=Priority.STRONGEST if blind else enemy.priority,
        count=1 if blind else enemy.targets,
        blind=blind,
        candidates=tuple(candidates),
        hostiles=hostiles,
        occupied=frozenset(
            {h.pos for h in state.heroes if h.pos}
            | {f.pos for f in state.foes if f.pos}
            | {a.pos for a in state.companions if a.pos}
        ),
        hidden=tuple(hidden),
    )


def plan(board: Board, seen: Outlook) -> MovePlan:
    """Where the enemy moves (ENEMY-5, EMOVE-1 to EMOVE-10)."""
    return move_plan(
        board,
        seen.start,
        seen.reach,
        seen.priority,
        seen.candidates,
        seen.occupied,
        steps=ENEMY_MOVE,
        hostiles=seen.hostiles or None,
    )


def targets(board: Board, seen: Outlook, pos: Hex) -> list[Candidate]:
    """Whom the enemy designates from ``pos``, in resolution order
    (ENEMY-6a, ENEMY-6f)."""
    return designate(board, pos, seen.reach, seen.priority, seen.count, seen.candidates)


def _candidates(state: BattleState, foe: Foe, start_pos: Hex) -> tuple[list[Candidate], list[str]]:
    """Opposing units it may designate, and the units Stealth hides.
    Stealth: only if adjacent when the turn began (facts: STATUS-1). Blind:
    every unit counts as opposing."""
    order = {h: i for i, h in enumerate(state.order)}
    out, hidden = [], []
    for h in state.heroes:
        if h.defeated or h.pos is None:
            continue
        if Status.STEALTH in statuses(h) and distance(h.pos, start_pos) != 1:
            hidden.append(h.id)
            continue
        out.append(Candidate(h.id, h.pos, h.hp, order[h.id]))
    for c in _companions(state):  # a companion is a unit of the party (ROUND-2, facts §2)
        if Status.STEALTH in state.companion(c.id).statuses and distance(c.pos, start_pos) != 1:
            hidden.append(c.id)
            continue
        out.append(c)
    if Status.BLIND in _marks(foe):
        n = len(order) + len(state.companions)
        for f in state.foes:
            if f.id == foe.id or f.defeated or f.pos is None:
                continue
            # Blind makes every unit opposing; Stealth still limits who may
            # target one, whichever side it is on (facts: STATUS-1).
            if Status.STEALTH in _marks(f) and distance(f.pos, start_pos) != 1:
                hidden.append(f.id)
                continue
            out.append(Candidate(f.id, f.pos, f.hp, n + int(f.id[1:])))
    return out, hidden


def _companions(state: BattleState) -> tuple[Candidate, ...]:
    """The companions on the map as candidates, after the adventurers in
    the order a priority tie goes (ENEMY-6b: our default for the party's
    choice), in placement order (CLASH-9)."""
    n = len(state.order)
    return tuple(
        Candidate(a.id, a.pos, a.hp, n + i)
        for i, a in enumerate(state.companions)
        if a.pos is not None and not a.defeated
    )


def enemy_turn(d: Decision, foe_id: str, rest: tuple[str, ...]) -> bool:
    """Play one enemy's turn. Returns False when it paused for typed dice."""
    for before in hooks.BEFORE_ENEMY_TURN:  # RACE-WOOD-ELF
        before(d)
    d.emit(ev.EnemyTurnStarted(foe=foe_id, queue=rest))
    foe = d.state.foe(foe_id)
    enemy = d.ctx.enemy(foe.enemy)
    feared = Status.FEAR in _marks(foe)
    for mark in foe.marks:  # ENEMY-4: Bane deals 1 true damage
        if mark.status is Status.BANE:
            hurt_foe(d, foe_id, 0, 1, source=mark.owner, rule="ENEMY-4")
    if d.state.foe(foe_id).defeated:
        return True
    if enemy.skill is EnemySkill.REGENERATE and not feared:
        heal_foe(d, foe_id, 1)
    foe = d.state.foe(foe_id)
    seen = outlook(d.state, d.ctx, foe_id)  # explain.py replays the decision from here
    path = plan(d.ctx.board, seen).path
    moved = bool(path)
    if moved:  # ENEMY-5, EMOVE
        d.emit(ev.EnemyMoved(foe=foe_id, path=path, rule="ENEMY-5"))
    designated = targets(d.ctx.board, seen, d.state.foe(foe_id).at)
    if designated:
        ids = tuple(t.id for t in designated)
        d.emit(ev.EnemyEngaged(foe=foe_id, targets=ids))  # ENEMY-6a
        # CLASS-4: Interrupts of the engaged, before the roll
        if any(engaged(d, foe_id, ids) for engaged in hooks.ENEMY_ENGAGED):
            return True  # the enemy fell to them before it could roll
        dazed = Status.DAZE in _marks(foe)
        dice = 0 if (dazed and moved) else enemy.combat  # Daze: no roll after moving
        if dice and d.state.options.physical_dice:
            d.emit(ev.EnemyRollAwaited(foe=foe_id, targets=ids, dice=dice))
            return False
        faces: list[int] = []
        if dice:
            faces, counter = d.roll(dice)
            d.emit(
                ev.DiceRolled(
                    unit=foe_id,
                    counter=counter,
                    dice=tuple(Rolled(0, ENEMY_DIE, f) for f in faces),
                )
            )
        if not strike(d, foe_id, ids, faces):
            return False  # choose-defense option: the strike waits for a Defend
    finish_enemy_turn(d, foe_id)
    return True


def strike(
    d: Decision,
    foe_id: str,
    targets: tuple[str, ...],
    faces: list[int],
    *,
    start: int = 0,
    dealt: bool = False,
    choice: tuple | None = None,
) -> bool:
    """ENEMY-6c to ENEMY-6f: the one roll's total to each target in priority
    order; each target takes the full effect of its skill (ESKILL-3).

    With the choose-defense option the strike stops before an adventurer
    who has a defense to choose (``defense_wanted``) and returns False; a
    Defend goes on from target ``start`` with that ``choice`` (blocks, race
    reaction), ``dealt`` saying whether a target before it already lost HP.
    A third member of ``choice`` is the Defend's Armor and Pets, passed on
    to ``hooks.ENEMY_BLOW``."""
    foe = d.state.foe(foe_id)
    enemy = d.ctx.enemy(foe.enemy)
    marks = _marks(foe)
    total = sum(ENEMY_DIE_FACES[f] for f in faces)
    if Status.MAIM in marks:
        total //= 2
    skill = None if Status.FEAR in marks else enemy.skill
    dealt_any = dealt
    for i in range(start, len(targets)):
        target = targets[i]
        amount = total + (1 if skill is EnemySkill.BRUTAL and total > 0 else 0)
        true_damage = skill is EnemySkill.TRUE_STRIKE
        if any(h.id == target for h in d.state.heroes):
            chosen = choice is not None and i == start
            if not chosen and defense_wanted(d, target, amount, true_damage):
                d.emit(
                    ev.DefenseAwaited(
                        hero=target,
                        foe=foe_id,
                        amount=amount,
                        targets=targets,
                        faces=tuple(faces),
                        index=i,
                        dealt=dealt_any,
                    )
                )
                return False
            blocks, react, gear = (*choice, None)[:3] if chosen and choice is not None else (None, None, None)
            shield, landed = 0, []
            for guard in hooks.ENEMY_BLOW:  # ARMOR-1, PET-1, OVERTAX-3
                prevents, after = guard(d, target, amount - shield, true_damage, gear)
                shield += prevents
                landed.append(after)
            lost = hurt_hero(
                d,
                target,
                amount,
                true_damage=true_damage,
                source=foe_id,
                rule="ENEMY-6e",
                blocks=blocks,
                react=react,
                shield=shield,
            )
            for after in landed:  # OVERTAX-4
                after()
            if lost and skill in SKILL_STATUS and not d.state.hero(target).defeated:
                gain_status(d, target, SKILL_STATUS[skill])
        elif any(a.id == target for a in d.state.companions):  # a companion chip has no Defense
            lost = hurt_ally(d, target, amount, true_damage=true_damage, source=foe_id, rule="ENEMY-6e")
            if lost and skill in SKILL_STATUS:  # ESKILL-3: the full effect of its skill
                ally_status.gain(d, target, SKILL_STATUS[skill], "ESKILL-3")
        else:
            physical, true_amount = (0, amount) if true_damage else (amount, 0)
            lost = hurt_foe(d, target, physical, true_amount, source=foe_id, rule="ENEMY-6e")
        dealt_any = dealt_any or lost > 0
    if dealt_any and Status.STEALTH in marks and not d.state.foe(foe_id).defeated:
        lift_mark(d, foe_id, Status.STEALTH, "STATUS-1")  # Stealth ends once it deals damage
    return True


def defense_wanted(d: Decision, hero_id: str, amount: int, true_damage: bool) -> bool:
    """With the choose-defense option, whether damage about to hit
    ``hero_id`` waits for a Defend (COMBAT-4): only when there is a choice
    against damage the wards leave, an active block die or what an ability
    offers (``hooks.DEFENSE_OFFERED``: an unused race reaction, Armor or
    Pets, ARMOR-2)."""
    if not d.state.options.choose_defense or true_damage or amount <= 0:
        return False
    hero = d.state.hero(hero_id)
    if hero.defeated or left_after_ward(d, hero, amount) <= 0:
        return False
    blocks = any(a.amount > 0 for a in hero.active)
    return blocks or any(offered(d, hero) for offered in hooks.DEFENSE_OFFERED)


def finish_enemy_turn(d: Decision, foe_id: str) -> None:
    """ENEMY-7; Daze comes off at the end of its turn (facts: STATUS-1)."""
    foe = d.state.foe(foe_id)
    if not foe.defeated and Status.DAZE in _marks(foe):
        lift_mark(d, foe_id, Status.DAZE, "STATUS-1")
    d.emit(ev.EnemyTurnEnded(foe=foe_id))
