"""What the server does with the store, one function per request, each run
on a worker thread with its application (``server.workers``), once the
request's pass was checked (``server.rights``, which also says who may do
what: SEAT-1 to SEAT-5). The rules and the log are the kernel's
(``GameApp``): a command is decided on the game at the version the client
saw, or refused as "moved on"."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import cache
from typing import Any, get_args
from uuid import UUID

import msgspec

from domain.kernel.commandlog import LAST_COMMAND, CommandIssued, CommandUndone, Game
from domain.kernel.envelope import Envelope
from domain.kernel.errors import NotFound
from domain.kernel.games import GameApp, Result
from domain.kernel.narration import given
from domain.kernel.ruleset import Ruleset

from . import rights, setups
from .passes import Keyring, Pass
from .refusals import forbidden, malformed
from .wire import (
    Choices,
    CommandRequest,
    CommandResult,
    GameState,
    GameSummary,
    GivenUp,
    Imported,
    LegalCommand,
    Narrated,
    OpenParam,
    RedoRequest,
    Seats,
    SeatInfo,
    UndoRequest,
    VerifyAnswer,
    Whoami,
    unknown_field,
)

LOG_TAIL = 400  # narrated events a log answer holds at most, unless asked for more
LOG_PAGE = 500  # events read at a time for a whole log


def whoami(app: GameApp, p: Pass, battle_id: str | None) -> Whoami:
    name = None
    if p.seat and battle_id:
        rs = app.ruleset(battle_id)
        name = next((s.name for s in rs.seats(app.battle(battle_id).state) if s.key == p.seat), p.seat)
    return Whoami(role=p.role.value, game=battle_id, seat=p.seat or None, seat_name=name)


# -- reading -----------------------------------------------------------------------


def summary(
    app: GameApp, battle_id: str, game: Game | None = None, deleted: bool = False, fresh_name: bool = True
) -> GameSummary:
    """Where a game stands (``game``: as given, else read now); its name
    from the index read now, or as last read (``fresh_name=False``)."""
    rs = app.ruleset(battle_id)
    game = game or app.battle(battle_id)
    s = rs.summary(game.state)
    entry = app.index(refresh=fresh_name).get(battle_id)
    return GameSummary(
        id=battle_id,
        name=entry.name if entry else battle_id,
        ruleset=rs.name,
        title=rs.title,
        setup=s.setup,
        version=game.version,
        round=s.round,
        where=s.where,
        who=s.who,
        over=s.over,
        deleted=deleted or bool(entry and entry.deleted),
    )


def games(app: GameApp, p: Pass, everything: bool = False) -> list[GameSummary]:
    """Every game of every ruleset (deleted ones too with ``everything``)."""
    rights.host_only(p, "the list of games")
    return [summary(app, e.battle_id, deleted=e.deleted) for e in app.index().entries(deleted=everything)]


def seats(app: GameApp, keyring: Keyring, p: Pass, battle_id: str, base: str) -> Seats:
    """A game's seats; for the host, the link of each (``base``: the
    server's address as the client reached it)."""
    rs = app.ruleset(battle_id)
    state = app.battle(battle_id).state
    link = (lambda token: f"{base}/table/{battle_id}#token={token}") if p.is_host else (lambda token: None)
    return Seats(
        game=battle_id,
        seats=[SeatInfo(key=s.key, name=s.name, link=link(keyring.seat(battle_id, s.key))) for s in rs.seats(state)],
        spectator=link(keyring.spectator(battle_id)),
        host=link(keyring.host()),
    )


def state(app: GameApp, p: Pass, battle_id: str, at: int | None) -> GameState:
    """The game now, or as it stood after event ``at``, as this pass may
    see it (SEAT-5: what the rules hide from the other players masked)."""
    game = game_at(app, battle_id, at)
    # The seed, too, is the host's until the game is over (domain.kernel.fairness).
    shown = game.state if p.is_host else app.seen(battle_id, game.state, p.seat or None)
    setup = app.setup_record(battle_id)
    return GameState(
        game=battle_id,
        version=game.version,
        state=msgspec.to_builtins(shown),
        can_undo=game.can_undo,
        can_redo=game.can_redo,
        seed_commitment=setup.commitment if setup is not None else "",
    )


