"""What ``decide`` needs besides the state: the content pack and the board
of the battle's setup. Built once per battle and reused (it is immutable)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from domain.kernel.errors import InternalError

from domain.betrayal.delve.aggregate import DelveState
from domain.betrayal.delve.map import DelveMap, delve_map
from domain.betrayal.packs.catalog import Enemy, Pack, Setup, SkillDie
from domain.betrayal.vocab import Mode

from .board import Board

# The enemy Combat die: miss, miss, 1, 1, 1, 2 (betrayal-facts, ENGAGE-7,
# a documented default: only misses, 1s and 2s are known to exist).
ENEMY_DIE = "enemy"
ENEMY_DIE_FACES: tuple[int, ...] = (0, 0, 1, 1, 1, 2)
ACTIVE_SLOTS = 4  # ACTIVE-3
MAX_TENACITY = 10  # facts default (ADVANCE-11)


@dataclass(frozen=True)
class RulesContext:
    """The content pack and the board of one setup. A delve's context also
    holds its Delve as it stands (``delve``): its board is the map placed
    so far."""

    pack: Pack
    setup_id: str
    delve: DelveState | None = None

    @cached_property
    def board(self) -> Board:
        if self.delve is not None:
            return self.map.board
        return Board.from_setup(self.setup)

    @property
    def joined_delve(self) -> DelveState:
        """The Delve this context was joined with, for what reads only a
        delve's (its map, its views)."""
        if self.delve is None:
            raise InternalError(f"{self.setup_id} is not a delve: no Delve joins its context")
        return self.delve

    @cached_property
    def map(self) -> DelveMap:
        """The delve's map (delves only)."""
        return delve_map(self.pack, self.joined_delve.tiles)

    @property
    def setup(self) -> Setup:
        """The clash or dungeon setup diagram."""
        found = self.pack.setups.get(self.setup_id) or self.pack.dungeons.get(self.setup_id)
        assert found is not None, self.setup_id
        return found

    @property
    def mode(self) -> Mode:
        if self.setup_id in self.pack.delves:
            return Mode.DELVE
        return Mode.DUNGEON if self.setup_id in self.pack.dungeons else Mode.CLASH

    def with_delve(self, delve: DelveState | None) -> RulesContext:
        """This context with the delve as it now stands."""
        return RulesContext(self.pack, self.setup_id, delve)

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
