"""What a game is now or was, read from its store: the reading half of
``GameApp`` (``domain.kernel.games``), whose writes are ``GameWrites``'
(``domain.kernel.game_writes``, built on these reads).

``GameReads`` finds a game's ruleset and stream, rebuilds the game at any
version, reads the game index (names, the latest game), the companion
aggregates, the pack a game was set up with and its rules context. It
reads the store through ``events`` (a stream's envelopes: ``StreamReads``)
and ``load`` (a state rebuilt from a snapshot and the envelopes after it),
which ``GameApp`` takes from the eventsourcing library's application and
``PlainGames`` from an SQLite file read without it
(``domain.kernel.stores.plain``): a command that only reads a game
(`rk status`) then never imports the library. ``domain.kernel.open_reads``
picks one.

This module imports nothing of the eventsourcing library.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, Any
from uuid import NAMESPACE_URL, UUID

from domain.kernel import fairness
from domain.kernel import ruleset as registry
from domain.kernel.battle_index import (
    BattleDeleted,
    BattleIndex,
    BattleRegistered,
    BattleRestored,
    GameRegistered,
    IndexEntry,
    legacy_streams,
)
from domain.kernel.commandlog import CommandIssued, Game, fold, game_types
from domain.kernel.digests import uuid5
from domain.kernel.envelope import Envelope, SnapshotEnvelope, register_state
from domain.kernel.errors import MalformedCommand, NotFound
from domain.kernel.ruleset import Aggregate, Ruleset
from domain.kernel.stores.plain import PlainStore
from domain.kernel.stores.reads import Projector, StreamReads
from domain.kernel.stores.store import Settings

NAME = "rulekeeper"  # the application's name: its settings' prefix (``RULEKEEPER_...``)
INDEX_STREAM = uuid5(NAMESPACE_URL, "rulekeeper:index")
# Before the kernel held the index, a ruleset package kept its own
# (battle_index.legacy_streams); stores written then are still listed (read
# only, never appended to).
INDEX_PAGE = 64  # index events read at a time when looking for the latest game


class GameReads:
    """Games of every ruleset in one store, read.

    ``packs`` overrides a ruleset's default content pack, by ruleset name.
    The store is read through ``events`` and ``load``, which a subclass
    gives (see the module's docstring).
    """

    cached_battles = 64

    if TYPE_CHECKING:

        @property
        def events(self) -> StreamReads:
            """The store's envelopes by stream."""

        def load(self, stream_id: UUID, project: Projector, version: int | None = None) -> Any:
            """A stream's state (``domain.kernel.stores.reads.replay``)."""

    def __init__(self, packs: dict[str, Any] | None = None) -> None:
        self._packs: dict[str, Any] = dict(packs or {})
        self._known: dict[str, list[Any]] = {}  # packs used in this application, by namespace (``pack_for``)
        self._by_hash: dict[tuple[str, str], Any] = {}  # (namespace, recorded hash) -> the pack ``pack_for`` found
        self._latest: OrderedDict[str, Game] = OrderedDict()
        self._rulesets: dict[str, Ruleset] = {}
        self._companions: dict[UUID, tuple[int, Any]] = {}  # stream -> (version, state)
        self._index: tuple[int, BattleIndex] | None = None  # (index version, the index folded to it)

    # -- rulesets and their packs ------------------------------------------------------------

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

    def state_of(self, kind: Aggregate, stream: UUID, version: int | None = None) -> Any:
        """The state of another aggregate's stream, now or at ``version``."""
        if kind.snapshot_topic:
            register_state(kind.snapshot_topic, kind.state_type)
        return self.load(stream, lambda s, items: _fold_plain(kind, s, items), version)

    # -- queries -----------------------------------------------------------------------------

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

    # -- the index: names --------------------------------------------------------------------

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

    # -- the seed (domain.kernel.fairness) ---------------------------------------------------

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


class PlainGames(PlainStore, GameReads):
    """``GameReads`` on an SQLite store read without the library."""

    name = NAME

    def __init__(self, settings: Settings, dbname: str, lock_timeout: int) -> None:
        PlainStore.__init__(self, settings, dbname, lock_timeout)
        GameReads.__init__(self)


def _fold_plain(kind: Aggregate, state: Any, items: Any) -> Any:
    for item in items:
        state = item.state if type(item) is SnapshotEnvelope else kind.evolve(state, item.event)
    return state
