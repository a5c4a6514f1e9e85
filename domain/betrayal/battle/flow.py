"""The round sequence (ROUND-*, FATIGUE-ROUND-*), adventurer turn steps
(TURN-*, RECOVER-*), the end of a round and of the battle (END-*, RETREAT-*,
CLEANUP-*, OBJ-1, OBJ-3)."""

from __future__ import annotations

from domain.kernel.errors import RuleViolation

from domain.betrayal.delve.aggregate import DelveConcluded
from domain.betrayal.vocab import Objective, Status

from . import events as ev
from . import hooks
from . import track as tracks
from .context import ENEMY_DIE
from .damage import hurt_hero, lift_mark
from .decision import Decision
from .companions import step as companion_step
from .enemies.turn import enemy_turn, finish_enemy_turn, strike, turn_order
from .exploration import environment_at_turn_start
from .heroes import empty_active, gain_fatigue, lose_status, statuses
from .state import PHASE_NAMES, DieKind, Foe, Hero, Phase, Rolled, Termination, is_fatigue_round


def all_heroes_down(d: Decision) -> bool:
    """Every adventurer is defeated (END-1c)."""
    return all(h.defeated for h in d.state.heroes)


def begin_round(d: Decision, number: int) -> None:
    """ROUND-4: raise the counter (ROUND-4a), then from round 6 the Fatigue
    Round: each standing adventurer gains 1 Overfatigue and takes true damage
    equal to its Overfatigue dice (FATIGUE-ROUND-1, -3, -4; facts)."""
    fatigue = is_fatigue_round(number)
    d.emit(ev.RoundStarted(round=number, fatigue_round=fatigue))
    if fatigue:
        for hero_id in d.state.order:
            if d.state.hero(hero_id).defeated:
                continue
            gain_fatigue(d, hero_id, DieKind.OVERFATIGUE, 1, "FATIGUE-ROUND-4")
            n = tracks.count(d.state.hero(hero_id).track, DieKind.OVERFATIGUE)
            hurt_hero(d, hero_id, n, true_damage=True, source="fatigue", rule="FATIGUE-ROUND-4")
    next_turn(d, after=None)


def next_turn(d: Decision, after: str | None) -> None:
    """ROUND-5: the next standing adventurer in turn order; after the last,
    the enemies (ROUND-7). With every adventurer down, the round's remaining
    turns are skipped (facts default for END-1c)."""
    if all_heroes_down(d):
        end_round(d)
        return
    order = d.state.order
    start = 0 if after is None else order.index(after) + 1
    for hero_id in order[start:]:
        if not d.state.hero(hero_id).defeated:
            if start_turn(d, hero_id):
                return
            if all_heroes_down(d):
                end_round(d)
                return
    if companion_step.open_step(d):  # ROUND-6: the companions' turns come first
        return
    run_enemies(d, turn_order(d))


def start_turn(d: Decision, hero_id: str) -> bool:
    """TURN-3 start of turn (Bane: 1 true damage), TURN-4 Recovery
    (RECOVER-1 to RECOVER-5). False when the adventurer fell at its start."""
    s = d.state
    units: tuple[Hero | Foe, ...] = (*s.heroes, *s.foes)
    positions = tuple((u.id, u.pos) for u in units if u.pos is not None)
    d.emit(ev.TurnStarted(hero=hero_id, start_positions=positions))
    for started in hooks.TURN_START:  # CLASS-4 Interrupts first, then Enduring start-of-turn effects
        started(d, hero_id)
    if Status.BANE in statuses(d.state.hero(hero_id)):
        hurt_hero(d, hero_id, 1, true_damage=True, source="bane", rule="STATUS-1")
        if d.state.hero(hero_id).defeated:
            d.emit(ev.TurnEnded(hero=hero_id))
            return False
    if d.delve is not None:  # EXPLORATION-12: the tile's environment, at the start of turn (TURN-3)
        environment_at_turn_start(d, hero_id)
        if d.state.hero(hero_id).defeated:
            d.emit(ev.TurnEnded(hero=hero_id))
            return False
    hero = d.state.hero(hero_id)
    rec = tracks.recover(hero.track, hero.cooldown)
    d.emit(
        ev.DiceRecovered(
            hero=hero_id,
            recovered=rec.recovered,
            discarded=rec.discarded,
            replaced_overfatigue=rec.replaced_overfatigue,
            track=rec.track,
        )
    )
    return True


def end_turn(d: Decision) -> None:
    """TURN-6: end-of-turn effects (Daze comes off), then the next unit."""
    next_turn(d, after=close_turn(d))


def close_turn(d: Decision) -> str:
    """TURN-6 without passing play on: refuse unless an adventurer's turn
    can end now, take off end-of-turn statuses (Daze) and end it. Returns
    whose turn it was (RACE-ORC takes its extra turn from here)."""
    s = d.state
    if s.phase is Phase.ENGAGE_RESOLVE:
        raise RuleViolation("TURN-5", "resolve the engage's dice before ending the turn")
    if s.phase is not Phase.ADVENTURER_TURN or s.turn is None:
        raise RuleViolation("ROUND-5", f"it is not an adventurer's turn (now: {PHASE_NAMES[s.phase]})")
    hero_id = s.turn.hero
    lose_status(d, hero_id, Status.DAZE, "STATUS-1")
    d.emit(ev.TurnEnded(hero=hero_id))
    return hero_id


def run_enemies(d: Decision, queue: tuple[str, ...]) -> None:
    """ROUND-7: each enemy's turn in order, stopping early if every
    adventurer is down or a physical roll must be typed."""
    while queue:
        if all_heroes_down(d):
            break
        foe_id, rest = queue[0], queue[1:]
        if not enemy_turn(d, foe_id, rest):
            return
        queue = tuple(f for f in d.state.enemy_queue if not d.state.foe(f).defeated)
    end_round(d)


