"""What a companion is when a setup names it: ``CHIP:ADVENTURER``, the
companion chip (see `rk companions`) and the adventurer of the party who
controls it (ROUND-6: its seat at the table is its controller's). Light:
whether the chip and the adventurer exist is the rules' to say."""

from __future__ import annotations

from typing import Any, ClassVar


from domain.kernel.errors import MalformedCommand
from domain.kernel.surface.kinds import Kind, quoted


class CompanionKind(Kind, frozen=True, kw_only=True):
    """A companion and its controller, typed ``fox:Ria``; its value is the
    fields of ``companions.commands.Escort``: chip, controller."""

    of: str = "companion"

    metavar: ClassVar[str] = "CHIP:ADVENTURER"

    def parse(self, text: str, where: str) -> dict[str, Any]:
        chip, sep, controller = (p.strip() for p in text.partition(":"))
        if not chip or not sep or not controller or ":" in controller:
            raise MalformedCommand(f"{where} {text!r}: write CHIP:ADVENTURER, e.g. fox:Ria")
        return {"chip": chip.lower(), "controller": controller}

    def spell(self, value: Any, placeholders: bool = False) -> str:
        if not isinstance(value, dict):
            value = {"chip": value.chip, "controller": value.controller}
        return quoted(f"{value['chip']}:{value['controller']}")

    def schema(self) -> dict[str, Any]:
        return {
            "type": "object",
            "required": ["chip", "controller"],
            "properties": {"chip": {"type": "string"}, "controller": {"type": "string"}},
        }
