"""The routes of the server, as a table (``ENDPOINTS``) the OpenAPI
document is made from, and the ASGI application (``create_app``).

Every answer is JSON encoded by msgspec (a log export is JSON Lines), every
refusal a ``wire.Refusal`` with its status (``server.refusals``); a request
is known by its token (``Authorization: Bearer`` alone: a link carries it
after ``#``, the page sends it in the header), checked on a worker thread
against the game's seats; a body is JSON, sent as such (415 otherwise).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import msgspec
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, Response, StreamingResponse
from starlette.routing import Route

from domain.kernel.games import GameApp

from . import dispute, past_table, rights, table_view, tables
from .index_watch import IndexWatch
from .live import ChangeFeed
from .passes import Keyring
from .refusals import Refused, malformed, refusal_of
from .streaming import streamed
from .throttle import Rate, Throttle, Throttled
from .wire import (
    unknown_field,
    new_game_type,
    MAX_BODY,
    Choices,
    CommandRequest,
    CommandResult,
    GameState,
    GameSummary,
    Imported,
    LegalCommand,
    Narrated,
    RedoRequest,
    Refusal,
    Seats,
    UndoRequest,
    VerifyAnswer,
    Whoami,
)

T = TypeVar("T")
STATIC = Path(__file__).parent / "static"
KEEPALIVE = 15.0  # seconds between comments on an idle live feed, so proxies keep it open
DEADLINE = 30.0  # seconds a request waits for the store before it is answered 503
HEAVY_DEADLINE = 300.0  # the same for a whole log's verify, or each page of a whole log
# The public dispute page's pace per client address: a page of boards is a request too.
PUBLIC_RATE = Rate(burst=12, per_minute=12.0)
HEAVY_WORKERS = 1  # the heavy lane's threads: whole logs wait for each other, never for a command
log = logging.getLogger("rulekeeper.server")


@dataclass(frozen=True)
class Param:
    """A query parameter an endpoint reads."""

    name: str
    kind: type
    doc: str


@dataclass(frozen=True)
class Endpoint:
    """One route: what it reads and answers, for the handler and the OpenAPI document."""

    method: str
    path: str
    name: str
    doc: str
    answer: Any = None  # the answer's type; None for a non-JSON answer
    body: Any = None  # the request body's type; bytes for a raw log
    query: tuple[Param, ...] = ()
    media: str = "application/json"
    refusals: tuple[int, ...] = (400, 401, 403, 404, 410, 503)
    needs_token: bool = True
    handler: Callable[..., Awaitable[Response]] | None = field(default=None, compare=False)


class Server:
    """The state one server process keeps: the two lanes of workers (the
    main one, and ``heavy`` for the reads of a whole log), the keyring,
    the feed, the whole-log reads' ``throttle`` (None: no limit), the
    seconds a request waits for the store (``deadline``; ``heavy_deadline``
    for a whole log's verify, or each page of one read), and what the feed
    heard of the game index (``index_watch``; None: it is read each time)."""

    def __init__(
        self,
        workers: Any,
        keyring: Keyring,
        feed: ChangeFeed,
        *,
        heavy: Any = None,
        throttle: Throttle | None = None,
        deadline: float = DEADLINE,
        heavy_deadline: float = HEAVY_DEADLINE,
        public_throttle: Throttle | None = None,
        index_watch: IndexWatch | None = None,
    ) -> None:
        self.workers = workers
        self.index_watch = index_watch
        self.heavy = heavy if heavy is not None else workers
        self.keyring = keyring
        self.feed = feed
        self.throttle = throttle
        self.public_throttle = public_throttle  # the dispute page's, per client address (it has no token)
        self.deadline = deadline
        self.heavy_deadline = heavy_deadline

    async def call(self, request: Request, game: str | None, fn: Callable[..., T], *args: Any) -> T:
        """``fn(app, pass, game id, *args)`` on a worker thread, once the
        request's token was checked there as a pass for ``game`` (None:
        outside any game) — one trip to a worker per request."""
        checked = self.checked(request, game, fn, *args)
        return await self.workers.run(checked, deadline=self.deadline)

    async def call_heavy(self, request: Request, game: str | None, what: str, fn: Callable[..., T], *args: Any) -> T:
        """``call`` for a read of a whole log (``what``, for the throttle's
        refusal): counted against the token's rate, run on the heavy lane."""
        self.count_whole_log(request, what)
        return await self.heavy.run(self.checked(request, game, fn, *args), deadline=self.heavy_deadline)

    async def stream_heavy(
        self, request: Request, game: str | None, what: str, fn: Callable[..., tuple[Any, Any]], *args: Any
    ) -> tuple[Any, AsyncIterator[bytes]]:
        """A whole log's head and pages (``server.streaming``), from
        ``fn(app, pass, game id, *args) -> (head, pieces)`` on the heavy lane."""
        self.count_whole_log(request, what)
        return await streamed(self.heavy, self.checked(request, game, fn, *args), self.heavy_deadline)

    async def call_public(self, request: Request, what: str, fn: Callable[[], T]) -> T:
        """``fn()`` on the heavy lane for a request that carries no token (a
        token sent is not read): counted against the client address's rate."""
        if self.public_throttle is not None:
            self.public_throttle.take(request.client.host if request.client else "", what)
        return await self.heavy.run(lambda app: fn(), deadline=self.heavy_deadline)

    def count_whole_log(self, request: Request, what: str) -> None:
        token = _token(request)
        if self.throttle is not None and token:  # no token at all is refused 401 on the worker, never 429
            self.throttle.take(token, what)

    def checked(self, request: Request, game: str | None, fn: Callable[..., T], *args: Any) -> Callable[[GameApp], T]:
        """``fn`` as a worker runs it: the token checked first, on the worker."""
        token = _token(request)
        index = self.index_watch.index if self.index_watch is not None else None

        def checked(app: GameApp) -> T:
            p, battle_id = rights.check_pass(app, self.keyring, token, game, index)
            return fn(app, p, battle_id, *args)

        return checked

    def writing(self, app: GameApp) -> None:
        """On the worker, before ``app`` writes: see ``IndexWatch.writing``."""
        if self.index_watch is not None:
            self.index_watch.writing(app)

    def written(self, app: GameApp, moved_index: bool = False) -> None:
        """On the worker, once ``app`` saved a write: the index watch knows
        its connection (its notification is this process's own), and that
        this process changed the index (``moved_index``: a game set up or
        imported)."""
        if self.index_watch is not None:
            if moved_index:
                self.index_watch.moved()
            self.index_watch.wrote(app)


