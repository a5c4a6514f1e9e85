"""What a ruleset gives the kernel, and the registry that finds one by name.

A ruleset is a package under ``domain/`` whose entry module, named
``ruleset`` in every package (``domain.conquest.ruleset``), gives the
``Ruleset`` instances it registers as ``RULESETS`` (and, in ``LATER``,
where further ones are, registered when first asked for). The kernel finds one
with ``load("conquest")``, importing the entry module on first use, as
OpenSpiel's ``load_game(name)`` does: the kernel never imports a ruleset
by name, and no ruleset imports another. What a ruleset shows a table is
declared apart, in its module ``surface`` (``domain.kernel.surface``).

The ruleset supplies only what is its own (its state, commands, events,
content, ``decide``/``evolve``/``legal_commands``, one narrator); the kernel
supplies the command log, undo and redo, the game index, snapshots, time
travel and the portable log (``domain.kernel.games``,
``domain.kernel.portable``).

Contract of a ruleset's game state (the state of its game stream): a frozen
msgspec Struct with the attributes ``battle_id``, ``rules_version``,
``pack_id``, ``pack_hash`` and ``seed``, set by the event its setup command
produces. The header of a portable log is read from them.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import lru_cache
from typing import Any, ClassVar, Generic, Protocol, TypeVar
from uuid import NAMESPACE_URL, UUID

import msgspec

from domain.kernel import packages
from domain.kernel.digests import uuid5
from domain.kernel.commandlog import CommandIssued, CommandUndone, game_types
from domain.kernel.errors import NotFound
from domain.kernel.messages import Command, Event


@lru_cache(maxsize=4096)  # every command asks for its game's stream: a SHA-1 each time was a tenth of it
def stream_id(ruleset: str, kind: str, key: str) -> UUID:
    """The stream of aggregate ``kind`` named ``key`` in ``ruleset``.

    Derived from the names, so no lookup is needed to find a stream, and an
    imported log can be checked to write only where its names say."""
    return uuid5(NAMESPACE_URL, f"rulekeeper:{ruleset}:{kind}:{key}")


class Aggregate(msgspec.Struct, frozen=True):
    """An aggregate, other than the game itself, that a command may write to
    (Betrayal's adventurers; later its delves).

    ``event_base`` is the base class of its events (the kernel tells which
    aggregate a stream belongs to by it); ``evolve`` folds one event into
    its state; ``restored(command_id, state)`` is the event an undo appends
    to put the stream back to ``state`` (the state before the undone
    command, or None if the command created the stream); ``key`` turns a
    name into the key its stream id derives from (for example lower case).
    """

    kind: str
    event_base: type[Event]
    state_type: type
    evolve: Callable[[Any, Event], Any]
    restored: Callable[[str, Any], Event]
    snapshot_topic: str = ""
    snapshot_every: int = 50
    key: Callable[[str], str] = str
    name_of: Callable[[Event], str | None] = lambda event: None  # the name an event gives the stream


class Write(msgspec.Struct, frozen=True):
    """Events a command appends to another aggregate's stream."""

    kind: str
    stream: UUID
    events: tuple[Event, ...]


class Outcome(msgspec.Struct, frozen=True):
    """What ``decide`` returns: the events of the game stream, in order, and
    the events it writes to other aggregates' streams (saved in the same
    transaction). ``state``: the game state ``events`` lead to, when the
    rules folded them already while deciding (it must be what ``evolve``
    makes of them); None, and the kernel folds them itself."""

    events: list[Event]
    writes: tuple[Write, ...] = ()
    state: Any = None


HOST = "@host"  # ``Ruleset.actor`` of a command the host alone gives (a GM's): no seat's key


class Seat(msgspec.Struct, frozen=True):
    """One seat of a game's table: ``key`` as commands name it (a hero id,
    a side's letter), ``name`` for people."""

    key: str
    name: str


class GivesUp(msgspec.Struct, frozen=True):
    """What a command gives up that the player could still do now, in a few
    words (``your Engage this turn``), with the rule that makes it so
    (``MOVE-3``): the table says it before the command is sent."""

    what: str
    rule: str


class Summary(msgspec.Struct, frozen=True):
    """One game as ``rk battles`` lists it: where it stands, in a few words."""

    round: int
    where: str  # the phase, or the outcome once it is over
    who: str  # the party, or the two armies
    setup: str = ""
    over: bool = False


class Problem(msgspec.Struct, frozen=True):
    """Something a log asserts that the rules would not have written: what
    they give and what the log holds. ``stream`` is the other stream whose
    line is at fault (None: the game's own command)."""

    expected: str
    found: str
    stream: UUID | None = None


class RandomCheck(msgspec.Struct, frozen=True):
    """A random outcome re-derived from (seed, counter) that the log does
    not match: what the RNG gives and what the log holds."""

    expected: str
    found: str


class ContentPack(Protocol):
    """What the kernel reads of any ruleset's content pack: the id and the
    content hash a game records at setup."""

    @property
    def id(self) -> str: ...

    @property
    def hash(self) -> str: ...


State = TypeVar("State")  # the game state: a frozen msgspec Struct (see the module docstring)
Cmd = TypeVar("Cmd")  # the union of its commands
Ctx = TypeVar("Ctx")  # the rules context decide and legal_commands take
Pack = TypeVar("Pack", bound=ContentPack)  # its content pack
GameEvent = TypeVar("GameEvent", bound=Event)  # the base class of its game-stream events


class Ruleset(Generic[State, Cmd, Ctx, Pack, GameEvent]):
    """Base of every ruleset's entry point, typed by its state, its command
    union, its rules context, its content pack and its game-stream events
    (``class Conquest(Ruleset[ConquestState, ConquestCommand, RulesContext,
    Pack, ConquestEvent])``). Subclasses set the class attributes and
    implement the methods; the kernel calls nothing else. A subclass is
    checked against its own types (mypy): each method it overrides, and
    ``state_type``, ``event_base`` and ``setup_commands``, must fit the
    types it names. The registry holds each as ``AnyRuleset``, whatever
    its types, so the kernel names none.

    Class attributes:

    ``name``            registry name and log header's ``ruleset``
    ``title``           the game's name, for people
    ``rules_version``   written into the setup event of each game
    ``game_kind``       the aggregate kind of the game stream ("battle")
    ``state_type``      the game state (see the module docstring)
    ``round_field``     the field of its state that ``summary``'s round is
                        (what a reader that needs only the round decodes of
                        a state: the audit's undos)
    ``command_type``    the union of its command classes
    ``event_base``      the base class of its game-stream events
    ``issued``          its ``CommandIssued`` subclass (a stable TOPIC)
    ``undone``          its ``CommandUndone`` subclass
    ``snapshot_topic``  the topic its game snapshots are stored under
    ``aggregates``      the other aggregates its commands write to
    ``setup_commands``  the command classes that set a game up
    ``battles``         whether its games are battles (a campaign is not: it
                        is not listed with them nor made the current battle)
    ``group_kind``      what a game of it leads, exported with the games
                        ``grouped_games`` names as one group log
                        (``portable.group``; Betrayal's campaign: "campaign")
    ``positioned``      its ``PositionTaken`` subclass (``domain.kernel.position``):
                        its games start from position files; None when not
    ``position_hexes``  the names of the fields of its states (and its other
                        aggregates') that hold hexes, which a position
                        file writes by their labels (``c4``), as players do
    ``package``         the package under ``domain/`` that registers it, when
                        that is not its name: a package may register further
                        rulesets named ``<package>-<kind>`` (Betrayal's
                        campaign is ``betrayal-campaign``), which share the
                        package's streams (``namespace``)
    """

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    rules_version: ClassVar[str] = ""
    game_kind: ClassVar[str] = "battle"
    round_field: ClassVar[str] = "round"
    # Typed by the ruleset's own types, so set on each subclass (a class
    # variable cannot be: each is read through an instance).
    state_type: type[State]
    event_base: type[GameEvent]
    setup_commands: tuple[type[Cmd], ...]
    command_type: ClassVar[Any] = Command  # a union of classes (``BattleCommand``), which no ``type[...]`` holds
    issued: ClassVar[type[CommandIssued]] = CommandIssued
    undone: ClassVar[type[CommandUndone]] = CommandUndone
    snapshot_topic: ClassVar[str] = ""
    aggregates: ClassVar[tuple[Aggregate, ...]] = ()
    package: ClassVar[str] = ""
    positioned: ClassVar[type | None] = None
    position_hexes: ClassVar[frozenset[str]] = frozenset()  # fields a position writes as hex labels (c4)
    battles: ClassVar[bool] = True  # its games are battles: listed as such, one of them the current battle

    @property
    def namespace(self) -> str:
        """What its stream ids derive from: its package, so that the rulesets
        of one package find the same adventurer under the same stream."""
        return self.package or self.name

    # -- content and context -------------------------------------------------

    def pack(self) -> Pack:
        """The default content pack (an object with ``id`` and ``hash``)."""
        raise NotImplementedError

    def load_pack(self, files: Mapping[str, bytes]) -> Pack:
        """A content pack from the raw bytes of its files, by name, checked
        exactly as the starter pack is (a ``ContentError`` names the file,
        the line and why). For `rk new --pack`."""
        raise NotImplementedError

    def pack_hashes(self, pack: Pack) -> tuple[str, ...]:
        """The content hashes a game played with ``pack`` may record (its
        setup event's ``pack_hash``): the pack's own by default; a ruleset
        whose packs hash parts of their content apart names each."""
        return (pack.hash,)

    def context(self, pack: Pack, state: State) -> Ctx:
        """The rules context ``decide`` and ``legal_commands`` take for a game
        in ``state``. Raises ``NotFound`` if the game was played with
        another pack than ``pack``."""
        raise NotImplementedError

    def setup_context(self, pack: Pack, command: Cmd) -> Ctx:
        """The rules context to decide a setup command with."""
        raise NotImplementedError

    def companions(self, state: State, command: Cmd | None = None) -> tuple[tuple[str, UUID], ...]:
        """The other aggregates' streams, as ``(kind, stream)``, whose state
        the rules read to decide a command of a game in ``state`` (a
        Betrayal delve reads its Delve), or ``command`` in particular (a
        campaign's recruit reads the stream of the name it takes). The
        kernel loads each one as it stood at the game's version (None for
        a stream not written yet) and hands them to ``joined``. Most games
        read none (the default)."""
        return ()

    def joined(self, ctx: Ctx, companions: Mapping[str, Any]) -> Ctx:
        """The rules context ``ctx`` with the companion states, by kind (see
        ``companions``). Called only when ``companions`` names some. A
        ruleset whose companions are several streams of one kind overrides
        ``joined_streams`` instead."""
        return ctx

    def joined_streams(self, ctx: Ctx, companions: Mapping[tuple[str, UUID], Any]) -> Ctx:
        """The rules context ``ctx`` with the companion states by (kind,
        stream); by default ``joined`` with them by kind."""
        return self.joined(ctx, {kind: state for (kind, _), state in companions.items()})

    # -- the rules -----------------------------------------------------------

    def evolve(self, state: State | None, event: GameEvent) -> State:
        """Apply one game-stream event (never a command-log event). Pure."""
        raise NotImplementedError

    def decide(self, state: State | None, command: Cmd, ctx: Ctx) -> Outcome:
        """The outcome of ``command`` in ``state``, or ``RuleViolation`` /
        ``MalformedCommand``. Pure: same inputs, same outcome."""
        raise NotImplementedError

    def legal_commands(self, state: State, ctx: Ctx) -> list[Cmd]:
        """What may be done now (empty once the game is over)."""
        raise NotImplementedError

    def gives_up(self, state: State, ctx: Ctx, command: Cmd, legal: Sequence[Cmd]) -> tuple[GivesUp, ...]:
        """What ``command``, one of ``legal`` (the rules' legal commands
        now), gives up of what could still be done (a second Move gives up
        the Engage, MOVE-3). Pure; nothing by default."""
        return ()

    def reveals(self, event: Event) -> bool:
        """Whether ``event`` shows players a random outcome (a roll, a draw):
        undoing its command then needs force (UNDO-2)."""
        raise NotImplementedError

    def check_random(self, state: State | None, event: Event) -> RandomCheck | None:
        """Re-derive ``event``'s random outcome from the seed and the RNG
        counter in ``state`` (the state just before the event); None when it
        holds or the event has none."""
        raise NotImplementedError

    def check_setup(
        self, command: Cmd, prelude: dict[UUID, list[Event]], before: dict[UUID, Any], pack: Pack
    ) -> Problem | None:
        """Re-decide what a setup takes from other aggregates, for a log's
        verifier: ``prelude`` is what the log writes to other streams just
        before the setup command (by stream, in order), ``before`` each
        other stream's state before that prelude (None: no such stream yet).
        The setup command's own events are re-decided by ``decide``; this
        checks what ``decide`` trusts, e.g. that a new party member is
        created as the rules create one and joins with its stored stats.
        Pure. None when it holds (the default: a ruleset whose setup takes
        nothing from other aggregates)."""
        return None

    def check_other(self, kind: str, stream: UUID, event: Event, state: Any, pack: Pack) -> Problem | None:
        """Re-decide, as far as one log allows, an event of another stream
        that no command of this game wrote (the history of an aggregate
        from before the game, or written by other games): ``state`` is the
        stream before it. Pure; None when it holds or cannot be judged
        from the event alone (the default)."""
        return None

    def check_position(self, state: State, others: Sequence[Any], pack: Pack) -> list[Any]:
        """What the rules cannot hold in a position (a game in ``state``,
        with ``others``, the other streams it needs, as
        ``domain.kernel.position.document.Other``): a
        ``domain.kernel.position.rules.Flaw`` for each, first found first
        (HP over its maximum, a unit off the map, a die in two places, an
        unknown content id). The kernel has checked the types, the pack and
        the streams already. Pure; none by default."""
        return []

    # -- read models ---------------------------------------------------------------

    def read_models(self) -> tuple[type, ...]:
        """Its read models (``domain.kernel.read_model.Projection`` classes),
        which the projection runner keeps up to date beside the kernel's own
        (the list of games, the audit). Rulesets of one package may name the
        same ones; each is kept once. None by default."""
        return ()

    # -- words -----------------------------------------------------------------

    def describe_event(self, event: Event, state: State | None, pack: Pack | None) -> str:
        """One readable line for ``event``, starting ``RULE-ID: `` when it
        cites a rule. ``state`` is the game just before it, or None (before
        setup, or where no state is at hand, as in the audit: then units are
        named by id). ``pack`` names content. The one narrator of ``rk log``
        and the audit."""
        raise NotImplementedError

    def teller(self) -> Callable[[Event, State | None, Pack | None], str]:
        """``describe_event`` as one function of the same arguments, which a
        long narration looks up once (``domain.kernel.narration.Narrator``):
        the bound method by default; a ruleset whose method only hands each
        event on to another function may give that function instead."""
        return self.describe_event

    def describe_written(self, event: Event, stream: UUID, state: State | None, pack: Pack) -> str:
        """One readable line for ``event``, which a command of a game in
        ``state`` wrote to another aggregate's ``stream``: ``describe_event``
        unless a ruleset names whose stream it is."""
        return self.describe_event(event, state, pack)

    def cited_rule(self, event: Event) -> str:
        """The rule ID ``event`` applies ("" when no single rule fits); the
        narration and the audit cite through it, so they never disagree."""
        return ""

    def describe_command(self, command: Cmd, placeholders: bool = False) -> str:
        """A command as a person would type it (``move c4``): its surface's
        grammar writes it, the same that reads it back (``placeholders``:
        faces the table types written ``F``)."""
        from domain.kernel.position.messages import StartFromPosition
        from domain.kernel.surface import surface_of

        if isinstance(command, StartFromPosition):
            return f"new {self.name} --position FILE"
        return surface_of(self.name).grammar.spell(command, placeholders)

    def summary(self, state: State) -> Summary:
        """Where a game stands, for ``rk battles``."""
        raise NotImplementedError

    # -- seats at a table (the server) ---------------------------------------------

    def seats(self, state: State) -> tuple[Seat, ...]:
        """The seats of a game at a table: who plays it (Betrayal: one per
        adventurer; Conquest: one per player). A game with none is played
        by the host alone (a campaign)."""
        return ()

    def actor(self, state: State, command: Cmd) -> str | None:
        """The seat ``command`` is given for (SEAT-1): the key of the
        adventurer, player or unit it acts as, or None for a command of the
        whole table (the next round, an enemy's dice), which any seat may
        give, or ``HOST`` for a command the host alone gives (a GM's
        choice for the other side). Pure: reads the state and the command
        only."""
        return None

    def seen_by(self, state: State, seat: str | None) -> State:
        """The state as seat ``seat`` may see it (None: a spectator): what
        the rules hide from the other players (a Command Stack) masked.
        The default hides nothing."""
        return state

    def hides(self, command: Cmd) -> bool:
        """Whether ``command`` says what the rules hide from the other
        players (the order of a Command Stack): a table shows it only to
        the seat that gave it and the host while the game goes on."""
        return False

    # -- streams ----------------------------------------------------------------

    def related_streams(self, state: State) -> dict[UUID, str]:
        """The other streams that belong in the game's portable log, by id,
        each named ``kind:key`` (Betrayal: its party's adventurers)."""
        return {}

    def position_streams(self, state: State) -> dict[UUID, str]:
        """The other streams a position of a game in ``state`` holds, named
        as ``related_streams`` names them: those by default."""
        return self.related_streams(state)

    group_kind: ClassVar[str] = ""  # a game of this ruleset leads a group log ("campaign"); "" when none

    def grouped_games(self, state: State, events_of: Callable[[UUID], Iterable[Event]]) -> tuple[str, ...]:
        """The other games exported with a game in ``state`` as one group
        log (``domain.kernel.portable.group``), by id, oldest first (a
        campaign's battles); ``events_of(stream)`` reads a stream's events
        from the store. Only a ruleset with a ``group_kind`` names any."""
        return ()

    def game_stream(self, game_id: str) -> UUID:
        """The stream of game ``game_id``."""
        return stream_id(self.namespace, self.game_kind, game_id)

    def stream_of(self, kind: str, key: str) -> UUID:
        """The stream of the aggregate ``kind`` named ``key`` (the game's or
        another's)."""
        if kind == self.game_kind:
            return self.game_stream(key)
        return stream_id(self.namespace, kind, self.aggregate(kind).key(key))

    def aggregate(self, kind: str) -> Aggregate:
        """The other aggregate of that kind; KeyError if there is none."""
        for aggregate in self.aggregates:
            if aggregate.kind == kind:
                return aggregate
        raise KeyError(kind)

    def aggregate_of(self, event: Event) -> Aggregate | None:
        """The other aggregate ``event`` belongs to, or None (the game's)."""
        for aggregate in self.aggregates:
            if isinstance(event, aggregate.event_base):
                return aggregate
        return None


AnyRuleset = Ruleset[Any, Any, Any, Any, Any]  # a ruleset as the kernel holds it, whichever its types


def rules_context(
    rs: AnyRuleset, pack: Any, state: Any, companion: Callable[[str, UUID], Any], command: Any = None
) -> Any:
    """The context ``decide`` and ``legal_commands`` take for a game in
    ``state`` (to decide ``command``, when given): the ruleset's own,
    joined with the companion states ``companion(kind, stream)`` gives (the
    store's, or a verifier's)."""
    ctx = rs.context(pack, state)
    wanted = rs.companions(state, command)
    if not wanted:
        return ctx
    return rs.joined_streams(ctx, {(kind, stream): companion(kind, stream) for kind, stream in wanted})


_REGISTRY: dict[str, AnyRuleset] = {}


def register(ruleset: AnyRuleset) -> AnyRuleset:
    """Register ``ruleset`` under its name (a ruleset package's ``__init__``
    does this). Registering another object under a taken name is refused."""
    if not ruleset.name:
        raise ValueError("a ruleset needs a name")
    other = _REGISTRY.get(ruleset.name)
    if other is not None and type(other).__qualname__ != type(ruleset).__qualname__:
        raise ValueError(f"ruleset name {ruleset.name!r} is taken by {type(other).__qualname__}")
    _REGISTRY[ruleset.name] = ruleset
    # Its snapshot classes must be known before any snapshot is read or written.
    from domain.kernel.envelope import register_state

    game_types(ruleset)
    for aggregate in ruleset.aggregates:
        if aggregate.snapshot_topic:
            register_state(aggregate.snapshot_topic, aggregate.state_type)
    return ruleset


names = packages.names  # every ruleset package under domain/, by name (``domain.kernel.packages``)


ENTRY = "ruleset"  # every ruleset package's entry module


_LATER: dict[str, tuple[str, str]] = {}
"""Rulesets an imported entry module gives only by where they are
(``LATER``), not registered yet: name -> (its package, ``module:attribute``)."""


def _import(package: str) -> None:
    """Import ruleset package ``package``'s entry module and register the
    rulesets it gives (``RULESETS``); those it gives by where they are
    (``LATER``: name -> ``module:attribute``) are registered when first
    asked for (``_register_later``), so a command on one of its games does
    not import the others' rules."""
    module = importlib.import_module(f"domain.{package}.{ENTRY}")
    for ruleset in module.RULESETS:
        if _REGISTRY.get(ruleset.name) is not ruleset:
            register(ruleset)
    for name, where in getattr(module, "LATER", {}).items():
        if name not in _REGISTRY:
            _LATER.setdefault(name, (package, where))


def _register_later(name: str) -> bool:
    """Register ruleset ``name`` if its package gave it for later; whether it did."""
    entry = _LATER.get(name)
    if entry is None:
        return False
    module, _, attribute = entry[1].partition(":")
    ruleset = getattr(importlib.import_module(module), attribute)
    if _REGISTRY.get(ruleset.name) is not ruleset:
        register(ruleset)
    del _LATER[name]
    return True


def _register_later_of(package: str) -> bool:
    """Register every ruleset ``package`` gave for later; whether there was one."""
    later = [name for name, (of, _) in _LATER.items() if of == package]
    for name in later:
        _register_later(name)
    return bool(later)


def _package(name: str) -> str:
    """The package that registers ruleset ``name``: itself, or for
    ``<package>-<kind>`` the package before the dash."""
    return name if name in names() else name.partition("-")[0]


def load(name: str) -> AnyRuleset:
    """The ruleset registered as ``name``, importing its package on first
    use. ``NotFound`` names the rulesets there are."""
    found = _REGISTRY.get(name)
    if found is not None:
        return found
    package = _package(name)
    if package in names():
        _import(package)
        _register_later(name)
        found = _REGISTRY.get(name)
    if found is None:
        there = sorted({rs.name for rs in all_rulesets()})
        raise NotFound(f"no ruleset {name!r}; there are: {', '.join(there)}")
    return found


def loaded_first() -> Iterator[AnyRuleset]:
    """Every ruleset, those already loaded first; the packages not imported
    yet are imported only when the caller asks for the next (a lookup that
    stops early never pays a ruleset's import)."""
    ready = list(_REGISTRY.values())
    yield from ready
    for package in names():
        later = any(of == package for of, _ in _LATER.values())
        if not later and any(rs.name == package or rs.package == package for rs in ready):
            continue
        _import(package)
        _register_later_of(package)
        yield from (rs for rs in list(_REGISTRY.values()) if rs not in ready)
        ready = list(_REGISTRY.values())


def all_rulesets() -> Sequence[AnyRuleset]:
    """Every ruleset of every package, loaded, by name."""
    for package in names():
        _import(package)
        _register_later_of(package)
    return [_REGISTRY[n] for n in sorted(_REGISTRY)]


def load_for_topic(topic: str) -> bool:
    """Load the ruleset whose events are stored under ``topic``
    (``conquest.CardDrawn`` -> conquest), so a process that has not used it
    yet can read its events. A package whose rulesets are loaded but that
    gave some for later (``LATER``: Betrayal's campaign, whose events share
    the ``betrayal.`` prefix) has those registered. Returns whether one was
    newly loaded."""
    package = topic.partition(".")[0]
    if package not in _REGISTRY and package in names():
        load(package)
        return True
    return _register_later_of(package)
