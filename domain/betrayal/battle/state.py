"""The state of one Betrayal battle, derived only by replaying its events.

Everything here is a frozen msgspec Struct of tuples, so ``evolve`` returns a
new state and an old state is never changed: undo can restore a state exactly
and tests can compare states with ``==``.
"""

from __future__ import annotations

from typing import ClassVar

import msgspec

from domain.kernel.enums import PlainStr, StrValued
from domain.kernel.errors import InternalError
from domain.kernel.hexes import Hex

from domain.betrayal.battle.companions.state import Ally, AllyTurn
from domain.betrayal.vocab import BattleForm, Difficulty, Marker, Objective, Status


class Phase(StrValued):
    """Where the battle waits for the next command."""

    ADVENTURER_TURN = "adventurer-turn"  # the current adventurer acts (TURN-5)
    ENGAGE_RESOLVE = "engage-resolve"  # rolled dice wait to be resolved (ENGAGE-8)
    COMPANION_TURN = "companion-turn"  # the Companion Turns step: companions act in the party's order (ROUND-6)
    ENEMY_ROLL = "enemy-roll"  # physical dice: an enemy's roll waits to be typed
    DEFEND = "defend"  # choose-defense option: damage to an adventurer waits for its blocks (COMBAT-4)
    END_OF_ROUND = "end-of-round"  # the party may retreat or go on (ROUND-8c)
    ENDED = "ended"  # the battle is over and cleaned up (END, CLEANUP)


# Each phase as the round sequence names its step (ROUND-5 to ROUND-8), for
# the table and for refusals: players read these, never the phase ids.
PHASE_NAMES = {
    Phase.ADVENTURER_TURN: "Adventurer Turns",
    Phase.ENGAGE_RESOLVE: "Adventurer Turns · dice to resolve",
    Phase.COMPANION_TURN: "Companion Turns",
    Phase.ENEMY_ROLL: "Enemy Turns · a roll to type",
    Phase.DEFEND: "Enemy Turns · a defense to choose",
    Phase.END_OF_ROUND: "End of Round",
    Phase.ENDED: "over",
}


class DieKind(StrValued):
    """What a die on a cooldown track or in an active slot is."""

    SKILL = "skill"
    LIGHT_FATIGUE = "light-fatigue"
    OVERFATIGUE = "overfatigue"
    STATUS = "status"


class TrackDie(msgspec.Struct, frozen=True, array_like=True):
    """A die on a cooldown track (TRACK-1). ``uid`` names the adventurer's own
    skill die (0 for fatigue and status dice); ``face`` is the face shown
    (-1 when the face does not matter); ``status`` is set for status dice."""

    kind: DieKind
    uid: int = 0
    face: int = -1
    status: Status | None = None


class ActiveDie(msgspec.Struct, frozen=True, array_like=True):
    """A die in an active slot (ACTIVE-1): its remaining ``amount`` to spend."""

    kind: DieKind
    uid: int
    face: int
    amount: int


class OwnedDie(msgspec.Struct, frozen=True, array_like=True):
    """One physical skill die an adventurer owns: ``uid`` is unique within the
    adventurer, ``die`` is the content id (``combat``, ``snipe``)."""

    uid: int
    die: str


class StatusMark(msgspec.Struct, frozen=True, array_like=True):
    """A status effect on an enemy: a status skill die placed there by
    ``owner`` (STATUS-1), exhausted to the owner's track when it comes off
    (STATUS-2)."""

    status: Status
    owner: str
    uid: int


