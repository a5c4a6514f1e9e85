"""The state of one labyrinth battle, derived only by replaying its events.

Frozen msgspec Structs of tuples: ``evolve`` returns a new state, so undo
restores a state exactly and tests compare states with ``==``. A
combatant keeps its *base* stats (abilities and level already applied, no
equipment, buff, ailment or bind); ``stats.py`` derives what the rules read.
"""

from __future__ import annotations

from typing import ClassVar

import msgspec

from .options import Options
from .vocab import DEFAULT_BUFF_TURNS, Ailment, Attribute, Bind, Buff, Phase, Reach, Row, Side, Termination

__all__ = [
    "Options",
    "Question",
    "Answer",
    "LabyrinthState",
    "Combatant",
    "Base",
    "Affliction",
    "ActiveBuff",
    "Declaration",
    "Deferred",
    "DelayedAttack",
]


class Base(msgspec.Struct, frozen=True, kw_only=True):
    """Stats before equipment, buffs, ailments and binds (facts section 3).

    A PC's ``patk``/``eatk`` are its STR/TEC bonus (the weapon adds its own),
    ``defense`` 0 (armour adds), ``speed`` its raw AGI; an Enemy's are its
    sheet's, and its ``attribute``/``reach`` those of its Normal attack."""

    max_hp: int
    max_tp: int
    phit: int
    ehit: int
    evasion: int
    patk: int
    eatk: int
    defense: int
    satk: int
    sdef: int
    speed: int
    resist: dict[Attribute, int] = {}
    attribute: Attribute = Attribute.BASH
    reach: Reach = Reach.NEAR
    weak: dict[Attribute, int] = {}  # an Enemy's "Weakness" skills, applied once Identified (facts: Fills ENEMY-3)

    # Added after logs were written: those logs hold bases without it.
    __digest_skip_default__: ClassVar[frozenset[str]] = frozenset({"weak"})


class Affliction(msgspec.Struct, frozen=True, kw_only=True, array_like=True):
    """An ailment or bind held, with its depth (DEPTH-1) and, for Poison,
    the poisoner's [Suppression attack] recorded at infliction (OQ 43) and
    who the poisoner is (``source``)."""

    kind: str  # an Ailment or a Bind value
    depth: int = 0
    poison: int = 0
    source: str = ""


class ActiveBuff(msgspec.Struct, frozen=True, kw_only=True):
    """A buff or debuff on a character (BUFF-1 .. BUFF-7): its ● amount or
    element, turns left, the character ● names for Pursuit:●, and ``seq``,
    when it was applied (the oldest is dropped first, BUFF-5 option)."""

    kind: Buff
    amount: int = 0
    element: Attribute | None = None
    turns: int = DEFAULT_BUFF_TURNS
    target: str = ""
    seq: int = 0


class Declaration(msgspec.Struct, frozen=True, kw_only=True):
    """A Standby declaration, resolved in Main-phase order once all are in
    (facts: Fills STANDBY-1). ``action``: move, swap, skill, defend, escape,
    pass. ``fp`` and ``reroll``: what an escaping PC spends on its [Evasion]
    check (facts: Fills FUMBLE-2, STANDBY-8)."""

    who: str
    action: str
    row: Row | None = None
    order: int = 0
    skill: str = ""
    target: str = ""
    fp: int = 0
    reroll: bool = False

    # Added after logs were written: their declarations hold neither.
    __digest_skip_default__: ClassVar[frozenset[str]] = frozenset({"fp", "reroll"})


class Deferred(msgspec.Struct, frozen=True, kw_only=True, array_like=True):
    """A delayed action waiting for the end of the Main phase (ORDER-3)."""

    who: str
    skill: str
    target: str = ""


class DelayedAttack(msgspec.Struct, frozen=True, kw_only=True, array_like=True):
    """A delayed attack that lands in End phase step 1 of turn ``due``
    (facts section 8)."""

    who: str
    skill: str
    target: str
    due: int


class Combatant(msgspec.Struct, frozen=True, kw_only=True):
    """A participant: a PC, an allied NPC or an Enemy (a token too: a
    combatant some skill placed, with its ``placer``)."""

    id: str  # p1.. for PCs, e1.. for Enemies
    name: str
    side: Side
    kind: str  # class id (PC) or enemy kind id
    level: int
    base: Base
    row: Row
    order: int  # horizontal place in its row, 1 = leftmost
    roster: int  # setup order: the last tie-break (facts: Fills ORDER-2)
    hp: int
    tp: int
    fp: int = 0
    weapon: str = ""
    other: str = ""
    armor: str = ""
    skills: tuple[str, ...] = ()
    items: tuple[str, ...] = ()
    ailments: tuple[Affliction, ...] = ()
    binds: tuple[Affliction, ...] = ()
    buffs: tuple[ActiveBuff, ...] = ()
    link: str = ""
    placer: str = ""  # a token: who placed it (facts section 8)
    expires: int = 0  # a token: the last turn it stays (0: until its placer falls)
    vanished: bool = False  # a token gone from the battle
    unknown: bool = False  # no PC Identified it: its resistances count as at least 3 (facts: Fills ENEMY-3)
    rare: str = ""  # a rare variant (facts section 8): the name it shows once spotted ("" not rare)
    spotted: bool = False  # its rarity is known: Identify reached Rarity + 2, or the identify option is off
    # this turn only (cleared when the turn ends):
    waiting: bool = False  # WAIT-1
    full_defense: bool = False  # STANDBY-6, STANDBY-7
    acted: bool = False
    inactive: bool = False  # lost this turn: Paralysis/Fear roll 1-3, Stun (evasion 0)
    confused: bool = False  # Confusion roll 1-3: attacks a random ally in its row
    planned: str = ""  # the policy's pick made in the fastest window, kept for its place in the order

    @property
    def pc_side(self) -> bool:
        return self.side is not Side.ENEMY

    @property
    def hp_shown(self) -> int:
        """[HP] as players read it: 0 once incapacitated. The log keeps how far
        below 0 a blow took it (healing never reaches one who is down, so
        nothing counts from there)."""
        return max(self.hp, 0)

    @property
    def down(self) -> bool:
        """Incapacitated ([HP] <= 0), petrified or a vanished token: out of the fight (facts section 8)."""
        return self.hp <= 0 or self.vanished or self.has(Ailment.PETRIFY)

    def has(self, ailment: Ailment) -> bool:
        return any(a.kind == ailment for a in self.ailments)

    def bound(self, part: Bind) -> bool:
        return any(b.kind == part for b in self.binds)

    def ailment(self, ailment: Ailment) -> Affliction | None:
        return next((a for a in self.ailments if a.kind == ailment), None)

    # Added after logs were written: those logs hold combatants without them.
    __digest_skip_default__: ClassVar[frozenset[str]] = frozenset({"rare", "spotted"})


