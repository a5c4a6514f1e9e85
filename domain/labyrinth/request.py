"""What setting a labyrinth battle up asks for (``NewLabyrinth``): the one
shape `rk new labyrinth`, the API and the lobby give its builder
(``new_game``). Light: its fields only, checked by the builder."""

from __future__ import annotations

from typing import Any

import msgspec

from .sheets import PcSheet

MEMBER = "CLASS[:LEVEL[:NAME[:ROW]]]"  # a member as the command line types it


class PartyMember(msgspec.Struct, forbid_unknown_fields=True, frozen=True, kw_only=True):
    """A PC (or an allied NPC) as an object: its ``class`` and ``level``,
    and optionally its ``name`` (default: the class's), ``row`` (front or
    back; default: the class's) and own ``sheet`` (default: its class's at
    its level). On the command line the same is ``CLASS[:LEVEL[:NAME[:ROW]]]``."""

    cls: str = msgspec.field(name="class")
    level: int = 1
    name: str | None = None
    row: str | None = None
    sheet: PcSheet | None = None


class SheetFile(msgspec.Struct, forbid_unknown_fields=True, frozen=True, kw_only=True):
    """A TOML sheet file of one PC or several (``examples/labyrinth/``):
    its name, for refusals, and its text (the command line reads it)."""

    file: str
    text: str = ""


class NewLabyrinth(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A labyrinth battle of ``party`` (PCs p1, p2... in this order: the
    members, then each of ``sheets``' PCs) and its allied NPCs (a1, a2...:
    ``allies``, then ``ally_sheets``'), acting by the seeded policy and
    counted with the party toward SCALE-1, against ``encounter``, whose
    Enemy slots named in ``rare`` (e1, e2...) are their kind's rare variant.

    A member is ``CLASS[:LEVEL[:NAME[:ROW]]]`` or a ``PartyMember``.
    ``passives``: who chooses the passive actions (PASSIVE-2): ask each
    PC's player, auto or off; ``ask_fp``: ask each PC's player the FP spent
    on its Suppression defense rolls (FUMBLE-2); ``physical_dice``: the
    table rolls real dice and types every roll's faces (`rk roll`); ``ambush``: the side caught
    by surprise, pcs or enemies; ``gm_enemies``: the GM chooses each
    Enemy's action; ``options``: any table option by name, as ``NAME=VALUE``
    texts or a {name: value} object, applied after ``passives``."""

    encounter: str
    party: list[str | PartyMember] = []
    sheets: list[SheetFile] = []
    allies: list[str | PartyMember] = []
    ally_sheets: list[SheetFile] = []
    seed: int | None = None
    passives: str = "ask"
    ambush: str | None = None
    gm_enemies: bool = False
    ask_fp: bool = False
    physical_dice: bool = False
    options: list[str] | dict[str, Any] = []
    rare: list[str] = []
    name: str | None = None
