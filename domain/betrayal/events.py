"""Events of a Betrayal battle: what happened, past tense, with its computed
consequences (the new HP, the new cooldown track), so that ``evolve`` only
assigns and a later change of the rules never reinterprets history."""

from __future__ import annotations

from domain.kernel import commandlog
from domain.kernel.hexes import Hex
from domain.kernel.messages import Event

from .commands import BattleCommand
from .state import (
    ActiveDie,
    BattleState,
    DieKind,
    Hero,
    Options,
    Outcome,
    Rolled,
    StatusMark,
    Termination,
    TrackDie,
)
from .vocab import BattleForm, Difficulty, Marker, Objective, Status


class BattleEvent(Event, frozen=True, kw_only=True):
    """Base of events in a battle stream."""


# --- the command log -------------------------------------------------------


class CommandIssued(commandlog.CommandIssued, BattleEvent, frozen=True, kw_only=True):
    """A Betrayal command was accepted (the kernel's command log, typed)."""

    TOPIC = "betrayal.CommandIssued"
    command: BattleCommand


class CommandUndone(commandlog.CommandUndone, BattleEvent, frozen=True, kw_only=True):
    """A Betrayal command was undone: the battle is back to ``restored``."""

    TOPIC = "betrayal.CommandUndone"
    restored: BattleState


# --- setup (CLASH-*) ---------------------------------------------------------


class BattleStarted(BattleEvent, frozen=True, kw_only=True):
    """A clash was set up: seed, rules version, content pack, options."""

    TOPIC = "betrayal.BattleStarted"
    battle_id: str
    rules_version: str
    pack_id: str
    pack_hash: str
    setup: str
    seed: int
    difficulty: Difficulty
    options: Options
    objective: Objective
    xp: int
    ep: int
    party: tuple[Hero, ...]


class CachePlaced(BattleEvent, frozen=True, kw_only=True):
    """A cache chip on its setup hex (CLASH-6)."""

    TOPIC = "betrayal.CachePlaced"
    hex: Hex
    kind: Marker


class EnemyPlaced(BattleEvent, frozen=True, kw_only=True):
    """An enemy chip was drawn (or a quest unit placed) onto a hex (CLASH-7a).
    ``draw`` is the RNG counter of the draw (-1 for a quest unit)."""

    TOPIC = "betrayal.EnemyPlaced"
    foe: str
    enemy: str
    level: int
    hp: int
    hex: Hex
    number: int
    quest: bool = False
    draw: int = -1
    ep_left: int = 0


class EnemyPoolClosed(BattleEvent, frozen=True, kw_only=True):
    """No more enemies are placed; ``discarded`` EP is lost (EP-6, EP-7)."""

    TOPIC = "betrayal.EnemyPoolClosed"
    discarded: int
    reason: str


class AdventurerPlaced(BattleEvent, frozen=True, kw_only=True):
    """An adventurer was placed on the Entrance tile in turn order (CLASH-8)."""

    TOPIC = "betrayal.AdventurerPlaced"
    hero: str
    hex: Hex
    form: BattleForm


# --- rounds and turns --------------------------------------------------------


class RoundStarted(BattleEvent, frozen=True, kw_only=True):
    """The round counter is raised (ROUND-4a); from round 6 it is the Fatigue Round (FATIGUE-ROUND-1)."""

    TOPIC = "betrayal.RoundStarted"
    round: int
    fatigue_round: bool = False


class TurnStarted(BattleEvent, frozen=True, kw_only=True):
    """An adventurer's turn begins (TURN-3); unit positions are kept for Stealth."""

    TOPIC = "betrayal.TurnStarted"
    hero: str
    start_positions: tuple[tuple[str, Hex], ...] = ()


class DiceRecovered(BattleEvent, frozen=True, kw_only=True):
    """The Recovery step (RECOVER-1 to RECOVER-5)."""

    TOPIC = "betrayal.DiceRecovered"
    hero: str
    recovered: tuple[int, ...]
    discarded: tuple[TrackDie, ...]
    replaced_overfatigue: int
    track: tuple[TrackDie, ...]


class TurnEnded(BattleEvent, frozen=True, kw_only=True):
    """An adventurer's turn ends (TURN-6)."""

    TOPIC = "betrayal.TurnEnded"
    hero: str


class EnemyTurnStarted(BattleEvent, frozen=True, kw_only=True):
    """An enemy's turn begins (ENEMY-4), in level order (ROUND-7)."""

    TOPIC = "betrayal.EnemyTurnStarted"
    foe: str
    queue: tuple[str, ...]  # the foes still to act after this one


