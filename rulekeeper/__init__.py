"""rulekeeper's Python API: referee games of any ruleset from Python.

For a companion app, a bot, a house-rules variant or a test suite of your
own. The same rules and store `rk` plays through, in one small facade:

    from rulekeeper import Rulekeeper

    with Rulekeeper() as keeper:                    # an in-memory store ("games.db": an SQLite file)
        game = keeper.new("conquest", scenario="border-clash",
                          armies=["saltmarch", "cinderpact"], seed=7)
        print(game.legal_lines())                   # what may be given now, as `rk legal` lists it
        played = game.play(game.legal()[0])         # a command, or its line: game.play("march a1 ...")
        print(played.lines)                         # what happened, narrated
        game.undo(force=True)                       # force: it rolled dice (UNDO-2)
        log = game.export()                         # the portable log, as `rk export` writes it

    with Rulekeeper() as keeper:
        disputed = keeper.load("game.jsonl")        # imported after every command was re-decided
        then = disputed.at(12)                      # the game as it stood at version 12
        print(then.refusal("engage e1 --form heavy"))  # RuleViolation (rule, message), or None

``Rulekeeper`` (``keeper``) holds the store and starts games (``new`` from
a setup, ``load`` from a log); ``Game`` plays one (``play``, ``undo``,
``redo``, ``undo_to``, ``export``, ``verify``) and reads it now;
``Moment`` (``game.at(version)``) reads it at any version and asks the
rules about it (``legal``, ``refusal``, ``decide``) without writing;
``Played`` is what one command did. Refusals are the kernel's errors:
``RuleViolation`` (``rule``: the rule ID, ``message``: why),
``MalformedCommand``, ``NotFound``, ``LogError`` (a log's ``line``),
``ContentError``, all ``RulekeeperError``.

The pytest plugin (``rulekeeper.pytest_plugin``, loaded by pytest once
rulekeeper is installed) gives tests fixtures and given/when/then
(``rulekeeper.testing``). examples/README.md shows both.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from domain.kernel.errors import (
        AmbiguousCommand,
        ContentError,
        LogError,
        MalformedCommand,
        NotFound,
        RulekeeperError,
        RuleViolation,
    )

    from .game import Game, Moment, Played, Step
    from .keeper import Rulekeeper, verify

# Each name from the module that defines it, imported when first asked for:
# pytest loads the plugin (``rulekeeper.pytest_plugin``) in every run, and a
# run that uses none of it should not pay for the kernel and its store.
_WHERE = {
    **dict.fromkeys(
        (
            "AmbiguousCommand",
            "ContentError",
            "LogError",
            "MalformedCommand",
            "NotFound",
            "RulekeeperError",
            "RuleViolation",
        ),
        "domain.kernel.errors",
    ),
    **dict.fromkeys(("Game", "Moment", "Played", "Step"), "rulekeeper.game"),
    **dict.fromkeys(("Rulekeeper", "verify"), "rulekeeper.keeper"),
}


def __getattr__(name: str) -> Any:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module 'rulekeeper' has no attribute {name!r}")
    value = getattr(importlib.import_module(where), name)
    globals()[name] = value
    return value


__all__ = [
    "AmbiguousCommand",
    "ContentError",
    "Game",
    "LogError",
    "MalformedCommand",
    "Moment",
    "NotFound",
    "Played",
    "RuleViolation",
    "Rulekeeper",
    "RulekeeperError",
    "Step",
    "verify",
]
