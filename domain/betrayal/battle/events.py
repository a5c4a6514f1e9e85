"""Events of a Betrayal battle: what happened, past tense, with its computed
consequences (the new HP, the new cooldown track), so that ``evolve`` only
assigns and a later change of the rules never reinterprets history."""

from __future__ import annotations

from domain.kernel import commandlog
from domain.kernel.hexes import Hex
from domain.kernel.messages import Event
from domain.kernel.position import messages as position

from domain.betrayal.vocab import BattleForm, Difficulty, Marker, Objective, Status

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


class PositionTaken(position.PositionTaken, BattleEvent, frozen=True, kw_only=True):
    """A battle was set up from a position file: ``state`` as it stands."""

    TOPIC = "betrayal.PositionTaken"
    state: BattleState


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


# --- race abilities (RACE-*) and the choose-defense option (COMBAT-4) ----------


class HuntersEyeArmed(BattleEvent, frozen=True, kw_only=True):
    """A Wood Elf readied Hunter's Eye on its own turn for ``targets``: it
    acts before the next enemy's turn starts (RACE-WOOD-ELF)."""

    TOPIC = "betrayal.HuntersEyeArmed"
    hero: str
    targets: tuple[str, ...]
    rule: str


class RaceAbilityArmed(BattleEvent, frozen=True, kw_only=True):
    """A race reaction waits for its trigger: the next damage (Argonian,
    Imperial), the next weapon-form Engage (Nord), the next lockpick test
    (Khajiit)."""

    TOPIC = "betrayal.RaceAbilityArmed"
    hero: str
    race: str
    rule: str


class RaceAbilityUsed(BattleEvent, frozen=True, kw_only=True):
    """A once-per-battle race ability was used (RACE-*); what it did
    follows in its own events."""

    TOPIC = "betrayal.RaceAbilityUsed"
    hero: str
    race: str
    rule: str


class TrackDiceRecovered(BattleEvent, frozen=True, kw_only=True):
    """Skill dice came off the track by an ability, each leaving Light
    fatigue in its place (RACE-DARK-ELF)."""

    TOPIC = "betrayal.TrackDiceRecovered"
    hero: str
    recovered: tuple[int, ...]
    track: tuple[TrackDie, ...]
    rule: str


class TrackDiceRemoved(BattleEvent, frozen=True, kw_only=True):
    """Fatigue or status dice were removed from the track to the supply by
    an ability (RACE-REDGUARD)."""

    TOPIC = "betrayal.TrackDiceRemoved"
    hero: str
    removed: tuple[TrackDie, ...]
    track: tuple[TrackDie, ...]
    rule: str


class HeroReplaced(BattleEvent, frozen=True, kw_only=True):
    """An adventurer was put on an Entrance hex by an ability (RACE-HIGH-ELF)."""

    TOPIC = "betrayal.HeroReplaced"
    hero: str
    hex: Hex
    rule: str


class LockpickBypassed(BattleEvent, frozen=True, kw_only=True):
    """A lockpick test succeeded without dice (RACE-KHAJIIT); ``free_move``
    hexes of free movement follow."""

    TOPIC = "betrayal.LockpickBypassed"
    hero: str
    what: str  # "cache" or "trap"
    hex: Hex
    free_move: int
    rule: str


class HeroMovedFreely(BattleEvent, frozen=True, kw_only=True):
    """Free movement that is not a Move action (RACE-KHAJIIT); ``left`` hexes
    of it remain."""

    TOPIC = "betrayal.HeroMovedFreely"
    hero: str
    path: tuple[Hex, ...]
    left: int
    rule: str


class DamagePrevented(BattleEvent, frozen=True, kw_only=True):
    """A race reaction prevented damage about to be taken (RACE-ARGONIAN,
    RACE-IMPERIAL); the DamageDealt that follows counts it as prevented."""

    TOPIC = "betrayal.DamagePrevented"
    hero: str
    amount: int
    rule: str


class DefenseAwaited(BattleEvent, frozen=True, kw_only=True):
    """Choose-defense option: an enemy's strike waits before ``hero`` takes
    ``amount`` damage, for its blocks and race reaction (COMBAT-4)."""

    TOPIC = "betrayal.DefenseAwaited"
    hero: str
    foe: str
    amount: int
    targets: tuple[str, ...]
    faces: tuple[int, ...]
    index: int
    dealt: bool


