"""Where a log and the rules part ways (``Divergence``), in words a
person reads, and how two values differ: the first field that does."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

import msgspec

from ..struct_fields import struct_fields


class Divergence(msgspec.Struct, frozen=True, kw_only=True):
    """Where a log and the rules part ways: the line, the command (its id
    and a readable form), the rule ID, what the rules expected, what the
    log holds."""

    line: int
    command_id: str
    command: str
    rule: str
    expected: str
    found: str


class Found(Exception):
    """A divergence: checking stops at the first (lines are checked in order)."""

    def __init__(self, divergence: Divergence) -> None:
        super().__init__(divergence.rule)
        self.divergence = divergence


@dataclass(frozen=True)
class Label:
    """The command a divergence is in: its id and a readable form."""

    command_id: str
    text: str


def divergence(line: int, label: Label | None, rule: str, expected: str, found: str) -> Divergence:
    """A ``Divergence`` at ``line``, in the command ``label`` names (None:
    in no command), its texts clipped to a readable length."""
    command_id, text = (label.command_id, label.text) if label else ("", "")
    return Divergence(
        line=line, command_id=command_id, command=text, rule=rule, expected=clip(expected), found=clip(found)
    )


def unequal(line: int, label: Label, rule: str, what: str, expected: Any, found: Any) -> Divergence:
    """A divergence between two values, showing the first field that differs."""
    first = first_difference(plain(expected), plain(found), "")
    where, a, b = first or ("", "", "")
    return divergence(line, label, rule, f"{what} ({where} = {a})", f"{where} = {b}")


def reason(d: Divergence) -> str:
    """A divergence in the words of an import's refusal (LogError)."""
    return f"{d.rule}: expected {d.expected}, found {d.found}"


def describe_command(cmd: Any) -> str:
    """``Engage form=light target=e1``: the fields not at their default (for
    a command the ruleset cannot spell)."""
    parts = [type(cmd).__name__]
    for f in struct_fields(type(cmd)):
        value = getattr(cmd, f.name)
        if value == f.default:
            continue
        parts.append(f"{f.name}={_short(value)}")
    return clip(" ".join(parts), 100)


def _short(value: Any) -> str:
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, tuple):
        return ",".join(_short(v) for v in value)
    return str(value)


def describe_event(event: Any) -> str:
    """``DiceRolled {...}``: an event's type and its fields as JSON."""
    return f"{type(event).__name__} {msgspec.json.encode(event).decode()}"


def plain(value: Any) -> Any:
    """``value`` as plain JSON values (lists, not tuples), as a log holds it."""
    return msgspec.json.decode(msgspec.json.encode(value))


def difference(expected: Any, found: Any, path: str = "") -> str:
    """The first place two plain values differ, as ``path: X expected, found Y``."""
    first = first_difference(expected, found, path)
    if first is None:
        return ""
    where, a, b = first
    return f"{where}: {a} expected, found {b}"


def first_difference(expected: Any, found: Any, path: str) -> tuple[str, str, str] | None:
    """(path, expected, found) where two plain values first differ, or None."""
    if isinstance(expected, dict) and isinstance(found, dict):
        for key in [*expected, *(k for k in found if k not in expected)]:
            if key not in found or key not in expected:
                return f"{path}.{key}".lstrip("."), _present(expected, key), _present(found, key)
            inner = first_difference(expected[key], found[key], f"{path}.{key}")
            if inner:
                return inner
        return None
    if isinstance(expected, list) and isinstance(found, list):
        for i, (a, b) in enumerate(zip(expected, found)):
            inner = first_difference(a, b, f"{path}[{i}]")
            if inner:
                return inner
        if len(expected) != len(found):
            return path.lstrip("."), f"{len(expected)} items", f"{len(found)} items"
        return None
    if expected == found and type(expected) is type(found):
        return None
    return path.lstrip("."), clip(repr(expected), 80), clip(repr(found), 80)


def _present(obj: dict[str, Any], key: str) -> str:
    return clip(repr(obj[key]), 80) if key in obj else "(no such field)"


def clip(text: str, limit: int = 300) -> str:
    """``text``, cut with an ellipsis to at most ``limit`` characters."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
