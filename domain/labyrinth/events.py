"""Events of a labyrinth battle: what happened, past tense, carrying its
computed consequences (faces rolled, HP left, the buffs that remain) so
``evolve`` only assigns. Every random outcome carries the RNG ``counter``
it was drawn at: D6 ``faces`` (``Rolled``) or a pick ``among`` choices
(``Picked``), so verify re-derives it. Each has a stable ``TOPIC``.
The bases are in ``event_base.py``; the special cases of the order and the
attack roll in ``events_special.py``, and those of a passive action chosen
by hand in ``events_reaction.py``, re-exported here."""

from __future__ import annotations

from typing import ClassVar

import msgspec

from domain.kernel import commandlog
from domain.kernel.position import messages as position

from .commands import LabyrinthCommand
from .event_base import ROLLED_SKIP, LabyrinthEvent, Picked, Rolled
from .events_special import (
    ActionDelayed,
    CheckRerolled,
    CriticalTriggered,
    DelayedAttackResolved,
    DelayedAttackSet,
    EffectFizzled,
    FpSpent,
    Held,
    Identified,
    TokenPlaced,
    TokenVanished,
)
from .events_reaction import ReactionAsked, ReactionChosen
from .state import ActiveBuff, Affliction, Combatant, Declaration, LabyrinthState, Options
from .vocab import Row, Termination


class CommandIssued(commandlog.CommandIssued, LabyrinthEvent, frozen=True, kw_only=True):
    TOPIC = "labyrinth.CommandIssued"
    command: LabyrinthCommand


class CommandUndone(commandlog.CommandUndone, LabyrinthEvent, frozen=True, kw_only=True):
    TOPIC = "labyrinth.CommandUndone"
    restored: LabyrinthState


class PositionTaken(position.PositionTaken, LabyrinthEvent, frozen=True, kw_only=True):
    """A battle was set up from a position file: ``state`` as it stands."""

    TOPIC = "labyrinth.PositionTaken"
    state: LabyrinthState


class BattleStarted(LabyrinthEvent, frozen=True, kw_only=True):
    """A battle was set up: everyone in it, as placed (SCALE-1)."""

    TOPIC = "labyrinth.BattleStarted"
    battle_id: str
    rules_version: str
    pack_id: str
    pack_hash: str
    seed: int
    encounter: str
    options: Options
    combatants: tuple[Combatant, ...]


class TurnStarted(LabyrinthEvent, frozen=True, kw_only=True):
    """Turn ``turn`` began with its Standby phase (facts: Fills STANDBY-1)."""

    TOPIC = "labyrinth.TurnStarted"
    turn: int


class AilmentRolled(Rolled, frozen=True, kw_only=True):
    """The 1D6 of Paralysis, Fear or Confusion (at infliction or in the
    Standby phase); ``lost`` on 1-3."""

    TOPIC = "labyrinth.AilmentRolled"
    who: str
    ailment: str
    lost: bool


class TurnLost(LabyrinthEvent, frozen=True, kw_only=True):
    """``who`` cannot act this turn: its Waiting state (and the Full defense
    halving with it) is cancelled and its [Evasion] is 0 this turn."""

    TOPIC = "labyrinth.TurnLost"
    who: str
    cause: str


class Confused(LabyrinthEvent, frozen=True, kw_only=True):
    """Confusion rolled 1-3: no Standby action, and its Main action is a
    Normal attack on a random ally of its row (AILMENT-CONFUSE)."""

    TOPIC = "labyrinth.Confused"
    who: str


class Declared(LabyrinthEvent, frozen=True, kw_only=True):
    """A Standby declaration was made (STANDBY-1); resolved later."""

    TOPIC = "labyrinth.Declared"
    declaration: Declaration


class Place(msgspec.Struct, frozen=True, kw_only=True, array_like=True):
    """Where one combatant stands."""

    id: str
    row: Row
    order: int


class Moved(LabyrinthEvent, frozen=True, kw_only=True):
    """``who`` moved (STANDBY-2); ``places``: its side's new positions."""

    TOPIC = "labyrinth.Moved"
    who: str
    places: tuple[Place, ...]


class RowsSwapped(LabyrinthEvent, frozen=True, kw_only=True):
    """A side's front row was all out, so its rows swapped (facts section 8)."""

    TOPIC = "labyrinth.RowsSwapped"
    places: tuple[Place, ...]


