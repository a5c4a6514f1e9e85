"""The application every game is played through, whatever its ruleset.

``GameApp`` is the one place that writes games to the store. For any
registered ruleset it sets a game up, executes a command (decide, then save
every stream the command touched in one transaction, "moved on" for a
second writer), undoes and redoes across every stream the undone command
touched (the randomness barrier needs force), keeps one index of every game
of every ruleset, snapshots game streams, and rebuilds any game at any
version. A ruleset gives it only its rules (``domain.kernel.ruleset``).
The index also names games and deletes them softly
(``domain.kernel.battle_index``).

A game's stream is found from its id alone: the application tries each
ruleset's stream for that id (one indexed read each) and remembers which
one held it.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any
from uuid import NAMESPACE_URL, UUID

from domain.kernel import ruleset as registry
from domain.kernel.stores.application import MOVED_ON, EventSourcedApp
from domain.kernel.battle_index import (
    BattleDeleted,
    BattleIndex,
    BattleRegistered,
    BattleRenamed,
    BattleRestored,
    GameRegistered,
    IndexEntry,
    check_name,
    legacy_streams,
)
from domain.kernel import fairness
from domain.kernel.digests import uuid5
from domain.kernel.commandlog import CommandIssued, Game, fold, game_types
from domain.kernel.envelope import Envelope, SnapshotEnvelope, register_state, wrap
from domain.kernel.errors import ConcurrencyError, MalformedCommand, NotFound, RuleViolation, RulekeeperError
from domain.kernel.messages import Event
from domain.kernel.position.messages import StartFromPosition
from domain.kernel.ruleset import Aggregate, Outcome, Ruleset, Write

INDEX_STREAM = uuid5(NAMESPACE_URL, "rulekeeper:index")
# Before the kernel held the index, a ruleset package kept its own
# (battle_index.legacy_streams); stores written then are still listed (read
# only, never appended to).
# Tries at saving a new game when other games are set up at once (each
# takes the index's next version): enough for dozens of writers at a time.
START_ATTEMPTS = 50
INDEX_PAGE = 64  # index events read at a time when looking for the latest game


@dataclass(frozen=True)
class Result:
    """What a command did: its id, the game-stream events it produced (its
    ``CommandIssued`` or ``CommandUndone`` first), the game after."""

    command_id: str
    events: list[Event]
    battle: Game
    written: tuple[tuple[UUID, tuple[Event, ...]], ...] = ()  # other streams' events, by stream


@dataclass(frozen=True)
class _Written:
    """Events a command appends to another aggregate's stream."""

    stream: UUID
    aggregate: Aggregate
    version_before: int
    envelopes: list[Envelope]
    state: Any  # the stream's state after them


