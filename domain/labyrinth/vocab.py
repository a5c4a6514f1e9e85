"""The closed vocabularies of the labyrinth battle rules (spec:
shared/rules/labyrinth.md; facts and defaults: labyrinth-facts.md)."""

from __future__ import annotations

from enum import StrEnum

RULES_VERSION = "labyrinth-1"
DIE = 6
SIDE_LIMIT = 6  # at most 6 against 6 (SCALE-1)
ROW_LIMIT = 3  # PCs (and allied NPCs, default) at most 3 per row (facts: Fills SCALE-1)
BUFF_KINDS_LIMIT = 3  # up to 3 kinds of buffs and 3 of debuffs (BUFF-5)
CRITICAL_DICE = 4  # extra damage dice on a critical (CRIT-2)
CRITICAL_MARGIN = 2  # count(6) - count(1) needed (CRIT-1); 1 with Critical up (facts)
DEFAULT_BUFF_TURNS = 3  # a listed buff with no duration (facts, community reading OQ 59)
PC_RESISTANCE = 3  # every resistance of a PC unless the GM says otherwise (facts)


class Side(StrEnum):
    """Who a participant fights for; also the ORDER-2 tie-break order."""

    PC = "pc"
    NPC = "npc"  # an allied NPC: on the PCs' side
    ENEMY = "enemy"


class Row(StrEnum):
    FRONT = "front"
    BACK = "back"


class Phase(StrEnum):
    """Standby, Main, End, repeated until the battle is over (facts: Fills STANDBY-1)."""

    STANDBY = "standby"
    MAIN = "main"
    END = "end"
    OVER = "over"


class Timing(StrEnum):
    """When a skill can be used."""

    STANDBY = "standby"  # STANDBY-5
    MAIN = "main"  # MAIN-4
    PASSIVE = "passive"  # PASSIVE-2


class Part(StrEnum):
    """A skill's body-part tag, which binds check (BIND-2)."""

    NONE = ""
    HEAD = "head"
    ARM = "arm"
    LEG = "leg"


class Attribute(StrEnum):
    """An attack's attribute (facts: Fills MAIN-2 ... step 3)."""

    CUT = "cut"
    BASH = "bash"
    STAB = "stab"
    FIRE = "fire"
    ICE = "ice"
    VOLT = "volt"
    NONE = "none"  # non-elemental: resistance 0


PHYSICAL = (Attribute.CUT, Attribute.BASH, Attribute.STAB)
ELEMENTS = (Attribute.FIRE, Attribute.ICE, Attribute.VOLT)


class Reach(StrEnum):
    """Near: from the attacker's front row to the target's front row; far: anywhere (facts)."""

    NEAR = "near"
    FAR = "far"


class Ailment(StrEnum):
    PETRIFY = "petrify"
    CURSE = "curse"
    POISON = "poison"
    SLEEP = "sleep"
    CONFUSE = "confuse"
    PARALYZE = "paralyze"
    FEAR = "fear"
    BLIND = "blind"
    STUN = "stun"


NO_DEPTH = (Ailment.PETRIFY, Ailment.STUN)  # DEPTH-1


class Bind(StrEnum):
    HEAD = "head"
    ARM = "arm"
    LEG = "leg"


class Buff(StrEnum):
    """Buff and debuff kinds (BUFF-ELEMENT to BUFF-WEAK)."""

    ELEMENT = "element"  # Element grant:● (buff)
    RESIST = "resist"  # Resistance grant:● (buff)
    PATK_UP = "patk-up"
    EATK_UP = "eatk-up"
    DEF_UP = "def-up"
    SPD_UP = "spd-up"
    HIT_UP = "hit-up"
    EVA_UP = "eva-up"
    SDEF_UP = "sdef-up"
    MAXHP_UP = "maxhp-up"
    HP_REGEN = "hp-regen"
    TP_REGEN = "tp-regen"
    CHASE = "chase"  # Pursuit:● (buff)
    CRIT_UP = "crit-up"
    PATK_DOWN = "patk-down"
    EATK_DOWN = "eatk-down"
    DEF_DOWN = "def-down"
    SPD_DOWN = "spd-down"
    HIT_DOWN = "hit-down"
    EVA_DOWN = "eva-down"
    SDEF_DOWN = "sdef-down"
    WEAK = "weak"  # Weakness grant:● (debuff)


