"""Closed vocabularies of the Betrayal rules, as enums."""

from __future__ import annotations

from domain.kernel.enums import PlainStr, StrValued


class BattleForm(StrValued):
    """The five battle forms (FORM-3 to FORM-7)."""

    DEFENSIVE = "defensive"
    HEAVY = "heavy"
    LIGHT = "light"
    RANGED = "ranged"
    MAGIC = "magic"


class Pool(StrValued):
    """Which stat limits how many of a die may be gathered (ENGAGE-7a)."""

    STAMINA = "stamina"
    MAGICKA = "magicka"


class AbilityType(StrValued):
    """A skill-die face's ability code (ACTIVE-10, TRACK-11, DRAINED-1,
    INSTANT-1, STATUS-1)."""

    INSTANT = "instant"
    ACTIVE = "active"
    TRACK = "track"
    DRAINED = "drained"
    STATUS = "status"


class Effect(StrValued):
    """What a face does when its ability resolves (our sample vocabulary)."""

    COMBAT = "combat"  # Combat die: damage in weapon forms, block in Defensive (COMBAT-3/4)
    DAMAGE = "damage"  # physical damage to the target
    TRUE_DAMAGE = "true-damage"  # damage that Defense cannot prevent
    BLOCK = "block"  # sits in an active slot; exhaust to prevent that much damage
    HEAL = "heal"  # heal yourself
    BONUS_HP = "bonus-hp"  # gain bonus HP (HEALTH-8)
    WARD = "ward"  # while on your track, prevent that much of each damage instance
    STATUS = "status"  # place the die on the target as a status effect
    BLANK = "blank"  # nothing


class Status(StrValued):
    """The six status effects (betrayal-facts: STATUS-1)."""

    BANE = "bane"
    BLIND = "blind"
    DAZE = "daze"
    FEAR = "fear"
    MAIM = "maim"
    STEALTH = "stealth"


class Priority(StrValued):
    """An enemy's priority icon (facts: ENEMY-6a)."""

    STRONGEST = "strongest"
    WEAKEST = "weakest"


class EnemyKind(StrValued):
    """An enemy chip's type (facts: ECHIP-1)."""

    HUMANOID = "humanoid"
    BEAST = "beast"
    DAEDRA = "daedra"


class EnemySkill(StrValued):
    """The enemy skills our sample pack uses (ESKILL-1; facts say ~56 exist)."""

    TRUE_STRIKE = "true-strike"  # its damage is true damage
    BRUTAL = "brutal"  # +1 damage to each target it damages
    VENOM = "venom"  # each target it damages gains Bane
    BLINDING = "blinding"  # each target it damages gains Blind
    DAZING = "dazing"  # each target it damages gains Daze
    CRIPPLING = "crippling"  # each target it damages gains Maim
    TERROR = "terror"  # each target it damages gains Fear
    REGENERATE = "regenerate"  # heals 1 HP at the start of its turn


class Bag(StrValued):
    """Enemy draw bags: level 1 backs level 5, level 10 backs level 20
    (facts: CLEANUP-5a)."""

    LESSER = "lesser"  # levels 1 and 5
    GREATER = "greater"  # levels 10 and 20


BAG_LEVELS: dict[Bag, tuple[int, int]] = {Bag.LESSER: (1, 5), Bag.GREATER: (10, 20)}
LEVELS = (20, 10, 5, 1)


class Objective(StrValued):
    """Encounter objectives: Conquer and Eliminate X for clashes and
    dungeons (OBJ-1, OBJ-3), Survey and Uncover for delves (OBJ-4, OBJ-8)."""

    CONQUER = "conquer"
    ELIMINATE = "eliminate"
    SURVEY = "survey"
    UNCOVER = "uncover"


DELVE_OBJECTIVES = (Objective.SURVEY, Objective.UNCOVER)


class Mode(StrValued):
    """The three battle modes (CLASH-1, DELVE-1, DUNGEON-1)."""

    CLASH = "clash"
    DELVE = "delve"
    DUNGEON = "dungeon"


class TileIcon(StrValued):
    """What a delve tile prints on a hex (DELVE-2, EXPLORATION-1,
    EXPLORATION-10a, EXPLORATION-11)."""

    NONE = ""
    CONNECTION = "connection"
    COMMON = "common"  # a Common item hex: caches go here
    ENEMY = "enemy"  # an enemy hex: enemies are deployed here


class CardEffect(StrValued):
    """What a delve card's When Revealed or skyshard effect does
    (EXPLORATION-8, SKYSHARD-5): our own small vocabulary."""

    DAMAGE_ALL = "damage-all"  # each adventurer on the map suffers the amount in damage
    FATIGUE_EXPLORER = "fatigue-explorer"  # the explorer gains that much light fatigue
    HEAL_ALL = "heal-all"  # each adventurer on the map heals the amount
    BONUS_HP = "bonus-hp"  # the adventurer (explorer, or who took the skyshard) gains bonus HP
    EXTRA_EP = "extra-ep"  # the revealed tile's EP rises by the amount


