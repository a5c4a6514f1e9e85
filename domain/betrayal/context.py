"""What ``decide`` needs besides the state: the content pack and the board
of the battle's setup. Built once per battle and reused (it is immutable)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from .board import Board
from .catalog import Enemy, Pack, SkillDie

# The enemy Combat die: miss, miss, 1, 1, 1, 2 (betrayal-facts, ENGAGE-7,
# a documented default: only misses, 1s and 2s are known to exist).
ENEMY_DIE = "enemy"
ENEMY_DIE_FACES: tuple[int, ...] = (0, 0, 1, 1, 1, 2)
ACTIVE_SLOTS = 4  # ACTIVE-3
MAX_TENACITY = 10  # facts default (ADVANCE-11)


@dataclass(frozen=True)
class RulesContext:
    """The content pack and the board of one setup."""

    pack: Pack
    setup_id: str

    @cached_property
    def board(self) -> Board:
        return Board.from_setup(self.pack.setups[self.setup_id])

    def die(self, die_id: str) -> SkillDie:
        return self.pack.dice[die_id]

    def enemy(self, enemy_id: str) -> Enemy:
        return self.pack.enemies[enemy_id]


_CONTEXTS: dict[tuple[str, str], RulesContext] = {}


def context_for(pack: Pack, setup_id: str) -> RulesContext:
    """A shared context per (pack hash, setup): boards are costly to build and
    never change."""
    key = (pack.hash, setup_id)
    ctx = _CONTEXTS.get(key)
    if ctx is None or ctx.pack is not pack:
        ctx = _CONTEXTS[key] = RulesContext(pack, setup_id)
    return ctx
