"""The portable log of any game: export, import and verify (DESIGN: Logs).

A log is JSON Lines. Line 1 is a header naming the format, the ruleset, the
rules version and content pack, the battle and every stream the log holds,
and the digest of the game's final state. Each further line is one stored
event, in append order, with its stream, version, type (the event's stable
TOPIC), command id, time and data. Every line carries a hash chained to the
line before::

    hash = BLAKE2b-128(previous hash as hex ASCII + canonical bytes of the
                       line's object without its "hash" key)

where the canonical bytes are ``msgspec.json.encode(obj, order="sorted")``
of the parsed object, so the check does not depend on whitespace or key
order in the file, and any edit of content breaks the chain at that line.

The header's ``ruleset`` picks the rules everything else is read, checked
and re-decided with. ``import_log`` checks everything before it writes
anything. ``verify_log`` re-decides every recorded command with the current
rules, re-derives every random outcome from (seed, counter), checks every
write to another stream and every undo, and reports the first place the log
and the rules part ways.

Which lines belong to which command: a command's events are saved in one
transaction, game stream first, so in append order they are one run of
lines (a setup's prelude, the new party members, just before it).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone
from enum import Enum
from typing import Any
from uuid import UUID

import msgspec

from domain.kernel import ruleset as registry
from domain.kernel.commandlog import CommandIssued, CommandUndone, Game, fold
from domain.kernel.envelope import Envelope, wrap
from domain.kernel.errors import LogError, MalformedCommand, NotFound, RuleViolation
from domain.kernel.games import INDEX_STREAM, GameApp, GameRegistered
from domain.kernel.messages import event_class
from domain.kernel.ruleset import Aggregate, Outcome, Ruleset

FORMAT = "rulekeeper-log/1"
_CHAIN_BROKEN = "a hash that does not match: this line (or its hash) was edited"

_HEADER_KEYS = ("format", "ruleset", "rules_version", "pack_id", "pack_hash", "battle_id",
                "streams", "final_state_digest", "hash")
_LINE_KEYS = ("n", "stream", "version", "type", "command", "time", "data", "hash")
# The state attributes the header repeats (the ruleset contract).
_STATE_KEYS = ("battle_id", "rules_version", "pack_id", "pack_hash")

# Times are written with all six microsecond digits, always, so a log read
# back and written again is byte-identical.
_TIME_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"
_TIME_PATTERN = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z")


# --------------------------------------------------------------- hashing


def _digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def _canonical(obj: Any) -> bytes:
    return msgspec.json.encode(obj, order="sorted")


def _link(previous: str, obj: dict[str, Any]) -> str:
    """The hash of ``obj`` (without its own ``hash`` key) chained to ``previous``."""
    body = {k: v for k, v in obj.items() if k != "hash"}
    return _digest(previous.encode("ascii") + _canonical(body))


def state_digest(state: Any) -> str:
    """BLAKE2b-128 hex of a game state's canonical JSON (the rules' state,
    not the undo stacks): equal states, equal digests."""
    return _digest(_canonical(state))


def _format_time(t: datetime) -> str:
    return t.astimezone(timezone.utc).strftime(_TIME_FORMAT)


def _parse_time(text: str) -> datetime | None:
    if not _TIME_PATTERN.fullmatch(text):
        return None
    try:
        return datetime.strptime(text, _TIME_FORMAT).replace(tzinfo=timezone.utc)
    except ValueError:
        return None


# ---------------------------------------------------------------- export


def export_battle(app: GameApp, battle_id: str) -> bytes:
    """The portable log of a game: its stream and the other streams its
    ruleset names (Betrayal: the party's adventurers), complete from version
    1 to the end of the store, in append order. NotFound when there is no
    such game."""
    rs = app.ruleset(battle_id)
    game = app.battle(battle_id)
    streams = {rs.game_stream(battle_id): rs.game_kind, **rs.related_streams(game.state)}
    header = {
        "format": FORMAT, "ruleset": rs.name,
        **{key: getattr(game.state, key) for key in ("rules_version", "pack_id", "pack_hash")},
        "battle_id": battle_id,
        "streams": {str(sid): name for sid, name in streams.items()},
        "final_state_digest": state_digest(game.state),
    }
    envelopes = (env for _, env in app.notifications() if env.originator_id in streams)
    rows = (_row(n, env) for n, env in enumerate(envelopes, start=2))
    return _write([header, *rows])


def _row(n: int, env: Envelope) -> dict[str, Any]:
    return {
        "n": n, "stream": str(env.originator_id), "version": env.originator_version,
        "type": type(env.event).TOPIC, "command": env.command_id,
        "time": _format_time(env.timestamp), "data": env.event,
    }


def _write(objects: Iterable[dict[str, Any]]) -> bytes:
    """Hash-chain ``objects`` and write one per line. Keys stay in the order
    given (readable); the hash covers the sorted canonical form."""
    out, previous = [], ""
    for obj in objects:
        obj["hash"] = previous = _link(previous, obj)
        out.append(msgspec.json.encode(obj))
    return b"\n".join(out) + b"\n"


# --------------------------------------------------------------- reading


@dataclass(frozen=True)
class Entry:
    """One event line of a log, decoded."""

    line: int
    stream: str  # the header's name for it: the game's kind, or "kind:key"
    envelope: Envelope

    @property
    def event(self) -> Any:
        return self.envelope.event


@dataclass(frozen=True)
class ParsedLog:
    """A log whose every line is well formed. ``chain_break`` is the first
    line whose hash does not match, when the reader was told to go on."""

    header: dict[str, Any]
    ruleset: Ruleset
    entries: list[Entry]
    lines: int
    chain_break: int | None = None

    @property
    def battle(self) -> list[Entry]:
        """The game stream's entries, in order."""
        kind = self.ruleset.game_kind
        return [e for e in self.entries if e.stream == kind]


def read_log(data: bytes, *, strict_chain: bool = True) -> ParsedLog:
    """Parse and check every line of a log; LogError names the first bad
    line. With ``strict_chain=False`` a hash mismatch is recorded in
    ``chain_break`` instead of raised (``verify`` reports it as a divergence)."""
    reader = _Reader(strict_chain)
    raw = _split(data)
    for number, text in enumerate(raw, start=1):
        reader.feed(number, text)
    reader.finish()
    return reader.parsed(len(raw))


def _split(data: bytes) -> list[bytes]:
    raw = data.split(b"\n")
    if raw and raw[-1] == b"":
        raw.pop()  # the newline that ends the last line
    if not raw:
        raise LogError(1, "the log is empty")
    return raw


class _Reader:
    """Checks lines one at a time, keeping what the next line needs: the
    previous hash, the ruleset and streams named, each stream's last version."""

    def __init__(self, strict_chain: bool) -> None:
        self.strict_chain = strict_chain
        self.previous = ""
        self.chain_break: int | None = None
        self.header: dict[str, Any] = {}
        self.ruleset: Ruleset | None = None
        self.streams: dict[str, str] = {}
        self.versions: dict[str, int] = {}
        self.entries: list[Entry] = []

    def parsed(self, lines: int) -> ParsedLog:
        assert self.ruleset is not None
        return ParsedLog(self.header, self.ruleset, self.entries, lines, self.chain_break)

    def feed(self, n: int, text: bytes) -> None:
        keys = _HEADER_KEYS if n == 1 else _LINE_KEYS
        obj = _json_object(n, text, keys)
        self._chain(n, obj)
        if n == 1:
            self.header = obj
            self.ruleset, self.streams = _check_header(obj)
        else:
            self.entries.append(self._entry(n, obj))

    def _chain(self, n: int, obj: dict[str, Any]) -> None:
        if _link(self.previous, obj) != obj["hash"]:
            if self.strict_chain:
                raise LogError(n, "broken hash chain: this line's hash does not match its content"
                                  " and the previous line's hash (the line was edited)")
            if self.chain_break is None:
                self.chain_break = n
        # Chain on the recorded hash, so one edited line is reported as itself.
        self.previous = obj["hash"]

    def _entry(self, n: int, obj: dict[str, Any]) -> Entry:
        assert self.ruleset is not None
        if obj["n"] != n:
            raise LogError(n, f"\"n\" is {obj['n']}, but this is line {n}")
        sid = obj["stream"]
        name = self.streams.get(sid)
        if name is None:
            raise LogError(n, f"stream {sid} is not named in the header")
        version = obj["version"]
        expected = self.versions.get(sid, 0) + 1
        if version != expected:
            raise LogError(n, f"stream {sid} ({name}): version {version} where {expected} was due"
                              " (versions run 1, 2, 3... with no gap)")
        self.versions[sid] = version
        event = _decode_event(n, self.ruleset, obj["type"], obj["data"], name)
        at = _parse_time(obj["time"])
        if at is None:
            raise LogError(n, f"time {obj['time']!r} is not ISO-8601 UTC as YYYY-MM-DDTHH:MM:SS.ffffffZ")
        if not obj["command"]:
            raise LogError(n, "the command id is empty")
        envelope = Envelope(originator_id=UUID(sid), originator_version=version,
                            timestamp=at, command_id=obj["command"], event=event)
        return Entry(n, name, envelope)

    def finish(self) -> None:
        """The game stream must open with a setup command whose outcome is
        the game the header names."""
        rs = self.ruleset
        assert rs is not None
        game = [e for e in self.entries if e.stream == rs.game_kind]
        if len(game) < 2:
            raise LogError(len(self.entries) + 2, f"the {rs.game_kind} stream is missing or has no setup")
        first = game[0]
        if not (isinstance(first.event, CommandIssued) and isinstance(first.event.command, rs.setup_commands)):
            setups = " or ".join(c.__name__ for c in rs.setup_commands)
            raise LogError(first.line, f"the {rs.game_kind} stream must open with the {setups} command")
        setup = _groups(game)[0]
        try:
            state = fold(rs, None, [e.envelope for e in setup])
        except Exception as e:  # noqa: BLE001 - a log's events may be anything
            raise LogError(first.line, f"the setup does not replay: {e!r}") from None
        if state is None:
            raise LogError(first.line, "the setup command produced no game")
        for key in _STATE_KEYS:
            if getattr(state.state, key, None) != self.header[key]:
                raise LogError(setup[-1].line, f"the setup's {key} {getattr(state.state, key, None)!r}"
                                               f" is not the header's {self.header[key]!r}")


def _json_object(n: int, text: bytes, keys: tuple[str, ...]) -> dict[str, Any]:
    """The line as a JSON object with exactly ``keys``, each of the right type."""
    try:
        obj = msgspec.json.decode(text)
    except msgspec.DecodeError as e:
        raise LogError(n, f"not JSON ({e})") from None
    if not isinstance(obj, dict):
        raise LogError(n, f"not a JSON object but {type(obj).__name__}")
    missing = [k for k in keys if k not in obj]
    extra = sorted(k for k in obj if k not in keys)
    if missing:
        raise LogError(n, f"missing key(s): {', '.join(missing)}")
    if extra:
        raise LogError(n, f"unexpected key(s): {', '.join(extra)}")
    for key, kind in _types(n == 1).items():
        if not _is(obj[key], kind):
            raise LogError(n, f"\"{key}\" must be {kind.__name__ if kind is not dict else 'an object'}")
    return obj


def _types(header: bool) -> dict[str, type]:
    if header:
        return {k: (dict if k == "streams" else str) for k in _HEADER_KEYS}
    return {"n": int, "stream": str, "version": int, "type": str, "command": str,
            "time": str, "data": dict, "hash": str}


def _is(value: Any, kind: type) -> bool:
    # JSON true/false decode to bool, a subclass of int: not a number here.
    return isinstance(value, kind) and not (kind is int and isinstance(value, bool))


def _check_header(h: dict[str, Any]) -> tuple[Ruleset, dict[str, str]]:
    """The header's own rules; returns its ruleset and streams (uuid text -> name)."""
    if h["format"] != FORMAT:
        raise LogError(1, f"format {h['format']!r} is not {FORMAT!r}")
    try:
        rs = registry.load(h["ruleset"])
    except NotFound as e:
        raise LogError(1, str(e)) from None
    streams: dict[str, str] = h["streams"]
    for sid, name in streams.items():
        _check_stream(rs, sid, name, h["battle_id"])
    if list(streams.values()).count(rs.game_kind) != 1:
        raise LogError(1, f"the header must name exactly one {rs.game_kind} stream")
    return rs, streams


def _check_stream(rs: Ruleset, sid: str, name: Any, battle_id: str) -> None:
    """Each stream id must be the one the application derives from its
    name, so an import lands where the application will look (and a log
    cannot write into the game index or someone else's stream)."""
    if not isinstance(name, str):
        raise LogError(1, f"stream {sid}: its name must be a string")
    kind, _, key = name.partition(":")
    if name == rs.game_kind:
        expected = rs.game_stream(battle_id)
    elif key.strip() and kind in {a.kind for a in rs.aggregates}:
        expected = rs.stream_of(kind, key)
    else:
        kinds = ", ".join(f'"{a.kind}:<name>"' for a in rs.aggregates)
        raise LogError(1, f"stream {sid}: name {name!r} is neither \"{rs.game_kind}\""
                          + (f" nor {kinds}" if kinds else ""))
    if sid != str(expected):
        raise LogError(1, f"stream {sid} is not the stream of {name!r} ({expected})")


def _decode_event(n: int, rs: Ruleset, topic: str, data: dict[str, Any], stream: str) -> Any:
    """The event of class ``topic``, decoded strictly from ``data``, which
    must be exactly the event's fields (nothing silently dropped or added)."""
    try:
        cls = event_class(topic)
    except KeyError:
        raise LogError(n, f"unknown event type {topic!r}") from None
    kind = stream.partition(":")[0]
    base = rs.event_base if stream == rs.game_kind else rs.aggregate(kind).event_base
    if not issubclass(cls, base):
        raise LogError(n, f"{topic} does not belong in a {kind} stream")
    try:
        event = msgspec.convert(data, cls)
    except msgspec.ValidationError as e:
        raise LogError(n, f"data does not decode as {cls.__name__}: {e}") from None
    again = _builtins(event)
    if again != data:
        where = _difference(again, data) or "data"
        raise LogError(n, f"data is not exactly the fields of {cls.__name__}: {where}")
    return event


# ---------------------------------------------------------------- import


def import_log(app: GameApp, data: bytes) -> str:
    """Import a log into ``app``'s store and return the battle id.

    Everything is checked first (each line, the hash chain, stream versions,
    that every stream replays, the content pack, that none of the log's
    streams exists yet) and LogError names the first problem; then the
    events are appended as recorded (stream ids, versions, times, command
    ids) with the game's index entry, in one transaction.
    """
    log = read_log(data)
    header, rs = log.header, log.ruleset
    pack = app.pack_of(rs)
    if header["pack_hash"] != pack.hash:
        raise LogError(1, f"the log was played with pack {header['pack_id']} ({header['pack_hash']}),"
                          f" not the loaded pack {pack.id} ({pack.hash})")
    _check_replays(log)
    _check_new_streams(app, log)
    battle_id = header["battle_id"]
    setup = log.battle[0].event.command
    index = app.events.last(INDEX_STREAM)
    entry = wrap(INDEX_STREAM, index.originator_version if index else 0,
                 [GameRegistered(battle_id=battle_id, ruleset=rs.name,
                                 setup=str(getattr(setup, "setup", "") or getattr(setup, "scenario", "")))],
                 "import")
    app.append([e.envelope for e in log.entries] + entry)
    return battle_id


def _check_replays(log: ParsedLog) -> None:
    """Every stream must fold without error, or the imported game could
    never be loaded."""
    _, error = _replay(log.ruleset, log.battle)
    if error:
        raise LogError(error.line, error.reason)
    states: dict[str, Any] = {}
    for entry in _others(log):
        kind = log.ruleset.aggregate(entry.stream.partition(":")[0])
        try:
            states[entry.stream] = kind.evolve(states.get(entry.stream), entry.event)
        except Exception as e:  # noqa: BLE001 - any failure means a bad event
            raise LogError(entry.line, f"this event cannot be applied to {entry.stream}: {e!r}") from None


def _others(log: ParsedLog) -> Iterator[Entry]:
    kind = log.ruleset.game_kind
    return (e for e in log.entries if e.stream != kind)


def _check_new_streams(app: GameApp, log: ParsedLog) -> None:
    for sid, name in log.header["streams"].items():
        if app.events(UUID(sid), lte=1):
            raise LogError(1, f"stream {sid} ({name}) already exists in this store;"
                              " importing never merges into existing streams")
    battle_id = log.header["battle_id"]
    for other in registry.all_rulesets():
        if other is not log.ruleset and app.events(other.game_stream(battle_id), lte=1):
            raise LogError(1, f"a {other.title} battle {battle_id!r} already exists in this store")


# ------------------------------------------------------ folding the game


class _FoldError(Exception):
    def __init__(self, line: int, reason: str) -> None:
        super().__init__(reason)
        self.line, self.reason = line, reason


def _groups(game: list[Entry]) -> list[list[Entry]]:
    """The game stream cut into commands: each CommandIssued or
    CommandUndone with the events that follow it, up to the next one."""
    groups: list[list[Entry]] = []
    for entry in game:
        if isinstance(entry.event, (CommandIssued, CommandUndone)) or not groups:
            groups.append([])
        groups[-1].append(entry)
    return groups


@dataclass(frozen=True)
class _Step:
    """One command of the game stream, with the game before and after it."""

    group: list[Entry]
    before: Game | None
    after: Game
    writes: list[Entry] = field(default_factory=list)  # its lines in other streams

    @property
    def command_id(self) -> str:
        return self.group[0].envelope.command_id


def _replay(rs: Ruleset, game: list[Entry]) -> tuple[list[_Step], _FoldError | None]:
    """Fold the recorded game stream command by command; stops at the first
    command whose events do not fold."""
    steps: list[_Step] = []
    current: Game | None = None
    for group in _groups(game):
        try:
            after = fold(rs, current, [e.envelope for e in group])
        except Exception as e:  # noqa: BLE001 - a log's events may be anything
            return steps, _FoldError(group[0].line, f"the game cannot replay this command's events: {e!r}")
        if after is None:
            return steps, _FoldError(group[0].line, "the game has no state after this command")
        steps.append(_Step(group, current, after))
        current = after
    return steps, None


def _attach_writes(log: ParsedLog, steps: list[_Step]) -> list[Entry]:
    """Give each step its lines in other streams (the run of lines right
    after its game-stream lines with its command id); returns the setup's
    prelude (the lines before the setup command with its id)."""
    by_line = {e.line: e for e in log.entries}
    kind = log.ruleset.game_kind
    for step in steps:
        n = step.group[-1].line + 1
        while n in by_line and by_line[n].stream != kind and by_line[n].envelope.command_id == step.command_id:
            step.writes.append(by_line[n])
            n += 1
    prelude: list[Entry] = []
    if steps:
        n = steps[0].group[0].line - 1
        while n in by_line and by_line[n].stream != kind and by_line[n].envelope.command_id == steps[0].command_id:
            prelude.insert(0, by_line[n])
            n -= 1
    return prelude


# ---------------------------------------------------------------- verify


class Divergence(msgspec.Struct, frozen=True, kw_only=True):
    """Where a log and the rules part ways: the line, the command (its id
    and a readable form), the rule ID, what the rules expected, what the
    log holds."""

    line: int
    command_id: str
    command: str
    rule: str
    expected: str
    found: str


class Report(msgspec.Struct, frozen=True, kw_only=True):
    """The outcome of verifying a log: ``ok`` when nothing diverges."""

    ok: bool
    lines: int
    commands: int
    divergence: Divergence | None = None

    def summary(self) -> str:
        """One or two lines a person can read."""
        if self.divergence is None:
            return f"ok: {self.lines} lines, {self.commands} commands checked, no divergence"
        d = self.divergence
        where = f"line {d.line}"
        if d.command_id:
            where += f", command {d.command_id}" + (f" ({d.command})" if d.command else "")
        return f"{where}: {d.rule}: expected {d.expected},\n  found {d.found}"


def verify_battle(app: GameApp, battle_id: str) -> Report:
    """Verify a stored game, through its export (so exactly what a log
    would hold is checked), with the packs ``app`` uses."""
    rs = app.ruleset(battle_id)
    return verify_log(export_battle(app, battle_id), app.pack_of(rs))


def verify_log(data: bytes, pack: Any = None) -> Report:
    """Replay a log through the current rules of its ruleset and report the
    first divergence: a malformed line (FORMAT), a broken hash chain (CHAIN),
    another content pack (PACK), a command the rules now refuse (its rule
    ID) or decide otherwise, a die face or draw the RNG would not give
    (RNG), an undo that does not restore the earlier state (UNDO), a write
    to another stream that is not the command's (WRITE) and, when all
    events hold, a final state digest that differs (DIGEST). ``pack``
    defaults to the ruleset's own."""
    reader = _Reader(strict_chain=False)
    try:
        raw = _split(data)
        for number, text in enumerate(raw, start=1):
            reader.feed(number, text)
        reader.finish()
    except LogError as e:
        return Report(ok=False, lines=data.count(b"\n"), commands=0, divergence=_unreadable(e, reader))
    log = reader.parsed(len(raw))
    return _Verifier(log, pack if pack is not None else log.ruleset.pack()).report()


def _unreadable(error: LogError, reader: _Reader) -> Divergence:
    """A line that cannot be read ends verification; an edit before it is
    still the first divergence."""
    if reader.chain_break is not None and reader.chain_break < error.line:
        return _divergence(reader.chain_break, None, "CHAIN", "the hash chained from the previous line",
                           _CHAIN_BROKEN)
    return _divergence(error.line, None, "FORMAT", "a well-formed log line", error.reason)


class _Verifier:
    """Runs each check to its first divergence; the report names the one
    on the earliest line."""

    def __init__(self, log: ParsedLog, pack: Any) -> None:
        self.log = log
        self.rs = log.ruleset
        self.pack = pack
        self.steps, self.fold_error = _replay(self.rs, log.battle)
        self.prelude = _attach_writes(log, self.steps)

    def report(self) -> Report:
        found = self._first_divergence()
        commands = sum(1 for e in self.log.battle if isinstance(e.event, (CommandIssued, CommandUndone)))
        return Report(ok=found is None, lines=self.log.lines, commands=commands, divergence=found)

    def _first_divergence(self) -> Divergence | None:
        found = [d for d in self._checks() if d is not None]
        if found:
            return min(found, key=lambda d: d.line)  # min() keeps the first of a tie
        return self._digest()

    def _checks(self) -> Iterator[Divergence | None]:
        # In order of precedence on the same line.
        if self.log.chain_break is not None:
            yield _divergence(self.log.chain_break, None, "CHAIN",
                              "the hash chained from the previous line", _CHAIN_BROKEN)
        header = self.log.header
        if header["pack_hash"] != self.pack.hash:
            yield _divergence(1, None, "PACK", f"pack {self.pack.id} ({self.pack.hash}), the one loaded",
                              f"pack {header['pack_id']} ({header['pack_hash']}): the log cannot be re-decided")
            return
        yield self._check_commands()
        yield self._check_other_streams()

    # -- the game stream ---------------------------------------------------

    def _check_commands(self) -> Divergence | None:
        versions: dict[int, Any] = {0: None}
        for step in self.steps:
            head = step.group[0]
            if isinstance(head.event, CommandIssued):
                found = self._check_issued(step)
            elif isinstance(head.event, CommandUndone):
                found = self._check_undone(step, versions)
            else:
                found = _divergence(head.line, None, "LOG", "a command (CommandIssued) first",
                                    _describe_event(head.event))
            if found:
                return found
            versions[step.after.version] = step.after.state
        if self.fold_error:
            e = self.fold_error
            return _divergence(e.line, None, "REPLAY", "events that replay", e.reason)
        return None

    def _label(self, issued: CommandIssued) -> _Label:
        return _Label(issued.command_id, self._spell(issued.command))

    def _spell(self, command: Any) -> str:
        try:
            return _clip(self.rs.describe_command(command), 100)
        except Exception:  # noqa: BLE001 - a forged command may not spell
            return _describe_command(command)

    def _check_issued(self, step: _Step) -> Divergence | None:
        issued: CommandIssued = step.group[0].event
        line, cmd, label = step.group[0].line, issued.command, self._label(issued)
        state = step.before.state if step.before else None
        stray = next((e for e in step.group if e.envelope.command_id != issued.command_id), None)
        if stray is not None:
            return _divergence(stray.line, label, "LOG", f"an event of command {issued.command_id}",
                               f"command id {stray.envelope.command_id!r} on an event of that command")
        if issued.redo_of:
            found = _check_redo(step, issued, label)
            if found:
                return found
        try:
            if step.before is None:
                if not isinstance(cmd, self.rs.setup_commands):
                    return _divergence(line, label, "LOG", "a setup command first", self._spell(cmd))
                ctx = self.rs.setup_context(self.pack, cmd)
            else:
                if isinstance(cmd, self.rs.setup_commands):
                    return _divergence(line, label, "UNDO-1", "a command of a game already set up",
                                       "a second setup")
                ctx = self.rs.context(self.pack, state)
            produced = self.rs.decide(state, cmd, ctx)
        except RuleViolation as v:
            return _divergence(line, label, v.rule, "a command legal under the rules",
                               f"this command is illegal under the rules: {v.message}")
        except (MalformedCommand, NotFound) as m:
            return _divergence(line, label, "MALFORMED", "a command the rules understand", str(m))
        return self._compare(issued, label, state, produced, step)

    def _compare(self, issued: CommandIssued, label: _Label, state: Any, produced: Outcome,
                 step: _Step) -> Divergence | None:
        """The recorded outcome against the re-decided one, event by event;
        each random outcome is also re-derived on its own (RNG)."""
        running = state
        recorded = step.group[1:]
        for i, entry in enumerate(recorded):
            found = self._check_random(entry, running, label)
            if found:
                return found
            if i >= len(produced.events):
                return _divergence(entry.line, label, "DECIDE", "no more events from this command",
                                   _describe_event(entry.event))
            if produced.events[i] != entry.event:
                return _mismatch(entry, label, produced.events[i])
            running = self.rs.evolve(running, entry.event)
        if len(produced.events) > len(recorded):
            last = (recorded or step.group)[-1].line
            return _divergence(last, label, "DECIDE", _describe_event(produced.events[len(recorded)]),
                               "the command's recorded events end here")
        found = self._compare_writes(label, step, [
            (w.stream, event) for w in produced.writes for event in w.events
        ], step.group[-1].line)
        if found:
            return found
        touched = tuple((str(e.envelope.originator_id), e.envelope.originator_version - 1)
                        for e in step.writes if e is _first_of_stream(step.writes, e))
        if issued.touched != touched:
            return _divergence(step.group[0].line, label, "WRITE", f"touched={list(touched)}",
                               f"touched={list(issued.touched)}")
        return None

    def _compare_writes(self, label: _Label, step: _Step, expected: list[tuple[UUID, Any]],
                        last_line: int) -> Divergence | None:
        """The command's lines in other streams must be exactly the writes
        the rules give, in order (WRITE)."""
        for i, entry in enumerate(step.writes):
            if i >= len(expected):
                return _divergence(entry.line, label, "WRITE", "no more writes from this command",
                                   f"{entry.stream}: {_describe_event(entry.event)}")
            stream, event = expected[i]
            if entry.envelope.originator_id != stream:
                return _divergence(entry.line, label, "WRITE", f"a write to stream {stream}",
                                   f"a write to {entry.stream}")
            if event != entry.event:
                return _unequal(entry.line, label, "WRITE", f"{entry.stream}: the command's write", event,
                                entry.event)
        if len(expected) > len(step.writes):
            stream, event = expected[len(step.writes)]
            return _divergence(step.writes[-1].line if step.writes else last_line, label, "WRITE",
                               f"a write to {stream}: {_describe_event(event)}",
                               "the command's writes end here")
        return None

    def _check_random(self, entry: Entry, state: Any, label: _Label) -> Divergence | None:
        """Re-derive a roll or a draw from (seed, counter), without the rules."""
        check = self.rs.check_random(state, entry.event)
        if check is None:
            return None
        return _divergence(entry.line, label, "RNG", check.expected, check.found)

    def _check_undone(self, step: _Step, versions: dict[int, Any]) -> Divergence | None:
        head = step.group[0]
        undone: CommandUndone = head.event
        done = step.before.done if step.before else ()
        if len(done) < 2:
            return _divergence(head.line, None, "UNDO-1", "nothing to undo", "an undo")
        last = done[-1]
        label = _Label(head.envelope.command_id, f"undo of {last.command_id}: {self._spell(last.command)}")
        if undone.command_id != last.command_id:
            return _divergence(head.line, label, "UNDO", f"an undo of {last.command_id}, the last command",
                               f"an undo of {undone.command_id}")
        if undone.forced != last.random:
            return _divergence(head.line, label, "UNDO-2", f"forced={last.random}"
                               " (undoing a roll or a draw needs force)", f"forced={undone.forced}")
        expected = versions.get(last.version_before)
        if undone.restored != expected:
            return _unequal(head.line, label, "UNDO", f"the state at version {last.version_before}",
                            expected, undone.restored)
        if len(step.group) > 1:
            return _divergence(step.group[1].line, label, "UNDO", "nothing else in the game stream",
                               _describe_event(step.group[1].event))
        return None

    # -- other streams -------------------------------------------------------

    def _check_other_streams(self) -> Divergence | None:
        """Every other stream replays, and each undo restores every stream
        the undone command wrote to as it was before (UNDO)."""
        history: dict[str, list[Any]] = {}
        restores = {e.line: s for s in self.steps if isinstance(s.group[0].event, CommandUndone)
                    for e in s.writes}
        for entry in _others(self.log):
            kind = self.rs.aggregate(entry.stream.partition(":")[0])
            states = history.setdefault(entry.stream, [None])
            step = restores.get(entry.line)
            if step is not None:
                found = self._check_restored(entry, kind, step, states)
                if found:
                    return found
            try:
                states.append(kind.evolve(states[-1], entry.event))
            except Exception as e:  # noqa: BLE001
                return _divergence(entry.line, None, "REPLAY", "events that replay", repr(e))
        return None

    def _check_restored(self, entry: Entry, kind: Aggregate, step: _Step, states: list[Any]) -> Divergence | None:
        """An undo restores each stream the undone command wrote to as it was
        before that command. ``states[v]`` is the stream at version v."""
        undone = step.before.done[-1] if step.before and step.before.done else None
        label = _Label(step.command_id, f"undo of {undone.command_id}: {self._spell(undone.command)}"
                       if undone else "undo")
        version = dict(undone.touched).get(str(entry.envelope.originator_id)) if undone else None
        if version is None:
            return _divergence(entry.line, label, "UNDO", "a stream the undone command wrote to", entry.stream)
        back = states[version] if version < len(states) else None
        expected = kind.restored(undone.command_id, back)  # type: ignore[union-attr]
        if entry.event == expected:
            return None
        return _unequal(entry.line, label, "UNDO", f"{entry.stream} as at its version {version}",
                        expected, entry.event)

    # -- the final state -----------------------------------------------------

    def _digest(self) -> Divergence | None:
        if not self.steps:
            return None
        digest = state_digest(self.steps[-1].after.state)
        claimed = self.log.header["final_state_digest"]
        if digest == claimed:
            return None
        return _divergence(1, None, "DIGEST", f"final_state_digest {digest} (the replayed final state)",
                           claimed)


def _first_of_stream(writes: list[Entry], entry: Entry) -> Entry:
    """The first of ``writes`` in ``entry``'s stream."""
    return next(e for e in writes if e.envelope.originator_id == entry.envelope.originator_id)


def _check_redo(step: _Step, issued: CommandIssued, label: _Label) -> Divergence | None:
    undone = step.before.undone if step.before else ()
    if undone and undone[-1].command_id == issued.redo_of and undone[-1].command == issued.command:
        return None
    last = undone[-1].command_id if undone else "nothing"
    return _divergence(step.group[0].line, label, "REDO-1",
                       f"a redo of the last undone command ({last})", f"a redo of {issued.redo_of}")


def _mismatch(entry: Entry, label: _Label, expected: Any) -> Divergence:
    found = entry.event
    rule = getattr(expected, "rule", "") or "DECIDE"
    first = _first_difference(_builtins(expected), _builtins(found), type(found).__name__)
    if type(found) is type(expected) and first:
        where, a, b = first
        return _divergence(entry.line, label, rule, f"{where} = {a}", f"{where} = {b}")
    return _divergence(entry.line, label, rule, _describe_event(expected), _describe_event(found))


# --------------------------------------------------------------- wording


@dataclass(frozen=True)
class _Label:
    command_id: str
    text: str


def _divergence(line: int, label: _Label | None, rule: str, expected: str, found: str) -> Divergence:
    command_id, text = (label.command_id, label.text) if label else ("", "")
    return Divergence(line=line, command_id=command_id, command=text, rule=rule,
                      expected=_clip(expected), found=_clip(found))


def _unequal(line: int, label: _Label, rule: str, what: str, expected: Any, found: Any) -> Divergence:
    """A divergence between two values, showing the first field that differs."""
    first = _first_difference(_builtins(expected), _builtins(found), "")
    where, a, b = first or ("", "", "")
    return _divergence(line, label, rule, f"{what} ({where} = {a})", f"{where} = {b}")


def _describe_command(cmd: Any) -> str:
    """``Engage form=light target=e1``: the fields not at their default (for
    a command the ruleset cannot spell)."""
    parts = [type(cmd).__name__]
    for f in msgspec.structs.fields(cmd):
        value = getattr(cmd, f.name)
        if value == f.default:
            continue
        parts.append(f"{f.name}={_short(value)}")
    return _clip(" ".join(parts), 100)


def _short(value: Any) -> str:
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, tuple):
        return ",".join(_short(v) for v in value)
    return str(value)


