"""A companion's in-battle state and the bookkeeping of its turn."""

from __future__ import annotations

import msgspec

from domain.kernel.hexes import Hex

from domain.betrayal.vocab import Status


class Ally(msgspec.Struct, frozen=True, kw_only=True):
    """A companion unit in a battle: the chip's numbers as they were when
    it joined (so the log never reads the pack again), the adventurer who
    controls it (its seat), where it stands (``pos`` None while it waits
    beside the Entrance tile, CLASH-9a), its HP (facts: full chip HP at
    the start of each battle), and whether it acted this round."""

    id: str  # how commands name it ("fox"; "fox-2" for a second chip of a kind)
    chip: str  # the content id of its chip
    name: str
    controller: str  # the hero id of the adventurer who controls it
    hp: int
    max_hp: int  # the chip's HP: "excess HP" is measured against it (facts: CLEANUP-3c)
    combat: int  # enemy dice rolled once per engage
    range: int
    targets: int  # its target value: how many units one engage may hit
    move: int
    skills: tuple[str, ...] = ()
    permanent: bool = False  # a permanent companion chip (CLEANUP-3c)
    carried: bool = False  # brought from an earlier battle by its controller (CLEANUP-3c)
    statuses: tuple[Status, ...] = ()  # status effects on it, one of each (facts: STATUS-1), e.g. Stealth
    pos: Hex | None = None
    acted: bool = False  # took its turn this round (ROUND-6)
    defeated: bool = False  # left the party for good (facts)
    withdrawn: bool = False  # left the map when every adventurer fell, not defeated (facts)

    @property
    def deployed(self) -> bool:
        """On the map (not waiting beside the Entrance, not gone)."""
        return self.pos is not None and not self.defeated and not self.withdrawn


class AllyTurn(msgspec.Struct, frozen=True, kw_only=True):
    """The companion turn under way: who, and what it did so far (facts:
    move, then engage, then its turn ends). ``start_positions`` holds each
    unit's hex as the turn began, for Stealth (facts: STATUS-1)."""

    companion: str
    moved: bool = False
    start_positions: tuple[tuple[str, Hex], ...] = ()