class DefenseChosen(BattleEvent, frozen=True, kw_only=True):
    """The player chose how ``hero`` defends (COMBAT-4): the active slots
    exhausted and whether its race reaction is used."""

    TOPIC = "betrayal.DefenseChosen"
    hero: str
    blocks: tuple[int, ...]
    race: bool


# --- items in battle (ITEM-*, READY-*, OVERTAX-*, EXPEND-1, item types) ---------


class WeaponWielded(BattleEvent, frozen=True, kw_only=True):
    """The one Weapon applied to the engage just declared, decided before
    rolling (WEAPON-1 to WEAPON-3), with its Overtax or not (OVERTAX-2)."""

    TOPIC = "betrayal.WeaponWielded"
    hero: str
    item: str
    overtax: bool
    rule: str


class GearUsed(BattleEvent, frozen=True, kw_only=True):
    """A ready item's ability was used (ITEM-3), with its Overtax or not;
    what it did follows in its own events."""

    TOPIC = "betrayal.GearUsed"
    hero: str
    item: str
    overtax: bool
    rule: str


class GearExpended(BattleEvent, frozen=True, kw_only=True):
    """A ready item was turned sideways (EXPEND-1, POTION-2)."""

    TOPIC = "betrayal.GearExpended"
    hero: str
    item: str
    rule: str


class GearDiscarded(BattleEvent, frozen=True, kw_only=True):
    """A ready item was discarded (OVERTAX-4, CONSUMABLE-1, PET-3)."""

    TOPIC = "betrayal.GearDiscarded"
    hero: str
    item: str
    rule: str


class GearStowed(BattleEvent, frozen=True, kw_only=True):
    """An Overtaxed item went back to the Pack instead of the discard pile
    (RACE-BRETON); one Pack item may now be readied."""

    TOPIC = "betrayal.GearStowed"
    hero: str
    item: str
    rule: str


class GearReadied(BattleEvent, frozen=True, kw_only=True):
    """An item moved from the Pack to a ready slot (RACE-BRETON)."""

    TOPIC = "betrayal.GearReadied"
    hero: str
    item: str
    rule: str


class GearAttached(BattleEvent, frozen=True, kw_only=True):
    """An Enchantment left the inventory, attached to ``on``: an adventurer
    id, or "tile:X" for the Clash tile X (ENCHANT-1, ENCHANT-2)."""

    TOPIC = "betrayal.GearAttached"
    hero: str
    item: str
    on: str
    rule: str


class GearBraced(BattleEvent, frozen=True, kw_only=True):
    """An Armor or a Pet was put on guard on the own turn: it acts at every
    enemy engage against its wearer from now on (ARMOR-2, PET-1); with
    ``overtax`` an Armor's Overtax is readied for the next one (OVERTAX-3)."""

    TOPIC = "betrayal.GearBraced"
    hero: str
    item: str
    overtax: bool = False
    rule: str


class WardRaised(BattleEvent, frozen=True, kw_only=True):
    """An item prevents ``amount`` of each damage to ``hero`` until its next
    turn starts."""

    TOPIC = "betrayal.WardRaised"
    hero: str
    amount: int
    rule: str


class PetChipped(BattleEvent, frozen=True, kw_only=True):
    """A Pet's ability triggered: an HP chip on its card, ``chips`` now
    (PET-2)."""

    TOPIC = "betrayal.PetChipped"
    hero: str
    item: str
    chips: int
    rule: str


class DiceRerolled(BattleEvent, frozen=True, kw_only=True):
    """An item rerolled dice of the roll waiting to be resolved: ``dice`` is
    the whole roll after it; ``positions`` the dice rerolled."""

    TOPIC = "betrayal.DiceRerolled"
    hero: str
    positions: tuple[int, ...]
    dice: tuple[Rolled, ...]
    counter: int
    typed: bool = False
    rule: str


# --- class abilities (CLASS-*, FORM-1, CLOTHING-1/2, ADVANCE-16) --------------------