class Hero(msgspec.Struct, frozen=True, kw_only=True):
    """An adventurer's in-battle state (DESIGN: the battle owns it)."""

    id: str  # short name used in commands ("ysolda")
    name: str
    race: str
    adventurer_id: str  # the Adventurer aggregate it came from and returns to
    pos: Hex | None = None
    hp: int
    max_hp: int
    bonus_hp: int = 0
    stamina: int
    magicka: int
    cooldown: int
    tenacity: int = 0
    form: BattleForm = BattleForm.LIGHT
    dice: tuple[OwnedDie, ...] = ()
    track: tuple[TrackDie, ...] = ()
    active: tuple[ActiveDie, ...] = ()
    drained: tuple[int, ...] = ()
    defeated: bool = False
    race_used: bool = False  # its once-per-battle race ability is spent (RACE-*)
    race_armed: bool = False  # a race reaction waits for its trigger (RACE-ARGONIAN, -IMPERIAL, -NORD, -KHAJIIT)
    free_move: int = 0  # hexes of Cutpurse's free move left this turn (RACE-KHAJIIT)
    hunter_targets: tuple[str, ...] = ()  # who an armed Hunter's Eye will give Stealth (RACE-WOOD-ELF)
    # The campaign's sheet and inventory, copied in at setup (CLASS-1, READY-2).
    class_id: str = ""
    master: bool = False  # the class sheet's Master side (ADVANCE-15)
    ready: tuple[str, ...] = ()  # items in the ready slots, the only ones usable (READY-2, ITEM-6)
    weapons: int = 0  # Weapon items in the whole inventory, Pack included (RACE-NORD)
    expended: tuple[str, ...] = ()  # ready items turned sideways (EXPEND-1)
    discarded: tuple[str, ...] = ()  # ready items discarded in this battle (OVERTAX-4, CONSUMABLE-1, PET-3)
    promotion: bool = False  # its class sheet's promotion requirement was met in this battle (ADVANCE-16)
    # items in battle (ITEM-*)
    packed: tuple[str, ...] = ()  # items in the Pack: unusable, but a Breton may ready one (READY-3, RACE-BRETON)
    wielding: str = ""  # the Weapon applied to the engage under way (WEAPON-1, WEAPON-2)
    wield_overtax: bool = False  # and its Overtax triggered (OVERTAX-2)
    guarding: tuple[str, ...] = ()  # Armor and Pets put on guard: they act at enemy engages against it (ARMOR-2)
    braced: tuple[str, ...] = ()  # Armor readied to Overtax at the next enemy engage against it (OVERTAX-3)
    item_ward: int = 0  # damage an Armor's Overtax prevents of each instance until its next turn
    chips: tuple[tuple[str, int], ...] = ()  # HP chips on its Pets (PET-2)
    attached: tuple[tuple[str, str], ...] = ()  # Enchantments it attached: (item, hero id or "tile:X") (ENCHANT-2)
    carried_in: tuple[str, ...] = ()  # of those, the ones attached in an earlier battle of the session (ENCHANT-3)
    stowed: tuple[str, ...] = ()  # Overtaxed items returned to the Pack (RACE-BRETON)
    readied: tuple[str, ...] = ()  # Pack items moved to a ready slot (RACE-BRETON)
    opportunist: bool = False  # a Breton may move one Pack item to a ready slot (RACE-BRETON)
    enchanted_engage: int = 0  # the engage (round * 100 + number) its Enchantment last rerolled in
    # class abilities (CLASS-*)
    class_used: tuple[str, ...] = ()  # abilities used this turn, "id" or "id@engage" (CLASS-2, CLASS-2a)
    class_armed: tuple[str, ...] = ()  # Interrupts armed for their trigger (CLASS-4)
    class_ward: int = 0  # damage prevented of each instance until its next turn (a ward ability)
    class_block: int = 0  # damage prevented of the next instance (a block ability)
    class_engages: int = 0  # extra Engage actions this turn, free of ENGAGE-4 fatigue (extra-engage)
    class_progress: int = 0  # counted toward its sheet's promotion requirement (ADVANCE-16)

    @property
    def at(self) -> Hex:
        """The hex it stands on, for a rule that reads only an adventurer on
        the map (the one whose turn it is, one its own rules have placed)."""
        if self.pos is None:
            raise InternalError(f"{self.name} is not on the map")
        return self.pos

    # Added after logs were written: left out of the state digest at their defaults.
    __digest_skip_default__: ClassVar[frozenset[str]] = frozenset(
        {
            "race_used",
            "race_armed",
            "free_move",
            "class_id",
            "master",
            "ready",
            "weapons",
            "expended",
            "discarded",
            "promotion",
            "class_used",
            "class_armed",
            "class_ward",
            "class_block",
            "class_engages",
            "class_progress",
            "packed",
            "wielding",
            "wield_overtax",
            "guarding",
            "braced",
            "item_ward",
            "chips",
            "attached",
            "stowed",
            "readied",
            "opportunist",
            "enchanted_engage",
            "carried_in",
            "hunter_targets",
        }
    )