class DeclarationLapsed(LabyrinthEvent, frozen=True, kw_only=True):
    """A declaration could not be carried out when its turn came."""

    TOPIC = "labyrinth.DeclarationLapsed"
    who: str
    action: str
    reason: str
    rule: str = ""


class WeaponsSwapped(LabyrinthEvent, frozen=True, kw_only=True):
    TOPIC = "labyrinth.WeaponsSwapped"
    who: str
    weapon: str
    other: str


class FullDefenseTaken(LabyrinthEvent, frozen=True, kw_only=True):
    """Waiting state with damage halved until the turn ends (STANDBY-6, STANDBY-7)."""

    TOPIC = "labyrinth.FullDefenseTaken"
    who: str


class EscapeRolled(Rolled, frozen=True, kw_only=True):
    """Everyone's [Evasion] check, two faces each in ``ids`` order (STANDBY-8).

    When a PC spent FP on its check (facts: Fills FUMBLE-2): ``dice`` holds
    how many dice each rolled, in ``ids`` order (2, plus 1 per FP); the
    checks of ``rerolled`` were rolled again, in that order, because the
    escape had failed: their new faces follow the first roll's in
    ``faces``, as many as each first rolled; ``kept`` holds the 2 dice each
    kept in the end, in ``ids`` order, and ``totals`` are made of them."""

    TOPIC = "labyrinth.EscapeRolled"
    ids: tuple[str, ...]
    totals: tuple[int, ...]
    takers: tuple[str, ...]  # escapers able to take part (no Leg bind)
    escaped: bool
    dice: tuple[int, ...] = ()  # (): 2 each
    rerolled: tuple[str, ...] = ()
    kept: tuple[int, ...] = ()  # (): the faces themselves

    # Added after logs were written: an escape with no FP spent leaves them out.
    __digest_skip_default__: ClassVar[frozenset[str]] = frozenset({"dice", "rerolled", "kept"}) | ROLLED_SKIP

    def checks(self) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
        """Each participant's (first faces, faces rolled again or ()), in ``ids`` order."""
        counts = self.dice or (2,) * len(self.ids)
        starts = [sum(counts[:i]) for i in range(len(counts))]
        first = [self.faces[a : a + n] for a, n in zip(starts, counts)]
        again: dict[str, tuple[int, ...]] = {}
        at = sum(counts)
        for who in self.rerolled:
            n = counts[self.ids.index(who)]
            again[who], at = self.faces[at : at + n], at + n
        return tuple((f, again.get(i, ())) for i, f in zip(self.ids, first))


class MainStarted(LabyrinthEvent, frozen=True, kw_only=True):
    """The Main phase began with this acting order (ORDER-1, ORDER-2);
    ``fastest``: who is first offered a fastest action (ORDER-3)."""

    TOPIC = "labyrinth.MainStarted"
    queue: tuple[str, ...]
    fastest: tuple[str, ...] = ()


class ActorUp(LabyrinthEvent, frozen=True, kw_only=True):
    """It is ``who``'s turn to act (MAIN-1): in the [Speed] order, in the
    fastest window (``window`` "fastest": a fastest action or hold) or in the
    delayed group ("delayed": its delayed action now) (ORDER-3)."""

    TOPIC = "labyrinth.ActorUp"
    who: str
    window: str = ""


class ActionSkipped(LabyrinthEvent, frozen=True, kw_only=True):
    """``who`` takes no Main action (out, lost its turn, waiting, ambushed)."""

    TOPIC = "labyrinth.ActionSkipped"
    who: str
    reason: str
    rule: str = ""


class Passed(LabyrinthEvent, frozen=True, kw_only=True):
    """``who`` gave up its Main action."""

    TOPIC = "labyrinth.Passed"
    who: str


class ActionEnded(LabyrinthEvent, frozen=True, kw_only=True):
    """``who``'s Main action (and whatever followed it) is over (MAIN-1)."""

    TOPIC = "labyrinth.ActionEnded"
    who: str


class SkillFumbled(LabyrinthEvent, frozen=True, kw_only=True):
    """The activation roll showed all 1s: the skill fails (FUMBLE-1).
    ``refund_tp``/``refund_fp``: the costs given back when a failed
    activation does not pay (OQ 9 off) and they were paid before the roll
    (a skill whose activation roll is its first hit check)."""

    TOPIC = "labyrinth.SkillFumbled"
    who: str
    skill: str
    refund_tp: int = 0
    refund_fp: int = 0

    # Logs written before refunds hold it without them: left out at 0, they import as they did.
    __digest_skip_default__: ClassVar[frozenset[str]] = frozenset({"refund_tp", "refund_fp"})