def game_at(app: GameApp, battle_id: str, at: int | None) -> Game:
    """Game ``battle_id`` at version ``at`` (None: now); a version it never
    had is refused as malformed."""
    if at is not None and not 1 <= at < 2**63:
        raise malformed("at counts events from 1 (see the log)")
    game = app.battle(battle_id, version=at)
    if at is not None and game.version < at:
        raise malformed(f"battle {battle_id} has only {game.version} events")
    return game


def legal(app: GameApp, p: Pass, battle_id: str) -> list[LegalCommand]:
    """The commands open now (``surface.open``), each with its parameters'
    domains and marked with whether this pass may give it."""
    rs = app.ruleset(battle_id)
    game, _, opens = app.open_legal(battle_id)
    out = []
    for o in opens:
        command = o.example
        actor = rs.actor(game.state, command)
        if rs.hides(command) and not rights.may_give(p, actor):
            continue  # SEAT-5: another player's secret choice (the order of a Command Stack)
        out.append(
            LegalCommand(
                label=o.text(gives_up=False),
                command=msgspec.to_builtins(command),
                actor=actor,
                allowed=rights.may_give(p, actor),
                verb=o.verb.name,
                at=_hex_of(o.verb, command) if o.fixed else None,
                open=not o.fixed,
                example=f"rk {rs.describe_command(command)}",
                params=msgspec.convert(o.params(), list[OpenParam]),
                gives_up=[GivenUp(what=g.what, rule=g.rule) for g in o.gives_up],
                summary=o.summary,
                title=o.title,
            )
        )
    return out


def _hex_of(verb: Any, command: Any) -> list[int] | None:
    """The hex a command goes to: the value of its verb's first hex parameter."""
    from domain.kernel.surface.kinds import HexKind

    for param in verb.params if verb is not None else ():
        kind = getattr(param.kind, "inner", param.kind)
        value = getattr(command, param.name, None)
        if isinstance(kind, HexKind) and value is not None:
            return [int(value[0]), int(value[1])]
    return None


def log(
    app: GameApp, p: Pass, battle_id: str, since: int = 0, limit: int = LOG_TAIL, upto: int | None = None
) -> list[Narrated]:
    """The game's events after version ``since`` (and up to version
    ``upto``: the log as it stood then), narrated; at most the
    last ``limit`` of them (0: all). Only those are read: the narration
    starts from the game as it stood just before them (a snapshot and a
    short fold), so a table view costs the same late in a long game. A
    command that says what the rules hide from the other players is shown
    by its name alone to them (SEAT-5)."""
    rs, stream, start, newest = _log_range(app, battle_id, since, limit, upto)
    envelopes = app.events(stream, gt=start, lte=newest)
    return list(_narrated(app, p, rs, battle_id, start, envelopes, _undone(envelopes)))


def log_stream(app: GameApp, p: Pass, battle_id: str, since: int = 0, limit: int = 0) -> Iterator[Narrated]:
    """What ``log`` answers, read ``LOG_PAGE`` events at a time (twice:
    the undos first, which mark what they undid), so a whole log of any
    length is narrated in bounded memory. The events are those there when
    it was called: what is saved while it is read is the next log's."""
    rs, stream, start, newest = _log_range(app, battle_id, since, limit)
    undone = _undone(_paged(app, stream, start, newest))
    return _narrated(app, p, rs, battle_id, start, _paged(app, stream, start, newest), undone)


def _log_range(
    app: GameApp, battle_id: str, since: int, limit: int, upto: int | None = None
) -> tuple[Ruleset, UUID, int, int]:
    """The game's ruleset and stream, the version its log starts after, and
    its newest (at most ``upto``)."""
    rs = app.ruleset(battle_id)
    stream = rs.game_stream(battle_id)
    last = app.events.last(stream)
    newest = last.originator_version if last is not None else 0
    if upto is not None:
        newest = min(newest, upto)
    start = max(since, newest - limit) if limit else since
    return rs, stream, max(0, min(start, newest)), newest


