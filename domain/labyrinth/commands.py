"""Commands of a labyrinth battle: imperative, frozen, tagged by class name.

``StartLabyrinth`` sets a battle up. In the Standby phase each PC able to
act declares one of ``Move``, ``SwapWeapons``, ``UseStandbySkill``,
``FullDefense``, ``Escape`` or ``Pass`` (any PC, any order); in the Main
phase the PC whose turn it is (``state.acting``) gives ``Attack``,
``UseSkill``, ``UseItem`` or ``Pass``. Before the [Speed] order, a PC that
has a fastest skill it can use is asked first: it uses one (``UseSkill``),
or ``Hold``s its action for its place in the order (ORDER-3). With the
``gm_enemies`` option the GM gives ``EnemyAct`` for the acting Enemy (and,
in the Standby phase, for an Enemy that has a Standby skill). Everything
else is automatic.
"""

from __future__ import annotations

from typing import ClassVar

import msgspec

from domain.kernel.messages import Command
from domain.kernel.position.messages import StartFromPosition

from .options import Options
from .sheets import PcSheet
from .vocab import Row


class Member(msgspec.Struct, frozen=True, kw_only=True):
    """One PC of the party (or an allied NPC): class, level, and optionally
    where it stands (row None: its class's row; order 0: after those
    already there) and its own ``sheet`` (abilities, gear, skills, items;
    None: its class's at its level, ``sheets.py``)."""

    cls: str
    level: int = 1
    name: str = ""
    row: Row | None = None
    order: int = 0
    sheet: PcSheet | None = None

    # Added with sheets: logs from before hold members without it.
    __digest_skip_default__: ClassVar[frozenset[str]] = frozenset({"sheet"})


class StartLabyrinth(Command, frozen=True, kw_only=True):
    """Set up a battle of ``party`` (ids p1, p2, ... in this order) and its
    ``allies`` (allied NPCs a1, a2, ..., acting by the seeded policy)
    against ``encounter`` (Enemies e1, e2, ...), with the table ``options``."""

    battle_id: str
    encounter: str
    party: tuple[Member, ...]
    seed: int
    options: Options = Options()
    allies: tuple[Member, ...] = ()
    rare: tuple[str, ...] = ()  # Enemy slots (e2, ...) met as their kind's rare variant (facts section 8)

    # Added after logs were written (allied NPCs, rare variants): those logs
    # hold setups without them.
    __digest_skip_default__: ClassVar[frozenset[str]] = frozenset({"allies", "rare"})


class Move(Command, frozen=True, kw_only=True):
    """Standby: move yourself to ``row`` at horizontal place ``order``
    (1 = leftmost; 0 = rightmost) (STANDBY-2, STANDBY-3)."""

    actor: str
    row: Row
    order: int = 0


class SwapWeapons(Command, frozen=True, kw_only=True):
    """Standby: swap the Weapon and Other slots' weapons (STANDBY-4)."""

    actor: str


class UseStandbySkill(Command, frozen=True, kw_only=True):
    """Standby: use a Standby-timing skill (STANDBY-5) on ``target`` ("" for
    itself or a skill aimed at a whole side)."""

    actor: str
    skill: str
    target: str = ""


class FullDefense(Command, frozen=True, kw_only=True):
    """Standby: Waiting state, damage halved, until the turn ends (STANDBY-6)."""

    actor: str


class Escape(Command, frozen=True, kw_only=True):
    """Standby: declare Escape; it is tried only if the whole party declares it (STANDBY-8).
    ``fp``: FP spent on this PC's [Evasion] check for as many extra dice (the
    best 2 kept); ``reroll``: roll that check again once if the escape fails,
    for FP (facts: Fills FUMBLE-2). Paid only when the escape is tried."""

    actor: str
    fp: int = 0
    reroll: bool = False

    # Added after logs were written: those logs hold Escape without them.
    __digest_skip_default__: ClassVar[frozenset[str]] = frozenset({"fp", "reroll"})