class Environment(StrValued):
    """A delve card's lasting effect on its tile (EXPLORATION-12)."""

    MIASMA = "miasma"  # an adventurer who starts their turn on the tile suffers the amount in damage
    SANCTUARY = "sanctuary"  # an adventurer who starts their turn on the tile heals the amount


class Difficulty(StrValued):
    """Difficulty levels (facts: CLEANUP-4c)."""

    APPRENTICE = "apprentice"
    ADEPT = "adept"
    EXPERT = "expert"


class Marker(StrValued):
    """What a setup diagram marks on a hex (CLASH-3, CLASH-6, CLASH-7)."""

    NONE = ""
    ENEMY = "enemy"  # numbered enemy hex
    COMMON_CACHE = "common"
    LEGENDARY_CACHE = "legendary"
    SPECIAL = "special"  # ★ hex: objective units of the encounter text


# ---------------------------------------------------------------- campaign
# StrEnums: their members are plain strings too, so a rule may compare them
# with the strings a command carries.


class AbilityTiming(PlainStr):
    """When a class ability acts (CLASS-1, CLASS-3, CLASS-4; facts: CLASS-2a)."""

    INNATE = "innate"  # the sheet's top ability: passive, free, optional
    ACTION = "action"  # on your own turn, by spending its tenacity
    ENDURING = "enduring"  # on while your tenacity is at least its cost; spends none
    INTERRUPT = "interrupt"  # on its trigger, before anything else resolves


class Trigger(PlainStr):
    """What sets off an Interrupt ability (CLASS-4): our own closed set."""

    DAMAGED = "damaged"  # you suffer damage
    ALLY_DAMAGED = "ally-damaged"  # an adjacent adventurer suffers damage
    ENGAGED = "engaged"  # an enemy engages you
    ENEMY_DEFEATED = "enemy-defeated"  # an enemy you engaged is defeated
    TURN_START = "turn-start"  # your turn starts


class EffectKind(PlainStr):
    """What a class ability or an item does, each simple enough for a battle
    engine to apply: ``amount`` is how much, ``status`` only for STATUS."""

    DAMAGE = "damage"  # deal the amount in damage to one target in reach
    TRUE_DAMAGE = "true-damage"  # the same, and Defense cannot prevent it
    HEAL = "heal"  # heal the amount
    BONUS_HP = "bonus-hp"  # gain the amount in bonus HP (HEALTH-8)
    BLOCK = "block"  # prevent the amount of the damage of one engage
    WARD = "ward"  # prevent the amount of each damage instance until your next turn
    RECOVER = "recover"  # recover up to the amount of dice from your cooldown track
    MOVE = "move"  # move up to the amount in hexes (free movement, not a Move action)
    STATUS = "status"  # put ``status`` on a target (on yourself for Stealth)
    CLEANSE = "cleanse"  # remove up to the amount of status effects from yourself
    TENACITY = "tenacity"  # gain the amount in tenacity, up to the maximum
    EXTRA_ENGAGE = "extra-engage"  # take the amount of extra Engage actions this turn
    EXTRA_DICE = "extra-dice"  # roll the amount of extra Combat dice in this engage (free dice)
    REROLL = "reroll"  # reroll up to the amount of the dice you rolled
    # place a Light fatigue die in your active slots as a block of the amount (ACTIVE-8)
    FATIGUE_BLOCK = "fatigue-block"
    # remove one of your active block dice (ACTIVE-5) and deal its value, up to the amount, to an enemy in reach
    HURL_BLOCK = "hurl-block"


class ItemKind(PlainStr):
    """An item card's type (WEAPON-1 to PET-4)."""

    WEAPON = "weapon"
    ARMOR = "armor"
    CLOTHING = "clothing"
    POTION = "potion"
    CONSUMABLE = "consumable"
    ENCHANTMENT = "enchantment"
    PET = "pet"
    MISC = "misc"


class ArmorTrait(PlainStr):
    """An Armor card's Trait: one of each in the ready slots (ARMOR-3)."""

    HEAD = "head"
    BODY = "body"
    HANDS = "hands"
    FEET = "feet"
    SHIELD = "shield"


class Attaches(PlainStr):
    """What an Enchantment is attached to (ENCHANT-1; facts: the Clash tile)."""

    ADVENTURER = "adventurer"
    CLASH_TILE = "clash-tile"


class MatAttribute(PlainStr):
    """The round tokens a new adventurer's mat starts with (ADVANCE-2, ADVANCE-14)."""

    HEALTH = "health"
    STAMINA = "stamina"
    MAGICKA = "magicka"
    COMBAT = "combat"
