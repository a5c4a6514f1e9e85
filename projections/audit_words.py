"""The audit's words for an event: the rule it cites and its sentence, from
its ruleset's narrator (the one ``rk log`` uses too), each distinct event
described once.

Narrating is most of what building the audit costs, and a long game's
events repeat: the same die exhausted, the same turn ended, the same
command typed again after an undo (in the benchmark's 20,000-event clash,
3,596 commands spell 90 distinct lines, and 14,307 other events are 2,800
distinct ones). An event of the audit carries no state (its line is told
without one), so its words depend on its value alone, and ``Words`` keeps
them by that value.
"""

from __future__ import annotations

import re
from functools import lru_cache

import msgspec
from msgspec.structs import replace

from domain.kernel import ruleset as registry
from domain.kernel.commandlog import CommandIssued, CommandUndone
from domain.kernel.games import BattleRegistered, GameRegistered
from domain.kernel.messages import Event
from domain.kernel.narration import cited, line
from domain.kernel.ruleset import Aggregate, Ruleset


@lru_cache(maxsize=None)
def owner(event_type: type) -> tuple[Ruleset, Aggregate | None] | None:
    """The ruleset an event type belongs to, and the other aggregate if it
    is not a game-stream event; None for the kernel's own (the index)."""
    for rs in registry.all_rulesets():
        if issubclass(event_type, rs.event_base):
            return rs, None
        for aggregate in rs.aggregates:
            if issubclass(event_type, aggregate.event_base):
                return rs, aggregate
    return None


def describe(e: Event) -> tuple[str, str]:
    """(rule ID, a readable sentence) for one event, from its ruleset's
    narrator (without the rule it leads with, which has its own column)."""
    if isinstance(e, (GameRegistered, BattleRegistered)):
        ruleset = e.ruleset
        return "", f"{ruleset} battle {e.battle_id} registered" + (f" ({e.setup})" if e.setup else "")
    found = owner(type(e))
    if found is None:
        return "", type(e).__name__
    rs = found[0]
    rule = cited(rs, e)
    text = line(rs, None, e, None)
    if rule and text.startswith(f"{rule}: "):
        text = text[len(rule) + 2 :]
    return rule, printable(text)


class Words:
    """``describe``, each distinct event described once.

    Two events are the same when they are of one class and encode to the
    same MessagePack bytes (exact: ``1`` and ``1.0``, ``0.0`` and ``-0.0``
    differ there, as they may in a sentence). A command's line says the
    command as typed and whether it was redone, never its id, the streams
    it touched nor the id of the command it redoes, so those are left out
    of its key (``_said``). An undo is described each
    time: it carries the state it restores, a key longer than its line.
    At most ``LIMIT`` events are kept (a long-running server's catch-ups).
    """

    LIMIT = 8192

    def __init__(self) -> None:
        self._known: dict[tuple[type, bytes], tuple[str, str]] = {}
        self._encode = msgspec.msgpack.Encoder().encode

    def __call__(self, e: Event) -> tuple[str, str]:
        """``describe(e)``."""
        if isinstance(e, CommandUndone):
            return describe(e)
        try:
            key = (type(e), self._encode(_said(e) if isinstance(e, CommandIssued) else e))
        except (TypeError, OverflowError, msgspec.EncodeError):  # a value MessagePack cannot hold: told as it comes
            return describe(e)
        found = self._known.get(key)
        if found is None:
            if len(self._known) >= self.LIMIT:
                self._known.clear()
            found = self._known[key] = describe(e)
        return found


def _said(e: CommandIssued) -> CommandIssued:
    """What of a command its line says: not its id, nor the streams it
    touched, nor which command it redoes (only that it redoes one)."""
    return replace(e, command_id="", touched=(), redo_of="redone" if e.redo_of else "")


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def printable(text: str) -> str:
    """Control characters (terminal escapes in a name) shown, not obeyed."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)
