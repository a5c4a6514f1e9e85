"""The state of one labyrinth battle, derived only by replaying its events.

Frozen msgspec Structs of tuples: ``evolve`` returns a new state, so undo
restores a state exactly and tests compare states with ``==``. A
combatant keeps its *base* stats (abilities and level already applied, no
equipment, buff, ailment or bind); ``stats.py`` derives what the rules read.
"""

from __future__ import annotations

import msgspec

from .vocab import DEFAULT_BUFF_TURNS, Ailment, Attribute, Bind, Buff, Phase, Reach, Row, Side, Termination


class Options(msgspec.Struct, frozen=True, kw_only=True):
    """Table options: the facts' community readings (each default = that
    reading) and the engine's documented defaults, fixed at setup."""

    ambush: Side | None = None  # the ambushed side: passive actions only in turn 1 (facts section 8)
    gm_enemies: bool = False  # the GM chooses each Enemy's action instead of the seeded policy
    auto_passives: bool = True  # a guard/counter passive is used whenever it may be (PASSIVE-2)
    failed_activation_pays: bool = True  # a failed activation still pays the skill's cost (OQ 9)
    reapply_raises_depth: bool = True  # re-inflicting a held ailment only raises its depth (OQ 5)
    one_ailment_at_a_time: bool = False  # the OQ 35 house rule: a new ailment replaces the old
    sleep_wakes_on_hit_only: bool = True  # only a hit wakes a sleeper (OQ 37)
    curse_can_incapacitate: bool = True  # Curse backlash may drop its bearer to 0 (OQ 44)
    buff_limit_drops_oldest: bool = True  # a 4th kind drops the oldest (OQ 7); else it is not applied
    same_buff_keeps_longer: bool = True  # equal values: keep the longer duration (OQ 36)
    resist_weak_same_element: bool = True  # Resistance/Weakness grant oppose only on one element (OQ 41)
    default_buff_turns: int = DEFAULT_BUFF_TURNS  # a buff with no duration (OQ 59)
    follow_ups_need_range: bool = True  # pursuits and counters obey near/far (OQ 63)
    full_defense_through_end: bool = True  # the Waiting state runs through the End phase (OQ 27)
    zero_dice_deal_nothing: bool = True  # a damage dice count <= 0 deals 0 (OQ 1); off: one die at least
    critical_dice_never_crit: bool = True  # the 4 critical dice make no further critical (OQ 2)
    one_passive_per_action: bool = True  # hits of one action on a target are one attack roll: one reaction (OQ 54)
    depth_zero_keeps_ailment: bool = True  # depth stops at 0 and the ailment stays (OQ 38); off: it ends
    poison_ignores_defense: bool = True  # poison is Actual damage past [Defense] (OQ 8); off: less [Defense]
    poison_recorded_if_gone: bool = True  # a gone poisoner's recorded value still applies (OQ 43); off: none
    confused_alone_does_nothing: bool = True  # a confused one with no ally to hit does nothing (OQ 42)
    pursuit_stays: bool = True  # Pursuit:● is not used up by pursuing (OQ 64); off: one Pursuit per grant
    fp_reroll_cost: int = 1  # FP for rerolling a check (OQ 18)
    identify: bool = False  # the party Identifies the Enemies before the battle (ENEMY-3, ENEMY-4)


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
    pass."""

    who: str
    action: str
    row: Row | None = None
    order: int = 0
    skill: str = ""
    target: str = ""


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
    def down(self) -> bool:
        """Incapacitated ([HP] <= 0), petrified or a vanished token: out of the fight (facts section 8)."""
        return self.hp <= 0 or self.vanished or self.has(Ailment.PETRIFY)

    def has(self, ailment: Ailment) -> bool:
        return any(a.kind == ailment for a in self.ailments)

    def bound(self, part: Bind) -> bool:
        return any(b.kind == part for b in self.binds)

    def ailment(self, ailment: Ailment) -> Affliction | None:
        return next((a for a in self.ailments if a.kind == ailment), None)


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
