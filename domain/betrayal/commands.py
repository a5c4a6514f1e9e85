"""Commands a Betrayal party can give: imperative, frozen, tagged by class
name so the log can hold any of them (DESIGN: the log records the intent)."""

from __future__ import annotations

from typing import ClassVar

import msgspec

from domain.kernel.hexes import Hex
from domain.kernel.messages import Command

from .vocab import BattleForm, Difficulty


class Member(msgspec.Struct, frozen=True, kw_only=True):
    """One adventurer joining a battle, as copied from its Adventurer."""

    adventurer_id: str
    name: str
    race: str
    hp: int
    max_hp: int
    stamina: int
    magicka: int
    cooldown: int
    tenacity: int
    dice: tuple[tuple[int, str], ...]  # (uid, die id)
    track: tuple[tuple[str, int, int, str], ...] = ()  # carried over (CLEANUP-4c)
    form: BattleForm = BattleForm.LIGHT


class StartClash(Command, frozen=True, kw_only=True):
    """Set up a clash (CLASH-5 to CLASH-10). ``party`` is in turn order, the
    first player first (CLASH-8a); ``placements`` optionally names each
    adventurer's Entrance hex."""

    battle_id: str
    setup: str
    party: tuple[Member, ...]
    xp: int
    seed: int
    difficulty: Difficulty = Difficulty.ADEPT
    physical_dice: bool = False
    placements: tuple[Hex, ...] = ()


class StartDungeon(StartClash, frozen=True, kw_only=True):
    """Set up a dungeon from its diagram (DUNGEON-6 to DUNGEON-11): ``setup``
    names a dungeon; ``specials`` optionally chooses, in order, the special
    hex of each objective unit (DUNGEON-8e: the party chooses)."""

    specials: tuple[Hex, ...] = ()


class StartDelve(Command, frozen=True, kw_only=True):
    """Set up a delve (DELVE-7 to DELVE-12): ``delve`` names the encounter;
    ``party`` is in turn order, the first player first (DELVE-10a);
    ``placements`` optionally names each adventurer's Entrance hex."""

    battle_id: str
    delve: str
    party: tuple[Member, ...]
    xp: int
    seed: int
    difficulty: Difficulty = Difficulty.ADEPT
    physical_dice: bool = False
    placements: tuple[Hex, ...] = ()


class Move(Command, frozen=True, kw_only=True):
    """Move the current adventurer to ``to`` by a shortest free route (MOVE-1)."""

    to: Hex

    explore: ClassVar[bool] = False


class MoveToExplore(Command, frozen=True, kw_only=True):
    """In a delve: a Move to the explorable hex ``to`` that explores it on
    entering (EXPLORATION-3a, no action: EXPLORATION-3c); the rest of the
    move may follow afterwards (EXPLORATION-3b)."""

    to: Hex

    explore: ClassVar[bool] = True


class Explore(Command, frozen=True, kw_only=True):
    """In a delve: with ``hex``, the Explore action from a distance (EXPLORE-1,
    EXPLORATION-4); without, explore the hex the adventurer starts its turn
    on (EXPLORATION-3a, DELVE-10d), which is no action (EXPLORATION-3c)."""

    hex: Hex | None = None


class PlaceTile(Command, frozen=True, kw_only=True):
    """Connect the revealed tile where the party chooses (EXPLORATION-9b):
    turned ``rotation`` sixths clockwise, its first hex (its own (0, 0)) on ``origin``."""

    rotation: int
    origin: Hex


class Engage(Command, frozen=True, kw_only=True):
    """Declare an engage (ENGAGE-4 to ENGAGE-7): battle form, the one target
    (optional), and the dice to gather and roll, by uid. With physical dice
    ``faces`` gives the face index each die landed on."""

    form: BattleForm
    target: str | None = None
    dice: tuple[int, ...] = ()
    faces: tuple[int, ...] | None = None


class Resolve(Command, frozen=True, kw_only=True):
    """Resolve the rolled dice (ENGAGE-8). Dice listed in ``skip`` (positions
    in the roll) are left unresolved and exhausted (ENGAGE-8e)."""

    skip: tuple[int, ...] = ()


class ClearActive(Command, frozen=True, kw_only=True):
    """Remove an active die without resolving it, to make room (ACTIVE-4)."""

    slot: int


class EndTurn(Command, frozen=True, kw_only=True):
    """End the current adventurer's turn (TURN-6)."""


class RollEnemyDice(Command, frozen=True, kw_only=True):
    """Physical dice: the faces an enemy's dice landed on (ENEMY-6c)."""

    faces: tuple[int, ...]


class NextRound(Command, frozen=True, kw_only=True):
    """At the end of a round, go on to the next one (ROUND-8)."""


class Retreat(Command, frozen=True, kw_only=True):
    """At the end of a round, the party retreats (RETREAT-1, ROUND-8c)."""


BattleCommand = (StartClash | StartDungeon | StartDelve | Move | MoveToExplore | Explore | PlaceTile | Engage | Resolve | ClearActive
                 | EndTurn | RollEnemyDice | NextRound | Retreat)