# Each kind as the rules name it (BUFF-ELEMENT to BUFF-WEAK), for players to read.
BUFF_NAMES = {
    Buff.ELEMENT: "Element grant",
    Buff.RESIST: "Resistance grant",
    Buff.PATK_UP: "Physical attack up",
    Buff.EATK_UP: "Elemental attack up",
    Buff.DEF_UP: "Defense up",
    Buff.SPD_UP: "Speed up",
    Buff.HIT_UP: "Hit up",
    Buff.EVA_UP: "Evasion up",
    Buff.SDEF_UP: "Suppression defense up",
    Buff.MAXHP_UP: "Max HP up",
    Buff.HP_REGEN: "HP regen",
    Buff.TP_REGEN: "TP regen",
    Buff.CHASE: "Pursuit",
    Buff.CRIT_UP: "Critical up",
    Buff.PATK_DOWN: "Physical attack down",
    Buff.EATK_DOWN: "Elemental attack down",
    Buff.DEF_DOWN: "Defense down",
    Buff.SPD_DOWN: "Speed down",
    Buff.HIT_DOWN: "Hit down",
    Buff.EVA_DOWN: "Evasion down",
    Buff.SDEF_DOWN: "Suppression defense down",
    Buff.WEAK: "Weakness grant",
}


DEBUFFS = frozenset(
    {
        Buff.PATK_DOWN,
        Buff.EATK_DOWN,
        Buff.DEF_DOWN,
        Buff.SPD_DOWN,
        Buff.HIT_DOWN,
        Buff.EVA_DOWN,
        Buff.SDEF_DOWN,
        Buff.WEAK,
    }
)
OPPOSING = {  # BUFF-7: the pairs that cannot coexist
    Buff.RESIST: Buff.WEAK,
    Buff.PATK_UP: Buff.PATK_DOWN,
    Buff.EATK_UP: Buff.EATK_DOWN,
    Buff.DEF_UP: Buff.DEF_DOWN,
    Buff.SPD_UP: Buff.SPD_DOWN,
    Buff.HIT_UP: Buff.HIT_DOWN,
    Buff.EVA_UP: Buff.EVA_DOWN,
    Buff.SDEF_UP: Buff.SDEF_DOWN,
}
OPPOSING.update({down: up for up, down in list(OPPOSING.items())})


class Effect(StrEnum):
    """What a skill does (content); a skill may do several, in its order."""

    ATTACK = "attack"  # an attack roll (physical or elemental)
    HEAL = "heal"  # a Recovery roll (HEAL-1 to HEAL-3)
    BUFF = "buff"  # grant a buff or debuff
    AILMENT = "ailment"  # inflict an ailment (resisted by a Suppression defense roll)
    BIND = "bind"  # inflict a bind
    CURE = "cure"  # remove ailments or binds
    GUARD = "guard"  # a passive: reduce the damage of the attack roll it answers
    COUNTER = "counter"  # a passive: a Counter after an attack roll against oneself (COUNTER-1)
    CHASE = "chase"  # grant Pursuit:● on an ally (BUFF-CHASE, CHASE-1)
    TOKEN = "token"  # place a token that acts at the placer's [Speed] (facts section 8)


class Speed(StrEnum):
    """Where a Main action falls in the order (ORDER-3, facts)."""

    NORMAL = "normal"
    FASTEST = "fastest"  # pre-emptive action
    DELAYED = "delayed"  # delayed action


class Targets(StrEnum):
    """Who a skill or item may be aimed at."""

    SELF = "self"
    ALLY = "ally"
    ALLIES = "allies"  # every ally
    ROW_ALLIES = "row-allies"
    OPPONENT = "opponent"
    OPPONENTS = "opponents"  # every opponent in reach
    ROW_OPPONENTS = "row-opponents"  # every opponent of one row


class Termination(StrEnum):
    """How a battle ended."""

    PCS_WIN = "enemies wiped out"
    PCS_LOSE = "party wiped out"
    ESCAPED = "party escaped"
