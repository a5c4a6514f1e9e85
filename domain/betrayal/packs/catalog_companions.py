"""The typed shape of a pack's companion chips (``companions.toml``):
``catalog.py`` re-exports it and ``Pack`` holds it; reading the file lives
in ``companions.py``."""

from __future__ import annotations

import msgspec

from domain.kernel.enums import PlainStr

COMPANION_MOVE = 2  # facts §2: a companion moves up to 2 hexes on its turn


class CompanionSkill(PlainStr):
    """What a companion chip's skills may be (facts: its skills are
    mandatory); each one is applied by the rules on every turn it can."""

    BRUTAL = "brutal"  # +1 damage to each target when its roll deals any
    TRUE_STRIKE = "true-strike"  # its damage is true damage (facts: ENGAGE-8c 4)
    REGENERATE = "regenerate"  # heals 1 HP at the start of its turn, up to its chip HP


class CompanionChip(msgspec.Struct, frozen=True, kw_only=True):
    """A companion chip: its HP (facts: it starts each battle at full chip
    HP), its Combat value (enemy dice rolled once per engage), its range,
    its target value (how many units one engage may hit: facts, "in sight
    and range up to its target value"), its move and skills, and whether
    it is permanent (CLEANUP-3c)."""

    id: str
    name: str
    hp: int
    combat: int
    range: int
    targets: int = 1
    move: int = COMPANION_MOVE
    skills: tuple[CompanionSkill, ...] = ()
    permanent: bool = False
