"""Commands a Betrayal party can give: imperative, frozen, tagged by class
name so the log can hold any of them (DESIGN: the log records the intent)."""

from __future__ import annotations

from typing import ClassVar

import msgspec

from domain.kernel.hexes import Hex
from domain.kernel.messages import Command
from domain.kernel.position.messages import StartFromPosition

from domain.betrayal.delve.deck import ItemDeck
from domain.betrayal.vocab import BattleForm, Difficulty

from .companions.commands import CompanionEngage, CompanionMove, EndCompanionTurn, Escort


class Member(msgspec.Struct, frozen=True, kw_only=True):
    """One adventurer joining a battle, as copied from its Adventurer."""

    adventurer_id: str
    name: str
    race: str
    hp: int
    max_hp: int
    stamina: int
    magicka: int
    cooldown: int
    tenacity: int
    dice: tuple[tuple[int, str], ...]  # (uid, die id)
    track: tuple[tuple[str, int, int, str], ...] = ()  # carried over (CLEANUP-4c)
    form: BattleForm = BattleForm.LIGHT
    class_id: str = ""  # its class sheet (CLASS-1), "" for none
    master: bool = False  # the sheet's Master side is up (ADVANCE-15)
    ready: tuple[str, ...] = ()  # the items in its ready slots (READY-2)
    weapons: int = 0  # Weapon items in its whole inventory (RACE-NORD)
    expended: tuple[str, ...] = ()  # ready items turned sideways (EXPEND-1)
    packed: tuple[str, ...] = ()  # items in its Pack, for a Breton's Opportunist (RACE-BRETON)
    enchantments: tuple[str, ...] = ()  # attached to it earlier in the session, still on it (ENCHANT-2, ENCHANT-3)
    companions: tuple[str, ...] = ()  # permanent companion chips it brings from earlier battles (CLEANUP-3c)

    fighting: str = ""  # a battle it is in, not ended yet (BETWEEN-1)

    # Added with the campaign: logs from before hold members without them.
    __digest_skip_default__: ClassVar[frozenset[str]] = frozenset(
        {"class_id", "master", "ready", "weapons", "expended", "packed", "fighting", "enchantments", "companions"}
    )


class StartClash(Command, frozen=True, kw_only=True):
    """Set up a clash (CLASH-5 to CLASH-10). ``party`` is in turn order, the
    first player first (CLASH-8a); ``placements`` optionally names each
    adventurer's Entrance hex."""

    battle_id: str
    setup: str
    party: tuple[Member, ...]
    xp: int
    seed: int
    difficulty: Difficulty = Difficulty.ADEPT
    physical_dice: bool = False
    placements: tuple[Hex, ...] = ()
    choose_defense: bool = False  # damage to an adventurer waits for a Defend (COMBAT-4)
    companions: tuple[Escort, ...] = ()  # companion units and who controls each (CLASH-9, DELVE-11, DUNGEON-10)

    # Added after logs were written: an old log's command is read without them.
    __digest_skip_default__: ClassVar[frozenset[str]] = frozenset({"choose_defense", "companions"})


class StartDungeon(StartClash, frozen=True, kw_only=True):
    """Set up a dungeon from its diagram (DUNGEON-6 to DUNGEON-11): ``setup``
    names a dungeon; ``specials`` optionally chooses, in order, the special
    hex of each objective unit (DUNGEON-8e: the party chooses)."""

    specials: tuple[Hex, ...] = ()


class StartDelve(Command, frozen=True, kw_only=True):
    """Set up a delve (DELVE-7 to DELVE-12): ``delve`` names the encounter;
    ``party`` is in turn order, the first player first (DELVE-10a);
    ``placements`` optionally names each adventurer's Entrance hex."""

    battle_id: str
    delve: str
    party: tuple[Member, ...]
    xp: int
    seed: int
    difficulty: Difficulty = Difficulty.ADEPT
    physical_dice: bool = False
    placements: tuple[Hex, ...] = ()
    choose_defense: bool = False  # damage to an adventurer waits for a Defend (COMBAT-4)
    item_deck: ItemDeck | None = None  # a campaign party's item deck as it stands (ITEM-9)
    companions: tuple[Escort, ...] = ()  # companion units and who controls each (CLASH-9, DELVE-11, DUNGEON-10)

    # Added after logs were written: an old log's command is read without them.
    __digest_skip_default__: ClassVar[frozenset[str]] = frozenset({"choose_defense", "item_deck", "companions"})


