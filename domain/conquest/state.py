"""The state of one Conquest battle, derived only by replaying its events.

Frozen msgspec Structs of tuples: ``evolve`` returns a new state, so undo can
restore a state exactly and tests compare states with ``==``. Positions are
one-dimensional, as much as the Reinforcement Line and contact need: a
Regiment's ``front`` is the distance of its front rank from its owner's
table edge, its rear edge is ``front - depth``.
"""

from __future__ import annotations

import msgspec

from domain.kernel.errors import RuleViolation

from .vocab import Action, Phase, RegimentClass, Step, Termination, Where


class Regiment(msgspec.Struct, frozen=True, kw_only=True):
    """One Regiment of one player (``side`` 0 or 1)."""

    id: str  # a1, a2, ... b1 ...: also its Command Card's id
    side: int
    entry: str  # army-list entry id (ACT-3)
    name: str
    type: str
    cls: RegimentClass
    stands: int  # stands left
    march: int
    depth: int
    volley: int = 0
    draw_events: tuple[str, ...] = ()
    where: Where = Where.WAITING
    front: int = 0
    arrived: int = 0  # the Round it arrived (ACT-11, ACT-12)
    carried: bool = False  # entry refused last Round: passes automatically (ARRIVE-6)
    activated: bool = False  # this Round (ACT-4)
    actions: tuple[Action, ...] = ()  # done this Round, out-of-sequence excluded (ACT-14)

    @property
    def rear(self) -> int:
        return self.front - self.depth

    @property
    def partly_on(self) -> bool:
        """Some stands are still off the table (ARRIVE-3)."""
        return self.where is Where.FIELD and self.front < self.depth


class Character(msgspec.Struct, frozen=True, kw_only=True):
    """A Character, joined to a Regiment of its Type (REINF-2)."""

    id: str  # ac1, bc1, ...: also its Command Card's id
    side: int
    entry: str
    name: str
    type: str
    regiment: str
    warlord: bool = False
    abilities: tuple[str, ...] = ()
    draw_events: tuple[str, ...] = ()


class Side(msgspec.Struct, frozen=True, kw_only=True):
    """One player's part of the battle."""

    army: str
    line: int = 0  # Reinforcement Line, inches from own edge, fixed this Round (RLINE)
    stack: tuple[str, ...] = ()  # Command Stack, top first (CMD-2); hidden from the opponent
    stacked: bool = False
    vp: int = 0
    ability_used: bool = False  # the Activated Supremacy Ability (SUP-9)
    surge: int = 0  # March bonus of an Activated ability, until the Round ends (SUP-10)


class Pick(msgspec.Struct, frozen=True, array_like=True):
    """Successful Reinforcement Rolls of a Class still to be assigned (REINF-8)."""

    cls: RegimentClass
    count: int


class Activation(msgspec.Struct, frozen=True, kw_only=True):
    """The activation under way (ACT-2 to ACT-17)."""

    side: int
    regiment: str
    card: str
    step: Step = Step.ACTING
    performed: tuple[Action, ...] = ()  # counted toward the cap (ACTIONS-5)
    standard: int = 0  # standard actions used of the two
    free: tuple[Action, ...] = ()  # free actions granted (ACTIONS-2)
    additional: tuple[Action, ...] = ()  # additional actions granted (ACTIONS-4)


class Result(msgspec.Struct, frozen=True, kw_only=True):
    """How the battle ended: ``winner`` 0 or 1, -1 for a draw."""

    winner: int
    termination: Termination
    reason: str


class ConquestState(msgspec.Struct, frozen=True, kw_only=True):
    """A whole battle. ``turn`` is the player whose decision is awaited."""

    battle_id: str
    rules_version: str
    pack_id: str
    pack_hash: str
    seed: int
    scenario: str
    rng: int = 0
    physical_dice: bool = False
    round: int = 1
    phase: Phase = Phase.REINFORCEMENT
    step: Step = Step.NONE
    turn: int = 0
    first: int = 0  # First Player of this Round (SUP-3)
    regiments: tuple[Regiment, ...] = ()
    characters: tuple[Character, ...] = ()
    sides: tuple[Side, Side] = (Side(army=""), Side(army=""))
    contact: tuple[tuple[str, str], ...] = ()  # pairs of Regiments in base contact
    picks: tuple[Pick, ...] = ()
    activation: Activation | None = None
    result: Result | None = None

    def current_activation(self) -> Activation:
        """The activation under way; ACT-2 when no Command Card has been drawn."""
        if self.activation is None:
            raise RuleViolation("ACT-2", "no Regiment is activated: draw a Command Card first")
        return self.activation

    def final_result(self) -> Result:
        """How the battle ended; only asked of a battle that is over."""
        # BattleEnded sets the phase OVER and the result together, and no event clears the result
        assert self.result is not None, "the battle is not over"
        return self.result

    def regiment(self, regiment_id: str) -> Regiment:
        for r in self.regiments:
            if r.id == regiment_id:
                return r
        raise KeyError(regiment_id)

    def find(self, regiment_id: str) -> Regiment | None:
        return next((r for r in self.regiments if r.id == regiment_id), None)

    def character(self, character_id: str) -> Character | None:
        return next((c for c in self.characters if c.id == character_id), None)

    def side_regiments(self, side: int) -> list[Regiment]:
        return [r for r in self.regiments if r.side == side]

    def in_contact(self, regiment_id: str) -> list[str]:
        """The enemies ``regiment_id`` is in base contact with."""
        return [b if a == regiment_id else a for a, b in self.contact if regiment_id in (a, b)]

    def warlord(self, side: int) -> Character | None:
        return next((c for c in self.characters if c.side == side and c.warlord), None)

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER
