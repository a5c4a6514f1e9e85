"""One game through the API: ``Game`` plays it, ``Moment`` reads it at a
version, ``Played`` is what one command did.

A ``Game`` is a handle on a game in a ``Rulekeeper``'s store, found by its
id: it holds nothing of its own, so two handles on one game always agree,
and whatever plays the game (the command line on the same store, another
handle) is seen at the next call.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from domain.kernel.commandlog import CommandIssued, CommandUndone
from domain.kernel.errors import MalformedCommand, NotFound, RuleViolation
from domain.kernel.games import GameApp, Result
from domain.kernel.messages import Event
from domain.kernel.narration import Narrator
from domain.kernel.ruleset import Ruleset, Summary, rules_context

Command = Any  # a ruleset's command: a frozen msgspec Struct of its command union


@dataclass(frozen=True)
class Played:
    """What one command (or undo, or redo) did.

    ``command_id``: its id in the game's log (``c7``; ``u9`` for an undo);
    ``command``: the command given (None for an undo); ``events``: the
    events it added to the game's stream, in order, without the
    ``CommandIssued`` that records the command itself (an undo's one
    ``CommandUndone``); ``written``: the events it wrote to other streams
    (a Betrayal adventurer's), by stream id; ``lines``: ``events``
    narrated, one readable line each, as ``rk`` prints them; ``version``:
    the game's version after it.
    """

    command_id: str
    command: Command | None
    events: tuple[Event, ...]
    written: tuple[tuple[Any, tuple[Event, ...]], ...]
    lines: tuple[str, ...]
    version: int


@dataclass(frozen=True)
class Step:
    """One command in a game's log, as ``Game.history`` lists them:
    ``command_id`` (``c7``; ``u9`` for an undo), ``line``: what was given
    (``rk move c4``, or the undo's line), ``before``: the game's version
    before it (``game.at(step.before)`` is the moment it was given in; 0
    for the setup), ``after``: its version after it."""

    command_id: str
    line: str
    before: int
    after: int


class Moment:
    """A game as it stood at one version: read it, ask the rules about it,
    change nothing. ``Game.at(version)`` gives one; ``Game.now()`` the
    latest."""

    def __init__(self, app: GameApp, game_id: str, version: int | None = None) -> None:
        self._app = app
        self.game_id = game_id
        self._game = app.battle(game_id, version)
        if version is not None and self._game.version != version:  # the store gives the last one it has
            raise NotFound(f"{game_id} has no version {version}: it is at version {self._game.version}")
        self.version: int = self._game.version
        """The game's version (its number of events) at this moment."""
        self._asked = version  # None: the latest version, whose companions are read as they are now

    @property
    def state(self) -> Any:
        """The rules' state of the game at this moment (its ruleset's frozen
        state Struct; compare two with ``==``)."""
        return self._game.state

    @property
    def ruleset(self) -> Ruleset:
        """The game's ruleset (``domain.kernel.ruleset.Ruleset``)."""
        return self._app.ruleset(self.game_id)

    @property
    def summary(self) -> Summary:
        """Where the game stands: round, phase or outcome, who plays, over."""
        return self.ruleset.summary(self.state)

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.summary.over

    def legal(self) -> list[Command]:
        """Every finished command that may be given now (empty once over)."""
        rs = self.ruleset
        return list(rs.legal_commands(self.state, self._context(None)))

    def legal_lines(self) -> list[str]:
        """``legal()`` as the lines that give them (``move c4``)."""
        rs = self.ruleset
        return [rs.describe_command(c) for c in self.legal()]

    def refusal(self, command: Command | str) -> RuleViolation | MalformedCommand | None:
        """Why the rules would refuse ``command`` here (its ``rule`` and
        ``message``), or None if they would accept it. Nothing is written."""
        try:
            self.decide(command)
        except (RuleViolation, MalformedCommand) as refused:
            return refused
        return None

    def decide(self, command: Command | str) -> list[Event]:
        """The events the rules would produce for ``command`` here, without
        writing them (the dice it would roll are the ones a real play
        rolls: the RNG is part of the state). Raises ``RuleViolation`` or
        ``MalformedCommand`` as playing it would."""
        rs = self.ruleset
        given = self.parse(command)
        return list(rs.decide(self.state, given, self._context(given)).events)

    def parse(self, command: Command | str) -> Command:
        """``command`` as a command: a line (``engage e1 --form heavy``) is
        read by the ruleset's grammar; a command Struct is returned as is."""
        if not isinstance(command, str):
            return command
        from domain.kernel.surface import surface_of

        return surface_of(self.ruleset.name).grammar.parse(command)

    def events(self) -> list[Event]:
        """Every event of the game's stream up to this moment, in order,
        the command log's included (``CommandIssued``, ``CommandUndone``)."""
        return [e.event for e in self._app.stream(self.game_id) if e.originator_version <= self.version]

    def lines(self) -> list[str]:
        """``events()`` narrated: one readable line each, as `rk log` says it."""
        rs = self.ruleset
        narrate = Narrator(rs, self._app.pack_for(rs, self.state))
        return [narrate(event) for event in self.events()]

    def digest(self) -> str:
        """The state's digest, as a portable log's header records it."""
        from domain.kernel.portable import state_digest

        return state_digest(self.state)

    def _context(self, command: Command | None) -> Any:
        rs, app, version = self.ruleset, self._app, self._asked
        return rules_context(
            rs,
            app.pack_for(rs, self.state),
            self.state,
            lambda kind, stream: app.companion(rs, kind, stream, version),
            command,
        )

    def __repr__(self) -> str:
        return f"<Moment {self.game_id} v{self.version}>"


class Game:
    """A game in a ``Rulekeeper``'s store: give it commands, undo and redo,
    read it now or at any version, export and verify its log.

    What reads the game now (``state``, ``legal``, ``refusal``...) is
    ``now()``'s: see ``Moment``.
    """

    def __init__(self, app: GameApp, game_id: str) -> None:
        self._app = app
        self.id = game_id
        """The game's id (the name it was set up with: ``waystone-1``)."""

    # -- reading ---------------------------------------------------------------

    @property
    def ruleset(self) -> str:
        """The name of the game's ruleset."""
        return self._app.ruleset(self.id).name

    def now(self) -> Moment:
        """The game as it stands."""
        return Moment(self._app, self.id)

    def at(self, version: int) -> Moment:
        """The game as it stood at ``version``: from the end of its setup
        (``history()[0].after``) to its last version, else ``NotFound``.
        ``game.at(step.before)`` is the moment a command was given in."""
        return Moment(self._app, self.id, version)

    @property
    def version(self) -> int:
        """The game's version now: how many events its stream holds."""
        return self._app.battle(self.id).version

    @property
    def state(self) -> Any:
        """The rules' state now."""
        return self._app.battle(self.id).state

    @property
    def summary(self) -> Summary:
        """Where the game stands now (``Moment.summary``)."""
        return self.now().summary

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.now().over

    def legal(self) -> list[Command]:
        """Every finished command that may be given now."""
        return self.now().legal()

    def legal_lines(self) -> list[str]:
        """What may be given now, as lines (``move c4``)."""
        return self.now().legal_lines()

    def refusal(self, command: Command | str) -> RuleViolation | MalformedCommand | None:
        """Why ``command`` would be refused now, or None (nothing written)."""
        return self.now().refusal(command)

    def events(self) -> list[Event]:
        """Every event of the game's stream, in order."""
        return self.now().events()

    def lines(self) -> list[str]:
        """The game's log, narrated, one line per event."""
        return self.now().lines()

    def history(self) -> list[Step]:
        """Every command given to the game, undos and redos too, in order."""
        from domain.kernel import narration

        rs = self._app.ruleset(self.id)
        steps: list[Step] = []
        for envelope in self._app.stream(self.id):
            event, version = envelope.event, envelope.originator_version
            if isinstance(event, CommandIssued):
                steps.append(Step(event.command_id, narration.given(rs, event), version - 1, version))
            elif isinstance(event, CommandUndone):
                steps.append(Step(envelope.command_id, narration.undone(event, rs=rs), version - 1, version))
            elif steps:
                steps[-1] = replace(steps[-1], after=version)
        return steps

    def parse(self, line: str) -> Command:
        """The command a line gives (``MalformedCommand`` if none)."""
        return self.now().parse(line)

    def spell(self, command: Command) -> str:
        """The line that gives ``command`` (``parse`` reads it back)."""
        return self._app.ruleset(self.id).describe_command(command)

    def can_undo(self) -> bool:
        """Whether a command after the setup is there to undo."""
        return self._app.battle(self.id).can_undo

    def can_redo(self) -> bool:
        """Whether an undone command waits to be redone."""
        return self._app.battle(self.id).can_redo

    # -- playing ---------------------------------------------------------------

    def play(self, command: Command | str) -> Played:
        """Give ``command`` (a line such as ``"move c4"``, or a command
        Struct): the rules decide it and its events are saved. A refusal
        raises ``RuleViolation`` (with its ``rule`` ID and ``message``) or
        ``MalformedCommand``, and writes nothing."""
        before = self._app.battle(self.id)
        given = self.now().parse(command)
        return self._played(self._app.execute(self.id, given), before.state, given)

    def play_all(self, commands: Sequence[Command | str]) -> list[Played]:
        """``play`` each of ``commands`` in turn."""
        return [self.play(c) for c in commands]

    def undo(self, *, force: bool = False) -> Played:
        """Take the last command back. One that revealed dice or a draw is
        refused (UNDO-2) unless ``force``; after a forced undo the same
        command rolls the same faces."""
        before = self._app.battle(self.id)
        return self._played(self._app.undo(self.id, force=force), before.state, None)

    def redo(self) -> Played:
        """Give the last undone command again (REDO-1 when there is none)."""
        before = self._app.battle(self.id)
        result = self._app.redo(self.id)
        issued = result.events[0]
        return self._played(result, before.state, issued.command if isinstance(issued, CommandIssued) else None)

    def undo_to(self, version: int) -> list[Played]:
        """Undo, with force, until the game is back to its state at
        ``version`` (a disputed moment of an imported log, to play on from
        there). ``ValueError`` when undoing cannot reach it: that state lies
        on a line of play the log itself undid later."""
        target = self.at(version).state
        undone: list[Played] = []
        while self.state != target:
            if not self.can_undo():
                raise ValueError(
                    f"{self.id}: its state at version {version} cannot be reached by undoing "
                    "(the log undid that line of play itself)"
                )
            undone.append(self.undo(force=True))
        return undone

    # -- the log ---------------------------------------------------------------

    def export(self, *, sign: Any = None) -> bytes:
        """The game's portable log (JSON Lines, hash-chained; ``sign``: a
        private key from ``domain.kernel.signing.load_private``)."""
        from domain.kernel.portable import export_battle

        return export_battle(self._app, self.id, sign=sign)

    def verify(self) -> Any:
        """Re-decide the game's whole log with the current rules: a
        ``domain.kernel.portable.Report`` (``ok``, ``summary()``)."""
        from domain.kernel.portable import verify_battle

        return verify_battle(self._app, self.id)

    def digest(self) -> str:
        """The state digest now, as an exported log's header records it."""
        return self.now().digest()

    def position(self, version: int | None = None) -> str:
        """The game's position file (TOML) now, or as it stood at
        ``version``, as `rk position` writes it: ``Rulekeeper.from_position``
        starts a game from it, in this store under another name (edit its
        ``battle_id``) or in another store."""
        from domain.kernel.position.at import position_text

        return position_text(self._app, self.id, version)

    def _played(self, result: Result, before: Any, command: Command | None) -> Played:
        rs = self._app.ruleset(self.id)
        narrate = Narrator(rs, self._app.pack_for(rs, result.battle.state), before)
        events = tuple(e for e in result.events if not isinstance(e, CommandIssued))
        return Played(
            command_id=result.command_id,
            command=command,
            events=events,
            written=result.written,
            lines=tuple(narrate(e) for e in events),
            version=result.battle.version,
        )

    def __repr__(self) -> str:
        return f"<Game {self.id} ({self.ruleset}) v{self.version}>"


__all__ = ["Command", "Game", "Moment", "Played", "Step"]
