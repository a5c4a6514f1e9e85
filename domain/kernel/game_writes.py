"""Every write to a game's store, whoever opened it: the writing half of
``GameApp`` (``domain.kernel.games``).

``GameWrites`` sets a game up, executes a command (decide, then save every
stream the command touched in one transaction, "moved on" for a second
writer), undoes and redoes across every stream the undone command touched
(the randomness barrier needs force), names, deletes and restores games in
the index, and snapshots game streams. It writes through two methods its
host gives: ``append`` (envelopes of several streams in one transaction:
the last notification id, or ``ConcurrencyError`` with nothing written)
and ``save_snapshot``. ``GameApp`` takes them from the eventsourcing
library's application; ``PlainGameWrites`` from an SQLite file written
without it (``domain.kernel.stores.plain_writes``: the library's own rows,
statements and transaction), so that a command that writes a game (`rk
move`) need not import the library. ``domain.kernel.open_writes`` picks
one: as reads do (issue 25), a write to a store the library would open as
a plain SQLite file, whose tables it made, is done without the library, by
writing its own rows with its own statements and transaction; the library
stays the owner of the schema, PostgreSQL, memory stores, the server and
the projections.

This module imports nothing of the eventsourcing library.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, ClassVar
from uuid import UUID

import msgspec

from domain.kernel import fairness
from domain.kernel import ruleset as registry
from domain.kernel.battle_index import (
    BattleDeleted,
    BattleRenamed,
    BattleRestored,
    GameRegistered,
    IndexEntry,
    check_name,
)
from domain.kernel.commandlog import Game, fold
from domain.kernel.envelope import Envelope, wrap
from domain.kernel.errors import MOVED_ON, ConcurrencyError, MalformedCommand, NotFound, RuleViolation, RulekeeperError
from domain.kernel.game_reads import INDEX_STREAM, GameReads, PlainGames
from domain.kernel.messages import Event
from domain.kernel.position.messages import StartFromPosition
from domain.kernel.ruleset import Aggregate, Outcome, Ruleset, Write
from domain.kernel.stores.plain_writes import PlainWriter
from domain.kernel.stores.store import Settings

# Tries at saving a new game when other games are set up at once (each
# takes the index's next version): enough for dozens of writers at a time.
START_ATTEMPTS = 50


class Result(msgspec.Struct, frozen=True):
    """What a command did: its id, the game-stream events it produced (its
    ``CommandIssued`` or ``CommandUndone`` first), the game after."""

    command_id: str
    events: list[Event]
    battle: Game
    written: tuple[tuple[UUID, tuple[Event, ...]], ...] = ()  # other streams' events, by stream


class _Written(msgspec.Struct, frozen=True):
    """Events a command appends to another aggregate's stream."""

    stream: UUID
    aggregate: Aggregate
    version_before: int
    envelopes: list[Envelope]
    state: Any  # the stream's state after them


class GameWrites(GameReads):
    """Games of every ruleset in one store, read (``GameReads``) and written.

    A game stream is snapshotted every ``snapshot_every`` events, another
    aggregate's stream at its own rhythm (``Aggregate.snapshot_every``).
    The store is written through ``append`` and ``save_snapshot``, which a
    subclass gives (see the module's docstring).
    """

    snapshot_every: ClassVar[int] = 150

    if TYPE_CHECKING:

        def append(self, envelopes: Sequence[Envelope]) -> int:
            """Save ``envelopes`` (of one or several streams) in one
            transaction: the notification id of the last one; if another
            writer took any of their versions first, ``ConcurrencyError``
            (``MOVED_ON``) and nothing at all written."""

        def save_snapshot(self, stream_id: UUID, version: int, state: msgspec.Struct, topic: str) -> None:
            """Store ``state`` as ``stream_id``'s after ``version`` (the
            first one saved at a version is kept)."""

    # -- the index: names, deletion ------------------------------------------------

    def rename_battle(self, text: str, name: str) -> IndexEntry:
        """Call game ``text`` ``name`` in this store (its log keeps its id).
        MalformedCommand for a name of the wrong form or one another game
        has (as id or name, deleted or not)."""
        entry = self.find_battle(text)
        check_name(name, "new name")
        holder = self.index().holder(name)
        if holder is not None and holder.battle_id != entry.battle_id:
            raise MalformedCommand(
                f"the name {name!r} is taken by battle {_called(holder)}" + (" (deleted)" if holder.deleted else "")
            )
        if entry.name == name:
            raise MalformedCommand(f"battle {_called(entry)} is already called {name!r}")
        self._append_index(BattleRenamed(battle_id=entry.battle_id, name=name))
        return self.index().find(entry.battle_id) or entry

    def delete_battle(self, text: str) -> IndexEntry:
        """Delete game ``text`` softly: it leaves the list and the default
        choice; its log is kept, and ``restore_battle`` brings it back."""
        entry = self.find_battle(text)
        if entry.deleted:
            raise MalformedCommand(
                f"battle {_called(entry)} is already deleted (`rk restore {entry.name}` brings it back)"
            )
        self._append_index(BattleDeleted(battle_id=entry.battle_id))
        return self.index().find(entry.battle_id) or entry

    def restore_battle(self, text: str) -> IndexEntry:
        """List a deleted game again."""
        entry = self.find_battle(text)
        if not entry.deleted:
            raise MalformedCommand(f"battle {_called(entry)} is not deleted")
        self._append_index(BattleRestored(battle_id=entry.battle_id))
        return self.index().find(entry.battle_id) or entry

    def _append_index(self, event: Event) -> None:
        last = self.events.last(INDEX_STREAM)
        self.append(wrap(INDEX_STREAM, last.originator_version if last else 0, [event], "index"))

    # -- commands ------------------------------------------------------------------

    def start(self, ruleset: str, command: Any, *, battle_id: str, prelude: Sequence[Write] = ()) -> Result:
        """Set a game up with its ruleset's setup ``command``. ``prelude``
        writes other aggregates first, in the same transaction (Betrayal
        creates new party members so)."""
        rs = registry.load(ruleset)
        if not isinstance(command, rs.setup_commands):
            raise MalformedCommand(f"that command does not set up a {rs.title} game: `rk new --help` lists the setups")
        check_name(battle_id, "battle name")
        for other in registry.all_rulesets():
            if self.events.last(other.game_stream(battle_id)) is not None:
                raise MalformedCommand(f"battle {battle_id!r} already exists")
        holder = self.index().holder(battle_id)
        if holder is not None:
            raise MalformedCommand(
                f"the name {battle_id!r} is taken by battle {_called(holder)}"
                + (" (deleted)" if holder.deleted else "")
            )
        if isinstance(command, StartFromPosition):
            outcome = self._from_position(rs, command, battle_id)
        else:
            outcome = rs.decide(None, command, rs.setup_context(self.pack_of(rs), command))
        command_id = "c1"
        before = [self._write(rs, w, command_id) for w in prelude]
        # A setup may write to a stream its prelude has just begun (a new
        # adventurer joining as a campaign's would): it goes on from there.
        begun = {w.stream: w for w in before}
        written = [self._write(rs, w, command_id, begun.get(w.stream)) for w in outcome.writes]
        commitment, salt = _commitment(rs, outcome.events)
        issued = rs.issued(
            command_id=command_id,
            command=command,
            touched=tuple((str(w.stream), w.version_before) for w in written),
            commitment=commitment,
            salt=salt,
        )
        events = [issued, *outcome.events]
        own = wrap(rs.game_stream(battle_id), 0, events, command_id)
        registered = GameRegistered(battle_id=battle_id, ruleset=rs.name, setup=_setup_name(command))
        self._append_registered(
            rs,
            battle_id,
            registered,
            command_id,
            [e for w in before for e in w.envelopes] + own + [e for w in written for e in w.envelopes],
        )
        self._rulesets[battle_id] = rs
        game = fold(rs, None, own)
        assert game is not None
        self._remember(battle_id, game)
        return Result(command_id, events, game, _events_of(before + written))

    def _from_position(self, rs: Ruleset, command: StartFromPosition, battle_id: str) -> Outcome:
        """The outcome of a game set up from a position (``position.rules``),
        refused if the position names another game than ``battle_id`` or
        would put a stream of this store (an adventurer of another game)
        somewhere else than it stands."""
        from domain.kernel.position import rules as position_rules
        from domain.kernel.position.document import GAME, refused

        if rs.positioned is None:
            raise MalformedCommand(f"{rs.title} games cannot start from a position")
        outcome = position_rules.decide(rs, self.pack_of(rs), command)
        state = outcome.events[0].state  # type: ignore[attr-defined]  # its PositionTaken
        if state.battle_id != battle_id:
            raise refused(
                command.position,
                f"{GAME}.battle_id",
                f"the position is of battle {state.battle_id!r}, not {battle_id!r}",
            )
        for i, write in enumerate(outcome.writes):
            if self.events.last(write.stream) is None:
                continue
            now = self.state_of(rs.aggregate(write.kind), write.stream)
            if now != write.events[0].restored:  # type: ignore[attr-defined]  # its aggregate's restored event
                raise refused(
                    command.position,
                    f"streams[{i}].name",
                    f"this store holds that {write.kind} already, as it stands elsewhere: start the"
                    " position in another store (--store)",
                )
        return outcome

    def _append_registered(
        self, rs: Any, battle_id: str, registered: GameRegistered, command_id: str, envelopes: list[Envelope]
    ) -> None:
        """Save a new game's envelopes with its entry at the end of the
        index, in one transaction. Games set up at once by other writers
        take index versions too: such a conflict is on the shared index,
        not on this game, so it is retried at the index's new end (never
        shown). A conflict on the game's own stream is a game of that id
        set up first: said so."""
        for attempt in range(START_ATTEMPTS):
            index = self.events.last(INDEX_STREAM)
            entry = wrap(INDEX_STREAM, index.originator_version if index else 0, [registered], command_id)
            try:
                self.append(envelopes + entry)
                return
            except ConcurrencyError:
                # The game's own stream first: a game of this id may have been
                # set up between this attempt's read of the index and its
                # append, so the index can look unmoved while the stream is taken.
                if self.events.last(rs.game_stream(battle_id)) is not None:
                    raise MalformedCommand(f"battle {battle_id!r} already exists") from None
                holder = self.index().holder(battle_id)
                if holder is not None:
                    raise MalformedCommand(f"the name {battle_id!r} is taken by battle {_called(holder)}") from None
                now = self.events.last(INDEX_STREAM)
                if (now.originator_version if now else 0) == (index.originator_version if index else 0):
                    raise  # the index did not move: another stream this setup writes did
                if attempt == START_ATTEMPTS - 1:
                    raise
                time.sleep(min(0.002 * 2**attempt, 0.1))

    def execute(self, battle_id: str, command: Any, *, redo_of: str = "", expected: int | None = None) -> Result:
        """Decide ``command`` against the game and save what it produced, in
        every stream, at once. Refused commands raise and write nothing.
        ``expected``: the version the caller checked the command against;
        if the game is elsewhere, ``ConcurrencyError`` and nothing is written
        (the append is at that version, so a write in between fails it too).

        Without ``expected``, a game this process holds is decided on as it
        holds it, unread, and saved at its version: when another writer went
        first that append fails, writing nothing, and the command is decided
        again on the game as it stands (so is a refusal, when the game moved
        on). A command costs one read less, and the outcome is the one a read
        first would give."""
        if expected is None:
            held = self._latest.get(battle_id)
            if held is not None:
                try:
                    return self._execute(battle_id, command, redo_of, held.version)
                except ConcurrencyError:
                    pass  # moved on since this process last saw it: decided again below
        return self._execute(battle_id, command, redo_of, expected)

    def _execute(self, battle_id: str, command: Any, redo_of: str, expected: int | None) -> Result:
        rs = self.ruleset(battle_id)
        with self.deciding(battle_id, expected) as game:
            if isinstance(command, StartFromPosition):
                raise MalformedCommand(f"battle {battle_id} is already set up; start a new one with `rk new`")
            # The ruleset refuses a second setup with its own rule; the kernel
            # never lets one through, whatever a ruleset's decide says.
            outcome: Outcome = rs.decide(game.state, command, self._rules_context(rs, game.state, None, command))
            if isinstance(command, rs.setup_commands):
                raise MalformedCommand(f"battle {battle_id} is already set up; start a new one with `rk new`")
        command_id = f"c{game.version + 1}"
        written = [self._write(rs, w, command_id) for w in outcome.writes]
        # The rules folded their events while deciding: not folded a second time.
        after = outcome.state if outcome.state is not None else _evolved(rs, game.state, outcome.events)
        issued = rs.issued(
            command_id=command_id,
            command=command,
            redo_of=redo_of,
            touched=tuple((str(w.stream), w.version_before) for w in written),
            revealed=self._reveal(rs, battle_id, game.state, after),
        )
        events = [issued, *outcome.events]
        return Result(
            command_id,
            events,
            self._commit(rs, battle_id, game, events, command_id, written, after),
            _events_of(written),
        )

    def undo(self, battle_id: str, *, force: bool = False, expected: int | None = None) -> Result:
        """Revert the last command in every stream it touched (DESIGN: Undo).
        A command that revealed a roll or a draw is a barrier: ``force``.
        ``expected`` as for ``execute``."""
        rs = self.ruleset(battle_id)
        with self.deciding(battle_id, expected) as game:
            if not game.can_undo:
                raise RuleViolation(
                    "UNDO-1", "there is nothing to undo (the setup itself cannot be undone; start a new battle)"
                )
            last = game.done[-1]
            if last.random and not force:
                raise RuleViolation(
                    "UNDO-2",
                    f"`rk {rs.describe_command(last.command)}` revealed dice or a"
                    " draw; undo it with --force (the audit marks it)",
                )
            self._check_untouched_since(rs, last)
        restored = self.battle(battle_id, version=last.version_before).state
        command_id = f"u{game.version + 1}"
        undone = rs.undone(command_id=last.command_id, restored=restored, forced=last.random)
        written = []
        for sid, version_before in last.touched:
            stream = UUID(sid)
            kind = self._aggregate_of_stream(rs, stream)
            back = self.state_of(kind, stream, version_before) if version_before else None
            written.append(
                self._write(rs, Write(kind.kind, stream, (kind.restored(last.command_id, back),)), command_id)
            )
        return Result(
            command_id, [undone], self._commit(rs, battle_id, game, [undone], command_id, written), _events_of(written)
        )

    def _check_untouched_since(self, rs: Ruleset, last: Any) -> None:
        """UNDO-3: undoing a command puts the other streams it wrote back as
        they were before it. If one of them is no longer as the command left
        it, another game has changed it since (a campaign's Reward Phase
        after a battle's end, a second battle of the same adventurer), and
        the undo would erase that: it is refused. (This game's own later
        commands are undone already, their writes put back.)"""
        for sid, version_before in last.touched:
            stream = UUID(sid)
            after = self.events(stream, gt=version_before)
            own = 0
            while own < len(after) and after[own].command_id == last.command_id:
                own += 1
            if own == len(after):
                continue
            kind = self._aggregate_of_stream(rs, stream)
            now = self.state_of(kind, stream)
            if now != self.state_of(kind, stream, version_before + own):
                who = getattr(now, "name", "") or sid
                raise RuleViolation(
                    "UNDO-3",
                    f"{kind.kind} {who} has changed since, in another game; undo"
                    " that first (an undo here would erase it)",
                )

    def redo(self, battle_id: str, *, expected: int | None = None) -> Result:
        """Re-apply the most recently undone command, while nothing new was
        done since. The RNG counter came back with the undo, so the same
        command rolls the same faces. ``expected`` as for ``execute``."""
        with self.deciding(battle_id, expected) as game:
            if not game.can_redo:
                raise RuleViolation("REDO-1", "there is nothing to redo")
        last = game.undone[-1]
        return self.execute(battle_id, last.command, redo_of=last.command_id, expected=game.version)

    @contextmanager
    def deciding(self, battle_id: str, expected: int | None) -> Iterator[Game]:
        """The game a command is decided against. When the caller says which
        version it checked and this process holds the game at that version,
        that one, with no read: the append is at that version, so if another
        writer went first it fails as "moved on", nothing written; and a
        refusal decided on it is checked against the game as it stands, so
        a game that moved on is said so rather than refused by rules that
        looked at an older state. Without a cached game, the game as it
        stands, which must be at ``expected``."""
        cached = self._latest.get(battle_id) if expected is not None else None
        if cached is None or cached.version != expected:
            game = self.battle(battle_id)
            _expect(game, expected)
            yield game
            return
        try:
            yield cached
        except RulekeeperError as refused:
            if not isinstance(refused, ConcurrencyError):
                _expect(self.battle(battle_id), expected)
            raise

    def _reveal(self, rs: Ruleset, battle_id: str, state: Any, after: Any) -> fairness.Reveal | None:
        """The seed and salt to reveal with a command whose events take the
        game from ``state`` to ``after`` and end it (None for any other, or
        a game with no commitment)."""
        # Most commands do not end the game: that is asked first.
        if after is state or not rs.summary(after).over or rs.summary(state).over:
            return None
        setup = self.setup_record(battle_id)
        seed = fairness.seed_of(state)
        if setup is None or not setup.commitment or seed is None:
            return None
        return fairness.Reveal(seed=seed, salt=setup.salt)

    # -- saving ----------------------------------------------------------------------

    def _aggregate_of_stream(self, rs: Ruleset, stream: UUID) -> Aggregate:
        first = self.events(stream, lte=1)
        kind = rs.aggregate_of(first[0].event) if first else None
        if kind is None:
            raise NotFound(f"stream {stream} is none of {rs.title}'s aggregates")
        return kind

    def _write(self, rs: Ruleset, write: Write, command_id: str, after: _Written | None = None) -> _Written:
        """A command's events for another stream, with the state they lead
        to; ``after``: events of the same transaction that stream takes first."""
        kind = rs.aggregate(write.kind)
        if after is not None:
            version, state = after.version_before + len(after.envelopes), after.state
        else:
            last = self.events.last(write.stream)
            version = last.originator_version if last else 0
            cached = self._companions.get(write.stream)
            if cached is not None and cached[0] == version:
                state = cached[1]
            else:
                state = self.state_of(kind, write.stream) if last else None
        for event in write.events:
            state = kind.evolve(state, event)
        return _Written(write.stream, kind, version, wrap(write.stream, version, write.events, command_id), state)

    def _commit(
        self,
        rs: Ruleset,
        battle_id: str,
        game: Game,
        events: list[Event],
        command_id: str,
        written: list[_Written],
        after: Any = None,
    ) -> Game:
        """Save a command's events in every stream at once, then fold them into
        the game already in hand rather than reading it back (``after``: the
        state a command's ruleset events lead to, evolved once by
        ``execute``; None for an undo)."""
        stream = rs.game_stream(battle_id)
        own = wrap(stream, game.version, events, command_id)
        self.append(own + [e for w in written for e in w.envelopes])
        result = fold(rs, game, own, evolved=after)
        assert result is not None
        self._remember(battle_id, result)
        if result.version // self.snapshot_every > game.version // self.snapshot_every:
            self.save_snapshot(stream, result.version, result, rs.snapshot_topic)
        for w in written:
            # Kept whatever the stream: the next command to write there (the
            # undo of this one, an Adventurer's next battle) starts from it.
            self._hold(w.stream, w.version_before + len(w.envelopes), w.state)
            every = w.aggregate.snapshot_every
            after = w.version_before + len(w.envelopes)
            if w.aggregate.snapshot_topic and w.state is not None and after // every > w.version_before // every:
                self.save_snapshot(w.stream, after, w.state, w.aggregate.snapshot_topic)
        return result