class ClassTurnBegan(BattleEvent, frozen=True, kw_only=True):
    """An adventurer's turn starts: what its class abilities remembered of
    its last turn is cleared (CLASS-2: once per turn; a ward lasts until
    its next turn; extra Engage actions do not carry over)."""

    TOPIC = "betrayal.ClassTurnBegan"
    hero: str
    rule: str


class ClassAbilityUsed(BattleEvent, frozen=True, kw_only=True):
    """A class ability was activated, or an armed Interrupt fired (CLASS-1
    to CLASS-4, CLOTHING-2): ``spent`` tenacity, leaving ``tenacity``;
    ``mark`` is what CLASS-2 remembers for the rest of the turn ("" for
    nothing). What it did follows in its own events."""

    TOPIC = "betrayal.ClassAbilityUsed"
    hero: str
    ability: str
    spent: int
    tenacity: int
    mark: str
    rule: str


class ClassAbilityArmed(BattleEvent, frozen=True, kw_only=True):
    """An Interrupt waits for its trigger (CLASS-4); its tenacity is spent
    when it fires."""

    TOPIC = "betrayal.ClassAbilityArmed"
    hero: str
    ability: str
    rule: str


class HeroFormChanged(BattleEvent, frozen=True, kw_only=True):
    """An adventurer changed its battle form for an ability (CLASS-5)."""

    TOPIC = "betrayal.HeroFormChanged"
    hero: str
    form: BattleForm
    rule: str


class ClassGuardSet(BattleEvent, frozen=True, kw_only=True):
    """``hero``'s class guards now: ``ward`` prevented of each damage until
    its next turn, ``block`` of the next damage only."""

    TOPIC = "betrayal.ClassGuardSet"
    hero: str
    ward: int
    block: int
    rule: str


class ClassDamagePrevented(BattleEvent, frozen=True, kw_only=True):
    """``hero``'s class ability prevented ``amount`` of the damage about to
    hit ``target`` (itself, or an ally); the DamageDealt that follows
    counts it as prevented."""

    TOPIC = "betrayal.ClassDamagePrevented"
    hero: str
    ability: str
    target: str
    amount: int
    rule: str


class ClassEngagesGranted(BattleEvent, frozen=True, kw_only=True):
    """``hero`` has ``engages`` extra Engage actions left this turn, free
    of the ENGAGE-4 fatigue."""

    TOPIC = "betrayal.ClassEngagesGranted"
    hero: str
    engages: int
    rule: str


class ClassDiceRerolled(BattleEvent, frozen=True, kw_only=True):
    """A class ability rerolled dice of the engage waiting to be resolved:
    ``dice`` is the whole roll after it, ``positions`` the dice rerolled,
    ``counter`` the RNG counter of the first new face (or typed faces)."""

    TOPIC = "betrayal.ClassDiceRerolled"
    hero: str
    positions: tuple[int, ...]
    dice: tuple[Rolled, ...]
    counter: int
    typed: bool
    rule: str


class PromotionProgressed(BattleEvent, frozen=True, kw_only=True):
    """What ``hero`` counted toward its class sheet's promotion requirement
    in this battle, and whether it is met (ADVANCE-15, ADVANCE-16)."""

    TOPIC = "betrayal.PromotionProgressed"
    hero: str
    progress: int
    met: bool
    rule: str


class ClassSheetTurned(BattleEvent, frozen=True, kw_only=True):
    """ADVANCE-16: ``hero`` turned its class sheet to the Master side in the
    battle (its Master abilities are usable from now on, ADVANCE-15)."""

    TOPIC = "betrayal.ClassSheetTurned"
    hero: str
    class_id: str
    rule: str = "ADVANCE-16"


def all_event_types() -> tuple[type[BattleEvent], ...]:
    """Every concrete battle event class."""
    return tuple(cls for cls in _subclasses(BattleEvent) if cls.__dict__.get("TOPIC"))


def _subclasses(cls: type) -> list[type]:
    out: list[type] = []
    subs: list[type] = cls.__subclasses__()
    for sub in subs:
        out.append(sub)
        out.extend(_subclasses(sub))
    return out