class EnemyTurnEnded(BattleEvent, frozen=True, kw_only=True):
    """An enemy's turn ends (ENEMY-7)."""

    TOPIC = "betrayal.EnemyTurnEnded"
    foe: str


class RoundEnded(BattleEvent, frozen=True, kw_only=True):
    """The End of Round step (ROUND-8)."""

    TOPIC = "betrayal.RoundEnded"
    round: int


class PartyRetreated(BattleEvent, frozen=True, kw_only=True):
    """The party retreated at the end of a round (RETREAT-1)."""

    TOPIC = "betrayal.PartyRetreated"
    round: int


class BattleEnded(BattleEvent, frozen=True, kw_only=True):
    """The battle is over (END-1), with its outcome and why."""

    TOPIC = "betrayal.BattleEnded"
    outcome: Outcome
    reason: Termination


class HeroCleanedUp(BattleEvent, frozen=True, kw_only=True):
    """End of battle cleanup of one adventurer (CLEANUP-3, CLEANUP-4)."""

    TOPIC = "betrayal.HeroCleanedUp"
    hero: str
    hp: int
    track: tuple[TrackDie, ...]
    drained_recovered: tuple[int, ...]


# --- delves --------------------------------------------------------------------


class Explored(BattleEvent, frozen=True, kw_only=True):
    """EXPLORATION-6: ``hero`` explores ``hex`` and the delve card ``card``
    is revealed (the Delve stream holds the draw; this marks the reveal in
    the battle's own log)."""

    TOPIC = "betrayal.Explored"
    hero: str
    hex: Hex
    card: str
    entered: bool


class EnemyPoolOpened(BattleEvent, frozen=True, kw_only=True):
    """DELVE-4: a revealed delve tile gets its own fresh EP (facts)."""

    TOPIC = "betrayal.EnemyPoolOpened"
    tile: str
    ep: int


class HeroStepped(BattleEvent, frozen=True, kw_only=True):
    """The same Move action goes on after an interruption (MOVE-5,
    EXPLORATION-3b, SKYSHARD-6): not another Move."""

    TOPIC = "betrayal.HeroStepped"
    hero: str
    path: tuple[Hex, ...]


class LockpickTested(BattleEvent, frozen=True, kw_only=True):
    """A lockpick test (facts: MOVE-5) against a cache's or a trap's code:
    each attempt's three dice (faces 1 to 6), and whether every digit was
    matched. ``counter`` is the RNG counter of the first die."""

    TOPIC = "betrayal.LockpickTested"
    hero: str
    what: str  # "cache" or "trap"
    hex: Hex
    digits: tuple[int, ...]
    attempts: tuple[tuple[int, ...], ...]
    success: bool
    counter: int


class CacheOpened(BattleEvent, frozen=True, kw_only=True):
    """The cache chip on ``hex`` leaves the map, opened or not (facts: MOVE-5)."""

    TOPIC = "betrayal.CacheOpened"
    hero: str
    hex: Hex
    success: bool


# --- actions -----------------------------------------------------------------


class HeroMoved(BattleEvent, frozen=True, kw_only=True):
    """A Move action along a free route (MOVE-1)."""

    TOPIC = "betrayal.HeroMoved"
    hero: str
    path: tuple[Hex, ...]  # hexes stepped into, in order


class EngageDeclared(BattleEvent, frozen=True, kw_only=True):
    """ENGAGE-4 to ENGAGE-6: the n-th engage of the turn, its form, target."""

    TOPIC = "betrayal.EngageDeclared"
    hero: str
    number: int
    form: BattleForm
    target: str | None


class FatigueGained(BattleEvent, frozen=True, kw_only=True):
    """Fatigue dice went onto the track (ENGAGE-4, FATIGUE-ROUND-4, TRACK-1)."""

    TOPIC = "betrayal.FatigueGained"
    hero: str
    kind: DieKind
    count: int
    rule: str
    track: tuple[TrackDie, ...]
    drained: tuple[int, ...] = ()  # the hero's drained dice after it


class DiceRolled(BattleEvent, frozen=True, kw_only=True):
    """Dice were rolled. ``counter`` is the RNG counter of the first die; the
    faces are what the RNG gave, or what players typed (``typed``)."""

    TOPIC = "betrayal.DiceRolled"
    unit: str
    dice: tuple[Rolled, ...]
    counter: int
    typed: bool = False


class TenacityGained(BattleEvent, frozen=True, kw_only=True):
    """Tenacity from a Tenacity face (ENGAGE-8d)."""

    TOPIC = "betrayal.TenacityGained"
    hero: str
    amount: int
    tenacity: int


