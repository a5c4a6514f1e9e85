"""Everything a ruleset shows a table, declared in one place: its verbs, its
setups, and its queries. The adapters (the command line, the API, the
page) are built from a ``Surface`` and never name a ruleset.

A ruleset package declares its surfaces in its module ``surface``
(``SURFACES``: one per ruleset it registers), which imports its commands
and the kernel's surface only, never its rules: listing the verbs of
every ruleset (``rk --help``) must not load an engine.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cached_property
from typing import Any

import msgspec

from .grammar import Grammar
from .kinds import Number, Text
from .verbs import Param, Verb

MAX_SEED = 2**63 - 1
NEW = "new"  # `rk new <setup>`


def random_seed() -> int:
    """The seed of a game set up without one: the one default every setup
    shares (shown to the host in its first line, so the game can be played
    again). 63 random bits, with a random salt for its commitment
    (``domain.kernel.fairness``)."""
    from domain.kernel.fairness import random_seed as drawn

    return drawn()


# The parameters every setup takes, declared once.
SEED = Param(
    "seed",
    Number(0, MAX_SEED),
    "The seed every roll and draw derives from, 0 to 2^63-1 (default: a random one, shown in the first line).",
    option="--seed",
)
PACK = Param(
    "pack",
    Text("pack"),
    "A content pack of your own: its folder, or the name of a folder in "
    "$RULEKEEPER_HOME/packs/ (default: the starter pack). Checked as the starter pack is; the game "
    "records its hash.",
    option="--pack",
    metavar="DIR|NAME",
)
NAME = Param(
    "name",
    Text("name"),
    "A name for the new game: 1 to 64 letters, digits, '-', '_' or '.' "
    "(default: from the setup and a number, e.g. waystone-1). It becomes the current game.",
    option="--name",
    metavar="NAME",
)


class Setup(msgspec.Struct, frozen=True, dict=True):  # dict: room for its cached_property
    """One way of setting a game up (``rk new <name>``, ``POST /api/games``,
    the lobby's form).

    ``request``: a msgspec Struct of its parameters, as the API takes them
    (with ``name`` and ``seed`` optional: ``NAME``, ``SEED``); ``params``:
    how the command line types its fields. ``start(app, request)`` is the
    one builder: it checks the request against the rules and content,
    fills its defaults (a random seed, a name from the setup) and starts
    the game, returning the application's result. ``makes``: the setup
    commands it starts games with, and ``fields`` gives the request's
    fields back from one (so a game's first line says how to set it up
    again). ``offers(app)``: for the lobby, the values a field may take
    (scenarios, armies), by field name (``party.class`` for a property of
    a field's objects): a list of ``{"id", "name", "note"}``, or ``{"after":
    field, "by": {value: [...]}}`` when they depend on another field's
    value. ``examples``: requests (their fields) that set a game up, which
    the contract suite plays every ruleset from. ``starts_with(app)``: what
    the lobby's form starts with, a request's fields that set a game up on
    this store at the first click; None: the required fields of the first
    example.
    """

    name: str
    summary: str
    request: type
    params: tuple[Param, ...]
    start: Callable[[Any, Any], Any]
    makes: tuple[type, ...] = ()
    fields: Callable[[Any], dict[str, Any]] | None = None
    details: str = ""
    offers: Callable[[Any], Mapping[str, Any]] | None = None
    examples: tuple[Mapping[str, Any], ...] = ()
    starts_with: Callable[[Any], Mapping[str, Any]] | None = None

    @cached_property
    def verb(self) -> Verb:
        """The setup as a verb (``new conquest ...``) over its request."""
        # --pack is every setup's (``PACK``): the command line reads the folder, the builder never sees it
        return Verb(
            name=f"{NEW} {self.name}",
            command=self.request,
            summary=self.summary,
            params=self.params + (PACK,),
            details=self.details,
            fields=self.fields,
        )

    def spelled_verb(self, command_class: type) -> Verb:
        """The verb that writes a setup command of ``command_class`` back."""
        return Verb(
            name=f"{NEW} {self.name}",
            command=command_class,
            summary=self.summary,
            params=self.params,
            fields=self.fields,
        )


class Report(msgspec.Struct, frozen=True):
    """A query's answer: ``data`` for ``--json`` and the API (plain values
    or Structs), and ``view``, what a terminal shows (a renderable of the
    ruleset's own presentation, or lines of text); ``page``: long output
    that a terminal pages."""

    data: Any
    view: Any = None
    page: bool = False


class Query(msgspec.Struct, frozen=True, dict=True):  # dict: room for its cached_property
    """A question a ruleset answers from its content or the store without
    changing anything (``rk scenarios``, ``rk adventurer Ria``).

    ``params`` as a verb's (their values reach ``answer`` by name);
    ``answer(asked, **values)`` returns a ``Report``. ``game``: whether it
    is about the current game (it then reads ``asked.game_id``).
    """

    name: str
    summary: str
    answer: Callable[..., Any]
    params: tuple[Param, ...] = ()
    panel: str = ""
    details: str = ""
    game: bool = False

    @cached_property
    def verb(self) -> Verb:
        return Verb(name=self.name, command=dict, summary=self.summary, params=self.params, details=self.details)


class Demo(msgspec.Struct, frozen=True):
    """A short game a bot plays to show the ruleset (`rk demo`): set up by
    ``setup`` (a setup's name) from ``request(app, number)``, the fields of
    its request for the ``number``-th demo of a store (names that carry the
    number, so a second demo never collides with the first); ``choose(state,
    ctx, rnd)`` picks each command (a bot, from the legal ones).

    ``told(state, events, pack)``: the few words worth a glance of what a
    command did (default: its events' lines); ``who(state)``: who acts now
    (default: the seat the command is for); ``shows_undo(command)``: the
    command after which the demo shows an undo and a redo (default: the
    first that reveals no dice); ``taken(app, number)``: whether a demo
    numbered so would collide with what the store holds."""

    setup: str
    request: Callable[[Any, int], Mapping[str, Any]]
    choose: Callable[[Any, Any, Any], Any]
    told: Callable[[Any, Any, Any], str] | None = None
    who: Callable[[Any], str] | None = None
    shows_undo: Callable[[Any], bool] | None = None
    taken: Callable[[Any, int], bool] | None = None


class Seen(msgspec.Struct, frozen=True):
    """A game as a view draws it: its ``state`` at ``version``, the name
    this store calls it by, its ruleset's content ``pack``, and
    ``context()``, the rules context as it stood then (read on demand:
    a delve's map lives in another stream). ``app``: the application, for
    views that read other streams."""

    app: Any
    state: Any
    version: int
    name: str
    pack: Any
    context: Callable[[], Any]


def _no_view(seen: Seen) -> tuple[Any, ...]:
    return ()


def _no_note(state: Any, commands: list[Any]) -> str:
    return ""


def _no_json(seen: Seen) -> dict[str, Any]:
    return {}


class Surface(msgspec.Struct, frozen=True, dict=True):  # dict: room for its cached_property
    """What one ruleset shows the table: ``verbs`` (its commands),
    ``setups`` (``rk new ...``), ``queries``; ``panel``: the heading its
    verbs are listed under in help; ``noun``: what one of its games is
    called (a battle, a campaign); ``selector``: the option that names
    the game a verb acts on (``--battle``), with its short form.

    Views of a game (each a function of a ``Seen``, returning document
    blocks, ``domain.kernel.surface.document``): ``status``, the whole
    game; ``compact``, the few lines shown after a command; ``extra``,
    what ``rk status --json`` adds to the state. ``legal_note(state,
    commands)``: a line a listing of legal commands ends with, or "".
    ``typed_faces(state)``: whether the table types the faces of its
    dice, so a listing writes each face of a legal command as ``F``.
    ``board(seen)``: the game as the page draws it, a JSON object whose
    ``kind`` names one of the page's drawings: ``hexes`` (a hex map with
    tiles, markers and units), ``rows`` (two sides in front and back rows),
    ``regiments`` (each side's regiments, where they stand). ``demo``: the
    short game `rk demo` plays (``Demo``).

    ``groups``: the help of each group of two-word verbs and queries
    (``item``: "An adventurer's items between battles..."), by its word.

    ``find_game(app, fields)``: for games that are not battles (a
    campaign), the game a verb acts on when none is named, from the
    command's fields (the campaign of the adventurer it names; with no
    fields, the one its generic commands act on: the newest); battles
    act on the current battle. A verb may find its own (``Verb.find_game``);
    the game found may be of another ruleset, whose verb of the same words
    is then given (a promotion in the battle the adventurer fights), and
    "" leaves it to the current game.

    A surface whose games are found so has a group of commands named by
    its ``noun`` (``rk campaign ...``): its two-word verbs and queries,
    and the generic commands of a game (status, legal, log, undo, redo)
    and its setup named as the noun (``rk campaign new``), as aliases.
    """

    ruleset: str
    title: str
    verbs: tuple[Verb, ...] = ()
    setups: tuple[Setup, ...] = ()
    queries: tuple[Query, ...] = ()
    panel: str = "Playing"
    noun: str = "battle"
    selector: tuple[str, str] = ("--battle", "-b")
    status: Callable[[Seen], tuple[Any, ...]] = _no_view
    compact: Callable[[Seen], tuple[Any, ...]] = _no_view
    extra: Callable[[Seen], dict[str, Any]] = _no_json
    legal_note: Callable[[Any, list[Any]], str] = _no_note
    find_game: Callable[[Any, dict[str, Any]], str] | None = None
    groups: Mapping[str, str] = msgspec.field(default_factory=dict)
    typed_faces: Callable[[Any], bool] = lambda state: False
    board: Callable[[Seen], dict[str, Any]] | None = None
    demo: Demo | None = None

    @cached_property
    def grammar(self) -> Grammar:
        """Its verbs and setups, to parse and write lines with."""
        spelled = [s.spelled_verb(cls) for s in self.setups for cls in s.makes]
        return _SetupAware(self.verbs, spelled, self.ruleset)

    def setup(self, name: str) -> Setup | None:
        return next((s for s in self.setups if s.name == name), None)

    def query(self, name: str) -> Query | None:
        return next((q for q in self.queries if q.name == name), None)


class _SetupAware(Grammar):
    """A grammar that also writes setup commands back (``new conquest ...``),
    each by the first setup that makes its class."""

    def __init__(self, verbs: tuple[Verb, ...], setups: list[Verb], ruleset: str) -> None:
        super().__init__(verbs, ruleset)
        for verb in setups:
            self._by_class.setdefault(verb.command, verb)