def _paged(app: GameApp, stream: UUID, after: int, newest: int) -> Iterator[Envelope]:
    while after < newest:
        page = list(app.events.get(stream, gt=after, lte=newest, limit=LOG_PAGE))
        if not page:
            return
        yield from page  # type: ignore[misc]
        after = page[-1].originator_version


def _undone(envelopes: Iterable[Envelope]) -> set[str]:
    return {e.event.command_id for e in envelopes if isinstance(e.event, CommandUndone)}


def _state_at(app: GameApp, battle_id: str, version: int) -> Any:
    """The game as it stood at ``version``, where the log's narration starts;
    None before its setup made one (its first events make no game yet: they
    are narrated as from the start)."""
    if not version:
        return None
    try:
        return app.battle(battle_id, version=version).state
    except NotFound:
        return None


def _narrated(
    app: GameApp, p: Pass, rs: Ruleset, battle_id: str, start: int, envelopes: Iterable[Envelope], undone: set[str]
) -> Iterator[Narrated]:
    from domain.kernel.narration import Narrator

    state = _state_at(app, battle_id, start)
    # SEAT-5: a command that says what the rules hide is named by its verb alone to the other players
    hidden = None if p.is_host else (lambda command, state: rs.hides(command) and rs.actor(state, command) != p.seat)
    narrator = Narrator(
        rs,
        app.pack_of(rs),
        state,
        words=lambda command_id: _undone_words(app, rs, battle_id, command_id, hidden),
        hidden=hidden,
        secret_seed=not p.is_host and app.seed_secret(battle_id),
    )
    for env in envelopes:
        yield Narrated(
            version=env.originator_version,
            command_id=env.command_id,
            text=narrator(env.event),
            command=isinstance(env.event, CommandIssued),
            undone=env.command_id in undone,
        )


def _undone_words(app: GameApp, rs: Ruleset, battle_id: str, command_id: str, hidden: Any = None) -> str:
    """The command an undo reverted, as given: its ``CommandIssued`` is the
    event whose version its id names (``c12``: event 12). A command hidden
    from this reader (``hidden(command, state)``, SEAT-5) stays hidden when
    an undo names it: by its verb alone."""
    try:
        version = int(command_id[1:])
    except ValueError:
        return LAST_COMMAND
    for env in app.events(rs.game_stream(battle_id), gt=version - 1, lte=version):
        if isinstance(env.event, CommandIssued):
            command = env.event.command
            if hidden is not None and hidden(command, app.battle(battle_id, version=version - 1).state):
                return f"rk {rs.describe_command(command).split(' ')[0]} (hidden from you)"
            return given(rs, env.event).removesuffix(" (redone)")
    return LAST_COMMAND


# -- acting ----------------------------------------------------------------------------


def command(app: GameApp, p: Pass, battle_id: str, request: CommandRequest) -> CommandResult:
    """Decide and save a command, if this pass may give it (SEAT-1) and the
    game is still where the client saw it."""
    rs = app.ruleset(battle_id)
    rights.check_not_spectator(p)
    rights.check_not_deleted(app, p, battle_id, writing=True)
    if (request.command is None) == (request.line is None):
        raise malformed("missing required field `command` (or give its `line`, one of the two)")
    if request.line is not None:
        from domain.kernel.surface import surface_of

        cmd = surface_of(rs.name).grammar.parse(request.line.removeprefix("rk "))
        if not isinstance(
            cmd, rs.command_type if isinstance(rs.command_type, type) else get_args(rs.command_type) or object
        ):
            raise malformed(f"{request.line[:40]!r} is not a command of this game")
    else:
        raw = msgspec.json.encode(request.command)  # decoded again as the ruleset's command, exactly as posted
        cmd = decoder(rs.command_type).decode(raw)
        extra = unknown_field(request.command, cmd)
        if extra is not None:
            raise malformed(f"the command has no field {extra.replace('$', 'command', 1)}")
    said = _spelled(rs, cmd)
    # ``deciding``: the game at the version the client saw, read only if
    # this process does not hold it so; checked and decided on that one
    # state, and refused 409 if another command was saved first (by another
    # worker or process), never decided on a state the client did not see.
    with app.deciding(battle_id, request.version) as before:
        rights.check_may(rs, p, before.state, cmd, "SEAT-1", f"`{said}`")
        result = app.execute(battle_id, cmd, expected=before.version)
    return _answer(app, rs, battle_id, before, result)


