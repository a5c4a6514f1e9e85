"""Positions a command chooses (dice of a roll, dice on a track), checked
the same way wherever an ability or item takes them: some named, each
once, no more than the effect allows, each where there is a die."""

from __future__ import annotations

from domain.kernel.errors import MalformedCommand, RuleViolation


def check_positions(
    positions: tuple[int, ...], size: int, limit: int, *, rule: str, too_many: str, name_them: str, missing: str
) -> None:
    """Refuse ``positions`` (counted from 0 among ``size``) unless there are
    some (``name_them``), each once, at most ``limit`` (RuleViolation
    ``rule``: ``too_many``), each within range (``missing``, formatted with
    the position counted from 1 as ``{n}``)."""
    if not positions:
        raise MalformedCommand(name_them)
    if len(set(positions)) != len(positions):
        raise MalformedCommand("a position is named twice")
    if len(positions) > limit:
        raise RuleViolation(rule, too_many)
    for i in positions:
        if not 0 <= i < size:
            raise MalformedCommand(missing.format(n=i + 1))
