"""What people type, turned into what the rules take: party members, hex
labels, lists of die uids, faces and positions counted from 1.

People count from 1 (face 1 to 6, the first die rolled, the first active
slot); the rules count from 0. The conversion happens here and only here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.kernel.errors import MalformedCommand
from domain.kernel.hexes import Hex, parse_label

if TYPE_CHECKING:
    from domain.betrayal.application import PartySpec


def party_member(text: str) -> PartySpec:
    """``Name``, ``Name:race``, ``Name:race:line+line`` or with a 4th part,
    the battle form (``Tarn:dark-elf:bow+heavy-armor:ranged``). Whether the
    name, race and lines exist is for the rules to say."""
    # Imported here: Conquest's verbs use this module too, without Betrayal's application.
    from domain.betrayal import application
    from domain.betrayal.vocab import BattleForm

    parts = [p.strip() for p in text.split(":")]
    shown = repr(text if len(text) <= 60 else text[:40] + "...")
    if not parts[0] or len(parts) > 4:
        raise MalformedCommand(f"party member {shown}: write Name[:race[:line+line[:form]]]")
    lines = tuple(x for x in parts[2].split("+") if x) if len(parts) > 2 else ()
    try:
        form = BattleForm(parts[3]) if len(parts) > 3 and parts[3] else BattleForm.LIGHT
    except ValueError:
        forms = ", ".join(f.value for f in BattleForm)
        raise MalformedCommand(f"party member {shown}: battle form must be one of {forms}") from None
    return application.PartySpec(parts[0], parts[1] if len(parts) > 1 and parts[1] else None, lines, form)


def hex_label(text: str) -> Hex:
    """``c4`` -> the hex at column c, row 4 (``a1`` is top-left)."""
    return parse_label(text)


def hex_labels(texts: list[str] | None) -> tuple[Hex, ...]:
    """Several hex labels, in order."""
    return tuple(parse_label(t) for t in texts or ())


def numbers(text: str | None, what: str, low: int | None = None, high: int | None = None) -> tuple[int, ...]:
    """``"1,2, 4"`` -> (1, 2, 4); empty or None -> (). ``what`` names the
    list in the error message; ``low`` and ``high`` bound each number."""
    if not text or not text.strip():
        return ()
    out = []
    for part in text.replace(" ", ",").split(","):
        if not part:
            continue
        if not part.isascii() or not part.isdigit():
            raise MalformedCommand(f"{what}: {part[:20]!r} is not a number (write them like 1,2,3)")
        if len(part) > 9:
            raise MalformedCommand(f"{what}: {part[:12]}... is far too large")
        value = int(part)
        if (low is not None and value < low) or (high is not None and value > high):
            raise MalformedCommand(f"{what}: {value} is not from {low} to {high}")
        out.append(value)
    return tuple(out)


def dice(text: str | None) -> tuple[int, ...]:
    """Die uids to gather, as shown in `rk status` (``3,4``)."""
    return numbers(text, "--dice")


def faces(text: str | None, what: str = "faces") -> tuple[int, ...] | None:
    """Physical dice: faces as people read them (1 to 6) -> face indices
    (0 to 5). None when nothing was typed. Whether a face exists on the die
    is for the rules to say; here only 0 and below are refused."""
    typed = numbers(text, what)
    if not typed:
        return None
    if any(f < 1 for f in typed):
        raise MalformedCommand(f"{what}: faces are counted from 1 (1 to 6), not from 0")
    return tuple(f - 1 for f in typed)


def positions(text: str | None, what: str) -> tuple[int, ...]:
    """1-based positions (``--skip 2,3``, a slot number) -> 0-based."""
    typed = numbers(text, what)
    if any(p < 1 for p in typed):
        raise MalformedCommand(f"{what}: positions are counted from 1")
    return tuple(p - 1 for p in typed)
