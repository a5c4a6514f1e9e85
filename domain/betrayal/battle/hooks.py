"""Hook points: where the core battle rules (``actions``, ``damage``,
``exploration``, ``flow``, ``enemies.turn``) let the race, class and item abilities
act, without importing them.

The dependency runs one way. The ability modules (``abilities.race``,
``abilities.classes``, ``items.use``, ``items.wards``) build on the core: they
import its modules and register their functions here as they are imported.
The core only reads these hook points. Reading any of them first imports
every ability module (``ABILITIES``), so the hooks are all in place before
one is read, while a command that reads none (a Move on a clash) never
loads the abilities' rules.

At each hook point the functions run by ``Layer``: race, then class, then
items, whatever order the modules were imported in, so the order of the
events a command produces is fixed here and not by imports. Each point
holds at most one function per layer. Where the functions answer damage
prevented, each is given the damage the earlier ones left; where they
answer True to stop something, the first True stops the later ones.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from enum import IntEnum
from typing import Any, Generic, NamedTuple, TypeVar

from domain.kernel.hexes import Hex

from .commands import Engage
from .decision import Decision
from .companions.state import Ally
from .state import Foe, Hero

F = TypeVar("F", bound=Callable[..., Any])


class Layer(IntEnum):
    """Who registers at a hook point, in the order they act there."""

    RACE = 1
    CLASS = 2
    ITEM = 3


class HookPoint(Generic[F]):
    """One place in the core rules where abilities act; ``doc`` says when
    it is called, with what, and what its functions answer. Iterating gives
    the registered functions in layer order."""

    def __init__(self, name: str, doc: str) -> None:
        self.name = name
        self.doc = doc
        self._by_layer: dict[Layer, F] = {}

    def register(self, layer: Layer, fn: F) -> F:
        """Register ``fn`` as ``layer``'s function here. Registering the same
        function again (a module imported twice) changes nothing; a second,
        different one for the same layer is a programming error."""
        held = self._by_layer.get(layer)
        if held is not None and _key(held) != _key(fn):
            raise ValueError(f"hook {self.name}: {layer.name} already has {_key(held)}, not {_key(fn)}")
        self._by_layer[layer] = fn
        return fn

    def __iter__(self) -> Iterator[F]:
        if not _loaded:
            _load_abilities()
        return iter([self._by_layer[layer] for layer in sorted(self._by_layer)])

    def __repr__(self) -> str:
        held = ", ".join(f"{layer.name}: {_key(fn)}" for layer, fn in sorted(self._by_layer.items()))
        return f"HookPoint({self.name!r}; {held})"


# The modules that register at the hook points, imported the first time a
# point is read (a test checks that they are the ones registered once every
# module of the battle is imported).
ABILITIES = (
    "domain.betrayal.battle.abilities.race",
    "domain.betrayal.battle.abilities.classes",
    "domain.betrayal.battle.items.use",
    "domain.betrayal.battle.items.wards",
)
_loaded = False


def _load_abilities() -> None:
    global _loaded
    for module in ABILITIES:
        importlib.import_module(module)
    _loaded = True  # once they are all in: a read while they import (none does) would import them again


def _key(fn: Callable[..., Any]) -> str:
    return f"{fn.__module__}.{fn.__qualname__}"


# --- values passed through the hooks --------------------------------------------------


class EngagePool:
    """Damage an engage deals to its one target, pooled and applied after
    the last die (facts: ENGAGE-8c item 2): Combat damage (halved by Maim),
    physical damage and true damage."""

    def __init__(self) -> None:
        self.combat = 0
        self.physical = 0
        self.true = 0


class EngageExtra(NamedTuple):
    """What an ability adds to an Engage about to be declared: ``dice`` free
    enemy Combat dice rolled after the gathered ones, and ``declared``, what
    it emits once the Engage is declared and its fatigue gained, if anything."""

    dice: int = 0
    declared: Callable[[], None] | None = None


# --- damage to an adventurer (damage.hurt_hero) ---------------------------------------------

PREVENT_DAMAGE: HookPoint[Callable[[Decision, str, int, str], int]] = HookPoint(
    "prevent-damage",
    "Physical damage (hero id, amount, source) about to hit an adventurer, before any ward:"
    " returns what the ability prevents of it (CLASS-4 Interrupts, then class guards).",
)

WARD: HookPoint[Callable[[Decision, Hero], int]] = HookPoint(
    "ward",
    "Returns what is prevented of every damage instance the adventurer suffers, counted with"
    " its ward dice (ENCHANT-1, OVERTAX-3: item wards).",
)

REACT_TO_DAMAGE: HookPoint[Callable[[Decision, str, int, bool | None], int]] = HookPoint(
    "react-to-damage",
    "Physical damage (hero id, damage left, the player's choice or None) still left after wards,"
    " Armor and blocks: returns what a reaction prevents of it (RACE-ARGONIAN, RACE-IMPERIAL).",
)

# --- an adventurer's turn (flow.start_turn) ----------------------------------------------------

TURN_START: HookPoint[Callable[[Decision, str], None]] = HookPoint(
    "turn-start",
    "An adventurer's turn started (TurnStarted emitted), before Bane and Recovery (TURN-3):"
    " Interrupts first, then Enduring effects (CLASS-3, CLASS-4).",
)

# --- an enemy's turn (foes) ----------------------------------------------------------------------

BEFORE_ENEMY_TURN: HookPoint[Callable[[Decision], None]] = HookPoint(
    "before-enemy-turn",
    "An enemy's turn is about to start (before EnemyTurnStarted): RACE-WOOD-ELF's armed Hunter's Eye.",
)

ENEMY_ENGAGED: HookPoint[Callable[[Decision, str, tuple[str, ...]], bool]] = HookPoint(
    "enemy-engaged",
    "An enemy (foe id) engaged its targets (EnemyEngaged emitted), before its roll: returns True"
    " when the enemy fell to what acted (CLASS-4); the later layers then do not run.",
)

DEFENSE_OFFERED: HookPoint[Callable[[Decision, Hero], bool]] = HookPoint(
    "defense-offered",
    "With the choose-defense option: whether the adventurer has a choice to make against a strike"
    " beside its active blocks (an unused race reaction, Armor or Pets: COMBAT-4, ARMOR-2).",
)

ENEMY_BLOW: HookPoint[Callable[[Decision, str, int, bool, Any], tuple[int, Callable[[], None]]]] = HookPoint(
    "enemy-blow",
    "An enemy's blow (hero id, amount, true damage, the Defend's item choice or None) about to be"
    " dealt: returns what it prevents (the ``shield`` of hurt_hero: ARMOR-1, PET-1) and what to do"
    " once the blow landed (OVERTAX-4).",
)

# --- lockpick tests (exploration.lockpick) ------------------------------------------------------

LOCKPICK: HookPoint[Callable[[Decision, str, str, Hex], bool]] = HookPoint(
    "lockpick",
    "A lockpick test (hero id, what: trap or cache, hex) about to be rolled: returns True when"
    " the ability succeeds without rolling (RACE-KHAJIIT); the later layers then do not run.",
)

# --- an adventurer's Engage (actions.engage, actions.resolve) -----------------------------------

ENGAGE_DECLARING: HookPoint[Callable[[Decision, Hero, Engage], EngageExtra]] = HookPoint(
    "engage-declaring",
    "An Engage checked, about to be declared: refuses what the ability forbids and returns its"
    " EngageExtra (RACE-NORD's free dice; the Weapon: WEAPON-1 to WEAPON-3, ENGAGE-7c).",
)

FREE_ENGAGE: HookPoint[Callable[[Decision, str], bool]] = HookPoint(
    "free-engage",
    "An Engage from the second on was declared: returns True when the ability makes it free of"
    " ENGAGE-4's fatigue, spending what it spends (CLASS-1); the later layers then do not run.",
)

ENGAGE_STRIKE: HookPoint[Callable[[Decision, str, Foe | Hero | Ally | None, EngagePool], None]] = HookPoint(
    "engage-strike",
    "An engage's dice are resolved (hero id, target, pool): adds to its pooled damage before it is"
    " applied, or acts otherwise (the wielded Weapon: WEAPON-1, OVERTAX-2).",
)

ENGAGE_UNROLLED: HookPoint[Callable[[Decision, str, str | None], None]] = HookPoint(
    "engage-unrolled",
    "A declared Engage rolls no dice (hero id, target id; ENGAGE-7 is optional): what still applies,"
    " as the engage's one damage instance (the Weapon: WEAPON-1).",
)

ENGAGE_RESOLVED: HookPoint[Callable[[Decision, Hero], None]] = HookPoint(
    "engage-resolved",
    "An engage ended (EngageResolved emitted); given the adventurer as the engage left it, before"
    " that event: what ends with it (an Overtaxed Weapon is discarded: OVERTAX-4, RACE-BRETON).",
)
