"""`rk move` while some rulesets declare it (``cli.declared``) and another
still has it written by hand: ``cli.main`` keeps a builtin `move` whose
words come here. A battle whose ruleset declares `move` is given the move
through that declaration (``cli.verbs.give``); any other, the hand-written
handler ``cli.main`` names. This module goes once every ruleset declares
its `move`."""

from __future__ import annotations

from importlib import import_module

from domain.kernel.errors import MalformedCommand, RulekeeperError

from .session import Session


def move(s: Session, first: str, row: str | None, place: int | None, explore: bool, legacy: str) -> None:
    """``rk move FIRST [ROW] [PLACE] [--explore]`` on the battle acted on;
    ``legacy``: the handler (``module.function`` of ``cli``) of the
    rulesets that do not declare `move`, given ``first`` and ``explore``."""
    from .declared import verbs_named
    from .verbs import give

    entries = verbs_named("move")
    try:
        declared = s.ruleset.name in {surface.ruleset for surface, _ in entries}
    except RulekeeperError:  # no battle to ask: the hand-written move says what is wrong
        declared = False
    if declared:
        words = [first, *([row] if row is not None else []), *([str(place)] if place is not None else []),
                 *(["--explore"] if explore else [])]
        give(s, "move", entries, words)
        return
    if row is not None or place is not None:
        where = " or ".join(sorted({f"a {surface.title} {surface.noun}" for surface, _ in entries})) or "no battle"
        raise MalformedCommand(f"here `rk move` takes one hex (rk move HEX); ROW and PLACE are for {where}")
    module, function = legacy.split(".")
    getattr(import_module(f"cli.{module}"), function)(s, first, explore)
