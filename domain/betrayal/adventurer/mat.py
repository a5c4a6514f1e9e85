"""The adventurer mat: attribute rows, their square slots and what the next
slot costs (ADVANCE-2 to ADVANCE-5, ADVANCE-13).

A row has a round slot at each end and ``squares`` square slots between.
The attribute whose round token is at the left fills squares from the left
and pays the white-box cost of each column; the one at the right fills
from the right and pays the black-box cost (ADVANCE-3, ADVANCE-4). The
squares an attribute fills are counted, never stored: Health's red tokens
(its maximum above the race's printed base, HEALTH-1), the Stamina and
Magicka tokens (the stat itself, facts: HEALTH-1), and a skill line's dice
wherever they are (ADVANCE-5: on the track or drained, they keep their
slot)."""

from __future__ import annotations

from typing import NamedTuple

from domain.kernel.errors import RuleViolation

from domain.betrayal.packs.catalog import Pack

from .state import AdventurerState, MatRow

STATS = ("health", "stamina", "magicka")
COMBAT = "combat"


class Slot(NamedTuple):
    """The next square slot of an attribute: its row, column and XP cost."""

    row: int
    column: int
    cost: int


def starting_mat(pack: Pack, lines: tuple[str, ...]) -> tuple[MatRow, ...]:
    """A new adventurer's mat: the pack's starting rows, then each starting
    skill line on the first empty round slot in reading order."""
    rules = pack.campaign
    assert rules is not None
    rows = [MatRow(left, right) for left, right in rules.start]
    rows += [MatRow() for _ in range(rules.rows - len(rows))]
    for line in lines:
        placed = free_round_slots(tuple(rows))
        if not placed:
            break  # more starting lines than round slots: the pack refuses none, the mat holds what fits
        row, left = placed[0]
        rows[row] = MatRow(line, rows[row].right) if left else MatRow(rows[row].left, line)
    return tuple(rows)


def mat_of(state: AdventurerState, pack: Pack) -> tuple[MatRow, ...]:
    """The adventurer's mat (an adventurer made for a battle alone has the
    starting layout of its lines)."""
    return state.mat or starting_mat(pack, state.lines)


def free_round_slots(mat: tuple[MatRow, ...]) -> list[tuple[int, bool]]:
    """The empty round slots, as (row, left), in reading order (ADVANCE-13)."""
    found = []
    for i, row in enumerate(mat):
        if not row.left:
            found.append((i, True))
        if not row.right:
            found.append((i, False))
    return found


def line_of(pack: Pack, die: str) -> str:
    """The skill line a die belongs to (Combat dice: "combat")."""
    return pack.dice[die].line


def filled(state: AdventurerState, attribute: str, pack: Pack) -> int:
    """How many square slots ``attribute`` fills on the mat."""
    if attribute == "health":
        return state.max_hp - pack.races[state.race].health
    if attribute in ("stamina", "magicka"):
        return getattr(state, attribute)
    return sum(1 for _, die in state.dice if line_of(pack, die) == attribute)


def row_of(mat: tuple[MatRow, ...], attribute: str) -> tuple[int, bool] | None:
    """Where ``attribute``'s round token sits, as (row, left), or None."""
    for i, row in enumerate(mat):
        if row.left == attribute:
            return i, True
        if row.right == attribute:
            return i, False
    return None


def next_slot(state: AdventurerState, attribute: str, pack: Pack, rule: str = "ADVANCE-2") -> Slot:
    """The square slot the next token or die of ``attribute`` goes in, and
    its cost; RuleViolation when the attribute is not on the mat or its row
    is full."""
    rules = pack.campaign
    assert rules is not None
    mat = mat_of(state, pack)
    where = row_of(mat, attribute)
    if where is None:
        raise RuleViolation(rule, f"{attribute} is not on {state.name}'s mat (train it first)")
    row, left = where
    other = mat[row].right if left else mat[row].left
    taken = filled(state, attribute, pack)
    if taken + (filled(state, other, pack) if other else 0) >= rules.squares:
        raise RuleViolation("ADVANCE-2", f"the {attribute} row of {state.name}'s mat has no empty square slot")
    # ADVANCE-3: the empty slot closest to the round token; ADVANCE-4: its box.
    column = taken if left else rules.squares - 1 - taken
    return Slot(row, column, rules.white[column] if left else rules.black[column])
