"""The commands every game answers, whatever its ruleset: status, legal,
undo, redo, and the report after any command.

What is a ruleset's own (how its board and units look, how its legal
commands are listed) comes from its view module, ``cli.<ruleset>``, which
provides:

``show_status(s, game)``            the full view of a game
``show_compact(s, state)``          the short view after a command
``legal_lines(s, state, commands)`` each legal command as an `rk` line
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType
from typing import Any

import msgspec

from domain.kernel.commandlog import CommandIssued, CommandUndone, Game
from domain.kernel.errors import MalformedCommand
from domain.kernel.games import Result
from domain.kernel.ruleset import Ruleset

from .session import Session


def view(rs: Ruleset) -> ModuleType:
    """The command line's view module of ruleset ``rs`` (``cli.<name>``)."""
    return import_module(f"cli.{rs.name.replace('-', '_')}")


def status(s: Session, at: int | None = None) -> None:
    """The full view of the game, now or as it stood after event ``at``."""
    if at is not None and not 1 <= at < 2**63:
        raise MalformedCommand("--at counts events from 1 (see `rk log`)")
    battle = s.app.battle(s.battle_id, version=at)
    if at is not None and battle.version < at:
        raise MalformedCommand(f"battle {s.battle_id} has only {battle.version} events")
    if s.json:
        extra = getattr(view(s.ruleset), "status_json", None)  # what a ruleset's view adds, if anything
        s.out.emit({**battle_json(battle), **(extra(s, battle) if extra else {})})
        return
    if at is not None:
        s.out.print(f"As it stood after event {at} of {s.battle_id}:")
    view(s.ruleset).show_status(s, battle)


def legal(s: Session) -> None:
    """What may be done now, as `rk` commands."""
    battle_id = s.battle_id
    state = s.app.battle(battle_id).state
    commands = s.app.legal(battle_id)
    lines = view(s.ruleset).legal_lines(s, state, commands)
    if s.json:
        s.out.emit([{"rk": text, "command": cmd} for text, cmd in zip(lines, commands)])
        return
    s.out.print(*lines)


def act(s: Session, command: Any, before: Game | None = None) -> None:
    """Execute ``command`` on the game and show what it did."""
    battle_id = s.battle_id
    before = before or s.app.battle(battle_id)
    result = s.app.execute(battle_id, command)
    report(s, result, before)


def undo(s: Session, force: bool) -> None:
    battle_id = s.battle_id
    before = s.app.battle(battle_id)
    result = s.app.undo(battle_id, force=force)
    undone = before.done[-1]
    if not s.json:
        # In the game's words: the command as it was typed, not its log id.
        s.out.print(f"Undid the last command, rk {s.ruleset.describe_command(undone.command)}"
                    + (" (it had revealed dice or a draw: --force)" if undone.random else ""))
    report(s, result, before, narrate=False)


def redo(s: Session) -> None:
    battle_id = s.battle_id
    before = s.app.battle(battle_id)
    result = s.app.redo(battle_id)
    if not s.json and before.undone:
        # As undo says it: the command as it was typed, then what it did again.
        s.out.print(f"Redid rk {s.ruleset.describe_command(before.undone[-1].command)}")
    report(s, result, before)


def report(s: Session, result: Result, before: Game | None, narrate: bool = True) -> None:
    """What a command did, line by line, then the compact view."""
    state = before.state if before else None
    if s.json:
        s.out.emit(result_json(s, result, state))
        return
    if narrate:
        for line in narration(s, result, state):
            s.out.print("  " + line)
    view(s.ruleset).show_compact(s, result.battle.state)


def narration(s: Session, result: Result, state: Any) -> list[str]:
    """The events of ``result`` narrated from ``state`` on (the command's
    own header line is left out: the player just typed it), then those it
    wrote to the game's companion streams (a Betrayal delve's Delve); a
    setup's companion events follow the game's first line."""
    rs = s.app.ruleset(result.battle.state.battle_id)
    pack = s.app.pack_of(rs)
    setup = state is None
    lines = []
    for event in result.events:
        if isinstance(event, CommandIssued):
            continue
        lines.append(rs.describe_event(event, state, pack))
        # An undo restores the state it carries, as the command log folds it
        # (a ruleset's evolve need not know the kernel's undo event).
        state = event.restored if isinstance(event, CommandUndone) else rs.evolve(state, event)
    companions = {stream for _, stream in rs.companions(result.battle.state)}
    written = [rs.describe_written(event, stream, state, pack)
               for stream, events in result.written if stream in companions for event in events]
    if setup:  # a setup's companions (a delve's map) come right after the game's own first line
        return lines[:1] + written + lines[1:]
    return lines + written


# --- JSON -------------------------------------------------------------------------


def battle_json(battle: Game) -> dict[str, Any]:
    """A game as JSON: id, version, whether undo and redo are possible, state."""
    return {
        "battle": battle.state.battle_id,
        "version": battle.version,
        "can_undo": battle.can_undo,
        "can_redo": battle.can_redo,
        "state": battle.state,
    }


def result_json(s: Session, result: Result, before: Any) -> dict[str, Any]:
    """What a command did, as JSON: its id, events, narration and the game after."""
    return {
        "command_id": result.command_id,
        "events": [event_json(e) for e in result.events],
        "narration": narration(s, result, before),
        **battle_json(result.battle),
    }


def event_json(event: Any) -> dict[str, Any]:
    """An event as a JSON object, its type first."""
    return {"type": type(event).__name__, **msgspec.to_builtins(event)}


def choice(enum: Any, text: str, option: str) -> Any:
    """The member of ``enum`` named ``text`` (any case), or a clear refusal."""
    try:
        return enum(text.strip().lower())
    except ValueError:
        raise MalformedCommand(f"{option}: {text!r} is not one of {', '.join(m.value for m in enum)}") from None