class Move(Command, frozen=True, kw_only=True):
    """Move the current adventurer to ``to`` by a shortest free route (MOVE-1)."""

    to: Hex

    explore: ClassVar[bool] = False


class MoveToExplore(Command, frozen=True, kw_only=True):
    """In a delve: a Move to the explorable hex ``to`` that explores it on
    entering (EXPLORATION-3a, no action: EXPLORATION-3c); the rest of the
    move may follow afterwards (EXPLORATION-3b)."""

    to: Hex

    explore: ClassVar[bool] = True


class Explore(Command, frozen=True, kw_only=True):
    """In a delve: with ``hex``, the Explore action from a distance (EXPLORE-1,
    EXPLORATION-4); without, explore the hex the adventurer starts its turn
    on (EXPLORATION-3a, DELVE-10d), which is no action (EXPLORATION-3c)."""

    hex: Hex | None = None


class PlaceTile(Command, frozen=True, kw_only=True):
    """Connect the revealed tile where the party chooses (EXPLORATION-9b):
    turned ``rotation`` sixths clockwise, its first hex (its own (0, 0)) on ``origin``."""

    rotation: int
    origin: Hex


class Engage(Command, frozen=True, kw_only=True):
    """Declare an engage (ENGAGE-4 to ENGAGE-7): battle form, the one target
    (optional), and the dice to gather and roll, by uid. With physical dice
    ``faces`` gives the face index each die landed on."""

    form: BattleForm
    target: str | None = None
    dice: tuple[int, ...] = ()
    faces: tuple[int, ...] | None = None
    weapon: str = ""  # the one ready Weapon applied, decided before rolling (WEAPON-2, WEAPON-3)
    overtax: bool = False  # trigger that Weapon's Overtax too (OVERTAX-2)

    # Added after logs were written: an old log's command is read without them.
    __digest_skip_default__: ClassVar[frozenset[str]] = frozenset({"weapon", "overtax"})


class Resolve(Command, frozen=True, kw_only=True):
    """Resolve the rolled dice (ENGAGE-8). Dice listed in ``skip`` (positions
    in the roll) are left unresolved and exhausted (ENGAGE-8e)."""

    skip: tuple[int, ...] = ()


class ClearActive(Command, frozen=True, kw_only=True):
    """Remove an active die without resolving it, to make room (ACTIVE-4)."""

    slot: int


class EndTurn(Command, frozen=True, kw_only=True):
    """End the current adventurer's turn (TURN-6)."""


class RollEnemyDice(Command, frozen=True, kw_only=True):
    """Physical dice: the faces an enemy's dice landed on (ENEMY-6c)."""

    faces: tuple[int, ...]


class UseRaceAbility(Command, frozen=True, kw_only=True):
    """Use ``hero``'s once-per-battle race ability (RACE-*; the current
    adventurer when None). What it needs by race: Dark Elf ``dice``, the
    skill dice to recover from the track; Redguard ``slots``, track
    positions (from 0) of fatigue or status dice to remove; High Elf
    ``targets`` (one adventurer) and ``hex`` (an Entrance hex); Wood Elf
    ``targets`` (up to 2 party members), with ``arm`` readied on its own
    turn for the start of the next enemy's turn; Khajiit, after its lock
    was picked, ``hex`` for the free move. Argonian, Imperial, Nord and
    Khajiit without options arm the reaction for its next trigger; Orc ends
    the turn and takes an extra one."""

    hero: str | None = None
    dice: tuple[int, ...] = ()
    slots: tuple[int, ...] = ()
    targets: tuple[str, ...] = ()
    hex: Hex | None = None
    arm: bool = False

    # Added after logs were written: left out of the digest at its default.
    __digest_skip_default__: ClassVar[frozenset[str]] = frozenset({"arm"})