class PlainGameWrites(PlainWriter, GameWrites):
    """``GameWrites`` on an SQLite store written without the library
    (``PlainWriter``): for a store whose tables the library made already
    (``domain.kernel.open_writes`` checks)."""

    name = PlainGames.name

    def __init__(self, settings: Settings, dbname: str, lock_timeout: int) -> None:
        PlainWriter.__init__(self, settings, dbname, lock_timeout)
        GameWrites.__init__(self)


def _expect(game: Game, expected: int | None) -> None:
    """``ConcurrencyError`` when the game is not at the version ``expected``."""
    if expected is not None and game.version != expected:
        raise ConcurrencyError(f"{MOVED_ON} (you saw version {expected}, it is at {game.version})", game.version)


def _evolved(rs: Ruleset, state: Any, events: Sequence[Event]) -> Any:
    """``state`` evolved by a command's ``events`` (``state`` itself when there are none)."""
    for event in events:
        state = rs.evolve(state, event)
    return state


def _events_of(written: list[_Written]) -> tuple[tuple[UUID, tuple[Event, ...]], ...]:
    return tuple((w.stream, tuple(e.event for e in w.envelopes)) for w in written)


def _commitment(rs: Ruleset, events: Sequence[Event]) -> tuple[str, str]:
    """The commitment to the seed a setup's ``events`` give the game, and
    its salt ("" and "" for a game without a seed: ``CommandIssued``'s
    defaults)."""
    state = None
    for event in events:
        state = rs.evolve(state, event)
    seed = fairness.seed_of(state)
    if seed is None:
        return "", ""
    salt = fairness.salt_for(seed)
    return fairness.commit(seed, salt), salt


def _setup_name(command: Any) -> str:
    return str(getattr(command, "setup", "") or getattr(command, "scenario", ""))


def _called(entry: IndexEntry) -> str:
    """A game as a message names it: its name, and its id if renamed."""
    return entry.name if entry.name == entry.battle_id else f"{entry.name} ({entry.battle_id})"