def _token(request: Request) -> str:
    """The request's token: in ``Authorization: Bearer`` only, never in the
    address (a link carries it after ``#``, which no browser sends; the
    page reads it there and sends it in the header, which another site's
    form or image cannot)."""
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip()
    return ""


JSON_BODY = frozenset({"application/json"})
# A portable log: JSON Lines, under any of the names it goes by.
LOG_TYPES = frozenset({"application/x-ndjson", "application/jsonl", "application/x-jsonlines", "application/json"})


def _check_type(request: Request, types: frozenset[str]) -> None:
    """Refuse (415) a body not sent as one of ``types``: a form of another
    site (text/plain, urlencoded, multipart) never reaches a handler."""
    given = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if given not in types:
        shown = f"`{given[:60]}`" if given else "no Content-Type"
        raise Refused(
            415,
            Refusal(
                error="unsupported", reason=f"the body is sent as {shown}: send it as " + " or ".join(sorted(types))
            ),
        )


def _json(value: Any, status: int = 200) -> Response:
    return Response(msgspec.json.encode(value), status_code=status, media_type="application/json")


async def _body(request: Request, types: frozenset[str] = JSON_BODY) -> bytes:
    """The request's body, refused (415) unless sent as one of ``types``,
    and (413) past ``MAX_BODY`` bytes, before reading it all when the
    client says its length."""
    _check_type(request, types)
    length = request.headers.get("content-length")
    if length is not None:
        try:
            if int(length) > MAX_BODY:
                raise Refused(413, Refusal(error="too-large", reason=f"the body is over {MAX_BODY} bytes"))
        except ValueError:
            raise malformed("Content-Length is not a number") from None
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise Refused(413, Refusal(error="too-large", reason=f"the body is over {MAX_BODY} bytes"))
        chunks.append(chunk)
    return b"".join(chunks)


MAX_DEPTH = 32  # arrays and objects inside each other in a request body: no command needs more than a few
_NESTING = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]{}]')  # a string (skipped whole) or a bracket