class DieExhausted(BattleEvent, frozen=True, kw_only=True):
    """A die went to the cooldown track (ENGAGE-8e, INSTANT-2, TRACK-11,
    ACTIVE-6, STATUS-2)."""

    TOPIC = "betrayal.DieExhausted"
    hero: str
    uid: int
    face: int
    rule: str
    track: tuple[TrackDie, ...]
    drained: tuple[int, ...] = ()


class DieDrained(BattleEvent, frozen=True, kw_only=True):
    """A die resolved as Drained and sits on the race sheet (DRAINED-2)."""

    TOPIC = "betrayal.DieDrained"
    hero: str
    uid: int
    drained: tuple[int, ...]


class ActiveChanged(BattleEvent, frozen=True, kw_only=True):
    """A hero's active slots changed (ACTIVE-1 to ACTIVE-11)."""

    TOPIC = "betrayal.ActiveChanged"
    hero: str
    active: tuple[ActiveDie, ...]
    rule: str


class StatusPlaced(BattleEvent, frozen=True, kw_only=True):
    """A status skill die was placed on an enemy (STATUS-1)."""

    TOPIC = "betrayal.StatusPlaced"
    foe: str
    mark: StatusMark


class StatusLifted(BattleEvent, frozen=True, kw_only=True):
    """A status came off an enemy; the die goes back to its owner's track
    (STATUS-2) in a DieExhausted that follows."""

    TOPIC = "betrayal.StatusLifted"
    foe: str
    status: Status
    rule: str


class HeroStatusGained(BattleEvent, frozen=True, kw_only=True):
    """A status die landed on an adventurer's track (TRACK-1, TRACK-10)."""

    TOPIC = "betrayal.HeroStatusGained"
    hero: str
    status: Status
    refreshed: bool
    track: tuple[TrackDie, ...]
    drained: tuple[int, ...] = ()


class HeroStatusLost(BattleEvent, frozen=True, kw_only=True):
    """A status die left an adventurer's track (e.g. Daze at the end of its turn)."""

    TOPIC = "betrayal.HeroStatusLost"
    hero: str
    status: Status
    rule: str
    track: tuple[TrackDie, ...]


class DamageDealt(BattleEvent, frozen=True, kw_only=True):
    """Damage to one unit, after prevention: ``amount`` rolled, ``prevented``
    by Defense, wards or active dice, ``to_bonus`` taken from bonus HP,
    ``to_hp`` from HP, and the HP left."""

    TOPIC = "betrayal.DamageDealt"
    source: str
    target: str
    amount: int
    prevented: int
    to_bonus: int
    to_hp: int
    true_damage: bool
    hp: int
    bonus_hp: int
    rule: str


class Healed(BattleEvent, frozen=True, kw_only=True):
    """HP healed up to the maximum, or bonus HP gained (HEALTH-8)."""

    TOPIC = "betrayal.Healed"
    unit: str
    amount: int
    hp: int
    bonus_hp: int


class UnitDefeated(BattleEvent, frozen=True, kw_only=True):
    """A unit lost its last HP (HEALTH-5) and left the map."""

    TOPIC = "betrayal.UnitDefeated"
    unit: str


class EngageResolved(BattleEvent, frozen=True, kw_only=True):
    """An engage is over (ENGAGE-8, ENGAGE-9)."""

    TOPIC = "betrayal.EngageResolved"
    hero: str


class EnemyMoved(BattleEvent, frozen=True, kw_only=True):
    """An enemy moved toward a hex from which it can attack (ENEMY-5, EMOVE)."""

    TOPIC = "betrayal.EnemyMoved"
    foe: str
    path: tuple[Hex, ...]
    rule: str


class EnemyEngaged(BattleEvent, frozen=True, kw_only=True):
    """ENEMY-6a: the targets designated, in resolution order."""

    TOPIC = "betrayal.EnemyEngaged"
    foe: str
    targets: tuple[str, ...]


class EnemyRollAwaited(BattleEvent, frozen=True, kw_only=True):
    """Physical dice: the battle waits for an enemy's faces to be typed."""

    TOPIC = "betrayal.EnemyRollAwaited"
    foe: str
    targets: tuple[str, ...]
    dice: int


def all_event_types() -> tuple[type[BattleEvent], ...]:
    """Every concrete battle event class."""
    return tuple(
        cls for cls in _subclasses(BattleEvent) if cls.__dict__.get("TOPIC")
    )


def _subclasses(cls: type) -> list[type]:
    out = []
    for sub in cls.__subclasses__():
        out.append(sub)
        out.extend(_subclasses(sub))
    return out