class Foe(msgspec.Struct, frozen=True, kw_only=True):
    """An enemy on the map."""

    id: str  # "e1", "e2" in placement order
    enemy: str  # content id
    level: int
    hp: int
    max_hp: int
    pos: Hex | None = None
    marks: tuple[StatusMark, ...] = ()
    quest: bool = False
    defeated: bool = False

    @property
    def at(self) -> Hex:
        """The hex it stands on, for a rule that reads only an enemy on the
        map (the one whose turn it is)."""
        if self.pos is None:
            raise InternalError(f"{self.id} is not on the map")
        return self.pos


class Cache(msgspec.Struct, frozen=True, array_like=True):
    """A cache chip on the map (CLASH-6)."""

    hex: Hex
    kind: Marker


class Rolled(msgspec.Struct, frozen=True, array_like=True):
    """A die rolled in an engage: whose die (``uid``), what kind (``die``) and
    the face index it landed on."""

    uid: int
    die: str
    face: int


class PendingEngage(msgspec.Struct, frozen=True, kw_only=True):
    """An engage whose dice are rolled and wait to be resolved (ENGAGE-8)."""

    hero: str
    form: BattleForm
    target: str | None
    dice: tuple[Rolled, ...]


class PendingEnemyRoll(msgspec.Struct, frozen=True, kw_only=True):
    """Physical dice: an enemy's engage waits for its faces to be typed."""

    foe: str
    targets: tuple[str, ...]
    dice: int


class PendingDefense(msgspec.Struct, frozen=True, kw_only=True):
    """Choose-defense option: an enemy's strike waits before hitting
    ``targets[index]`` (``amount`` damage) for the player to choose its
    blocks and race reaction (COMBAT-4). ``faces`` is the strike's roll and
    ``dealt`` whether an earlier target already lost HP, so the strike can
    go on exactly where it stopped."""

    foe: str
    targets: tuple[str, ...]
    faces: tuple[int, ...]
    index: int
    amount: int
    dealt: bool = False


class TurnState(msgspec.Struct, frozen=True, kw_only=True):
    """Bookkeeping of the current adventurer turn (MOVE-2, MOVE-3, ENGAGE-3,
    ENGAGE-4)."""

    hero: str
    moves: int = 0
    engages: int = 0
    rolled: bool = False  # for Daze: moving and rolling in one turn
    moved_first: bool = False  # the first Move came before any Engage (ENGAGE-3)
    start_positions: tuple[tuple[str, Hex], ...] = ()  # for Stealth


class Outcome(StrValued):
    """How a battle ended (END-1, RETREAT-4)."""

    SUCCESS = "success"
    FAILURE = "failure"


class Termination(PlainStr):
    """Why a battle ended, one member per way it can end (as python-chess's
    ``Termination``). The value is the sentence ``BattleEnded.reason``
    records, rule ID first, so a log written before this enum reads back
    unchanged."""

    OBJECTIVE_MET = "END-1a: the objective was achieved"
    PARTY_DEFEATED = "END-1c: every adventurer was defeated"
    RETREATED = "RETREAT-4: the party retreated"
    RETREATED_WITH_EVERY_SKYSHARD = "RETREAT-5: the party retreated with every skyshard: Uncover succeeds"
    RETREATED_SHORT_OF_SKYSHARDS = "OBJ-6: the party retreated without every skyshard"
    RETREATED_UNEXPLORED = "OBJ-9: the party retreated before the delve was fully explored"

    @property
    def rule(self) -> str:
        """The rule ID that ends the battle this way (``END-1a``)."""
        return self.value.partition(":")[0]

    @property
    def outcome(self) -> Outcome:
        """Success for the objective met and for an Uncover retreat with
        every skyshard (RETREAT-5); failure for every other ending."""
        won = self in (Termination.OBJECTIVE_MET, Termination.RETREATED_WITH_EVERY_SKYSHARD)
        return Outcome.SUCCESS if won else Outcome.FAILURE


class Options(msgspec.Struct, frozen=True, kw_only=True):
    """Game options chosen when the battle is set up."""

    physical_dice: bool = False  # players type the faces they rolled
    choose_defense: bool = False  # damage to an adventurer waits for its blocks and reaction (COMBAT-4)

    __digest_skip_default__: ClassVar[frozenset[str]] = frozenset({"choose_defense"})


FATIGUE_ROUND = 6  # FATIGUE-ROUND-1: the round from which every round is the Fatigue Round
MOVES_PER_TURN = 2  # MOVE-2: Move actions an adventurer may take in one turn; MOVE-3: all of them forbid an Engage