def _describe_event(event: Any) -> str:
    return f"{type(event).__name__} {msgspec.json.encode(event).decode()}"


def _builtins(value: Any) -> Any:
    """``value`` as plain JSON values (lists, not tuples), as a log holds it."""
    return msgspec.json.decode(msgspec.json.encode(value))


def _difference(expected: Any, found: Any, path: str = "") -> str:
    """The first place two plain values differ, as ``path: X expected, found Y``."""
    first = _first_difference(expected, found, path)
    if first is None:
        return ""
    where, a, b = first
    return f"{where}: {a} expected, found {b}"


def _first_difference(expected: Any, found: Any, path: str) -> tuple[str, str, str] | None:
    """(path, expected, found) where two plain values first differ, or None."""
    if isinstance(expected, dict) and isinstance(found, dict):
        for key in [*expected, *(k for k in found if k not in expected)]:
            if key not in found or key not in expected:
                return f"{path}.{key}".lstrip("."), _present(expected, key), _present(found, key)
            inner = _first_difference(expected[key], found[key], f"{path}.{key}")
            if inner:
                return inner
        return None
    if isinstance(expected, list) and isinstance(found, list):
        for i, (a, b) in enumerate(zip(expected, found)):
            inner = _first_difference(a, b, f"{path}[{i}]")
            if inner:
                return inner
        if len(expected) != len(found):
            return path.lstrip("."), f"{len(expected)} items", f"{len(found)} items"
        return None
    if expected == found and type(expected) is type(found):
        return None
    return path.lstrip("."), _clip(repr(expected), 80), _clip(repr(found), 80)


def _present(obj: dict[str, Any], key: str) -> str:
    return _clip(repr(obj[key]), 80) if key in obj else "(no such field)"


def _clip(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
