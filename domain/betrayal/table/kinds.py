"""What two of Betrayal's setup parameters are at the table, beside the
kernel's kinds (``domain.kernel.surface.kinds``): a party member, typed
``Name[:race[:line+line[:form]]]``, and several hexes, comma-separated
(a dungeon's special hexes). Light: content and rules are not read here
(whether a race or a line exists is the rules' to say)."""

from __future__ import annotations

from typing import Any, ClassVar


from domain.kernel.errors import MalformedCommand
from domain.kernel.hexes import label, parse_label
from domain.kernel.surface.kinds import Kind, quoted

from domain.betrayal.vocab import BattleForm

DEFAULT_FORM = BattleForm.LIGHT.value
SHOWN = 60  # characters of a typed member quoted in a refusal


class Member(Kind, frozen=True, kw_only=True):
    """A party member: ``Name`` for an existing adventurer, or with a race
    (and starting lines, and a battle form) to create one. Its value is the
    member's fields (``party.PartySpec``): name, race, lines, form."""

    of: str = "adventurer"

    metavar: ClassVar[str] = "MEMBER"

    def parse(self, text: str, where: str) -> dict[str, Any]:
        parts = [p.strip() for p in text.split(":")]
        shown = repr(text if len(text) <= SHOWN else text[:40] + "...")
        if not parts[0] or len(parts) > 4:
            raise MalformedCommand(f"party member {shown}: write Name[:race[:line+line[:form]]]")
        form = parts[3] if len(parts) > 3 and parts[3] else DEFAULT_FORM
        if form not in {f.value for f in BattleForm}:
            forms = ", ".join(f.value for f in BattleForm)
            raise MalformedCommand(f"party member {shown}: battle form must be one of {forms}")
        return {
            "name": parts[0],
            "race": parts[1] if len(parts) > 1 and parts[1] else None,
            "lines": tuple(x for x in parts[2].split("+") if x) if len(parts) > 2 else (),
            "form": form,
        }

    def spell(self, value: Any, placeholders: bool = False) -> str:
        if isinstance(value, str):
            return quoted(value)
        parts = [
            value["name"],
            value.get("race") or "",
            "+".join(value.get("lines") or ()),
            "" if value.get("form", DEFAULT_FORM) == DEFAULT_FORM else value["form"],
        ]
        while len(parts) > 1 and not parts[-1]:  # Name:race, not Name:race::
            parts.pop()
        return quoted(":".join(parts))

    def schema(self) -> dict[str, Any]:
        return {
            "type": "object",
            "required": ["name"],
            "properties": {
                "name": {"type": "string"},
                "race": {"type": ["string", "null"]},
                "lines": {"type": "array", "items": {"type": "string"}},
                "form": {"enum": [f.value for f in BattleForm]},
            },
        }


class Hexes(Kind, frozen=True, kw_only=True):
    """Several hexes by their labels, comma-separated, in order (``c4,d5``)."""

    of: str = "hexes"

    metavar: ClassVar[str] = "HEXES"

    def parse(self, text: str, where: str) -> tuple[tuple[int, int], ...]:
        try:
            return tuple(parse_label(part) for part in text.split(",") if part.strip())
        except MalformedCommand as e:
            raise MalformedCommand(f"{where}: {e}") from None

    def spell(self, value: Any, placeholders: bool = False) -> str:
        return ",".join(label(tuple(h)) for h in value)

    def schema(self) -> dict[str, Any]:
        pair = {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2}
        return {"type": "array", "items": pair}