class ActionChosen(Picked, frozen=True, kw_only=True):
    """An Enemy's policy chose its action at random ("attack" = Normal
    attack); ``planned``: chosen in the fastest window, not a fastest
    action, so kept for its place in the order (ORDER-3)."""

    TOPIC = "labyrinth.ActionChosen"
    who: str
    planned: bool = False


class TargetPicked(Picked, frozen=True, kw_only=True):
    """A random target, uniform over those in range (facts section 8)."""

    TOPIC = "labyrinth.TargetPicked"
    who: str


class SkillUsed(Rolled, frozen=True, kw_only=True):
    """A skill was used and its cost paid; ``faces`` its 2D6 activation roll
    (empty when its first hit check is the roll, MAIN-5); ``fumbled`` all
    1s: the skill fails (FUMBLE-1); ``fp`` gained from 1s (FUMBLE-2)."""

    TOPIC = "labyrinth.SkillUsed"
    who: str
    skill: str
    tp: int
    fumbled: bool = False
    fp: int = 0
    kept: tuple[int, ...] = ()  # the 2 dice kept when FP added dice (``faces`` holds them all)
    fp_cost: int = 0  # the FP printed on the skill, paid with its TP (facts: Fills FUMBLE-2)

    # Logs written before FP costs hold it without ``fp_cost``: left out at 0, they import as they did.
    __digest_skip_default__: ClassVar[frozenset[str]] = frozenset({"fp_cost"}) | ROLLED_SKIP


class ItemUsed(LabyrinthEvent, frozen=True, kw_only=True):
    TOPIC = "labyrinth.ItemUsed"
    who: str
    item: str


class AttackRolled(Rolled, frozen=True, kw_only=True):
    """A hit check: 2D6 + hit against the target's [Evasion] (HIT-1, HIT-2).
    ``mode``: normal, skill, pursuit, counter. ``absolute``: success (two
    6s), failure (all 1s) or ""."""

    TOPIC = "labyrinth.AttackRolled"
    attacker: str
    target: str
    mode: str
    total: int
    evasion: int
    hit: bool
    absolute: str = ""
    fp: int = 0
    kept: tuple[int, ...] = ()  # the 2 dice kept when FP added dice (``faces`` holds them all)


class DamageRolled(Rolled, frozen=True, kw_only=True):
    """Damage dice: each above ``resistance`` deals 1 (DAMAGE-1); the first
    ``base`` faces decide a critical, which adds 4 dice (CRIT-1, CRIT-2).
    ``damage`` is after halving; ``hp`` what the target has left."""

    TOPIC = "labyrinth.DamageRolled"
    attacker: str
    target: str
    base: int
    resistance: int
    critical: bool
    dealt: int
    damage: int
    hp: int
    halved: str = ""  # why damage was reduced: full-defense, guard


class PassiveUsed(LabyrinthEvent, frozen=True, kw_only=True):
    """A passive skill answered an attack roll against ``who`` (PASSIVE-1..3)."""

    TOPIC = "labyrinth.PassiveUsed"
    who: str
    skill: str
    against: str
    tp: int
    fp_cost: int = 0  # the FP printed on the skill, paid with its TP (facts: Fills FUMBLE-2)

    # Logs written before FP costs hold it without ``fp_cost``: left out at 0, they import as they did.
    __digest_skip_default__: ClassVar[frozenset[str]] = frozenset({"fp_cost"})


class HpLost(LabyrinthEvent, frozen=True, kw_only=True):
    """Actual damage that is no damage roll: poison or curse."""

    TOPIC = "labyrinth.HpLost"
    who: str
    amount: int
    hp: int
    cause: str


class Incapacitated(LabyrinthEvent, frozen=True, kw_only=True):
    TOPIC = "labyrinth.Incapacitated"
    who: str


class Healed(Rolled, frozen=True, kw_only=True):
    """A Recovery roll: each die of 4+ heals 1 (HEAL-3), up to the maximum."""

    TOPIC = "labyrinth.Healed"
    who: str
    target: str
    amount: int
    hp: int


