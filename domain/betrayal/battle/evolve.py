"""``evolve(state, event) -> state``: apply one event. It never validates,
rolls or reads the clock, so replay cannot fail or drift; events carry their
computed consequences and this module mostly assigns them."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from msgspec.structs import replace

from domain.kernel.position.messages import taken

from . import events as ev
from .abilities import class_evolve
from .companions import evolve as companion_evolve
from .items import evolve as item_evolve
from .state import (
    BattleState,
    Cache,
    Foe,
    PendingEnemyRoll,
    PendingDefense,
    PendingEngage,
    Phase,
    TurnState,
)


def _hero(state: BattleState, hero_id: str, **changes) -> BattleState:
    heroes = tuple(replace(h, **changes) if h.id == hero_id else h for h in state.heroes)
    return replace(state, heroes=heroes)


def _foe(state: BattleState, foe_id: str, **changes) -> BattleState:
    foes = tuple(replace(f, **changes) if f.id == foe_id else f for f in state.foes)
    return replace(state, foes=foes)


def _started(s: None, e: ev.BattleStarted) -> BattleState:
    return BattleState(
        battle_id=e.battle_id,
        rules_version=e.rules_version,
        pack_id=e.pack_id,
        pack_hash=e.pack_hash,
        setup=e.setup,
        seed=e.seed,
        difficulty=e.difficulty,
        options=e.options,
        objective=e.objective,
        xp=e.xp,
        ep=e.ep,
        ep_left=e.ep,
        heroes=e.party,
        order=tuple(h.id for h in e.party),
    )


def _issued(s: BattleState, e: ev.CommandIssued) -> BattleState:
    return s


def _undone(s: BattleState, e: ev.CommandUndone) -> BattleState:
    return e.restored


def _cache(s: BattleState, e: ev.CachePlaced) -> BattleState:
    return replace(s, caches=s.caches + (Cache(e.hex, e.kind),))


def _enemy_placed(s: BattleState, e: ev.EnemyPlaced) -> BattleState:
    foe = Foe(id=e.foe, enemy=e.enemy, level=e.level, hp=e.hp, max_hp=e.hp, pos=e.hex, quest=e.quest)
    rng = s.rng if e.draw < 0 else max(s.rng, e.draw + 1)
    return replace(s, foes=s.foes + (foe,), ep_left=e.ep_left, rng=rng)


def _pool_closed(s: BattleState, e: ev.EnemyPoolClosed) -> BattleState:
    return replace(s, ep_left=0)


def _pool_opened(s: BattleState, e: ev.EnemyPoolOpened) -> BattleState:
    return replace(s, ep=e.ep, ep_left=e.ep)


def _stepped(s: BattleState, e: ev.HeroStepped) -> BattleState:
    return _hero(s, e.hero, pos=e.path[-1])


def _lockpick(s: BattleState, e: ev.LockpickTested) -> BattleState:
    return replace(s, rng=max(s.rng, e.counter + sum(len(a) for a in e.attempts)))


def _cache_opened(s: BattleState, e: ev.CacheOpened) -> BattleState:
    return replace(s, caches=tuple(c for c in s.caches if tuple(c.hex) != tuple(e.hex)))


def _placed(s: BattleState, e: ev.AdventurerPlaced) -> BattleState:
    return _hero(s, e.hero, pos=e.hex, form=e.form)


def _round(s: BattleState, e: ev.RoundStarted) -> BattleState:
    return replace(s, round=e.round, phase=Phase.ADVENTURER_TURN, turn=None, enemy_queue=())


def _turn(s: BattleState, e: ev.TurnStarted) -> BattleState:
    s = item_evolve.turn_started(s, e.hero)  # an item ward ends as its wearer's turn starts
    return replace(
        s,
        phase=Phase.ADVENTURER_TURN,
        turn=TurnState(hero=e.hero, start_positions=e.start_positions),
    )


def _recovered(s: BattleState, e: ev.DiceRecovered) -> BattleState:
    return _hero(s, e.hero, track=e.track)


def _turn_ended(s: BattleState, e: ev.TurnEnded) -> BattleState:
    if s.hero(e.hero).free_move:  # RACE-KHAJIIT: a free move not taken is lost with the turn
        s = _hero(s, e.hero, free_move=0)
    return replace(s, turn=None)


def _enemy_turn(s: BattleState, e: ev.EnemyTurnStarted) -> BattleState:
    return replace(s, enemy_queue=e.queue, turn=None)


def _enemy_turn_ended(s: BattleState, e: ev.EnemyTurnEnded) -> BattleState:
    return replace(s, enemy_roll=None)


def _round_ended(s: BattleState, e: ev.RoundEnded) -> BattleState:
    return replace(s, phase=Phase.END_OF_ROUND, enemy_queue=(), turn=None)


def _retreated(s: BattleState, e: ev.PartyRetreated) -> BattleState:
    return replace(s, retreated=True)


def _ended(s: BattleState, e: ev.BattleEnded) -> BattleState:
    return replace(
        s,
        phase=Phase.ENDED,
        outcome=e.outcome,
        ended_reason=e.reason,
        turn=None,
        pending=None,
        enemy_roll=None,
        enemy_queue=(),
    )


def _cleaned(s: BattleState, e: ev.HeroCleanedUp) -> BattleState:
    return _hero(s, e.hero, hp=e.hp, bonus_hp=0, active=(), drained=(), track=e.track)


def _moved(s: BattleState, e: ev.HeroMoved) -> BattleState:
    s = _hero(s, e.hero, pos=e.path[-1])
    t = s.turn
    if t is None:
        return s
    return replace(
        s, turn=replace(t, moves=t.moves + 1, moved_first=t.moved_first or (t.moves == 0 and t.engages == 0))
    )


def _engage(s: BattleState, e: ev.EngageDeclared) -> BattleState:
    s = _hero(s, e.hero, form=e.form)
    t = s.turn
    if t:
        s = replace(s, turn=replace(t, engages=e.number))
    return replace(s, pending=PendingEngage(hero=e.hero, form=e.form, target=e.target, dice=()))


def _fatigue(s: BattleState, e: ev.FatigueGained) -> BattleState:
    return _hero(s, e.hero, track=e.track, drained=e.drained)


def _rolled(s: BattleState, e: ev.DiceRolled) -> BattleState:
    if not e.typed:
        s = replace(s, rng=e.counter + len(e.dice))
    if s.pending is not None and s.pending.hero == e.unit:
        s = replace(s, pending=replace(s.pending, dice=e.dice), phase=Phase.ENGAGE_RESOLVE)
        if s.turn is not None:
            s = replace(s, turn=replace(s.turn, rolled=True))
    return s


def _tenacity(s: BattleState, e: ev.TenacityGained) -> BattleState:
    return _hero(s, e.hero, tenacity=e.tenacity)


def _exhausted(s: BattleState, e: ev.DieExhausted) -> BattleState:
    return _hero(s, e.hero, track=e.track, drained=e.drained)


def _drained(s: BattleState, e: ev.DieDrained) -> BattleState:
    return _hero(s, e.hero, drained=e.drained)


def _active(s: BattleState, e: ev.ActiveChanged) -> BattleState:
    return _hero(s, e.hero, active=e.active)


def _status_placed(s: BattleState, e: ev.StatusPlaced) -> BattleState:
    return _foe(s, e.foe, marks=s.foe(e.foe).marks + (e.mark,))


def _status_lifted(s: BattleState, e: ev.StatusLifted) -> BattleState:
    marks = tuple(m for m in s.foe(e.foe).marks if m.status != e.status)
    return _foe(s, e.foe, marks=marks)


def _hero_status(s: BattleState, e: ev.HeroStatusGained) -> BattleState:
    return _hero(s, e.hero, track=e.track, drained=e.drained)


def _hero_status_lost(s: BattleState, e: ev.HeroStatusLost) -> BattleState:
    return _hero(s, e.hero, track=e.track)


def _damage(s: BattleState, e: ev.DamageDealt) -> BattleState:
    if companion_evolve.is_companion(s, e.target):
        return companion_evolve.ally(s, e.target, hp=e.hp)
    if any(h.id == e.target for h in s.heroes):
        return _hero(s, e.target, hp=e.hp, bonus_hp=e.bonus_hp)
    return _foe(s, e.target, hp=e.hp)


def _healed(s: BattleState, e: ev.Healed) -> BattleState:
    if companion_evolve.is_companion(s, e.unit):
        return companion_evolve.ally(s, e.unit, hp=e.hp)
    if any(h.id == e.unit for h in s.heroes):
        return _hero(s, e.unit, hp=e.hp, bonus_hp=e.bonus_hp)
    return _foe(s, e.unit, hp=e.hp)


def _defeated(s: BattleState, e: ev.UnitDefeated) -> BattleState:
    if companion_evolve.is_companion(s, e.unit):  # facts: it leaves the party for good
        return companion_evolve.ally(s, e.unit, defeated=True, pos=None)
    if any(h.id == e.unit for h in s.heroes):
        return _hero(s, e.unit, defeated=True, pos=None)
    return replace(
        _foe(s, e.unit, defeated=True, pos=None, marks=()),
        enemy_queue=tuple(f for f in s.enemy_queue if f != e.unit),
    )


def _resolved(s: BattleState, e: ev.EngageResolved) -> BattleState:
    s = item_evolve.engage_resolved(s, e.hero)  # the engage's Weapon is put up (WEAPON-2)
    return replace(s, pending=None, phase=Phase.ADVENTURER_TURN)


def _enemy_moved(s: BattleState, e: ev.EnemyMoved) -> BattleState:
    return _foe(s, e.foe, pos=e.path[-1])


def _enemy_engaged(s: BattleState, e: ev.EnemyEngaged) -> BattleState:
    return s


def _awaited(s: BattleState, e: ev.EnemyRollAwaited) -> BattleState:
    return replace(
        s,
        phase=Phase.ENEMY_ROLL,
        enemy_roll=PendingEnemyRoll(foe=e.foe, targets=e.targets, dice=e.dice),
    )


def _awaited_defense(s: BattleState, e: ev.DefenseAwaited) -> BattleState:
    pending = PendingDefense(foe=e.foe, targets=e.targets, faces=e.faces, index=e.index, amount=e.amount, dealt=e.dealt)
    return replace(s, phase=Phase.DEFEND, defense=pending)


def _defense_chosen(s: BattleState, e: ev.DefenseChosen) -> BattleState:
    # enemy turns run in the phase the last adventurer turn left (see flow)
    return replace(s, phase=Phase.ADVENTURER_TURN, defense=None)


_APPLY: dict[type, Callable] = {
    ev.BattleStarted: _started,
    ev.PositionTaken: taken,
    ev.CommandIssued: _issued,
    ev.CommandUndone: _undone,
    ev.CachePlaced: _cache,
    ev.EnemyPlaced: _enemy_placed,
    ev.EnemyPoolClosed: _pool_closed,
    ev.AdventurerPlaced: _placed,
    ev.RoundStarted: _round,
    ev.TurnStarted: _turn,
    ev.DiceRecovered: _recovered,
    ev.TurnEnded: _turn_ended,
    ev.EnemyTurnStarted: _enemy_turn,
    ev.EnemyTurnEnded: _enemy_turn_ended,
    ev.RoundEnded: _round_ended,
    ev.PartyRetreated: _retreated,
    ev.BattleEnded: _ended,
    ev.HeroCleanedUp: _cleaned,
    ev.HeroMoved: _moved,
    ev.EngageDeclared: _engage,
    ev.FatigueGained: _fatigue,
    ev.DiceRolled: _rolled,
    ev.TenacityGained: _tenacity,
    ev.DieExhausted: _exhausted,
    ev.DieDrained: _drained,
    ev.ActiveChanged: _active,
    ev.StatusPlaced: _status_placed,
    ev.StatusLifted: _status_lifted,
    ev.HeroStatusGained: _hero_status,
    ev.HeroStatusLost: _hero_status_lost,
    ev.DamageDealt: _damage,
    ev.Healed: _healed,
    ev.UnitDefeated: _defeated,
    ev.EngageResolved: _resolved,
    ev.EnemyMoved: _enemy_moved,
    ev.EnemyEngaged: _enemy_engaged,
    ev.EnemyRollAwaited: _awaited,
    ev.EnemyPoolOpened: _pool_opened,
    ev.Explored: lambda s, e: s,
    ev.HeroStepped: _stepped,
    ev.LockpickTested: _lockpick,
    ev.CacheOpened: _cache_opened,
    ev.RaceAbilityArmed: lambda s, e: _hero(s, e.hero, race_armed=True),
    ev.HuntersEyeArmed: lambda s, e: _hero(s, e.hero, race_armed=True, hunter_targets=e.targets),
    ev.RaceAbilityUsed: lambda s, e: _hero(s, e.hero, race_used=True, race_armed=False),
    ev.TrackDiceRecovered: lambda s, e: _hero(s, e.hero, track=e.track),
    ev.TrackDiceRemoved: lambda s, e: _hero(s, e.hero, track=e.track),
    ev.HeroReplaced: lambda s, e: _hero(s, e.hero, pos=e.hex),
    ev.LockpickBypassed: lambda s, e: _hero(s, e.hero, free_move=e.free_move),
    ev.HeroMovedFreely: lambda s, e: _hero(s, e.hero, pos=e.path[-1], free_move=e.left),
    ev.DamagePrevented: lambda s, e: s,
    ev.DefenseAwaited: _awaited_defense,
    ev.DefenseChosen: _defense_chosen,
    **class_evolve.APPLY,  # class abilities (CLASS-*)
}


def evolve(state: BattleState | None, event: ev.BattleEvent) -> BattleState:
    """The state after ``event``."""
    return _APPLY[type(event)](state, event)


def replay(events: Iterable[ev.BattleEvent], state: BattleState | None = None) -> BattleState:
    """Fold events from ``state`` (or from nothing)."""
    for event in events:
        state = _APPLY[type(event)](state, event)
    assert state is not None
    return state


def _check_complete() -> None:
    missing = set(ev.all_event_types()) - set(_APPLY)
    if missing:
        raise TypeError(f"evolve has no rule for {sorted(c.__name__ for c in missing)}")


_APPLY.update(item_evolve.APPLY)  # items in battle (ITEM-*)
_APPLY.update(companion_evolve.APPLY)  # companion units (ROUND-6)
_check_complete()
