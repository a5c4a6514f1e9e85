"""Closed vocabularies of Conquest and the constants of its rules, each named
once next to the rule that defines it."""

from __future__ import annotations

from enum import Enum, StrEnum

DIE = 6  # every roll is a D6 (facts §1, fills REINF-6 and SUP-1)
SCORE_MIN, SCORE_MAX = 0, 7  # clamp of the modified roll-off score (SUP-2)
MAX_ACTIONS = 3  # actions in one activation, free and additional included (ACTIONS-5)
STANDARD_ACTIONS = 2  # the two actions of an activation (ACT-10, ACT-13)
SIDES = ("a", "b")  # the two players, as ids and regiment prefixes


class Phase(str, Enum):
    """The five Phases of a Round (ROUND-4), and the end of the battle."""

    REINFORCEMENT = "reinforcement"
    COMMAND = "command"
    SUPREMACY = "supremacy"
    ACTION = "action"
    VICTORY = "victory"
    OVER = "over"


class Step(str, Enum):
    """What a Phase waits for when it has more than one kind of decision."""

    NONE = "none"
    PICK = "pick"  # REINF-8: choose which Regiments the successes bring
    ROLL_OFF = "roll-off"  # SUP-1
    CHOOSE = "choose"  # SUP-3: the lower score chooses the First Player
    DECLARE = "declare"  # SUP-11: Activated abilities, First Player first
    DRAW_EVENT = "draw-event"  # ACT-8
    ACTING = "acting"  # ACT-10 to ACT-16


class RegimentClass(str, Enum):
    """Reinforcements are grouped and rolled for by Class (REINF-3)."""

    LIGHT = "light"
    MEDIUM = "medium"
    HEAVY = "heavy"


class Where(str, Enum):
    """Where a Regiment is (REINF-1: nobody is deployed at the start)."""

    WAITING = "waiting"  # in reinforcements
    ARRIVING = "arriving"  # confirmed this Round, set aside (REINF-10)
    FIELD = "field"  # on the battlefield (possibly partly, ARRIVE-3)
    DESTROYED = "destroyed"


class Action(str, Enum):
    """The modelled part of the Action List (facts §5, ACTIONS-1)."""

    MARCH = "march"
    CHARGE = "charge"
    REFORM = "reform"
    VOLLEY = "volley"
    CLASH = "clash"
    WITHDRAW = "withdraw"


NON_COMBAT = frozenset({Action.MARCH, Action.CHARGE, Action.REFORM, Action.VOLLEY})  # out of contact
COMBAT = frozenset({Action.CLASH, Action.WITHDRAW})  # in contact only (ACTIONS-1)
REPEATABLE = frozenset({Action.MARCH})  # ACT-14: only March may be repeated in a Round


class Use(str, Enum):
    """How an action was paid for (ACTIONS-2, ACTIONS-4)."""

    STANDARD = "standard"
    FREE = "free"  # does not use up one of the two actions
    ADDITIONAL = "additional"  # spends an action to repeat the same action
    OUT_OF_SEQUENCE = "out-of-sequence"  # outside the Regiment's activation (ACTIONS-6)


class AbilityKind(str, Enum):
    """The three types of Supremacy Ability (SUP-6)."""

    ALWAYS = "always"  # SUP-7
    BATTLEFIELD = "battlefield"  # SUP-8
    ACTIVATED = "activated"  # SUP-9 to SUP-11


class AbilityEffect(str, Enum):
    """What a Supremacy Ability does, in the modelled subset."""

    REINFORCEMENT_BONUS = "reinforcement-bonus"  # + amount to the required roll values
    MARCH_BONUS = "march-bonus"  # + amount inches to every friendly March value


class DrawEffect(str, Enum):
    """What a draw event on a Command Card does (ACT-8)."""

    FREE_ACTION = "free-action"  # ACTIONS-2
    ADDITIONAL_ACTION = "additional-action"  # ACTIONS-4
    OUT_OF_SEQUENCE_MARCH = "out-of-sequence-march"  # another Regiment marches (ACTIONS-6)


class Arrival(str, Enum):
    """Why a Regiment's arrival was confirmed."""

    CHOSEN = "chosen"  # REINF-4
    FORCED = "forced"  # REINF-5
    CARRIED_OVER = "carried-over"  # ARRIVE-6
    ROLLED = "rolled"  # REINF-8


class Termination(StrEnum):
    """Why the battle ended (VICTORY, ROUND-3), as python-chess's
    ``Termination``; ``BattleEnded.reason`` says it in words, with the
    numbers (the VP, the round)."""

    SURRENDER = "surrender"
    WIPE_OUT = "wipe-out"
    SCENARIO = "scenario"
    ROUND_LIMIT = "round-limit"


RULES_VERSION = "conquest-0.1"  # written into each battle's BattleStarted