def is_fatigue_round(number: int) -> bool:
    """Whether round ``number`` is a Fatigue Round (FATIGUE-ROUND-1)."""
    return number >= FATIGUE_ROUND


class BattleState(msgspec.Struct, frozen=True, kw_only=True):
    """Everything the rules need to decide the next command."""

    battle_id: str
    rules_version: str
    pack_id: str
    pack_hash: str
    setup: str
    seed: int
    rng: int = 0  # the counter: outcome n is a function of (seed, n)
    difficulty: Difficulty = Difficulty.ADEPT
    options: Options = Options()
    objective: Objective = Objective.CONQUER
    xp: int = 0
    ep: int = 0  # the EP computed at setup (EP-2)
    ep_left: int = 0  # EP not spent on enemies, discarded (EP-7)
    round: int = 0
    phase: Phase = Phase.ADVENTURER_TURN
    order: tuple[str, ...] = ()  # adventurer ids in turn order (CLASH-8c)
    turn: TurnState | None = None
    heroes: tuple[Hero, ...] = ()
    foes: tuple[Foe, ...] = ()
    caches: tuple[Cache, ...] = ()
    pending: PendingEngage | None = None
    enemy_roll: PendingEnemyRoll | None = None
    defense: PendingDefense | None = None  # choose-defense option: a strike waits (Phase.DEFEND)
    enemy_queue: tuple[str, ...] = ()  # foes still to act this round, in order
    retreated: bool = False
    outcome: Outcome | None = None
    ended_reason: str = ""  # a Termination's value once the battle ends (see ``termination``)
    companions: tuple[Ally, ...] = ()  # companion units, in placement order (CLASH-9)
    ally_turn: AllyTurn | None = None  # the companion turn under way (ROUND-6)

    __digest_skip_default__: ClassVar[frozenset[str]] = frozenset({"defense", "companions", "ally_turn"})

    def hero(self, hero_id: str) -> Hero:
        for h in self.heroes:
            if h.id == hero_id:
                return h
        raise KeyError(hero_id)

    def companion(self, companion_id: str) -> Ally:
        for a in self.companions:
            if a.id == companion_id:
                return a
        raise KeyError(companion_id)

    def foe(self, foe_id: str) -> Foe:
        for f in self.foes:
            if f.id == foe_id:
                return f
        raise KeyError(foe_id)

    @property
    def acting(self) -> TurnState:
        """The adventurer's turn under way, for what happens only in one
        (``turn`` is None between turns); KeyError outside a turn."""
        if self.turn is None:
            raise KeyError("no adventurer's turn is under way")
        return self.turn

    @property
    def engage_waiting(self) -> PendingEngage:
        """The engage whose rolled dice wait to be resolved, for what is
        decided only while they wait (ENGAGE-8)."""
        if self.pending is None:
            raise InternalError("no rolled dice wait to be resolved")
        return self.pending

    @property
    def roll_waiting(self) -> PendingEnemyRoll:
        """The enemy roll waiting to be typed, in the phase that waits on it
        (physical dice: ENEMY-6c)."""
        if self.enemy_roll is None:
            raise InternalError("no enemy roll waits to be typed")
        return self.enemy_roll

    @property
    def defense_waiting(self) -> PendingDefense:
        """The strike waiting for a defense, in the phase that waits on it
        (choose-defense option: COMBAT-4)."""
        if self.defense is None:
            raise InternalError("no strike waits for a defense")
        return self.defense

    @property
    def ally_acting(self) -> AllyTurn:
        """The companion turn under way, for what happens only in one
        (ROUND-6: a companion's command starts its turn first)."""
        if self.ally_turn is None:
            raise InternalError("no companion's turn is under way")
        return self.ally_turn

    @property
    def final_outcome(self) -> Outcome:
        """How the battle ended, for what is read only once it has (the
        write-back to the adventurers, CLEANUP-3b)."""
        if self.outcome is None:
            raise InternalError(f"battle {self.battle_id} has not ended")
        return self.outcome

    @property
    def termination(self) -> Termination | None:
        """Why the battle ended; None while it goes on."""
        return Termination(self.ended_reason) if self.ended_reason else None

    @property
    def fatigue_round(self) -> bool:
        """The counter shows the Fatigue Round (FATIGUE-ROUND-1)."""
        return is_fatigue_round(self.round)