class GameApp(EventSourcedApp):
    """Games of every ruleset in one event store, with one notification log.

    ``packs`` overrides a ruleset's default content pack, by ruleset name.
    """

    name = "rulekeeper"
    is_snapshotting_enabled = True
    snapshot_every = 150
    cached_battles = 64

    def __init__(
        self,
        store: str | None = None,
        env: dict[str, str] | None = None,
        packs: dict[str, Any] | None = None,
        *,
        read_only: bool = False,
    ):
        super().__init__(store=store, env=env, read_only=read_only)
        self._packs: dict[str, Any] = dict(packs or {})
        self._known: dict[str, list[Any]] = {}  # packs used in this application, by namespace (``pack_for``)
        self._by_hash: dict[tuple[str, str], Any] = {}  # (namespace, recorded hash) -> the pack ``pack_for`` found
        self._latest: OrderedDict[str, Game] = OrderedDict()
        self._rulesets: dict[str, Ruleset] = {}
        self._companions: dict[UUID, tuple[int, Any]] = {}  # stream -> (version, state)
        self._index: tuple[int, BattleIndex] | None = None  # (index version, the index folded to it)

    # -- rulesets and their packs ---------------------------------------------

    def pack_of(self, ruleset: str | Ruleset) -> Any:
        """The content pack in use for ``ruleset`` (its default unless given)."""
        rs = ruleset if isinstance(ruleset, Ruleset) else registry.load(ruleset)
        pack = self._packs.get(rs.namespace)  # the rulesets of one package share its pack
        if pack is None:
            pack = self._packs[rs.namespace] = rs.pack()
        return pack

    def use_pack(self, ruleset: str | Ruleset, pack: Any) -> None:
        """Play the games this application sets up for ``ruleset`` with
        ``pack`` (`rk new --pack`); games set up before keep theirs."""
        rs = ruleset if isinstance(ruleset, Ruleset) else registry.load(ruleset)
        self._packs[rs.namespace] = pack
        self._known.setdefault(rs.namespace, []).append(pack)
        self._by_hash.clear()

    def pack_for(self, rs: Ruleset, state: Any) -> Any:
        """The pack game ``state`` was set up with, by the hash its setup
        recorded: the one in use, one used before in this application, or
        one under ``$RULEKEEPER_HOME/packs`` (``pack_dirs``); NotFound,
        naming the hash, when none of them is it."""
        recorded = getattr(state, "pack_hash", None)
        if recorded is None:
            return self.pack_of(rs)
        # Asked for every command decided: found once per hash (until ``use_pack``).
        found = self._by_hash.get((rs.namespace, recorded))
        if found is None:
            found = self.pack_by_hash(rs, recorded)
            if found is not None:
                self._by_hash[(rs.namespace, recorded)] = found
        if found is None:
            raise NotFound(
                f"{getattr(state, 'battle_id', 'this game')} was played with content pack "
                f"{getattr(state, 'pack_id', '?')} {recorded}, which is not here: put its folder in "
                f"$RULEKEEPER_HOME/packs/"
            )
        return found

    def pack_by_hash(self, rs: Ruleset, recorded: str) -> Any:
        """The pack of ``rs`` whose content hash is ``recorded`` (as
        ``pack_for`` finds it), or None."""
        pack = self.pack_of(rs)
        if recorded in rs.pack_hashes(pack):
            return pack
        for known in self._known.get(rs.namespace, ()):
            if recorded in rs.pack_hashes(known):
                return known
        found = self._pack_on_disk(rs, recorded)
        if found is not None:
            self._known.setdefault(rs.namespace, []).append(found)
        return found

    def _pack_on_disk(self, rs: Ruleset, recorded: str) -> Any:
        from domain.kernel.stores import pack_dirs
        from domain.kernel.errors import ContentError

        for folder in pack_dirs.candidates(recorded):
            try:
                pack = rs.load_pack(pack_dirs.read(folder))
            except (ContentError, MalformedCommand, OSError, NotImplementedError):
                continue  # not a pack of this ruleset, or not a valid one: not the one recorded
            if recorded in rs.pack_hashes(pack):
                return pack
        return None

    def ruleset(self, battle_id: str) -> Ruleset:
        """The ruleset battle ``battle_id`` is played under; NotFound if none
        holds it."""
        found = self._rulesets.get(battle_id)
        if found is not None:
            return found
        # The index, once read (naming or choosing the game read it), says
        # whose game it is: only that ruleset's package is imported, not
        # every package before it in the probing below.
        entry = self._index[1].get(battle_id) if self._index is not None else None
        if entry is not None:
            try:
                rs = registry.load(entry.ruleset)
            except NotFound:
                rs = None  # a ruleset no longer here: probe as below
            if rs is not None and self.events.last(rs.game_stream(battle_id)) is not None:
                self._rulesets[battle_id] = rs
                return rs
        for rs in registry.loaded_first():
            if self.events.last(rs.game_stream(battle_id)) is not None:
                self._rulesets[battle_id] = rs
                return rs
        raise NotFound(f"no battle {battle_id!r} (see `rk battles`)")

    def ruleset_of_state(self, state: Any) -> Ruleset:
        """The ruleset whose game state ``state`` is."""
        for rs in registry.loaded_first():  # a state's ruleset is loaded already
            if isinstance(state, rs.state_type):
                return rs
        raise TypeError(f"{type(state).__name__} is no ruleset's game state")

    def context(self, state: Any) -> Any:
        """The rules context for a game in ``state``, with the pack in use.
        A game whose rules read companion aggregates (``Ruleset.companions``)
        needs ``rules_context`` instead, which knows where it stands."""
        rs = self.ruleset_of_state(state)
        return rs.context(self.pack_for(rs, state), state)

    def rules_context(self, battle_id: str, version: int | None = None) -> Any:
        """The rules context of game ``battle_id`` now, or at ``version``:
        its ruleset's context joined with the companion aggregates as they
        stood then."""
        rs = self.ruleset(battle_id)
        return self._rules_context(rs, self.battle(battle_id, version).state, version)

    def _rules_context(self, rs: Ruleset, state: Any, version: int | None, command: Any = None) -> Any:
        return registry.rules_context(
            rs, self.pack_for(rs, state), state, lambda kind, stream: self.companion(rs, kind, stream, version), command
        )

    def companion(self, rs: Ruleset, kind: str, stream: UUID, version: int | None = None) -> Any:
        """A companion aggregate's state (``Ruleset.companions``) now, or as
        it stood when its game was at ``version``. Its events carry the id
        of the command that wrote them, ``c`` or ``u`` and the game version
        that command's first event took, so the companion at game version v
        is the fold of the events whose command came at or before v."""
        aggregate = rs.aggregate(kind)
        if version is None:
            cached = self._companions.get(stream)
            last = self.events.last(stream)
            if last is None:
                return None
            if cached is not None and cached[0] == last.originator_version:
                return cached[1]
            if cached is not None and cached[0] < last.originator_version:
                state = _fold_plain(aggregate, cached[1], self.events(stream, gt=cached[0]))
            else:
                state = self.state_of(aggregate, stream)
            self._hold(stream, last.originator_version, state)
            return state
        state = None
        for envelope in self.events(stream):
            if int(envelope.command_id[1:] or 0) > version:
                break
            state = aggregate.evolve(state, envelope.event)
        return state

    def _hold(self, stream: UUID, version: int, state: Any) -> None:
        """Keep another aggregate's state at ``version`` (of the latest few
        streams): a read of it or a write to it then checks the stream's last
        version, one indexed read, rather than folding the stream again."""
        self._companions[stream] = (version, state)
        while len(self._companions) > self.cached_battles:
            self._companions.pop(next(iter(self._companions)))

    # -- queries ---------------------------------------------------------------

    def battle(self, battle_id: str, version: int | None = None) -> Game:
        """The game now, or at ``version``. The latest state of recently used
        games is kept and fast-forwarded with whatever was appended since (by
        this process or another), one indexed read."""
        rs = self.ruleset(battle_id)
        stream = rs.game_stream(battle_id)
        if version is None and battle_id in self._latest:
            cached = self._latest[battle_id]
            newer = self.events(stream, gt=cached.version)
            if newer:
                cached = fold(rs, cached, newer)  # type: ignore[assignment]
            self._remember(battle_id, cached)
            return cached
        game_types(rs)  # its snapshot class must be known before a load
        try:
            found: Game = self.load(stream, lambda g, items: fold(rs, g, items), version)
        except NotFound:
            if version is not None and self.events.last(stream) is not None:
                # The stream is there: its first versions hold only the command
                # that sets the game up, before the setup's state exists.
                first = self._first_state_version(rs, stream)
                raise NotFound(
                    f"{battle_id!r} has no board at version {version}: that version holds the command "
                    f"that sets it up; its first board is at version {first}"
                ) from None
            raise NotFound(f"no battle {battle_id!r}" + ("" if version is None else f" at version {version}")) from None
        if version is None:
            self._remember(battle_id, found)
        return found

    def _first_state_version(self, rs: Any, stream: Any) -> int:
        """The first version of ``stream`` at which its game has a state."""
        game: Game | None = None
        for envelope in self.events(stream):
            game = fold(rs, game, [envelope])
            if game is not None and game.state is not None:
                return game.version
        return 0

    def cached(self, battle_id: str) -> Game | None:
        """The latest state of game ``battle_id`` this application has seen,
        without reading the store (None if it holds none): for what does not
        change as a game goes on (its seats), or with ``deciding``, which
        checks it."""
        return self._latest.get(battle_id)

    def knows(self, battle_id: str) -> bool:
        """Whether ``battle_id`` is the id of a game this application has
        found already (no read)."""
        return battle_id in self._rulesets

    def _remember(self, battle_id: str, game: Game) -> None:
        self._latest[battle_id] = game
        self._latest.move_to_end(battle_id)
        while len(self._latest) > self.cached_battles:
            self._latest.popitem(last=False)

    def legal(self, battle_id: str) -> list[Any]:
        """What may be done now in ``battle_id``."""
        rs = self.ruleset(battle_id)
        state = self.battle(battle_id).state
        return rs.legal_commands(state, self._rules_context(rs, state, None))

    def open_legal(self, battle_id: str) -> tuple[Any, list[Any], list[Any]]:
        """What may be done now in ``battle_id``, open: the game, the rules'
        finished legal commands, and the open commands (``surface.open.Open``)
        they make, per verb and per who gives them (``Ruleset.actor``)."""
        from domain.kernel.surface import surface_of
        from domain.kernel.surface.open import open_commands

        rs = self.ruleset(battle_id)
        game = self.battle(battle_id)
        ctx = self._rules_context(rs, game.state, None)
        finished = rs.legal_commands(game.state, ctx)
        opens = open_commands(
            surface_of(rs.name).grammar, finished, game.state, ctx, split=lambda command: rs.actor(game.state, command)
        )
        return game, finished, [replace(o, gives_up=rs.gives_up(game.state, ctx, o.example, finished)) for o in opens]

    def stream(self, battle_id: str) -> list[Envelope]:
        """Every envelope of the game's stream, in order."""
        return self.events(self.ruleset(battle_id).game_stream(battle_id))

    def battles(self) -> list[GameRegistered]:
        """Every game of every ruleset, in creation order."""
        legacy = [
            GameRegistered(battle_id=old.battle_id, ruleset=old.ruleset, setup=old.setup)
            for stream in legacy_streams()
            for old in self._legacy_entries(stream)
        ]
        return legacy + [e.event for e in self.events(INDEX_STREAM) if isinstance(e.event, GameRegistered)]

    def _legacy_entries(self, stream: UUID) -> Iterator[Any]:
        """The events of an old per-ruleset index stream (each ruleset's own
        creation event, with a ``battle_id``, a ``ruleset`` and a ``setup``)."""
        return (e.event for e in self.events(stream))

    def latest_battle(self) -> str:
        """The game created last and not deleted: what a command acts on
        when none was chosen. Reads the index from its newest event back,
        a page at a time, so it costs the same however many games the
        store holds (unless the newest ones were all deleted)."""
        deleted: dict[str, bool] = {}  # the newest word on each game seen so far
        for stream in (INDEX_STREAM, *legacy_streams()):
            below: int | None = None
            while below is None or below > 0:
                page = self.events.page(stream, lte=below, desc=True, limit=INDEX_PAGE)
                if not page:
                    break
                for env in page:
                    e = env.event
                    if isinstance(e, (BattleDeleted, BattleRestored)):
                        deleted.setdefault(e.battle_id, isinstance(e, BattleDeleted))
                    elif isinstance(e, (GameRegistered, BattleRegistered)) and not deleted.get(e.battle_id):
                        rs = registry.load(e.ruleset)
                        if not rs.battles:
                            continue  # a campaign is never the battle a command acts on
                        self._rulesets.setdefault(e.battle_id, rs)  # the index knows it: no other ruleset loaded
                        return e.battle_id
                below = page[-1].originator_version - 1
        raise NotFound("there is no battle yet: start one with `rk new`")

    # -- the index: names, deletion ------------------------------------------------

    def index(self, *, refresh: bool = True) -> BattleIndex:
        """The game index folded (``domain.kernel.battle_index``). Kept, and
        brought up to date with what was appended since: one indexed read
        when nothing was (none at all with ``refresh=False`` once it was
        read, for a caller that may show a name a moment old). Do not
        change what it returns."""
        if not refresh and self._index is not None:
            return self._index[1]
        last = self.events.last(INDEX_STREAM)
        version = last.originator_version if last else 0
        if self._index is None or self._index[0] > version:
            index = BattleIndex()
            for stream in legacy_streams():
                for env in self.events(stream):
                    index.apply(env.event)
            self._index = (0, index)
        done, index = self._index
        if done < version:
            for env in self.events(INDEX_STREAM, gt=done):
                index.apply(env.event)
            self._index = (version, index)
        return index

    def find_battle(self, text: str) -> IndexEntry:
        """The game ``text`` names, by id or by name (any case if only one
        matches), deleted or not; NotFound if none."""
        found = self.index().find(text)
        if found is not None:
            return found
        try:  # a game whose stream exists but the index lacks (written by hand)
            rs = self.ruleset(text)
        except NotFound:
            shown = text if len(text) <= 40 else text[:40] + "..."
            raise NotFound(f"no battle {shown!r}: see `rk battles` (--all lists deleted ones too)") from None
        return IndexEntry(text, rs.name, "", text)

    def called(self, game_id: str) -> str:
        """How game ``game_id`` is shown to people: its name, and its id too
        when a rename made them differ ("friday (id waystone-1)")."""
        entry = self.index().get(game_id)
        if entry is None or entry.name == entry.battle_id:
            return game_id if entry is None else entry.name
        return f"{entry.name} (id {entry.battle_id})"

    def new_battle_id(self, setup: str) -> str:
        """A readable id for a new game of ``setup``: ``waystone-1``..."""
        return self.index().fresh_id(setup)

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

    def state_of(self, kind: Aggregate, stream: UUID, version: int | None = None) -> Any:
        """The state of another aggregate's stream, now or at ``version``."""
        if kind.snapshot_topic:
            register_state(kind.snapshot_topic, kind.state_type)
        return self.load(stream, lambda s, items: _fold_plain(kind, s, items), version)

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

    # -- the seed (domain.kernel.fairness) ---------------------------------------------

    def setup_record(self, battle_id: str) -> CommandIssued | None:
        """The ``CommandIssued`` of the game's setup (its first event), which
        holds the commitment to its seed and the salt; None if it has none."""
        first = self.events(self.ruleset(battle_id).game_stream(battle_id), lte=1)
        event = first[0].event if first else None
        return event if isinstance(event, CommandIssued) else None

    def seed_secret(self, battle_id: str, game: Game | None = None) -> bool:
        """Whether the game's seed is still the host's alone: until the
        game is over (``game``: the game now, if in hand)."""
        rs = self.ruleset(battle_id)
        game = game or self.battle(battle_id)
        return not rs.summary(game.state).over

    def seen(self, battle_id: str, state: Any, seat: str | None, *, secret: bool | None = None) -> Any:
        """``state`` of game ``battle_id`` as seat ``seat`` (None: a
        spectator) may see it: what the rules hide from it masked
        (``Ruleset.seen_by``) and, while the game goes on, its seed withheld
        (``secret``: whether it still is, if known)."""
        shown = self.ruleset(battle_id).seen_by(state, seat)
        if secret is None:
            secret = self.seed_secret(battle_id)
        return fairness.withheld(shown) if secret else shown

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


def _fold_plain(kind: Aggregate, state: Any, items: Any) -> Any:
    for item in items:
        state = item.state if type(item) is SnapshotEnvelope else kind.evolve(state, item.event)
    return state


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