@cache
def decoder(kind: Any) -> msgspec.json.Decoder[Any]:
    """A JSON decoder of ``kind``, made once: msgspec keeps what it makes
    of a Struct type, not of a union of them (a ruleset's commands), which
    it made again at every decode (~55 us a command)."""
    return msgspec.json.Decoder(kind)


def _spelled(rs: Ruleset, cmd: Any) -> str:
    """``cmd`` as a player types it; refused (400) when its values are
    none a player could type (a hex off every map, as ``[-1, 0]``)."""
    try:
        return f"rk {rs.describe_command(cmd)}"
    except (ValueError, OverflowError, IndexError) as e:
        raise malformed(f"the command cannot be given: {str(e)[:160]}") from None


def undo(app: GameApp, p: Pass, battle_id: str, request: UndoRequest) -> CommandResult:
    """Undo the last command: a seat its own or the table's (SEAT-2); a
    forced undo is the host's."""
    rights.check_not_spectator(p)  # before the rules: nothing to undo is no answer for one who may not
    rights.check_not_deleted(app, p, battle_id, writing=True)
    rs = app.ruleset(battle_id)
    with app.deciding(battle_id, request.version) as before:
        if not p.is_host:
            if request.force:
                raise forbidden("SEAT-2", "a forced undo (UNDO-2) is the host's")
            if before.can_undo:
                rights.check_take_back(app, rs, p, battle_id, before.done[-1], "undoing")
                if before.done[-1].random:
                    raise rights.forced_undo_is_the_hosts(rs, before.done[-1])
        result = app.undo(battle_id, force=request.force, expected=before.version)
    return _answer(app, rs, battle_id, before, result)


def redo(app: GameApp, p: Pass, battle_id: str, request: RedoRequest) -> CommandResult:
    """Redo the command undone last: a seat its own or the table's (SEAT-2)."""
    rights.check_not_spectator(p)
    rights.check_not_deleted(app, p, battle_id, writing=True)
    rs = app.ruleset(battle_id)
    with app.deciding(battle_id, request.version) as before:
        if not p.is_host and before.can_redo:
            rights.check_take_back(app, rs, p, battle_id, before.undone[-1], "redoing")
        result = app.redo(battle_id, expected=before.version)
    return _answer(app, rs, battle_id, before, result)


def choices(app: GameApp, p: Pass) -> Choices:
    """What each setup ``new_game`` takes may be set up with, read from the
    packs the games are played with (the host's, SEAT-4, as setting a game
    up is): the lobby's form is made of these; the rules still decide what
    a request names."""
    rights.host_only(p, "the choices of a new game")
    return setups.choices(app)


def new_game(app: GameApp, p: Pass, request: Any) -> CommandResult:
    """Set a game up (the host's, SEAT-4)."""
    rights.host_only(p, "setting a game up")
    result = setups.start(app, request)
    battle_id = result.battle.state.battle_id
    rs = app.ruleset(battle_id)
    return _answer(app, rs, battle_id, None, result)


