"""The typed content of a labyrinth pack: classes, skills, weapons, armour,
items, enemies and encounters. Built and validated by ``packs.py`` from the
TOML files of ``content/``; everything here is data, no rule.

Numbers follow labyrinth-facts.md where it gives formulas (derived stats
from the five abilities, section 3); the rest (what each skill does) is
the pack's own. Fields may be added with defaults; never remove one that a
log may have been played with (the pack's hash is recorded at setup).
"""

from __future__ import annotations

import msgspec

from .vocab import Ailment, Attribute, Bind, Buff, Effect, Reach, Row, Speed, Targets, Timing, Part


class Abilities(msgspec.Struct, frozen=True, kw_only=True):
    """The five abilities; each derived stat uses their bonus, floor(x / 5)."""

    str: int
    tec: int
    vit: int
    agi: int
    luc: int


class SkillEffect(msgspec.Struct, frozen=True, kw_only=True):
    """One thing a skill or item does, in order. Fields unused by the
    ``effect`` keep their defaults."""

    effect: Effect
    targets: Targets = Targets.OPPONENT
    # attack: physical unless ``elemental``; attribute None = the weapon's base
    # attribute (MAIN-3); reach None = the weapon's; ``dice`` adds to the
    # damage dice count; ``hits`` attack rolls per target (HIT-2)
    elemental: bool = False
    attribute: Attribute | None = None
    reach: Reach | None = None
    dice: int = 0
    hits: int = 1
    # heal: Recovery roll of [Elemental attack] + ``dice`` D6 (HEAL-3)
    # buff: the kind, its amount (●), element (●) and turns (0: DEFAULT_BUFF_TURNS)
    buff: Buff | None = None
    amount: int = 0
    element: Attribute | None = None
    turns: int = 0
    # ailment / bind: what is inflicted, and the resistance target's bonus on
    # top of the user's [Suppression attack] (facts: Fills DEPTH-2); ``chance``
    # on hit only (an attack effect before it must hit)
    ailment: Ailment | None = None
    bind: Bind | None = None
    target_bonus: int = 7
    on_hit: bool = False
    # cure: which ailments/binds it removes (empty: all)
    cures: tuple[str, ...] = ()
    # guard: damage taken from the answered attack roll is divided by ``divide``
    divide: int = 2
    # token: the enemy kind placed as a token, and for how many turns
    token: str = ""


class Skill(msgspec.Struct, frozen=True, kw_only=True):
    """A skill of a class or an Enemy (STANDBY-5, MAIN-4, PASSIVE-2)."""

    id: str
    name: str
    timing: Timing
    effects: tuple[SkillEffect, ...]
    part: Part = Part.NONE  # BIND-2
    tp: int = 0  # its cost in [TP]
    fp: int = 0  # its cost in [FP], paid like its TP (facts: Fills FUMBLE-2); PCs' skills only
    speed: Speed = Speed.NORMAL  # a Main action's place in the order (ORDER-3)
    delay: int = 0  # a delayed attack: resolves in the End phase this many turns on (facts section 8)
    on_critical: bool = False  # triggers when its user's damage roll is a critical (CRIT-3)
    text: str = ""


class Weapon(msgspec.Struct, frozen=True, kw_only=True):
    """A weapon: its base attribute (MAIN-3), reach and attack values."""

    id: str
    name: str
    attribute: Attribute
    reach: Reach
    patk: int = 0
    eatk: int = 0
    speed: int = 0


class Armor(msgspec.Struct, frozen=True, kw_only=True):
    """Armour: [Defense] and any [Speed] change."""

    id: str
    name: str
    defense: int
    speed: int = 0


class Item(msgspec.Struct, frozen=True, kw_only=True):
    """A consumable used as a Main action (MAIN-6)."""

    id: str
    name: str
    effects: tuple[SkillEffect, ...]
    text: str = ""


class ClassSheet(msgspec.Struct, frozen=True, kw_only=True):
    """A class: abilities at level 1 and their growth per level, its skills
    (learned by level), and its starting equipment."""

    id: str
    name: str
    abilities: Abilities
    growth: Abilities  # added per level above 1
    skills: tuple[tuple[int, str], ...]  # (level learned, skill id)
    weapon: str
    other: str = ""  # a second weapon in the Other slot (STANDBY-4), or ""
    armor: str = ""
    items: tuple[str, ...] = ()
    row: Row = Row.FRONT  # where it stands unless placed otherwise


class Drop(msgspec.Struct, frozen=True, kw_only=True, array_like=True):
    """A drop-table line: a 2D6 total at least ``roll`` gives ``item``."""

    roll: int
    item: str


class Rare(msgspec.Struct, frozen=True, kw_only=True):
    """How an Enemy kind's rare variant differs from its sheet (facts
    section 8, "Rare Enemies"): [HP] times ``hp`` (2 or 3), every
    resistance 0 becomes 1 and 1 becomes 2, and the GM's optional bonuses
    within the facts' bounds: ``hit`` (0-1) to both hits, ``evasion``
    (0-1), ``attack`` (0-2) to both attacks, ``defense`` (0-2). ``name``:
    what the party calls it once spotted ("": "Rare " and the kind's name).
    A kind without a ``rare`` table has the plainest variant, all defaults."""

    hp: int = 2
    hit: int = 0
    evasion: int = 0
    attack: int = 0
    defense: int = 0
    name: str = ""


class EnemyKind(msgspec.Struct, frozen=True, kw_only=True):
    """An Enemy's sheet: its stats directly (Enemies have no abilities)."""

    id: str
    name: str
    level: int
    hp: int
    tp: int = 0
    speed: int
    phit: int
    ehit: int = 0
    evasion: int
    patk: int
    eatk: int = 0
    defense: int = 0
    sdef: int = 0
    satk: int = 0
    attribute: Attribute = Attribute.BASH  # its Normal attack's attribute
    reach: Reach = Reach.NEAR
    resist: dict[Attribute, int] = {}  # missing attributes: 0
    skills: tuple[str, ...] = ()
    drops: tuple[Drop, ...] = ()
    rarity: int = 10  # the Identify target (facts: Fills ENEMY-3)
    token: bool = False  # only placed by a skill, never in an encounter
    # its "Weakness" skills (facts: Fills ENEMY-3): attribute -> how far that
    # resistance falls (not below 0), only while some PC has Identified it
    weak: dict[Attribute, int] = {}
    rare: Rare = Rare()  # its rare variant (facts section 8)


class EncounterEnemy(msgspec.Struct, frozen=True, kw_only=True):
    """One Enemy of an encounter: its kind, row, link group ("" none), and
    whether it is its kind's rare variant."""

    enemy: str
    row: Row = Row.FRONT
    link: str = ""  # Enemies of one link group act together (facts section 8)
    rare: bool = False  # the kind's rare variant (facts section 8, "Rare Enemies")


class Encounter(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    enemies: tuple[EncounterEnemy, ...]
    text: str = ""


class Pack(msgspec.Struct, frozen=True, kw_only=True):
    """A validated labyrinth pack; ``hash`` covers every file's bytes."""

    id: str
    name: str
    hash: str
    classes: dict[str, ClassSheet]
    skills: dict[str, Skill]
    weapons: dict[str, Weapon]
    armor: dict[str, Armor]
    items: dict[str, Item]
    enemies: dict[str, EnemyKind]
    encounters: dict[str, Encounter]
    version: str = ""  # the pack's own version label (pack.toml)
