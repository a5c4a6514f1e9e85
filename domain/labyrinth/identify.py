"""Identify (ENEMY-3, ENEMY-4; facts: Fills ENEMY-3), the party's check
before the battle's first turn."""

from __future__ import annotations

from . import events as ev
from .decision import Decision
from .state import LabyrinthState
from .vocab import Side

RARE_SPOT_MARGIN = 2  # facts: Fills ENEMY-3, spotting a rare variant needs Rarity + 2


def tec_bonuses(state: LabyrinthState) -> dict[str, int]:
    """Each PC's TEC bonus (a PC's base [Elemental attack] is it), in party order."""
    pcs = sorted((c for c in state.combatants if c.side is Side.PC), key=lambda c: c.roster)
    return {c.id: c.base.eatk for c in pcs}


def identify(d: Decision, tec: dict[str, int]) -> None:
    """Identify (ENEMY-3, ENEMY-4; facts: Fills ENEMY-3): before the battle,
    at no cost, each PC makes one TEC check (2D6 + TEC bonus) that covers
    every Enemy: it identifies those whose Rarity it reaches (two 6s always
    do, all 1s never). An Enemy no PC identified keeps its resistances at
    3 or more and its "Weakness" skills do not apply. A rare variant is
    spotted only by a result of Rarity + 2 (two 6s again always do); a
    lower success shows the sheet's data. Each 1 gives its roller FP, as
    on any action check."""
    ids = tuple(tec)
    faces, counter = d.roll(2 * len(ids), who=ids[0], rule="ENEMY-3", what="Identify: 2 D6 per PC, in party order")
    pairs = [faces[2 * i : 2 * i + 2] for i in range(len(ids))]
    totals = tuple(sum(p) + tec[cid] for cid, p in zip(ids, pairs))
    known: list[str] = []
    unknown: list[str] = []
    spotted: list[str] = []
    for enemy in d.state.side(False):
        kind = d.pack.enemies[enemy.kind]
        found = any(_reaches(p, total, kind.rarity) for p, total in zip(pairs, totals))
        (known if found else unknown).append(enemy.id)
        spot = kind.rarity + RARE_SPOT_MARGIN
        if enemy.rare and any(_reaches(p, total, spot) for p, total in zip(pairs, totals)):
            spotted.append(enemy.id)
    d.emit(
        ev.Identified(
            ids=ids,
            faces=faces,
            counter=counter,
            totals=totals,
            known=tuple(known),
            unknown=tuple(unknown),
            fp=tuple(p.count(1) for p in pairs),
            spotted=tuple(spotted),
        )
    )


def _reaches(pair: tuple[int, ...], total: int, rarity: int) -> bool:
    if pair.count(6) >= 2:
        return True  # absolute success
    return pair.count(1) < len(pair) and total >= rarity