class Question(msgspec.Struct, frozen=True, kw_only=True):
    """What the battle waits for in the middle of a step. ``kind``
    "passive": an attack roll by ``attacker`` against ``who`` waits for its
    passive action (PASSIVE-1 .. PASSIVE-3, the ``ask_passives`` option):
    one of ``skills`` or none. ``kind`` "fp": ``who``'s Suppression defense
    roll (``check`` says which) waits for the FP spent on it (FUMBLE-2, the
    ``ask_fp`` option). ``kind`` "faces": ``who``'s roll of ``dice`` D6
    (``check`` says which) waits for the faces typed off real dice (the
    ``physical_dice`` option). ``command``: the command whose resolution it
    interrupted, as JSON, resumed once answered ("": the automatic step,
    which simply runs again). Text, because commands are built on this
    module's types."""

    who: str
    attacker: str = ""
    mode: str = ""  # normal, skill, pursuit or counter
    skills: tuple[str, ...] = ()
    command: str = ""
    kind: str = "passive"
    check: str = ""
    dice: int = 0  # kind "faces" (the ``physical_dice`` option): how many faces ``who``'s roll waits for
    rule: str = ""  # kind "faces": the rule of the roll, cited when the faces typed are refused

    # Battles from before physical dice hold questions without them.
    __digest_skip_default__: ClassVar[frozenset[str]] = frozenset({"dice", "rule"})


class Answer(msgspec.Struct, frozen=True, kw_only=True, array_like=True):
    """One answer given to a ``Question``: the passive ``skill`` ("" none),
    or the FP spent on a check (``fp`` extra dice, ``reroll``), or the
    ``faces`` typed off physical dice for a roll."""

    skill: str = ""
    fp: int = 0
    reroll: bool = False
    faces: tuple[int, ...] = ()

    # Battles from before physical dice hold answers without them.
    __digest_skip_default__: ClassVar[frozenset[str]] = frozenset({"faces"})


class LabyrinthState(msgspec.Struct, frozen=True, kw_only=True):
    """One battle: setup facts, the turn and phase, everyone in it, the
    Standby declarations, the Main-phase queue and who is acting."""

    battle_id: str
    rules_version: str
    pack_id: str
    pack_hash: str
    seed: int
    encounter: str
    options: Options
    combatants: tuple[Combatant, ...]
    rng: int = 0  # the next RNG counter
    turn: int = 0
    phase: Phase = Phase.STANDBY
    declarations: tuple[Declaration, ...] = ()
    queue: tuple[str, ...] = ()  # Main-phase order still to act, next first
    fastest: tuple[str, ...] = ()  # offered a fastest action before the [Speed] order, next first (ORDER-3)
    delayed: tuple[Deferred, ...] = ()  # delayed actions, taken after the [Speed] order (ORDER-3)
    pending: tuple[DelayedAttack, ...] = ()  # delayed attacks waiting for their End phase
    acting: str = ""  # whose Main action the battle waits for ("" none)
    window: str = ""  # where ``acting`` acts: "fastest", "delayed" or "" (the [Speed] order)
    buff_seq: int = 0
    termination: Termination | None = None
    drops: tuple[str, ...] = ()
    question: Question | None = None  # a passive action the battle waits for (ask_passives)
    answers: tuple[Answer, ...] = ()  # given for the step being resolved, in the order asked

    # States of battles without passives asked by hand digest as before these fields existed.
    __digest_skip_default__: ClassVar[frozenset[str]] = frozenset({"question", "answers"})

    @property
    def over(self) -> bool:
        return self.termination is not None

    def get(self, cid: str) -> Combatant:
        for c in self.combatants:
            if c.id == cid:
                return c
        raise KeyError(cid)

    def find(self, cid: str) -> Combatant | None:
        return next((c for c in self.combatants if c.id == cid), None)

    def side(self, pc: bool) -> tuple[Combatant, ...]:
        """The PCs' side (PCs and allied NPCs) or the Enemies'."""
        return tuple(c for c in self.combatants if c.pc_side == pc)

    def declared(self, cid: str) -> Declaration | None:
        return next((d for d in self.declarations if d.who == cid), None)