class Pass(Command, frozen=True, kw_only=True):
    """Take no Standby action, or give up the Main action."""

    actor: str


class Hold(Command, frozen=True, kw_only=True):
    """Main, fastest window: take no fastest action now; act in [Speed]
    order instead (ORDER-3). The GM holds for an Enemy with ``gm_enemies``."""

    actor: str


class Attack(Command, frozen=True, kw_only=True):
    """Main: a Normal attack on ``target`` with the Weapon slot's weapon
    (MAIN-2). ``fp``: FP spent on its hit check for as many extra dice (the
    best 2 kept); ``reroll``: reroll that check once if it fails, for FP
    (facts: Fills FUMBLE-2). ``actor`` "": the one acting now, which `rk
    attack TARGET` fills in before the command is given. ``faces``: with
    physical dice, the faces of its hit check, 1 to 6 (2, plus one per FP
    die); the rolls after it are typed when asked (``TypeFaces``)."""

    actor: str = ""
    target: str
    fp: int = 0
    reroll: bool = False
    faces: tuple[int, ...] | None = None

    # Added with physical dice: logs from before hold Attack without it.
    __digest_skip_default__: ClassVar[frozenset[str]] = frozenset({"faces"})


class UseSkill(Command, frozen=True, kw_only=True):
    """Main: use a Main-action skill (MAIN-4); ``target`` "" for itself or a
    whole side, a row member's id for a skill aimed at a row. ``fp`` and
    ``reroll`` as for ``Attack``, on its activation roll (or first hit
    check); so are ``faces``, that roll's typed off physical dice."""

    actor: str
    skill: str
    target: str = ""
    fp: int = 0
    reroll: bool = False
    faces: tuple[int, ...] | None = None

    # Added with physical dice: logs from before hold UseSkill without it.
    __digest_skip_default__: ClassVar[frozenset[str]] = frozenset({"faces"})


class UseItem(Command, frozen=True, kw_only=True):
    """Main: use an item carried (MAIN-6)."""

    actor: str
    item: str
    target: str = ""


class EnemyAct(Command, frozen=True, kw_only=True):
    """GM (``gm_enemies``): the acting Enemy's action: ``skill`` "" for a
    Normal attack, "pass" to do nothing. In the Standby phase: an Enemy's
    Standby skill, or "pass"."""

    actor: str
    skill: str = ""
    target: str = ""


class React(Command, frozen=True, kw_only=True):
    """Answer an attack roll against ``actor`` with a passive action
    (PASSIVE-1 .. PASSIVE-3): ``skill`` one of the passive skills offered,
    "" for none. Asked only with the ``ask_passives`` option; the GM answers
    for an Enemy under ``gm_enemies``."""

    actor: str
    skill: str = ""


class SpendFp(Command, frozen=True, kw_only=True):
    """Answer a Suppression defense roll of ``actor``'s with the FP spent
    on it (FUMBLE-2; asked only with the ``ask_fp`` option): ``fp`` extra
    dice, the best 2 kept, and ``reroll`` it if it fails; 0 and no reroll
    to spend nothing."""

    actor: str
    fp: int = 0
    reroll: bool = False


class TypeFaces(Command, frozen=True, kw_only=True):
    """Physical dice (the ``physical_dice`` option): the ``faces`` (1 to 6)
    the real dice show, for the roll the battle waits for, whoever rolls
    it (``actor`` "": the roller asked, which `rk roll` fills in)."""

    actor: str = ""
    faces: tuple[int, ...]


LabyrinthCommand = (
    StartLabyrinth
    | StartFromPosition
    | Move
    | SwapWeapons
    | UseStandbySkill
    | FullDefense
    | Escape
    | Pass
    | Attack
    | UseSkill
    | UseItem
    | EnemyAct
    | Hold
    | React
    | SpendFp
    | TypeFaces
)

STANDBY_COMMANDS = (Move, SwapWeapons, UseStandbySkill, FullDefense, Escape, Pass)
MAIN_COMMANDS = (Attack, UseSkill, UseItem, Pass, Hold)
