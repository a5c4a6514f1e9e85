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
import types
import typing
from functools import lru_cache
from typing import Any

import msgspec
from msgspec.structs import fields, replace

from domain.kernel import ruleset as registry
from domain.kernel.commandlog import CommandIssued, CommandUndone
from domain.kernel.games import BattleRegistered, GameRegistered
from domain.kernel.messages import Event
from domain.kernel.narration import FORCED, UNDONE, cited, line, undone_words
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


class UndoneRound(msgspec.Struct, kw_only=True):
    """What the audit reads of an undo (``undone_round``): the command it
    reverted, whether it was forced, and of the state it restores
    (``restored``, a Struct of its class's own) the round alone: the
    undo's line says no more, and the state, most of a long game's bytes,
    is skipped unread."""

    command_id: str
    forced: bool = False


@lru_cache(maxsize=None)
def undone_round(event_type: type) -> type | None:
    """The ``UndoneRound`` Struct of an undo class of a game (a
    ``CommandUndone`` of a ruleset's game stream): its ``restored`` holds
    the state's ``round_field`` under the same name in the stored state,
    as ``round``. None for any other class, and where the class or its
    state is not stored as that Struct reads it (other names, other
    defaults, a state not stored as a map): the undo is read whole."""
    found = owner(event_type)
    if not issubclass(event_type, CommandUndone) or found is None or found[1] is not None:
        return None
    field = {f.name: f for f in fields(event_type)}
    said = field.get("command_id"), field.get("forced"), field.get("restored")
    if None in said or any(f.encode_name != f.name for f in said if f is not None):
        return None
    command_id, forced, restored = said
    assert command_id is not None and forced is not None and restored is not None
    if not command_id.required or forced.default is not False or forced.type is not bool:
        return None
    state_type, optional = _maybe(restored.type)
    if not (isinstance(state_type, type) and issubclass(state_type, msgspec.Struct)):
        return None
    config = state_type.__struct_config__
    if config.array_like or config.forbid_unknown_fields:
        return None
    at = next((f for f in fields(state_type) if f.name == found[0].round_field), None)
    if at is None or at.type is not int or at.default_factory is not msgspec.NODEFAULT:
        return None
    round_field: tuple[Any, ...] = ("round", int) if at.required else ("round", int, at.default)
    round_type: Any = msgspec.defstruct(
        f"{state_type.__name__}Round", [round_field], rename={"round": at.encode_name}, module=__name__
    )
    return msgspec.defstruct(
        f"{event_type.__name__}Round",
        [("restored", round_type | None if optional else round_type)],
        bases=(UndoneRound,),
        kw_only=True,
        module=__name__,
    )


def _maybe(annotation: Any) -> tuple[Any, bool]:
    """``annotation`` without ``None`` (``BattleState | None``), and whether it allowed it."""
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        others = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(others) == 1:
            return others[0], True
    return annotation, False


def undo_words(e: Any) -> tuple[str, str]:
    """``describe`` of the undo ``e`` stands for (an ``UndoneRound``)."""
    rule = FORCED if e.forced else UNDONE
    back = 0 if e.restored is None else e.restored.round
    return rule, printable(undone_words(e.forced, back)[len(rule) + 2 :])


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
        """``describe(e)`` (``undo_words`` of an ``UndoneRound``)."""
        if isinstance(e, UndoneRound):
            return undo_words(e)
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