def _answer(app: GameApp, rs: Ruleset, battle_id: str, before: Game | None, result: Result) -> CommandResult:
    from domain.kernel.narration import Narrator

    def undone(_: str) -> str:  # spelled only for an undo's line, not for every command's answer
        if before is None or not before.done:
            return LAST_COMMAND
        return f"rk {rs.describe_command(before.done[-1].command)}"

    narrator = Narrator(rs, app.pack_of(rs), before.state if before is not None else None, words=undone)
    words = [narrator(event) for event in result.events]
    return CommandResult(
        game=battle_id,
        command_id=result.command_id,
        version=result.battle.version,
        narrated=words,
        summary=summary(app, battle_id, result.battle, fresh_name=False),
    )


# -- logs ---------------------------------------------------------------------------------


def export(app: GameApp, p: Pass, battle_id: str) -> Iterator[bytes]:
    """The game's portable log (JSON Lines, hash-chained, with its
    trailer), line by line as it is read (memory does not grow with the
    game); of a game that leads a group (a campaign), the group's log,
    every game of it in one (the same bytes as `rk export --campaign`).
    It holds every secret of each game it holds, so while one of them whose
    rules hide anything goes on, it is the host's (SEAT-5): checked at once."""
    from domain.kernel import portable

    grouped = _check_whole_log(app, p, battle_id, "its log")
    lines = portable.group_lines(app, battle_id) if grouped else portable.export_lines(app, battle_id)
    return (line + b"\n" for line in lines)


def _check_whole_log(app: GameApp, p: Pass, battle_id: str, what: str) -> bool:
    """SEAT-5 for every game the whole log of ``battle_id`` holds: a game
    that leads a group (its ruleset's ``group_kind``), with every game of
    its group; any other game, alone. Whether it leads a group."""
    rights.check_no_secrets(app, p, battle_id, what)  # the lead first: its refusal names no other game
    if not app.ruleset(battle_id).group_kind:
        return False
    from domain.kernel.portable.group import group_of

    for game in group_of(app, battle_id)[1:]:
        rights.check_no_secrets(app, p, game, f"{what}, which holds game {game},")
    return True


def import_log(app: GameApp, p: Pass, data: bytes) -> Imported:
    """Write a log into the store as a new game (the host's, SEAT-4); every
    check first, nothing written if one fails."""
    from domain.kernel import portable

    rights.host_only(p, "importing a log")
    _check_logged_name(bytes(data))
    battle_id = portable.import_log(app, bytes(data))
    return Imported(game=battle_id, summary=summary(app, battle_id))


def _check_logged_name(data: bytes) -> None:
    """A log's battle id must be a name a game could be given here
    (letters, digits, '-', '_', '.'): it becomes a path of the API and the
    export's file name. A header that cannot be read is left to the import,
    which says what is wrong with it."""
    from domain.kernel.battle_index import check_name

    try:
        header = msgspec.json.decode(data.split(b"\n", 1)[0])
    except (msgspec.DecodeError, RecursionError):  # nested too deep too: the import says so
        return
    if isinstance(header, dict) and isinstance(header.get("battle_id"), str):
        check_name(header["battle_id"])


def verify_stored(app: GameApp, p: Pass, battle_id: str) -> VerifyAnswer:
    """Verify the stored game against today's rules; a game that leads a
    group (a campaign), with every game of its group, as its export holds
    them (`rk verify --campaign`). Its divergence may quote any secret:
    SEAT-5 as for the export."""
    from domain.kernel import portable

    grouped = _check_whole_log(app, p, battle_id, "verifying it")
    whole = portable.verify_group if grouped else portable.verify_battle
    return verdict(whole(app, battle_id))


def verify_log(app: GameApp, p: Pass, data: bytes, key: str | None) -> VerifyAnswer:
    """Verify a posted log (writes nothing; the host's, SEAT-4)."""
    from domain.kernel import portable

    rights.host_only(p, "verifying an uploaded log")
    return verdict(portable.verify_log(bytes(data), key=key))


def verdict(report: Any) -> VerifyAnswer:
    """A verify report as the API words it (`/api/verify`, the dispute page)."""
    return VerifyAnswer(
        ok=report.ok,
        summary=report.summary(),
        lines=report.lines,
        commands=report.commands,
        divergence=msgspec.to_builtins(report.divergence) if report.divergence else None,
    )
