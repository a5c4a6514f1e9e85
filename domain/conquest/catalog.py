"""The typed content of a Conquest pack: armies (Regiments and Characters
with their Command Cards), Supremacy Abilities, draw events, the
Reinforcement Table and scenarios. Built and validated by ``packs.py``."""

from __future__ import annotations

import msgspec

from .vocab import AbilityEffect, AbilityKind, Action, DrawEffect, RegimentClass

NO = 0  # a Reinforcement Table cell: the Class cannot arrive this Round
AUTO = -1  # a Reinforcement Table cell: the Class arrives automatically (REINF-5)


class Ability(msgspec.Struct, frozen=True, kw_only=True):
    """A Supremacy Ability (SUP-5, SUP-6)."""

    id: str
    name: str
    kind: AbilityKind
    effect: AbilityEffect
    amount: int
    text: str = ""


class DrawEvent(msgspec.Struct, frozen=True, kw_only=True):
    """A draw event printed on a Command Card (ACT-8)."""

    id: str
    name: str
    effect: DrawEffect
    action: Action = Action.MARCH  # the action granted (free or additional)


class RegimentEntry(msgspec.Struct, frozen=True, kw_only=True):
    """An army-list entry for ``count`` Regiments of one kind. Each has its
    own Command Card named after the entry (ACT-3)."""

    id: str
    name: str
    type: str
    cls: RegimentClass
    stands: int
    march: int  # inches (ARRIVE-2)
    depth: int  # inches from front rank to rear edge
    volley: int = 0  # range in inches; 0: no Volley
    count: int = 1
    draw_events: tuple[str, ...] = ()


class CharacterEntry(msgspec.Struct, frozen=True, kw_only=True):
    """A Character: joins a Regiment of its Type (REINF-2); its own card (CMD-3)."""

    id: str
    name: str
    type: str
    abilities: tuple[str, ...] = ()  # Supremacy Abilities, used only as Warlord (SUP-6)
    draw_events: tuple[str, ...] = ()


class Army(msgspec.Struct, frozen=True, kw_only=True):
    """One army list: its Regiments, its Characters and its Warlord (SUP-5)."""

    id: str
    name: str
    warlord: str
    regiments: tuple[RegimentEntry, ...]
    characters: tuple[CharacterEntry, ...]


class Scenario(msgspec.Struct, frozen=True, kw_only=True):
    """The mission: Round count and victory conditions (ROUND-3, VICTORY-3)."""

    id: str
    name: str
    rounds: int = 10  # facts §6 default
    depth: int = 48  # inches between the two Reinforcement Zones
    score_from: int = 2  # first Round in which victory points are scored
    vp_per_round: int = 3  # most VP one player may declare in one Victory Phase
    vp_to_win: int = 0  # reaching it wins at once; 0: no such condition


class Pack(msgspec.Struct, frozen=True, kw_only=True):
    """A validated content pack."""

    id: str
    name: str
    version: str
    hash: str
    reinforcement: tuple[tuple[int, int, int], ...]  # per Round, light/medium/heavy cells
    abilities: dict[str, Ability]
    draw_events: dict[str, DrawEvent]
    armies: dict[str, Army]
    scenarios: dict[str, Scenario]

    def cell(self, round_: int, cls: RegimentClass) -> int:
        """The Reinforcement Table cell (REINF-9): NO, AUTO or the highest
        roll that succeeds. The last row holds for every later Round."""
        row = self.reinforcement[min(round_, len(self.reinforcement)) - 1]
        return row[list(RegimentClass).index(cls)]
