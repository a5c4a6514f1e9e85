"""What the HTTP API reads and writes: msgspec Structs, so every request
is decoded strictly (unknown fields refused) and every answer has a schema
in the OpenAPI document (``server.openapi``).

A command travels as the ruleset's own command Struct, tagged by class
name (``{"type": "Move", "to": [1, 2]}``): the same JSON the log records.
"""

from __future__ import annotations

from functools import cache

from typing import Any

import msgspec

MAX_BODY = 4 * 1024 * 1024  # bytes: a log to import may be large; anything larger is refused (413)


class Strict(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """Base of every request: an unknown field is an error, not ignored."""


# -- requests -----------------------------------------------------------------


def new_game_type() -> Any:
    """What ``POST /api/games`` takes: one of every ruleset's setups, named
    by ``new`` (``{"new": "conquest", "scenario": ...}``), each the request
    its ruleset declares (``Setup.request``; an unknown field refused)."""
    global _NEW_GAME
    if _NEW_GAME is None:
        from domain.kernel.surface import surfaces

        kinds = []
        for surface in surfaces():
            for setup in surface.setups:
                kinds.append(
                    msgspec.defstruct(
                        "New" + "".join(w.title() for w in setup.name.replace("-", " ").split()),
                        [],
                        bases=(setup.request,),
                        tag_field="new",
                        tag=setup.name,
                        kw_only=True,
                        forbid_unknown_fields=True,
                        module=__name__,
                    )
                )
        union: Any = kinds[0]  # the tagged union of every setup request
        for kind in kinds[1:]:
            union = union | kind
        _NEW_GAME = union
    return _NEW_GAME


_NEW_GAME: Any = None


def setup_named(request: Any) -> tuple[Any, Any]:
    """The surface and the setup a decoded ``new_game_type()`` request is for."""
    from domain.kernel.surface import surfaces

    tag = type(request).__struct_config__.tag
    for surface in surfaces():
        for setup in surface.setups:
            if setup.name == tag:
                return surface, setup
    raise KeyError(tag)


class CommandRequest(Strict, kw_only=True):
    """A command for the game: its ruleset's command as JSON (``command``),
    or the line that gives it (``line``: ``engage --form heavy --dice
    1,3``, as an open command's domains build it), one of the two. ``version``:
    the game's version the client saw; if the game has moved on since, the
    command is refused with 409 and nothing is written (never a fork)."""

    command: Any = None  # None: not given (a line is)
    line: str | None = None
    version: int | None = None


class UndoRequest(Strict, kw_only=True):
    """Undo the last command. ``force`` passes the randomness barrier
    (UNDO-2), the host's alone; ``version`` as for a command."""

    force: bool = False
    version: int | None = None


class RedoRequest(Strict, kw_only=True):
    """Redo the command undone last; ``version`` as for a command."""

    version: int | None = None


# -- answers ----------------------------------------------------------------------


class Refusal(msgspec.Struct, kw_only=True, omit_defaults=True):
    """Why a request was refused. ``error``: ``rule`` (a rule forbids it;
    ``rule`` is its ID, status 422), ``malformed`` (400), ``unauthorized``
    (no valid token, 401), ``forbidden`` (this pass may not, 403; ``rule``
    is the SEAT rule), ``not-found`` (404), ``moved-on`` (the game moved on,
    409; ``version`` is where it is now), ``gone`` (the game was deleted,
    410), ``too-large`` (413), ``unsupported`` (a body not JSON, 415),
    ``throttled`` (too many reads of a whole log for this token, 429, with
    ``Retry-After``), ``unavailable`` (the store cannot be reached or did
    not answer in time, 503)."""

    error: str
    reason: str
    rule: str | None = None
    version: int | None = None


class GameSummary(msgspec.Struct, kw_only=True):
    """One game as a list shows it."""

    id: str
    name: str
    ruleset: str
    title: str
    setup: str
    version: int
    round: int
    where: str
    who: str
    over: bool
    deleted: bool = False


class SeatInfo(msgspec.Struct, kw_only=True):
    """A seat of a game, and for the host its link."""

    key: str
    name: str
    link: str | None = None


class Seats(msgspec.Struct, kw_only=True):
    """A game's seats and, for the host, every link to hand out."""

    game: str
    seats: list[SeatInfo]
    spectator: str | None = None
    host: str | None = None


class Whoami(msgspec.Struct, kw_only=True):
    """What the asking pass is."""

    role: str
    game: str | None = None
    seat: str | None = None
    seat_name: str | None = None


class OpenValue(msgspec.Struct, kw_only=True):
    """One value a parameter may take: as the command's JSON holds it, as
    typed, in the players' words, and what it counts against (a pool)."""

    value: Any
    word: str
    label: str = ""
    group: str = ""


class OpenParam(msgspec.Struct, kw_only=True):
    """A parameter of an open command and its domain. How it is typed:
    ``option`` (``--dice``; empty: an argument, in order), ``flag``, ``sep``
    between the items of a list. ``how``: ``fixed`` (its one value),
    ``one`` (one of ``values``), ``some`` (``low`` to ``high`` of
    ``values``, at most ``limits[group]`` of a group), ``order`` (every one
    of ``values``, in the order chosen), ``range`` (``size`` numbers from
    ``low`` to ``high``), ``typed`` (faces read off physical dice, 1 to 6:
    ``size``, plus one per item of the parameter ``per``). ``optional``:
    it may be left out. ``words``: when fixed, the words that give it
    (none at its default). ``title``: what a table calls it in players'
    words (``dice``, ``target``, ``hex``)."""

    name: str
    option: str
    flag: bool
    what: str
    metavar: str
    title: str = ""
    help: str = ""
    sep: str = ""
    fixed: bool
    words: list[str] = []
    how: str
    values: list[OpenValue] = []
    low: int = 0
    high: int = 0
    limits: dict[str, int] = {}
    size: int = 0
    per: str = ""
    optional: bool = False
    note: str = ""


class GivenUp(msgspec.Struct, kw_only=True):
    """What a command gives up of what could still be done, in a few words
    (``your Engage this turn``), and the rule that makes it so (``MOVE-3``)."""

    what: str
    rule: str


class LegalCommand(msgspec.Struct, kw_only=True):
    """A command open now (``open``: the player chooses some of its
    values; else it is one finished command): ``label``, as a player would
    read it (``rk engage --form heavy|light --dice UIDS (UIDS: any 0 to 2
    of ...)``); ``params``: each parameter's domain, in the verb's order,
    to build the command's line from (``verb`` then each parameter's words),
    posted as ``{"line": ...}``; ``command``: a finished command it gives
    that the rules listed, as JSON to post, and ``example``, its line; the
    seat it is given for (None: the table's), whether the asking pass may
    give it, and ``at``: the hex it goes to, when its verb takes one (a
    click on that hex gives it); ``gives_up``: what giving it gives up
    (not in ``label``: a table shows it beside the control and asks before
    sending it); ``summary``: what it does, in one sentence citing its
    rules (its verb's summary), to show beside its choices; ``title``: its
    verb's name in players' words (``Move``, ``End turn``, ``Order the
    Command Stack``), the heading a table lists it under."""

    label: str
    command: Any
    actor: str | None
    allowed: bool
    verb: str = ""
    at: list[int] | None = None
    open: bool = False
    example: str = ""
    params: list[OpenParam] = []
    gives_up: list[GivenUp] = []
    summary: str = ""
    title: str = ""


class Narrated(msgspec.Struct, kw_only=True):
    """One event of the log, in the game's words."""

    version: int
    command_id: str
    text: str
    command: bool = False
    undone: bool = False
    stream: str = ""


class CommandResult(msgspec.Struct, kw_only=True):
    """What a command (or an undo, a redo) did."""

    game: str
    command_id: str
    version: int
    narrated: list[str]
    summary: GameSummary


class GameState(msgspec.Struct, kw_only=True):
    """A game's state now or at a version, as the log's JSON has it."""

    game: str
    version: int
    state: Any
    can_undo: bool
    can_redo: bool
    # The game's commitment to its seed, the same for every reader (its
    # seed is withheld from all but the host until the game is over).
    seed_commitment: str = ""


class VerifyAnswer(msgspec.Struct, kw_only=True):
    """A log checked against the rules: ``ok``, a one-line summary, the
    first divergence if any."""

    ok: bool
    summary: str
    lines: int
    commands: int
    divergence: Any = None


class Imported(msgspec.Struct, kw_only=True):
    """A log written into the store as a new game."""

    game: str
    summary: GameSummary


class ParamInfo(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A setup's parameter: the request field it fills (``name``), what it
    is at the table (``what``: text, number, flag, choice, file...), its
    help, the option the command line types it with, whether it must be
    given and whether it is given once per item (``repeat``); a choice's
    ``values``, a number's bounds."""

    name: str
    what: str
    help: str = ""
    option: str = ""
    required: bool = False
    repeat: bool = False
    values: list[str] = []
    low: int | None = None
    high: int | None = None


class SetupInfo(msgspec.Struct, kw_only=True):
    """One way of setting a game up, as ``POST /api/games`` takes it with
    ``"new": name``: its ruleset, a line of help, its parameters, the JSON
    Schema of its request, and ``offers``, what the packs offer for a field
    (by field name, or ``field.property`` inside a field's objects): a list
    of ``{id, name, note}``, or ``{"after": field, "by": {value: [...]}}``
    when what is offered depends on another field's value. ``start``: what
    the lobby's form starts with, the required fields of the setup's first
    example (so its first click sets a game up, one a reader of the README
    can play on)."""

    name: str
    ruleset: str
    title: str
    summary: str
    params: list[ParamInfo]
    schema: Any
    offers: dict[str, Any] = {}
    start: dict[str, Any] = {}


class Choices(msgspec.Struct, kw_only=True):
    """Everything ``POST /api/games`` can set up, from every ruleset."""

    setups: list[SetupInfo]


@cache
def _fields_of(kind: type[msgspec.Struct]) -> tuple[dict[str, str], str | None]:
    """A Struct type's fields by the name JSON gives them, and its tag field."""
    return dict(zip(kind.__struct_encode_fields__, kind.__struct_fields__)), kind.__struct_config__.tag_field


def unknown_field(given: Any, decoded: Any, at: str = "$") -> str | None:
    """Where ``given`` (JSON decoded as plain values) has a field that
    ``decoded`` (the same JSON decoded into Structs) has none for, e.g.
    ``$.zz``; None when it has none. A ruleset's commands accept unknown
    fields (old logs stay readable), a request must not: a misspelt field
    would be dropped silently and another command given than the one meant."""
    if isinstance(decoded, msgspec.Struct) and isinstance(given, dict):
        names, tag = _fields_of(type(decoded))
        for key, value in given.items():
            if key == tag:
                continue
            if key not in names:
                return f"{at}.{key}"
            found = unknown_field(value, getattr(decoded, names[key]), f"{at}.{key}")
            if found:
                return found
    elif isinstance(decoded, (list, tuple)) and isinstance(given, list):
        for i, (g, d) in enumerate(zip(given, decoded)):
            found = unknown_field(g, d, f"{at}[{i}]")
            if found:
                return found
    elif isinstance(decoded, dict) and isinstance(given, dict):
        for key, value in given.items():
            if key in decoded:
                found = unknown_field(value, decoded[key], f"{at}.{key}")
                if found:
                    return found
    return None