class SuppressionRolled(Rolled, frozen=True, kw_only=True):
    """A Suppression defense roll against ``target_value`` to resist or
    recover from ``kind`` (SUPPRESS-1 .. SUPPRESS-3)."""

    TOPIC = "labyrinth.SuppressionRolled"
    who: str
    kind: str
    purpose: str  # resist, recover
    target_value: int
    total: int
    success: bool
    absolute: str = ""
    fp: int = 0
    kept: tuple[int, ...] = ()  # the best 2, when FP added dice (FUMBLE-2)

    # Logs written before FP could be spent on it hold it without ``kept``: left out when empty.
    __digest_skip_default__: ClassVar[frozenset[str]] = frozenset({"kept"}) | ROLLED_SKIP


class Afflicted(LabyrinthEvent, frozen=True, kw_only=True):
    """``kind`` took hold; the ailments and binds ``who`` now has."""

    TOPIC = "labyrinth.Afflicted"
    who: str
    kind: str
    ailments: tuple[Affliction, ...]
    binds: tuple[Affliction, ...]


class Cured(LabyrinthEvent, frozen=True, kw_only=True):
    """``removed`` ended (natural recovery, a cure, waking, Stun's end)."""

    TOPIC = "labyrinth.Cured"
    who: str
    removed: tuple[str, ...]
    ailments: tuple[Affliction, ...]
    binds: tuple[Affliction, ...]
    cause: str


class BuffsChanged(LabyrinthEvent, frozen=True, kw_only=True):
    """``who``'s buffs and debuffs are now ``buffs``; ``rule`` why."""

    TOPIC = "labyrinth.BuffsChanged"
    who: str
    buffs: tuple[ActiveBuff, ...]
    hp: int
    rule: str
    note: str = ""
    seq: int = 0  # the battle's next buff sequence number


class Regenerated(LabyrinthEvent, frozen=True, kw_only=True):
    """HP/TP regen in End phase step 3 (BUFF-HP-REGEN, BUFF-TP-REGEN)."""

    TOPIC = "labyrinth.Regenerated"
    who: str
    hp: int
    tp: int


class EndStarted(LabyrinthEvent, frozen=True, kw_only=True):
    """Every participant has acted: the End phase (facts section 6)."""

    TOPIC = "labyrinth.EndStarted"


class DepthLowered(LabyrinthEvent, frozen=True, kw_only=True):
    """End phase step 6: every depth −1, not below 0 (OQ 38)."""

    TOPIC = "labyrinth.DepthLowered"
    who: str
    ailments: tuple[Affliction, ...]
    binds: tuple[Affliction, ...]


class TurnEnded(LabyrinthEvent, frozen=True, kw_only=True):
    """The turn is over: Waiting states and this turn's conditions end."""

    TOPIC = "labyrinth.TurnEnded"
    turn: int


class BattleEnded(LabyrinthEvent, frozen=True, kw_only=True):
    TOPIC = "labyrinth.BattleEnded"
    termination: Termination


class DropRolled(Rolled, frozen=True, kw_only=True):
    """2D6 on a defeated Enemy's drop table (no FP); ``item`` "" for none."""

    TOPIC = "labyrinth.DropRolled"
    enemy: str
    total: int
    item: str


__all__ = [  # the special cases too, re-exported from events_special
    "LabyrinthEvent",
    "Picked",
    "Rolled",
    "CommandIssued",
    "CommandUndone",
    "BattleStarted",
    "TurnStarted",
    "AilmentRolled",
    "TurnLost",
    "Confused",
    "Declared",
    "Place",
    "Moved",
    "RowsSwapped",
    "DeclarationLapsed",
    "WeaponsSwapped",
    "FullDefenseTaken",
    "EscapeRolled",
    "MainStarted",
    "ActorUp",
    "ActionSkipped",
    "Passed",
    "ActionEnded",
    "SkillFumbled",
    "ActionChosen",
    "TargetPicked",
    "SkillUsed",
    "ItemUsed",
    "AttackRolled",
    "DamageRolled",
    "PassiveUsed",
    "HpLost",
    "Incapacitated",
    "Healed",
    "SuppressionRolled",
    "Afflicted",
    "Cured",
    "BuffsChanged",
    "Regenerated",
    "EndStarted",
    "DepthLowered",
    "TurnEnded",
    "BattleEnded",
    "DropRolled",
    "ActionDelayed",
    "CriticalTriggered",
    "DelayedAttackResolved",
    "DelayedAttackSet",
    "EffectFizzled",
    "Held",
    "Identified",
    "TokenPlaced",
    "TokenVanished",
    "FpSpent",
    "CheckRerolled",
    "ReactionAsked",
    "ReactionChosen",
]
