"""The commands every game answers, whatever its ruleset: status, legal,
undo, redo, and the report after any command.

What is a ruleset's own (how its game looks, a note under its legal
commands) comes from its surface's views (``domain.kernel.surface``),
drawn by ``cli.document``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec

from domain.kernel.commandlog import CommandIssued, Game
from domain.kernel.errors import MalformedCommand
from domain.kernel.ruleset import Ruleset

from .session import Session

if TYPE_CHECKING:
    from domain.kernel.games import Result  # a write's: a read never imports the library's application


def _surface(rs: Ruleset) -> Any:
    """The surface ``rs`` declares (``domain.kernel.surface``)."""
    from domain.kernel.surface import surface_of

    return surface_of(rs.name)


def seen(s: Session, game: Game) -> Any:
    """``game`` as a view draws it (``Seen``): its rules context is read
    only if the view asks, as it stood at the game's version."""
    from domain.kernel.surface.declared import Seen

    battle_id = game.state.battle_id
    rs = s.app.ruleset(battle_id)

    def context() -> Any:
        latest = s.app.battle(battle_id)
        return s.app.rules_context(battle_id, None if game.version >= latest.version else game.version)

    return Seen(
        app=s.app,
        state=game.state,
        version=game.version,
        name=s.app.called(battle_id),
        pack=s.app.pack_for(rs, game.state),
        context=context,
    )


def show(s: Session, game: Game, full: bool = True) -> None:
    """The game's whole view (``full``), or the few lines after a command."""
    rs = s.app.ruleset(game.state.battle_id)
    surface = _surface(rs)
    drawn = (surface.status if full else surface.compact)(seen(s, game))
    if not drawn:  # a ruleset that draws no view of its own: what every game has
        s.out.print(
            f"{rs.title} {s.app.called(game.state.battle_id)}: {game.version} events"
            + (" (`rk legal` lists what may be done now)" if full else "")
        )
        return
    s.out.document(drawn)


def status(s: Session, at: int | None = None) -> None:
    """The full view of the game, now or as it stood after event ``at``."""
    if at is not None and not 1 <= at < 2**63:
        raise MalformedCommand("--at counts events from 1 (see `rk log`)")
    battle = s.app.battle(s.battle_id, version=at)
    if at is not None and battle.version < at:
        raise MalformedCommand(f"battle {s.battle_id} has only {battle.version} events")
    if s.json:
        extra = _surface(s.ruleset).extra(seen(s, battle))
        s.out.emit({**battle_json(battle), **extra})
        return
    if at is not None:
        s.out.print(f"As it stood after event {at} of {s.battle_id}:")
    show(s, battle)


def legal(s: Session) -> None:
    """What may be done now, as open `rk` commands: each verb open now with
    the values each of its parameters may take (``surface.open``)."""
    game, commands, opens = s.app.open_legal(s.battle_id)
    surface = _surface(s.ruleset)
    if s.json:
        s.out.emit([open_json(o) | {"example": f"rk {surface.grammar.spell(o.example)}"} for o in opens])
        return
    s.out.print(*legal_lines(s, surface, game, commands, opens))


def open_json(o: Any) -> dict[str, Any]:
    """An open command as ``rk legal --json`` gives it: ``rk``, its line
    (a finished command's, when every parameter is fixed); ``command``, a
    finished command it gives that the rules listed (``example``: its line,
    typed as is); ``open``; its verb and its parameters' domains; what it
    gives up (``gives_up``: ``what`` and ``rule``); what it does
    (``summary``: its verb's, one sentence citing its rules)."""
    return {
        "rk": o.text(gives_up=False),
        "command": msgspec.to_builtins(o.example),
        "open": not o.fixed,
        "verb": o.verb.name,
        "params": o.params(),
        "gives_up": [{"what": g.what, "rule": g.rule} for g in o.gives_up],
        "summary": o.summary,
    }


def legal_lines(s: Session, surface: Any, game: Game, commands: list[Any], opens: list[Any]) -> list[str]:
    """Each open command in players' words (faces the table types written
    ``F``), under it what it gives up (``(gives up: ..., MOVE-3)``), then
    the ruleset's note; with none, why."""
    if not commands:
        from .document import text

        return [f"nothing: {text(surface.compact(seen(s, game)))}"]
    lines = [line for o in opens for line in (o.text(gives_up=False), o.given_up()) if line]
    note = surface.legal_note(game.state, commands)
    return lines + ([note] if note else [])


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
        s.out.print(
            f"Undid the last command, rk {s.ruleset.describe_command(undone.command)}"
            + (" (it had revealed dice or a draw: --force)" if undone.random else "")
        )
    report(s, result, before, narrate=False)


def redo(s: Session) -> None:
    battle_id = s.battle_id
    before = s.app.battle(battle_id)
    result = s.app.redo(battle_id)
    if not s.json and before.undone:
        # As undo says it: the command as it was typed, then what it did again.
        s.out.print(f"Redid rk {s.ruleset.describe_command(before.undone[-1].command)}")
    report(s, result, before)


def report(s: Session, result: Result, before: Game | None, narrate: bool = True, full: bool = False) -> None:
    """What a command did, line by line, then the compact view (``full``:
    the whole view, as after a setup)."""
    state = before.state if before else None
    if s.json:
        s.out.emit(result_json(s, result, state))
        return
    if narrate:
        for line in narration(s, result, state):
            s.out.print("  " + line)
    show(s, result.battle, full=full)


def narration(s: Session, result: Result, state: Any) -> list[str]:
    """The events of ``result`` narrated from ``state`` on (the command's
    own header line is left out: the player just typed it), then those it
    wrote to the game's companion streams (a Betrayal delve's Delve); a
    setup's companion events follow the game's first line."""
    from domain.kernel.narration import Narrator, placed
    from domain.kernel.position.messages import PositionTaken

    rs = s.app.ruleset(result.battle.state.battle_id)
    pack = s.app.pack_for(rs, result.battle.state)
    setup = state is None
    narrator = Narrator(rs, pack, state, words=lambda _: _undone_words(s, rs))
    lines = [narrator(event) for event in result.events if not isinstance(event, CommandIssued)]
    state = narrator.state
    companions = {stream for _, stream in rs.companions(result.battle.state)}
    from_position = any(isinstance(event, PositionTaken) for event in result.events)
    written = [
        placed(rs, stream, state) if from_position else rs.describe_written(event, stream, state, pack)
        for stream, events in result.written
        if stream in companions
        for event in events
    ]
    if setup:  # a setup's companions (a delve's map) come right after the game's own first line
        return lines[:1] + written + lines[1:]
    return lines + written


# --- JSON -------------------------------------------------------------------------


def _undone_words(s: Session, rs: Ruleset) -> str:
    """The command an undo just reverted, as given (the game's last undone one)."""
    from domain.kernel.commandlog import LAST_COMMAND

    game = s.app.battle(s.battle_id)
    return f"rk {rs.describe_command(game.undone[-1].command)}" if game.undone else LAST_COMMAND


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
