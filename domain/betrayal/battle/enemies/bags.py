"""The enemy draw bags (facts: CLEANUP-5a): a two-sided chip shows one
enemy per level, level 1 backing level 5 and level 10 backing level 20."""

from __future__ import annotations

from domain.betrayal.packs.catalog import Chip, Pack
from domain.betrayal.vocab import BAG_LEVELS


def chip_side(pack: Pack, chip: Chip, level: int) -> str | None:
    """The enemy id on the side of ``chip`` that shows ``level``, if any."""
    low, high = BAG_LEVELS[chip.bag]
    if level == low:
        return chip.front
    if level == high and chip.back is not None:
        return chip.back
    return None