def resume_enemy(d: Decision, faces: tuple[int, ...]) -> None:
    """Physical dice: apply an enemy's typed roll and go on with the round."""
    pending = d.state.roll_waiting  # RollEnemyDice is decided only while the roll waits
    d.emit(
        ev.DiceRolled(
            unit=pending.foe,
            counter=d.state.rng,
            typed=True,
            dice=tuple(Rolled(0, ENEMY_DIE, f) for f in faces),
        )
    )
    if not strike(d, pending.foe, pending.targets, list(faces)):
        return  # choose-defense option: the strike waits for a Defend
    finish_enemy_turn(d, pending.foe)
    run_enemies(d, tuple(f for f in d.state.enemy_queue if not d.state.foe(f).defeated))


def finish_if_fallen(d: Decision, hero_id: str) -> None:
    """An adventurer defeated during its own turn (by a trap or a delve
    card) ends that turn; play passes on (TURN-6)."""
    s = d.state
    if (
        s.phase is Phase.ADVENTURER_TURN
        and s.turn is not None
        and s.turn.hero == hero_id
        and s.hero(hero_id).defeated
        and (d.delve is None or d.delve.placing is None)
    ):
        d.emit(ev.TurnEnded(hero=hero_id))
        next_turn(d, after=hero_id)


def objective_met(d: Decision) -> bool:
    """OBJ-1 Conquer: every enemy defeated or removed. OBJ-3 Eliminate X:
    every objective unit defeated or removed. OBJ-4 Survey: every required
    skyshard obtained. Uncover (OBJ-8) is met only by retreating after that
    (RETREAT-5), never at the end of a round."""
    foes = d.state.foes
    if d.state.objective is Objective.SURVEY:  # a delve's objective
        return d.in_delve.complete
    if d.state.objective is Objective.UNCOVER:
        return False
    if d.state.objective is Objective.ELIMINATE:
        return all(f.defeated for f in foes if f.quest)
    return all(f.defeated for f in foes)


def end_round(d: Decision) -> None:
    """ROUND-8: check the encounter (ROUND-8b); the battle ends after the
    round (END-1, END-2). Success needs a standing adventurer (facts: END-1c).
    Otherwise the party may retreat or go on (ROUND-8c)."""
    d.emit(ev.RoundEnded(round=d.state.round))
    if all_heroes_down(d):
        companion_step.withdraw(d)  # facts §2: companions leave the map, not defeated
        end_battle(d, Termination.PARTY_DEFEATED)
    elif objective_met(d):
        end_battle(d, Termination.OBJECTIVE_MET)


def next_round(d: Decision) -> None:
    """ROUND-8: the party goes on; the next round starts (ROUND-4)."""
    _at_end_of_round(d, "NextRound")
    begin_round(d, d.state.round + 1)


def retreat(d: Decision) -> None:
    """RETREAT-1, RETREAT-2, RETREAT-4: at the end of a round the party
    retreats; the encounter ends at once and counts as failed, but for an
    Uncover delve with every skyshard obtained (RETREAT-5, OBJ-8)."""
    _at_end_of_round(d, "Retreat")
    d.emit(ev.PartyRetreated(round=d.state.round))
    objective = d.state.objective
    if objective is Objective.UNCOVER and d.in_delve.complete:
        end_battle(d, Termination.RETREATED_WITH_EVERY_SKYSHARD)
    elif objective is Objective.UNCOVER:
        end_battle(d, Termination.RETREATED_UNEXPLORED)
    elif objective is Objective.SURVEY:
        end_battle(d, Termination.RETREATED_SHORT_OF_SKYSHARDS)
    else:
        end_battle(d, Termination.RETREATED)


def _at_end_of_round(d: Decision, what: str) -> None:
    if d.state.phase is not Phase.END_OF_ROUND:
        rule = "RETREAT-1" if what == "Retreat" else "ROUND-8"
        raise RuleViolation(rule, f"{what} is possible only at the end of a round (now: {PHASE_NAMES[d.state.phase]})")


def end_battle(d: Decision, how: Termination) -> None:
    """END, then the End of Battle Cleanup (CLEANUP-3, CLEANUP-4, STATUS-5)."""
    d.emit(ev.BattleEnded(outcome=how.outcome, reason=how))
    if d.delve is not None:
        _conclude_delve(d, how)
    for foe in d.state.foes:  # STATUS-5: statuses on enemies come off
        for mark in foe.marks:
            lift_mark(d, foe.id, mark.status, "STATUS-5")
    companion_step.clean_up(d)  # CLEANUP-3c, STATUS-5
    for hero_id in d.state.order:
        empty_active(d, hero_id, "CLEANUP-4a")
        hero = d.state.hero(hero_id)
        d.emit(
            ev.HeroCleanedUp(
                hero=hero_id,
                hp=min(hero.hp, hero.max_hp),
                track=hero.track,
                drained_recovered=hero.drained,
            )
        )


def _conclude_delve(d: Decision, how: Termination) -> None:
    """OBJ-10: an Uncover delve gives 1 XP per skyshard gained, up to the
    requirement (facts), even after an early retreat; OBJ-11: nothing when
    the whole party was defeated. Other objectives give only printed XP."""
    delve = d.in_delve
    wiped = all_heroes_down(d)
    xp = delve.gained if delve.objective is Objective.UNCOVER and not wiped else 0
    d.emit_delve(
        DelveConcluded(objective=delve.objective, outcome=how.outcome.value, reason=how, skyshards=delve.gained, xp=xp)
    )