class Defend(Command, frozen=True, kw_only=True):
    """Choose-defense option: how the adventurer about to take damage
    defends (COMBAT-4): the active ``blocks`` to exhaust (slots from 0;
    None for the default choice, ``damage.choose_blocks``), and whether it
    uses its race reaction (``race``: RACE-ARGONIAN, RACE-IMPERIAL) on the
    damage left."""

    blocks: tuple[int, ...] | None = None
    race: bool = False
    gear: tuple[str, ...] | None = None  # ready Armor and Pets to use (ARMOR-2; None: every one that applies)
    overtax: tuple[str, ...] = ()  # Armor whose Overtax is triggered too (OVERTAX-3)

    # Added after logs were written: an old log's command is read without them.
    __digest_skip_default__: ClassVar[frozenset[str]] = frozenset({"gear", "overtax"})


class UseGear(Command, frozen=True, kw_only=True):
    """Use a ready item (ITEM-3 to ITEM-6; ``hero`` the current adventurer
    when None): a Potion, Consumable or Miscellaneous item on your turn; an
    Enchantment attached to ``target`` (an adventurer, or "tile" for the
    Clash tile you stand on); an Armor with ``overtax`` readied to Overtax
    at the next enemy engage against you; a reroll item or Enchantment
    while rolled dice wait, rerolling the ``dice`` at those roll positions
    (``faces`` typed with physical dice); a move item to ``hex``. A Breton
    after Opportunist names a Pack item to ready (RACE-BRETON)."""

    item: str
    hero: str | None = None
    target: str = ""
    overtax: bool = False
    dice: tuple[int, ...] = ()
    faces: tuple[int, ...] | None = None
    hex: Hex | None = None


class TurnClassSheet(Command, frozen=True, kw_only=True):
    """Turn ``hero``'s class sheet to its Master side in the middle of the
    battle, once its promotion requirement is met (ADVANCE-16; facts: at
    any moment once earned). ``hero`` defaults to whoever's turn it is."""

    hero: str | None = None


class UseClassAbility(Command, frozen=True, kw_only=True):
    """Use the class ability ``ability`` of ``hero`` (the current adventurer
    when None): from its class sheet, its Master side once promoted, or a
    ready Clothing (CLASS-1, ADVANCE-15, CLOTHING-1). An Action acts at
    once on ``target`` (an enemy, or an adventurer for a heal), ``hex`` (a
    move) or the roll positions ``dice`` of the engage waiting to be
    resolved (a reroll; ``faces`` typed with physical dice) or the active
    ``slot`` whose die it removes (ACTIVE-5; by default the block die of
    the highest value); an Interrupt is armed for its trigger (CLASS-4).
    ``change_form``: gain 1 Light fatigue to take the battle form the
    ability needs (CLASS-5)."""

    ability: str
    hero: str | None = None
    target: str = ""
    hex: Hex | None = None
    dice: tuple[int, ...] = ()
    faces: tuple[int, ...] | None = None
    change_form: bool = False
    slot: int | None = None

    # Added after logs were written: left out of the digest at its default.
    __digest_skip_default__: ClassVar[frozenset[str]] = frozenset({"slot"})


class NextRound(Command, frozen=True, kw_only=True):
    """At the end of a round, go on to the next one (ROUND-8)."""


class Retreat(Command, frozen=True, kw_only=True):
    """At the end of a round, the party retreats (RETREAT-1, ROUND-8c)."""


BattleCommand = (
    StartClash
    | StartDungeon
    | StartDelve
    | StartFromPosition
    | Move
    | MoveToExplore
    | Explore
    | PlaceTile
    | Engage
    | Resolve
    | ClearActive
    | EndTurn
    | RollEnemyDice
    | NextRound
    | Retreat
    | UseRaceAbility
    | Defend
    | UseGear
    | UseClassAbility
    | TurnClassSheet
    | CompanionMove
    | CompanionEngage
    | EndCompanionTurn
)
