"""The state of one duel, derived only by replaying its events: a frozen
Struct of tuples, so undo restores it exactly and tests compare with ``==``.
Hexes are axial (q, r), as the kernel's ``hexes`` module has them."""

from __future__ import annotations

import msgspec

Hex = tuple[int, int]


class DuelState(msgspec.Struct, frozen=True, kw_only=True):
    """A whole duel. ``turn``: the side to act (0 is a, 1 is b);
    ``pledges``: each side's card face down, "" for none; ``winner``: None
    while the duel goes on, -1 for a draw."""

    battle_id: str
    rules_version: str
    pack_id: str
    pack_hash: str
    seed: int
    width: int
    pawns: tuple[Hex, Hex]
    pledges: tuple[str, str] = ("", "")
    rng: int = 0  # the counter of the next roll
    round: int = 1
    turn: int = 0
    winner: int | None = None
    reason: str = ""

    @property
    def over(self) -> bool:
        return self.winner is not None