def _check_depth(body: bytes) -> None:
    """Refuse a body nested deeper than ``MAX_DEPTH`` before any parser
    recurses into it."""
    if body.count(b"[") + body.count(b"{") <= MAX_DEPTH:
        return  # no deeper than its brackets, counted in strings too: no need to follow them
    depth = 0
    for found in _NESTING.finditer(body):
        token = found.group()
        if token in (b"[", b"{"):
            depth += 1
            if depth > MAX_DEPTH:
                raise malformed(f"the body is nested deeper than {MAX_DEPTH} arrays or objects")
        elif token in (b"]", b"}"):
            depth -= 1


def _once_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object of a body, refused if it names a field twice (which one
    would count is no one's guess to make)."""
    fields: dict[str, Any] = {}
    for key, value in pairs:
        if key in fields:
            raise malformed(f"the field `{key[:40]}` is given twice: give each field once")
        fields[key] = value
    return fields


def _plain(body: bytes) -> Any:
    """The body as plain values, every object's fields checked once each."""
    import json

    try:
        return json.loads(body, object_pairs_hook=_once_each)
    except (ValueError, RecursionError) as e:  # msgspec read it already: a number too long for Python, say
        raise malformed(f"the body cannot be read: {str(e)[:120]}") from None


def _decode(body: bytes, kind: Any) -> Any:
    """A JSON request body as ``kind`` (strict: unknown fields refused,
    also inside a ruleset's own Structs, which may take unknown fields to
    read old logs: a misspelt field would be dropped silently; a field
    given twice refused; nested at most ``MAX_DEPTH`` deep)."""
    if not body.strip():
        raise malformed("the body is empty: send a JSON object")
    _check_depth(body)
    decoded = tables.decoder(kind).decode(body)
    extra = unknown_field(_plain(body), decoded)
    if extra is not None:
        raise malformed(
            f"the request has no field {extra.replace('$.', '', 1)}: unknown field `{extra.rsplit('.', 1)[-1]}`"
        )
    return decoded


async def _log_body(request: Request) -> bytes:
    data = await _body(request, LOG_TYPES)
    if not data.strip():
        raise malformed("the body is empty: send the log's JSON Lines")
    return data


def _game(request: Request) -> str:
    return request.path_params["game"]


def _int_param(request: Request, name: str, default: int | None = None) -> int | None:
    text = request.query_params.get(name)
    if text is None or text == "":
        return default
    try:
        return int(text)
    except ValueError:
        raise malformed(f"{name} must be a whole number, not {text[:20]!r}") from None


# -- handlers -----------------------------------------------------------------------------


async def whoami(srv: Server, request: Request) -> Response:
    return _json(await srv.call(request, request.query_params.get("game") or None, tables.whoami))


async def list_games(srv: Server, request: Request) -> Response:
    everything = request.query_params.get("all", "") in ("1", "true", "yes")
    return _json(await srv.call(request, None, lambda app, p, _: tables.games(app, p, everything)))


async def create_game(srv: Server, request: Request) -> Response:
    body = await _body(request)

    def create(app: GameApp, p: Any, _: Any) -> CommandResult:
        result = tables.new_game(app, p, _decode(body, new_game_type()))
        srv.written(app, moved_index=True)
        return result

    result = await srv.call(request, None, create)
    srv.feed.tell(result.game, result.version)
    return _json(result, 201)


async def list_choices(srv: Server, request: Request) -> Response:
    return _json(await srv.call(request, None, lambda app, p, _: tables.choices(app, p)))


async def game_summary(srv: Server, request: Request) -> Response:
    return _json(await srv.call(request, _game(request), lambda app, p, battle_id: tables.summary(app, battle_id)))


async def game_seats(srv: Server, request: Request) -> Response:
    base = str(request.base_url).rstrip("/")
    return _json(
        await srv.call(
            request, _game(request), lambda app, p, battle_id: tables.seats(app, srv.keyring, p, battle_id, base)
        )
    )


async def game_state(srv: Server, request: Request) -> Response:
    at = _int_param(request, "at")
    return _json(await srv.call(request, _game(request), tables.state, at))


async def game_legal(srv: Server, request: Request) -> Response:
    return _json(await srv.call(request, _game(request), tables.legal))


async def game_log(srv: Server, request: Request) -> Response:
    since = _int_param(request, "since", 0) or 0
    limit = _int_param(request, "limit", tables.LOG_TAIL)
    if limit is None or limit < 0:
        raise malformed("limit must be 0 (everything) or more")
    if 0 < limit <= tables.LOG_TAIL:
        return _json(await srv.call(request, _game(request), tables.log, since, limit))

    # More than a table shows: a read of a whole log, on its own lane, streamed.
    def whole(app: GameApp, p: Any, battle_id: str) -> tuple[None, Any]:
        return None, _json_array(tables.log_stream(app, p, battle_id, since, limit))

    _, body = await srv.stream_heavy(request, _game(request), f"a log of more than {tables.LOG_TAIL} events", whole)
    return StreamingResponse(body, media_type="application/json")


def _json_array(items: Any) -> Any:
    """``items`` as the pieces of one JSON array."""
    encode = msgspec.json.Encoder().encode
    yield b"["
    for i, item in enumerate(items):
        yield (b"," if i else b"") + encode(item)
    yield b"]"


async def game_table(srv: Server, request: Request) -> Response:
    at = _int_param(request, "at")
    if at is None:
        return _json(await srv.call(request, _game(request), table_view.table))
    return _json(await srv.call(request, _game(request), past_table.table_at, at))


async def _write(srv: Server, request: Request, kind: Any, act: Callable[..., CommandResult]) -> Response:
    """A request that moves a game on: its body decoded as ``kind`` once
    the pass is checked, ``act(app, pass, game, request)`` done, and every
    viewer told the game's new version."""
    body = await _body(request)

    def write(app: GameApp, p: Any, battle_id: str) -> CommandResult:
        srv.writing(app)
        result = act(app, p, battle_id, _decode(body, kind))
        srv.written(app)
        return result

    result = await srv.call(request, _game(request), write)
    srv.feed.tell(result.game, result.version)
    return _json(result)


async def give_command(srv: Server, request: Request) -> Response:
    return await _write(srv, request, CommandRequest, tables.command)


async def undo(srv: Server, request: Request) -> Response:
    return await _write(srv, request, UndoRequest, tables.undo)


async def redo(srv: Server, request: Request) -> Response:
    return await _write(srv, request, RedoRequest, tables.redo)


async def export(srv: Server, request: Request) -> Response:
    battle_id, body = await srv.stream_heavy(
        request, _game(request), "an export", lambda app, p, battle_id: (battle_id, tables.export(app, p, battle_id))
    )
    return StreamingResponse(
        body,
        media_type="application/x-ndjson",
        headers={"content-disposition": f'attachment; filename="{_file_name(battle_id)}.jsonl"'},
    )


def _file_name(battle_id: str) -> str:
    """``battle_id`` fit for a file name in a header: a game set up here has
    a checked name already, but one imported from an older log may not (no
    quote, slash, line break or non-ASCII letter gets through)."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", battle_id)[:64].lstrip(".") or "game"


async def verify_game(srv: Server, request: Request) -> Response:
    return _json(await srv.call_heavy(request, _game(request), "a verify", tables.verify_stored))


async def import_log(srv: Server, request: Request) -> Response:
    data = await _log_body(request)

    def imports(app: GameApp, p: Any, _: Any) -> Imported:
        imported = tables.import_log(app, p, data)
        srv.written(app, moved_index=True)
        return imported

    imported = await srv.call(request, None, imports)
    srv.feed.tell(imported.game, imported.summary.version)
    return _json(imported, 201)


async def verify_log(srv: Server, request: Request) -> Response:
    data = await _log_body(request)
    key = request.query_params.get("key") or None
    return _json(
        await srv.call_heavy(request, None, "a verify", lambda app, p, _: tables.verify_log(app, p, data, key))
    )


async def dispute_log(srv: Server, request: Request) -> Response:
    """The dispute page's request: anyone's dropped log, no token read, nothing stored."""
    start = _int_param(request, "start", 0) or 0
    if start < 0:
        raise malformed("start counts steps from 0")
    data = await _log_body(request)
    return _json(await srv.call_public(request, "settling a dispute", lambda: dispute.settle(data, start)))


async def live(srv: Server, request: Request) -> Response:
    battle_id, stream, version = await srv.call(
        request,
        _game(request),
        lambda app, p, battle_id: (
            battle_id,
            app.ruleset(battle_id).game_stream(battle_id),
            app.battle(battle_id).version,
        ),
    )

    async def events():
        async with srv.feed.watch(battle_id, stream) as queue:
            yield _sse("version", {"game": battle_id, "version": version})
            told = version
            while True:
                if await request.is_disconnected():
                    return
                try:
                    now = await asyncio.wait_for(queue.get(), KEEPALIVE)
                except asyncio.TimeoutError:
                    yield b": still here\n\n"
                    continue
                # A version comes twice when this process saved it (told at
                # once, then found in the log) or the log is read late: tell
                # the viewer only what is newer than what it has.
                if now > told:
                    told = now
                    yield _sse("version", {"game": battle_id, "version": now})

    return StreamingResponse(
        events(), media_type="text/event-stream", headers={"cache-control": "no-store", "x-accel-buffering": "no"}
    )


def _sse(event: str, data: Any) -> bytes:
    return b"event: " + event.encode() + b"\ndata: " + msgspec.json.encode(data) + b"\n\n"


async def openapi(srv: Server, request: Request) -> Response:
    from .openapi import document

    return _json(document(ENDPOINTS))


PAGE_HEADERS = {"cache-control": "no-store", "referrer-policy": "no-referrer"}


async def page(srv: Server, request: Request) -> Response:
    """The page (at ``/table/{game}/history``, the table's time travel).
    An old link with ``?token=`` is sent on to the same page
    with the token after ``#`` (no other query is kept), so it is in the
    address once, never again sent to any server."""
    token = request.query_params.get("token")
    if token is not None:
        from urllib.parse import quote

        where = f"{quote(request.url.path)}#token={quote(token, safe='')}"
        return Response(status_code=303, headers={**PAGE_HEADERS, "location": where})
    return FileResponse(
        STATIC / ("history.html" if request.url.path.endswith("/history") else "table.html"), headers=PAGE_HEADERS
    )


async def dispute_page(srv: Server, request: Request) -> Response:
    """The public dispute page: no token, nothing stored (``server.dispute``)."""
    return FileResponse(STATIC / "dispute.html", headers=PAGE_HEADERS)


async def static(srv: Server, request: Request) -> Response:
    name = request.path_params["name"]
    path = (STATIC / name).resolve()
    if path.parent != STATIC.resolve() or not path.is_file():  # no way out of the folder
        return _json(Refusal(error="not-found", reason="no such file"), 404)
    return FileResponse(path)


LOG_BODY = bytes
HEAVY_REFUSALS = (400, 401, 403, 404, 410, 429, 503)  # a whole log: the token's rate too
WRITE_REFUSALS = (400, 401, 403, 404, 409, 410, 413, 415, 422, 503)  # a command, an undo, a redo
ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "GET",
        "/api/whoami",
        "whoami",
        "What the token is: host, a seat of a game, or a spectator.",
        Whoami,
        query=(Param("game", str, "the game a seat's or spectator's token is for"),),
        handler=whoami,
    ),
    Endpoint(
        "GET",
        "/api/games",
        "listGames",
        "Every game of every ruleset (the host's).",
        list[GameSummary],
        query=(Param("all", bool, "list deleted games too"),),
        handler=list_games,
    ),
    Endpoint(
        "POST",
        "/api/games",
        "createGame",
        "Set a game up (the host's): any setup of any ruleset, named by `new` (see `listChoices`).",
        CommandResult,
        body=new_game_type(),
        refusals=(400, 401, 403, 413, 415, 422, 503),
        handler=create_game,
    ),
    Endpoint(
        "GET",
        "/api/choices",
        "listChoices",
        "Every setup `createGame` takes (the host's): its ruleset, its "
        "parameters, the JSON Schema of its request, and what the content packs offer for its fields.",
        Choices,
        refusals=(401, 403, 503),
        handler=list_choices,
    ),
    Endpoint("GET", "/api/games/{game}", "getGame", "Where a game stands.", GameSummary, handler=game_summary),
    Endpoint(
        "GET",
        "/api/games/{game}/seats",
        "getSeats",
        "A game's seats; for the host, each seat's link.",
        Seats,
        handler=game_seats,
    ),
    Endpoint(
        "GET",
        "/api/games/{game}/state",
        "getState",
        "The game's state now, or after event `at`.",
        GameState,
        query=(Param("at", int, "a version: the state as it stood after that event"),),
        handler=game_state,
    ),
    Endpoint(
        "GET",
        "/api/games/{game}/legal",
        "getLegal",
        "The legal commands now, each marked with whether this token may give it.",
        list[LegalCommand],
        handler=game_legal,
    ),
    Endpoint(
        "GET",
        "/api/games/{game}/log",
        "getLog",
        "The log narrated, event by event.",
        list[Narrated],
        query=(
            Param("since", int, "only events after this version"),
            Param(
                "limit",
                int,
                "at most this many, the newest (0: all, or more than 400: the whole "
                "log, streamed, counted as an export)",
            ),
        ),
        refusals=HEAVY_REFUSALS,
        handler=game_log,
    ),
    Endpoint(
        "GET",
        "/api/games/{game}/table",
        "getTable",
        "Everything the table view draws, for this token; "
        "with `at`, as it stood after that event (nothing to give then).",
        table_view.TableView,
        query=(Param("at", int, "a version: the table as it stood after that event, with this token's rights now"),),
        handler=game_table,
    ),
    Endpoint(
        "POST",
        "/api/games/{game}/commands",
        "giveCommand",
        "Give a command: decided by the rules, saved, or refused with its rule ID and nothing written.",
        CommandResult,
        body=CommandRequest,
        refusals=WRITE_REFUSALS,
        handler=give_command,
    ),
    Endpoint(
        "POST",
        "/api/games/{game}/undo",
        "undo",
        "Undo the last command.",
        CommandResult,
        body=UndoRequest,
        refusals=WRITE_REFUSALS,
        handler=undo,
    ),
    Endpoint(
        "POST",
        "/api/games/{game}/redo",
        "redo",
        "Redo the command undone last.",
        CommandResult,
        body=RedoRequest,
        refusals=WRITE_REFUSALS,
        handler=redo,
    ),
    Endpoint(
        "GET",
        "/api/games/{game}/export",
        "exportLog",
        "The game's portable log (hash-chained JSON Lines); of a "
        "game that leads a group (a campaign), the whole group's.",
        None,
        media="application/x-ndjson",
        refusals=HEAVY_REFUSALS,
        handler=export,
    ),
    Endpoint(
        "GET",
        "/api/games/{game}/verify",
        "verifyGame",
        "Verify the stored game against today's rules (a "
        "game that leads a group, a campaign, with every game of its group).",
        VerifyAnswer,
        refusals=HEAVY_REFUSALS,
        handler=verify_game,
    ),
    Endpoint(
        "GET",
        "/api/games/{game}/live",
        "liveFeed",
        "Server-sent events: `version` each time the game moves, whichever process saved it.",
        None,
        media="text/event-stream",
        handler=live,
    ),
    Endpoint(
        "POST",
        "/api/import",
        "importLog",
        "Import a portable log as a new game (the host's); every check first, nothing written if one fails.",
        Imported,
        body=LOG_BODY,
        refusals=(400, 401, 403, 413, 415, 503),
        handler=import_log,
    ),
    Endpoint(
        "POST",
        "/api/verify",
        "verifyLog",
        "Verify a posted log against today's rules (the host's); writes nothing.",
        VerifyAnswer,
        body=LOG_BODY,
        query=(Param("key", str, "the public key (hex) it must be signed with"),),
        refusals=(400, 401, 403, 413, 415, 429, 503),
        handler=verify_log,
    ),
    Endpoint(
        "POST",
        "/api/dispute",
        "disputeLog",
        "Settle a dispute over a posted log (anyone's: no token is read, "
        "nothing is stored): verify's verdict against today's rules, every game event the log holds narrated, "
        "and the board after each, a page at a time. Rate-limited per client address.",
        dispute.DisputeAnswer,
        body=LOG_BODY,
        query=(Param("start", int, f"the first step whose board the answer holds (pages of {dispute.PAGE})"),),
        refusals=(400, 413, 415, 429, 503),
        needs_token=False,
        handler=dispute_log,
    ),
    Endpoint(
        "GET", "/api/openapi.json", "openapi", "This document.", None, needs_token=False, refusals=(), handler=openapi
    ),
)


async def _no_route(request: Request, error: Exception) -> Response:
    """Starlette's own refusals (no such path, a method the path does not
    take) as JSON like every other answer, not as plain text."""
    status = error.status_code if isinstance(error, HTTPException) else 500
    if status == 404:
        refusal = Refusal(error="not-found", reason="no such path (the API's paths: /api/openapi.json)")
    elif status == 405:
        refusal = Refusal(error="malformed", reason=f"{request.method} is not taken here")
    else:
        refusal = Refusal(error="malformed", reason=str(getattr(error, "detail", "")) or "refused")
    answer = _json(refusal, status)
    answer.headers.update(getattr(error, "headers", None) or {})
    return answer


def _route(srv: Server, endpoint: Endpoint) -> Route:
    handler = endpoint.handler
    assert handler is not None

    async def run(request: Request) -> Response:
        try:
            return await handler(srv, request)
        except ClientDisconnect:  # gone before its body came whole (or closed for it): no one to answer, no bug
            return Response(status_code=400)
        except Exception as error:  # every refusal is an answer; a bug is logged, not shown
            known = refusal_of(error)
            if known is None:
                log.exception("%s %s failed", request.method, request.url.path)
                return _json(Refusal(error="internal", reason="the server failed; its log says why"), 500)
            status, refusal = known
            answer = _json(refusal, status)
            if isinstance(error, Throttled):
                answer.headers["retry-after"] = str(error.retry_after)
            if status == 503:  # the store is away: one line, no stack
                log.warning("%s %s: %s", request.method, request.url.path, refusal.reason)
            return answer

    return Route(endpoint.path, run, methods=[endpoint.method], name=endpoint.name)


def create_app(
    store: str | None,
    keyring: Keyring,
    *,
    workers: int | None = None,
    poll: float | None = None,
    env: dict[str, str] | None = None,
    heavy_rate: Rate | None = Rate(),
    deadline: float = DEADLINE,
    heavy_deadline: float = HEAVY_DEADLINE,
    public_rate: Rate | None = PUBLIC_RATE,
) -> Starlette:
    """The ASGI application on ``store`` (a store setting; None: the
    environment's), its passes made and checked with ``keyring``; ``env``
    adds library settings to each application (tests: a PostgreSQL schema).
    ``heavy_rate``: how often one token may read a whole log (None: no
    limit); ``public_rate``: how often one client address may settle a
    dispute (the public page has no token; None: no limit);
    ``deadline``, ``heavy_deadline``: the seconds a request waits for the
    store before it is answered 503."""
    from .workers import Workers, is_memory

    pool = Workers(store, workers, env)
    # The heavy lane reads with applications of its own; an in-memory store
    # is seen only by the application holding it, so there it shares the main lane.
    heavy = pool if is_memory(store) else Workers(store, HEAVY_WORKERS, env, read_only=True)
    # Only PostgreSQL's listener says who wrote what it hears: elsewhere the index is read each time.
    watch = IndexWatch() if pool.postgres else None
    feed = ChangeFeed(pool, **({"poll": poll} if poll is not None else {}), index_watch=watch)
    srv = Server(
        pool,
        keyring,
        feed,
        heavy=heavy,
        throttle=Throttle(heavy_rate) if heavy_rate else None,
        deadline=deadline,
        heavy_deadline=heavy_deadline,
        public_throttle=Throttle(public_rate, per="client address") if public_rate else None,
        index_watch=watch,
    )
    routes = [_route(srv, e) for e in ENDPOINTS]
    pages = (
        ("/", page),
        ("/table/{game}", page),
        ("/table/{game}/history", page),
        ("/dispute", dispute_page),
        ("/static/{name}", static),
    )
    for path, handler in pages:
        routes.append(_route(srv, Endpoint("GET", path, handler.__name__, "", handler=handler)))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        await feed.start()
        try:
            yield
        finally:
            await feed.stop()
            pool.close()
            if heavy is not pool:
                heavy.close()

    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={HTTPException: _no_route})
    app.state.server = srv
    return app


def open_app(app: Starlette) -> GameApp:
    """A worker's application, for tests that look at the store directly."""
    return app.state.server.workers.app()
