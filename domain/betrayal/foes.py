"""An enemy's turn (ENEMY-4 to ENEMY-7): start of turn, movement (EMOVE),
engagement with one roll applied to each target (ENEMY-6), end of turn."""

from __future__ import annotations

from domain.kernel.hexes import distance

from . import events as ev
from .context import ENEMY_DIE, ENEMY_DIE_FACES
from .damage import heal_foe, hurt_foe, hurt_hero, lift_mark
from .decision import Decision
from .heroes import gain_status, statuses
from .state import Foe, Rolled
from .targeting import Candidate, designate, plan_move
from .vocab import EnemySkill, Priority, Status

SKILL_STATUS = {
    EnemySkill.VENOM: Status.BANE,
    EnemySkill.BLINDING: Status.BLIND,
    EnemySkill.DAZING: Status.DAZE,
    EnemySkill.CRIPPLING: Status.MAIM,
    EnemySkill.TERROR: Status.FEAR,
}
QUEST_LEVEL = 1000  # ENEMY-2: a quest unit counts as the highest level


def turn_order(d: Decision) -> tuple[str, ...]:
    """ROUND-7, ENEMY-1 to ENEMY-3: highest level first, quest units first of
    all; equal levels in placement order (our default for the party's choice)."""
    foes = [f for f in d.state.foes if not f.defeated]
    foes.sort(key=lambda f: (-(QUEST_LEVEL if f.quest else f.level), int(f.id[1:])))
    return tuple(f.id for f in foes)


def _marks(foe: Foe) -> set[Status]:
    return {m.status for m in foe.marks}


def _candidates(d: Decision, foe: Foe, start_pos) -> list[Candidate]:
    """Opposing units it may designate. Stealth: only if adjacent when the
    turn began (facts: STATUS-1). Blind: every unit counts as opposing."""
    order = {h: i for i, h in enumerate(d.state.order)}
    out = []
    for h in d.state.heroes:
        if h.defeated or h.pos is None:
            continue
        if Status.STEALTH in statuses(h) and distance(h.pos, start_pos) != 1:
            continue
        out.append(Candidate(h.id, h.pos, h.hp, order[h.id]))
    if Status.BLIND in _marks(foe):
        n = len(order)
        out += [
            Candidate(f.id, f.pos, f.hp, n + int(f.id[1:]))
            for f in d.state.foes
            if f.id != foe.id and not f.defeated and f.pos is not None
        ]
    return out


def enemy_turn(d: Decision, foe_id: str, rest: tuple[str, ...]) -> bool:
    """Play one enemy's turn. Returns False when it paused for typed dice."""
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
    blind = Status.BLIND in _marks(foe)
    reach = 1 if blind else enemy.range
    priority = Priority.STRONGEST if blind else enemy.priority
    count = 1 if blind else enemy.targets
    start = foe.pos
    cands = _candidates(d, foe, start)
    taken = {h.pos for h in d.state.heroes if h.pos} | {f.pos for f in d.state.foes if f.pos}
    order = {h: i for i, h in enumerate(d.state.order)}
    hostiles = [  # EMOVE-10 approaches a hostile unit whether or not it can be targeted
        Candidate(h.id, h.pos, h.hp, order[h.id])
        for h in d.state.heroes if not h.defeated and h.pos is not None
    ]
    path = plan_move(d.ctx.board, start, reach, priority, cands, taken, steps=2, hostiles=hostiles or None)
    moved = bool(path)
    if moved:  # ENEMY-5, EMOVE
        d.emit(ev.EnemyMoved(foe=foe_id, path=tuple(path), rule="ENEMY-5"))
    pos = d.state.foe(foe_id).pos
    targets = designate(d.ctx.board, pos, reach, priority, count, cands)
    if targets:
        ids = tuple(t.id for t in targets)
        d.emit(ev.EnemyEngaged(foe=foe_id, targets=ids))  # ENEMY-6a
        dazed = Status.DAZE in _marks(foe)
        dice = 0 if (dazed and moved) else enemy.combat  # Daze: no roll after moving
        if dice and d.state.options.physical_dice:
            d.emit(ev.EnemyRollAwaited(foe=foe_id, targets=ids, dice=dice))
            return False
        faces = []
        if dice:
            faces, counter = d.roll(dice)
            d.emit(ev.DiceRolled(
                unit=foe_id, counter=counter,
                dice=tuple(Rolled(0, ENEMY_DIE, f) for f in faces),
            ))
        strike(d, foe_id, ids, faces)
    finish_enemy_turn(d, foe_id)
    return True


def strike(d: Decision, foe_id: str, targets: tuple[str, ...], faces: list[int]) -> None:
    """ENEMY-6c to ENEMY-6f: the one roll's total to each target in priority
    order; each target takes the full effect of its skill (ESKILL-3)."""
    foe = d.state.foe(foe_id)
    enemy = d.ctx.enemy(foe.enemy)
    marks = _marks(foe)
    total = sum(ENEMY_DIE_FACES[f] for f in faces)
    if Status.MAIM in marks:
        total //= 2
    skill = None if Status.FEAR in marks else enemy.skill
    dealt_any = False
    for target in targets:
        amount = total + (1 if skill is EnemySkill.BRUTAL and total > 0 else 0)
        true_damage = skill is EnemySkill.TRUE_STRIKE
        if any(h.id == target for h in d.state.heroes):
            lost = hurt_hero(d, target, amount, true_damage=true_damage, source=foe_id, rule="ENEMY-6e")
            if lost and skill in SKILL_STATUS and not d.state.hero(target).defeated:
                gain_status(d, target, SKILL_STATUS[skill])
        else:
            physical, true_amount = (0, amount) if true_damage else (amount, 0)
            lost = hurt_foe(d, target, physical, true_amount, source=foe_id, rule="ENEMY-6e")
        dealt_any = dealt_any or lost > 0
    if dealt_any and Status.STEALTH in marks and not d.state.foe(foe_id).defeated:
        lift_mark(d, foe_id, Status.STEALTH, "STATUS-1")  # Stealth ends once it deals damage


def finish_enemy_turn(d: Decision, foe_id: str) -> None:
    """ENEMY-7; Daze comes off at the end of its turn (facts: STATUS-1)."""
    foe = d.state.foe(foe_id)
    if not foe.defeated and Status.DAZE in _marks(foe):
        lift_mark(d, foe_id, Status.DAZE, "STATUS-1")
    d.emit(ev.EnemyTurnEnded(foe=foe_id))
