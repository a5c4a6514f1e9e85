"""The typed shape of a Betrayal content pack. Loading and validation live in
``load.py``; this module only declares what a valid pack holds."""

from __future__ import annotations

import msgspec

from domain.kernel.errors import InternalError
from domain.kernel.hexes import Hex

# The campaign Structs live in their own module; importing them here lets
# callers take every pack Struct from ``catalog``.
from domain.betrayal.vocab import (
    AbilityType,
    Bag,
    BattleForm,
    CardEffect,
    Effect,
    EnemyKind,
    EnemySkill,
    Environment,
    Marker,
    Mode,
    Objective,
    Pool,
    Priority,
    Status,
    TileIcon,
)

from .catalog_companions import CompanionChip
from .catalog_campaign import (  # noqa: F401
    AbilityEffect,
    CampaignRules,
    ClassAbility,
    ClassSheet,
    Gear,
    Rest,
    SessionEp,
)


class Race(msgspec.Struct, frozen=True, kw_only=True):
    """A race sheet's starting stats (facts: HEALTH-1)."""

    id: str
    name: str
    health: int
    stamina: int
    magicka: int
    combat_dice: int
    cooldown: int
    ability: str  # name of the once-per-battle ability (not modelled yet)


class Face(msgspec.Struct, frozen=True, kw_only=True):
    """One face of a skill die. ``tenacity`` marks the Tenacity face
    (ENGAGE-8d); otherwise ``ability`` and ``effect`` say what it does."""

    tenacity: bool = False
    ability: AbilityType | None = None
    effect: Effect = Effect.BLANK
    amount: int = 0
    status: Status | None = None

    @property
    def placed(self) -> Status:
        """The status a status face places (a status face names one: checked
        as the pack is read)."""
        if self.status is None:
            raise InternalError(f"a {self.effect.value} face places no status")
        return self.status


def describe_face(face: Face) -> str:
    """A face in words: ``Tenacity``, ``blank``, ``combat 1``,
    ``instant damage 2``, ``status daze``."""
    if face.tenacity:
        return "Tenacity"
    if face.effect is Effect.BLANK:
        return "blank"
    if face.effect is Effect.COMBAT:
        return f"combat {face.amount}"
    if face.effect is Effect.STATUS:
        return f"status {face.status.value if face.status else '?'}"
    ability = f"{face.ability.value} " if face.ability else ""
    return f"{ability}{face.effect.value.replace('-', ' ')} {face.amount}"


class SkillDie(msgspec.Struct, frozen=True, kw_only=True):
    """A kind of skill die (the Combat die included)."""

    id: str
    name: str
    line: str
    level: int
    pool: Pool
    form: BattleForm | None  # battle-form icon, None for no icon (ENGAGE-7b)
    faces: tuple[Face, ...]  # exactly six


class SkillLine(msgspec.Struct, frozen=True, kw_only=True):
    """A skill line: its pool, battle-form icon, and the dice a new adventurer starts with."""

    id: str
    name: str
    pool: Pool
    form: BattleForm | None
    starter: bool = False  # one of the lines a new adventurer may start with
    start_dice: tuple[str, ...] = ()  # die ids a new adventurer of this line starts with


class Enemy(msgspec.Struct, frozen=True, kw_only=True):
    """One side of an enemy chip (facts: ECHIP-1)."""

    id: str
    name: str
    level: int
    kind: EnemyKind
    hp: int
    defense: int
    range: int
    combat: int  # enemy Combat dice rolled
    targets: int  # 0 means "all"
    priority: Priority
    skill: EnemySkill | None = None
    quest: bool = False  # a quest unit: never in a bag (ENEMY-2, STATUS-3)


class Chip(msgspec.Struct, frozen=True, kw_only=True):
    """A two-sided enemy chip in a draw bag (facts: CLEANUP-5a)."""

    bag: Bag
    front: str  # enemy id of the lower level side
    back: str | None = None  # enemy id of the higher level side


class MapHex(msgspec.Struct, frozen=True, kw_only=True, array_like=True):
    """One hex of a setup diagram."""

    hex: Hex
    tile: str  # "E" for the Entrance tile, a letter for other tiles
    impassable: bool = False
    marker: Marker = Marker.NONE
    number: int = 0  # enemy hex number (CLASH-7), 0 when not numbered


class Setup(msgspec.Struct, frozen=True, kw_only=True):
    """A clash or dungeon setup diagram (CLASH-3 to CLASH-7, DUNGEON-6 to
    DUNGEON-8). A dungeon's ``encounter`` is its encounter text."""

    id: str
    name: str
    objective: Objective
    objective_units: tuple[str, ...] = ()  # enemy ids placed on special hexes (OBJ-3)
    rows: tuple[str, ...]  # the diagram as written in the pack
    hexes: tuple[MapHex, ...]  # parsed from rows
    mode: Mode = Mode.CLASH
    encounter: str = ""


