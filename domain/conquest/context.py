"""What ``decide`` needs besides the state: the content pack and the
scenario being played. Immutable, built once per battle."""

from __future__ import annotations

from dataclasses import dataclass

from .catalog import Pack, Scenario


@dataclass(frozen=True)
class RulesContext:
    """The pack and the scenario of one battle."""

    pack: Pack
    scenario: Scenario


def context_for(pack: Pack, scenario: str) -> RulesContext:
    """The context for ``scenario`` of ``pack``; KeyError if it has none."""
    return RulesContext(pack=pack, scenario=pack.scenarios[scenario])