class TileHex(msgspec.Struct, frozen=True, array_like=True):
    """One hex of a delve tile, in the tile's own axial coordinates."""

    hex: Hex
    icon: TileIcon = TileIcon.NONE


class DelveTile(msgspec.Struct, frozen=True, kw_only=True):
    """A delve tile (DELVE-2): its shape (which delve cards draw it,
    EXPLORATION-7) and its hexes with their icons. The Entrance tile is the
    pack's ``entrance``, of shape ``entrance``."""

    id: str
    name: str
    shape: str
    rows: tuple[str, ...]  # as written in the pack
    hexes: tuple[TileHex, ...]  # parsed from rows; (0, 0) is the first hex of the first row


class CardAction(msgspec.Struct, frozen=True, kw_only=True):
    """A delve card's When Revealed or skyshard effect."""

    effect: CardEffect
    amount: int
    text: str  # the card's words, for people


class TileEnvironment(msgspec.Struct, frozen=True, kw_only=True):
    """An environment effect that applies to its tile (EXPLORATION-12)."""

    kind: Environment
    amount: int
    text: str


class LockCode(msgspec.Struct, frozen=True, kw_only=True):
    """A difficulty code (facts: MOVE-5): how many attempts, and the digits
    (1 to 6) the three lockpick dice must match."""

    attempts: int
    digits: tuple[int, ...]


class Trap(msgspec.Struct, frozen=True, kw_only=True):
    """A trap on its tile (EXPLORATION-12; facts: traps are tested on
    entry, before caches): its code and the damage a failed test deals."""

    code: LockCode
    damage: int
    text: str


class DelveCard(msgspec.Struct, frozen=True, kw_only=True):
    """A delve card (EXPLORATION-6): the tile shape it reveals, its caches,
    its challenge scale (one row per party size, 1 to 4: each box an enemy
    and its highest level, EXPLORATION-11a), its skyshard icons and what
    taking them does, and its When Revealed, environment or trap text.
    ``sp`` is the "SP" mark (CLEANUP-6)."""

    id: str
    name: str
    shape: str
    legendary: int = 0
    common: int = 0
    scale: tuple[tuple[int, ...], ...]  # scale[party size - 1]
    skyshards: int = 0
    skyshard_effect: CardAction | None = None
    when_revealed: CardAction | None = None
    environment: TileEnvironment | None = None
    trap: Trap | None = None
    sp: bool = False


class ItemCard(msgspec.Struct, frozen=True, kw_only=True):
    """An item card a cache gives (ITEM-1): a name and a value until items
    have effects; ``code`` is the difficulty code on its back (facts: MOVE-5)."""

    id: str
    name: str
    legendary: bool = False
    value: int
    code: LockCode


class DelveSetup(msgspec.Struct, frozen=True, kw_only=True):
    """A delve encounter (DELVE-7 to DELVE-12): its objective and how many
    skyshards it requires (SKYSHARD-3, OBJ-5)."""

    id: str
    name: str
    objective: Objective
    skyshards: int = 3
    text: str = ""


class Pack(msgspec.Struct, frozen=True, kw_only=True):
    """A whole content pack, validated."""

    id: str
    name: str
    version: str
    hash: str  # BLAKE2b of the pack's files, written into BattleStarted
    races: dict[str, Race]
    lines: dict[str, SkillLine]
    dice: dict[str, SkillDie]
    enemies: dict[str, Enemy]
    chips: tuple[Chip, ...]
    setups: dict[str, Setup]
    default_lines: tuple[str, ...] = ()  # lines a new adventurer gets when none are named
    # Delves and dungeons (their own files, so their content has its own hash:
    # a clash records ``hash``, a delve or dungeon ``delve_hash``, of every file).
    delve_hash: str = ""
    entrance: DelveTile | None = None
    tiles: dict[str, DelveTile] = {}
    cards: dict[str, DelveCard] = {}
    items: dict[str, ItemCard] = {}
    delves: dict[str, DelveSetup] = {}
    dungeons: dict[str, Setup] = {}
    # Campaign content (its own four files; ``campaign_hash`` covers every
    # file of the pack). ``dice`` above also holds the level-2 and level-3
    # dice of training.toml when they are there.
    campaign_hash: str = ""
    classes: dict[str, ClassSheet] = {}
    gear: dict[str, Gear] = {}
    campaign: CampaignRules | None = None
    # Companion chips (companions.toml, optional and in no hash).
    companions: dict[str, CompanionChip] = {}

    def class_ability(self, ability_id: str) -> ClassAbility:
        """The class ability ``ability_id``, from a class sheet or granted by
        a Clothing item (ability ids are unique across both); KeyError if
        the pack has none."""
        for sheet in self.classes.values():
            for ability in (*sheet.abilities, *sheet.master):
                if ability.id == ability_id:
                    return ability
        for item in self.gear.values():
            if item.ability is not None and item.ability.id == ability_id:
                return item.ability
        raise KeyError(f"no class ability {ability_id!r} in pack {self.id!r}")
