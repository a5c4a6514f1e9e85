"""The portable battle log: export, import and verify (DESIGN: Logs).

A log is JSON Lines. Line 1 is a header naming the format, the rules and
content pack, the battle and every stream the log holds, and the digest of
the battle's final state. Each further line is one stored event, in append
order, with its stream, version, type (the event's stable TOPIC), command
id, time and data. Every line carries a hash chained to the line before::

    hash = BLAKE2b-128(previous hash as hex ASCII + canonical bytes of the
                       line's object without its "hash" key)

where the canonical bytes are ``msgspec.json.encode(obj, order="sorted")``
of the parsed object, so the check does not depend on whitespace or key
order in the file, and any edit of content breaks the chain at that line.

``import_log`` checks everything before it writes anything. ``verify_log``
re-decides every recorded command with the current rules and re-derives
every random outcome from (seed, counter), and reports the first place the
log and the rules part ways.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime, timezone
from enum import Enum
from typing import Any
from uuid import UUID

import msgspec

from domain.kernel import rng
from domain.kernel.envelope import Envelope
from domain.kernel.errors import LogError, MalformedCommand, RuleViolation
from domain.kernel.messages import event_class

from . import adventurer as adv
from . import events as ev
from .application import (
    BetrayalApp,
    adventurer_stream,
    battle_stream,
)
from .catalog import Pack
from .commands import StartClash
from .context import context_for
from .evolve import evolve
from .history import Battle, project
from .packs import starter_pack
from .rules import decide
from .state import BattleState

FORMAT = "rulekeeper-log/1"
RULESET = "betrayal"
BATTLE = "battle"
_CHAIN_BROKEN = "a hash that does not match: this line (or its hash) was edited"
ADVENTURER = "adventurer:"

_HEADER_KEYS = ("format", "ruleset", "rules_version", "pack_id", "pack_hash", "battle_id",
                "streams", "final_state_digest", "hash")
_LINE_KEYS = ("n", "stream", "version", "type", "command", "time", "data", "hash")

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


def state_digest(state: BattleState) -> str:
    """BLAKE2b-128 hex of a battle state's canonical JSON (the rules' state,
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


def export_battle(app: BetrayalApp, battle_id: str) -> bytes:
    """The portable log of a battle: its stream and its party's adventurer
    streams, complete from version 1 to the end of the store, in append
    order. Raises NotFound when there is no such battle."""
    battle = app.battle(battle_id)
    streams = _stream_names(battle.state)
    header = {
        "format": FORMAT, "ruleset": RULESET,
        "rules_version": battle.state.rules_version,
        "pack_id": battle.state.pack_id, "pack_hash": battle.state.pack_hash,
        "battle_id": battle_id,
        "streams": {str(sid): name for sid, name in streams.items()},
        "final_state_digest": state_digest(battle.state),
    }
    envelopes = (env for _, env in app.notifications() if env.originator_id in streams)
    rows = (_row(n, env) for n, env in enumerate(envelopes, start=2))
    return _write([header, *rows])


def _stream_names(state: BattleState) -> dict[UUID, str]:
    names = {battle_stream(state.battle_id): BATTLE}
    for hero in state.heroes:
        names[UUID(hero.adventurer_id)] = ADVENTURER + hero.name
    return names


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
    stream: str  # the header's name for it: "battle" or "adventurer:<name>"
    envelope: Envelope

    @property
    def event(self) -> Any:
        return self.envelope.event


@dataclass(frozen=True)
class ParsedLog:
    """A log whose every line is well formed. ``chain_break`` is the first
    line whose hash does not match, when the reader was told to go on."""

    header: dict[str, Any]
    entries: list[Entry]
    lines: int
    chain_break: int | None = None

    @property
    def battle(self) -> list[Entry]:
        return [e for e in self.entries if e.stream == BATTLE]


def read_log(data: bytes, *, strict_chain: bool = True) -> ParsedLog:
    """Parse and check every line of a log; LogError names the first bad
    line. With ``strict_chain=False`` a hash mismatch is recorded in
    ``chain_break`` instead of raised (``verify`` reports it as a divergence)."""
    reader = _Reader(strict_chain)
    raw = _split(data)
    for number, text in enumerate(raw, start=1):
        reader.feed(number, text)
    reader.finish()
    return ParsedLog(reader.header, reader.entries, len(raw), reader.chain_break)


def _split(data: bytes) -> list[bytes]:
    raw = data.split(b"\n")
    if raw and raw[-1] == b"":
        raw.pop()  # the newline that ends the last line
    if not raw:
        raise LogError(1, "the log is empty")
    return raw


class _Reader:
    """Checks lines one at a time, keeping what the next line needs: the
    previous hash, the streams named and each stream's last version."""

    def __init__(self, strict_chain: bool) -> None:
        self.strict_chain = strict_chain
        self.previous = ""
        self.chain_break: int | None = None
        self.header: dict[str, Any] = {}
        self.streams: dict[str, str] = {}
        self.versions: dict[str, int] = {}
        self.entries: list[Entry] = []

    def feed(self, n: int, text: bytes) -> None:
        keys = _HEADER_KEYS if n == 1 else _LINE_KEYS
        obj = _json_object(n, text, keys)
        self._chain(n, obj)
        if n == 1:
            self.header = obj
            self.streams = _check_header(obj)
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
        event = _decode_event(n, obj["type"], obj["data"], name)
        at = _parse_time(obj["time"])
        if at is None:
            raise LogError(n, f"time {obj['time']!r} is not ISO-8601 UTC as YYYY-MM-DDTHH:MM:SS.ffffffZ")
        if not obj["command"]:
            raise LogError(n, "the command id is empty")
        envelope = Envelope(originator_id=UUID(sid), originator_version=version,
                            timestamp=at, command_id=obj["command"], event=event)
        return Entry(n, name, envelope)

    def finish(self) -> None:
        battle = [e for e in self.entries if e.stream == BATTLE]
        if len(battle) < 2:
            raise LogError(len(self.entries) + 2, "the battle stream is missing or has no BattleStarted")
        first, started = battle[0], battle[1]
        if not (isinstance(first.event, ev.CommandIssued) and isinstance(first.event.command, StartClash)):
            raise LogError(first.line, "the battle stream must open with the StartClash command")
        if not isinstance(started.event, ev.BattleStarted):
            raise LogError(started.line, "the StartClash command must be followed by BattleStarted")
        for key in ("battle_id", "rules_version", "pack_id", "pack_hash"):
            if getattr(started.event, key) != self.header[key]:
                raise LogError(started.line, f"BattleStarted's {key} {getattr(started.event, key)!r}"
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


def _check_header(h: dict[str, Any]) -> dict[str, str]:
    """The header's own rules; returns its streams (uuid text -> name)."""
    if h["format"] != FORMAT:
        raise LogError(1, f"format {h['format']!r} is not {FORMAT!r}")
    if h["ruleset"] != RULESET:
        raise LogError(1, f"ruleset {h['ruleset']!r} is not {RULESET!r}")
    streams: dict[str, str] = h["streams"]
    for sid, name in streams.items():
        _check_stream(sid, name, h["battle_id"])
    if list(streams.values()).count(BATTLE) != 1:
        raise LogError(1, "the header must name exactly one battle stream")
    return streams


def _check_stream(sid: str, name: Any, battle_id: str) -> None:
    """Each stream id must be the one the application derives from its
    name, so an import lands where the application will look (and a log
    cannot write into the battle index or someone else's stream)."""
    if not isinstance(name, str):
        raise LogError(1, f"stream {sid}: its name must be a string")
    if name == BATTLE:
        expected = battle_stream(battle_id)
    elif name.startswith(ADVENTURER) and name[len(ADVENTURER):].strip():
        expected = adventurer_stream(name[len(ADVENTURER):])
    else:
        raise LogError(1, f"stream {sid}: name {name!r} is neither \"battle\" nor \"adventurer:<name>\"")
    if sid != str(expected):
        raise LogError(1, f"stream {sid} is not the stream of {name!r} ({expected})")


def _decode_event(n: int, topic: str, data: dict[str, Any], stream: str) -> Any:
    """The event of class ``topic``, decoded strictly from ``data``, which
    must be exactly the event's fields (nothing silently dropped or added)."""
    try:
        cls = event_class(topic)
    except KeyError:
        raise LogError(n, f"unknown event type {topic!r}") from None
    base = ev.BattleEvent if stream == BATTLE else adv.AdventurerEvent
    if not issubclass(cls, base):
        raise LogError(n, f"{topic} does not belong in a {stream.split(':')[0]} stream")
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


def import_log(app: BetrayalApp, data: bytes) -> str:
    """Import a log into ``app``'s store and return the battle id.

    Everything is checked first (each line, the hash chain, stream versions,
    that the battle replays, the content pack, that none of the log's
    streams exists yet) and LogError names the first problem; then the
    events are appended as recorded (stream ids, versions, times, command
    ids) with the battle's BattleRegistered, in one transaction.
    """
    log = read_log(data)
    header = log.header
    if header["pack_hash"] != app.pack.hash:
        raise LogError(1, f"the log was played with pack {header['pack_id']} ({header['pack_hash']}),"
                          f" not the loaded pack {app.pack.id} ({app.pack.hash})")
    _check_replays(log)
    _check_new_streams(app, log)
    battle_id = header["battle_id"]
    setup = log.battle[1].event.setup
    app.append([e.envelope for e in log.entries] + app.registration(battle_id, setup, "import"))
    return battle_id


def _check_replays(log: ParsedLog) -> None:
    """The battle and adventurer streams must fold without error, or the
    imported battle could never be loaded."""
    _, error = _replay(log.battle)
    if error:
        raise LogError(error.line, error.reason)
    states: dict[str, Any] = {}
    for entry in log.entries:
        if entry.stream == BATTLE:
            continue
        try:
            states[entry.stream] = adv.evolve_adventurer(states.get(entry.stream), entry.event)
        except Exception as e:  # noqa: BLE001 - any failure means a bad event
            raise LogError(entry.line, f"this event cannot be applied to {entry.stream}: {e!r}") from None


def _check_new_streams(app: BetrayalApp, log: ParsedLog) -> None:
    for sid, name in log.header["streams"].items():
        if app.events(UUID(sid), lte=1):
            raise LogError(1, f"stream {sid} ({name}) already exists in this store;"
                              " importing never merges into existing streams")


# ------------------------------------------------------ folding the battle


class _FoldError(Exception):
    def __init__(self, line: int, reason: str) -> None:
        super().__init__(reason)
        self.line, self.reason = line, reason


def _groups(battle: list[Entry]) -> list[list[Entry]]:
    """The battle stream cut into commands: each CommandIssued or
    CommandUndone with the events that follow it, up to the next one."""
    groups: list[list[Entry]] = []
    for entry in battle:
        if isinstance(entry.event, (ev.CommandIssued, ev.CommandUndone)) or not groups:
            groups.append([])
        groups[-1].append(entry)
    return groups


def _fold_group(battle: Battle | None, group: list[Entry]) -> Battle:
    """The battle after ``group``, folded with the history projector."""
    try:
        after = project(battle, [e.envelope for e in group])
    except Exception as e:  # noqa: BLE001 - a log's events may be anything
        raise _FoldError(group[0].line, f"the battle cannot replay this command's events: {e!r}") from None
    if after is None:
        raise _FoldError(group[0].line, "the battle has no state after this command")
    return after


@dataclass(frozen=True)
class _Step:
    """One command of the battle stream, with the battle before and after it."""

    group: list[Entry]
    before: Battle | None
    after: Battle


def _replay(battle: list[Entry]) -> tuple[list[_Step], _FoldError | None]:
    """Fold the recorded battle stream command by command; stops at the
    first command whose events do not fold."""
    steps: list[_Step] = []
    current: Battle | None = None
    for group in _groups(battle):
        try:
            after = _fold_group(current, group)
        except _FoldError as e:
            return steps, e
        steps.append(_Step(group, current, after))
        current = after
    return steps, None


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


def verify_battle(app: BetrayalApp, battle_id: str) -> Report:
    """Verify a stored battle, through its export (so exactly what a log
    would hold is checked)."""
    return verify_log(export_battle(app, battle_id), app.pack)


def verify_log(data: bytes, pack: Pack | None = None) -> Report:
    """Replay a log through the current rules and report the first
    divergence: a malformed line (FORMAT), a broken hash chain (CHAIN),
    another content pack (PACK), a command the rules now refuse (its rule
    ID) or decide otherwise, a die face or draw the RNG would not give
    (RNG), an undo that does not restore the earlier state (UNDO), an
    adventurer result that is not the battle's (CONCLUDE) and, when all
    events hold, a final state digest that differs (DIGEST)."""
    pack = pack or starter_pack()
    reader = _Reader(strict_chain=False)
    try:
        raw = _split(data)
        for number, text in enumerate(raw, start=1):
            reader.feed(number, text)
        reader.finish()
    except LogError as e:
        return Report(ok=False, lines=data.count(b"\n"), commands=0, divergence=_unreadable(e, reader))
    log = ParsedLog(reader.header, reader.entries, len(raw), reader.chain_break)
    return _Verifier(log, pack).report()


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

    def __init__(self, log: ParsedLog, pack: Pack) -> None:
        self.log = log
        self.pack = pack
        self.steps, self.fold_error = _replay(log.battle)

    def report(self) -> Report:
        found = self._first_divergence()
        commands = sum(1 for e in self.log.battle
                       if isinstance(e.event, (ev.CommandIssued, ev.CommandUndone)))
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
        yield self._check_adventurers()

    # -- the battle stream -------------------------------------------------

    def _check_commands(self) -> Divergence | None:
        versions: dict[int, BattleState | None] = {0: None}
        for step in self.steps:
            head = step.group[0]
            if isinstance(head.event, ev.CommandIssued):
                found = self._check_issued(step)
            elif isinstance(head.event, ev.CommandUndone):
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

    def _check_issued(self, step: _Step) -> Divergence | None:
        issued: ev.CommandIssued = step.group[0].event
        line, cmd = step.group[0].line, issued.command
        state = step.before.state if step.before else None
        setup = cmd.setup if isinstance(cmd, StartClash) else (state.setup if state else "")
        stray = next((e for e in step.group if e.envelope.command_id != issued.command_id), None)
        if stray is not None:
            return _divergence(stray.line, issued, "LOG", f"an event of command {issued.command_id}",
                               f"command id {stray.envelope.command_id!r} on an event of that command")
        if issued.redo_of:
            found = _check_redo(step, issued)
            if found:
                return found
        try:
            produced = decide(state, cmd, context_for(self.pack, setup))
        except RuleViolation as v:
            return _divergence(line, issued, v.rule, "a command legal under the rules",
                               f"this command is illegal under the rules: {v.message}")
        except MalformedCommand as m:
            return _divergence(line, issued, "MALFORMED", "a command the rules understand", str(m))
        return _compare(issued, state, produced, step.group)

    def _check_undone(self, step: _Step, versions: dict[int, BattleState | None]) -> Divergence | None:
        head = step.group[0]
        undone: ev.CommandUndone = head.event
        done = step.before.done if step.before else ()
        if not done or isinstance(done[-1].command, StartClash):
            return _divergence(head.line, None, "UNDO-1", "nothing to undo", "an undo")
        last = done[-1]
        label = _Label(head.envelope.command_id, f"undo of {last.command_id}: {_describe_command(last.command)}")
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
            return _divergence(step.group[1].line, label, "UNDO", "nothing else in the battle stream",
                               _describe_event(step.group[1].event))
        return None

    # -- adventurer streams ------------------------------------------------

    def _check_adventurers(self) -> Divergence | None:
        """Each result written back to an adventurer is the battle's, and
        each undo of it restores the adventurer as it was."""
        issued = {s.group[0].event.command_id: s for s in self.steps
                  if isinstance(s.group[0].event, ev.CommandIssued)}
        undos = {(s.group[0].envelope.command_id, s.group[0].event.command_id): s for s in self.steps
                 if isinstance(s.group[0].event, ev.CommandUndone)}
        history: dict[str, list[Any]] = {}
        for entry in self.log.entries:
            if entry.stream == BATTLE:
                continue
            states = history.setdefault(entry.stream, [None])
            event = entry.event
            if isinstance(event, adv.BattleConcluded) and event.battle_id == self.log.header["battle_id"]:
                found = _check_concluded(entry, issued.get(entry.envelope.command_id))
            elif isinstance(event, adv.AdventurerRestored):
                step = undos.get((entry.envelope.command_id, event.command_id))
                found = _check_restored(entry, step, states) if step else None
            else:
                found = None
            if found:
                return found
            try:
                states.append(adv.evolve_adventurer(states[-1], event))
            except Exception as e:  # noqa: BLE001
                return _divergence(entry.line, None, "REPLAY", "events that replay", repr(e))
        return None

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


def _check_redo(step: _Step, issued: ev.CommandIssued) -> Divergence | None:
    undone = step.before.undone if step.before else ()
    if undone and undone[-1].command_id == issued.redo_of and undone[-1].command == issued.command:
        return None
    last = undone[-1].command_id if undone else "nothing"
    return _divergence(step.group[0].line, issued, "REDO-1",
                       f"a redo of the last undone command ({last})", f"a redo of {issued.redo_of}")


def _compare(issued: ev.CommandIssued, state: BattleState | None, produced: list[Any],
             group: list[Entry]) -> Divergence | None:
    """The recorded outcome against the re-decided one, event by event;
    each random outcome is also re-derived on its own (RNG)."""
    running = state
    recorded = group[1:]
    for i, entry in enumerate(recorded):
        found = _check_random(entry, running, issued)
        if found:
            return found
        if i >= len(produced):
            return _divergence(entry.line, issued, "DECIDE", "no more events from this command",
                               _describe_event(entry.event))
        if produced[i] != entry.event:
            return _mismatch(entry, issued, produced[i])
        running = evolve(running, entry.event)
    if len(produced) > len(recorded):
        last = (recorded or group)[-1].line
        return _divergence(last, issued, "DECIDE", _describe_event(produced[len(recorded)]),
                           "the command's recorded events end here")
    return None


def _check_random(entry: Entry, state: BattleState | None, issued: ev.CommandIssued) -> Divergence | None:
    """Re-derive a roll or a draw from (seed, counter), without the rules."""
    e = entry.event
    if state is None:
        return None
    if isinstance(e, ev.DiceRolled) and not e.typed:
        expected = [rng.draw(state.seed, e.counter + i, 6) for i in range(len(e.dice))]
        faces = [d.face for d in e.dice]
        if faces != expected:
            return _divergence(entry.line, issued, "RNG",
                               f"DiceRolled faces {_faces(expected)} from seed {state.seed} counter {e.counter}",
                               _faces(faces))
        return _check_counter(entry, state, issued, "DiceRolled", e.counter)
    if isinstance(e, ev.EnemyPlaced) and e.draw >= 0:
        return _check_counter(entry, state, issued, "EnemyPlaced draw", e.draw)
    return None


def _check_counter(entry: Entry, state: BattleState, issued: ev.CommandIssued, what: str,
                   counter: int) -> Divergence | None:
    # The counter lives in the state: each outcome takes the next one, so
    # a counter skipped or used twice is an edit (after a forced undo the
    # restored state brings the counter back, which is why this compares
    # with the state and not with the last counter seen).
    if counter == state.rng:
        return None
    return _divergence(entry.line, issued, "RNG", f"{what} at counter {state.rng} (seed {state.seed})",
                       f"counter {counter}")


def _faces(indices: list[int]) -> list[int]:
    """Die faces as people number them, 1 to 6."""
    return [i + 1 for i in indices]


def _mismatch(entry: Entry, issued: ev.CommandIssued, expected: Any) -> Divergence:
    found = entry.event
    rule = getattr(expected, "rule", "") or "DECIDE"
    first = _first_difference(_builtins(expected), _builtins(found), type(found).__name__)
    if type(found) is type(expected) and first:
        where, a, b = first
        return _divergence(entry.line, issued, rule, f"{where} = {a}", f"{where} = {b}")
    return _divergence(entry.line, issued, rule, _describe_event(expected), _describe_event(found))


def _check_concluded(entry: Entry, step: _Step | None) -> Divergence | None:
    """A battle's result written back to an adventurer is the hero's state
    after the command that ended the battle (CLEANUP-3b, CLEANUP-4c)."""
    event: adv.BattleConcluded = entry.event
    if step is None:
        return _divergence(entry.line, None, "CONCLUDE", "a result written by a command of this battle",
                           f"a result written by {entry.envelope.command_id}")
    after, label = step.after.state, step.group[0].event
    hero = next((h for h in after.heroes if h.adventurer_id == str(entry.envelope.originator_id)), None)
    if hero is None:
        return _divergence(entry.line, label, "CONCLUDE", "a result for a member of the party",
                           f"a result for {entry.stream}")
    expected = adv.concluded(after, hero)
    if expected == event:
        return None
    return _unequal(entry.line, label, "CONCLUDE", f"{hero.name}'s final state in the battle", expected, event)


def _check_restored(entry: Entry, step: _Step, states: list[Any]) -> Divergence | None:
    """An undo restores each adventurer the undone command wrote to as it
    was before that command. ``states[v]`` is the adventurer at version v."""
    event: adv.AdventurerRestored = entry.event
    undone = step.before.done[-1] if step.before and step.before.done else None
    label = _Label(entry.envelope.command_id, f"undo of {event.command_id}"
                   + (f": {_describe_command(undone.command)}" if undone else ""))
    version = dict(undone.touched).get(str(entry.envelope.originator_id)) if undone else None
    if version is None:
        return _divergence(entry.line, label, "UNDO", "an adventurer the undone command wrote to",
                           entry.stream)
    expected = states[version] if version < len(states) else None
    if event.restored == expected:
        return None
    return _unequal(entry.line, label, "UNDO", f"{entry.stream} as at its version {version}",
                    expected, event.restored)


# --------------------------------------------------------------- wording


@dataclass(frozen=True)
class _Label:
    command_id: str
    text: str


def _divergence(line: int, cmd: ev.CommandIssued | _Label | None, rule: str, expected: str,
                found: str) -> Divergence:
    if isinstance(cmd, ev.CommandIssued):
        command_id, text = cmd.command_id, _describe_command(cmd.command)
    elif isinstance(cmd, _Label):
        command_id, text = cmd.command_id, cmd.text
    else:
        command_id, text = "", ""
    return Divergence(line=line, command_id=command_id, command=text, rule=rule,
                      expected=_clip(expected), found=_clip(found))


def _unequal(line: int, label: ev.CommandIssued | _Label, rule: str, what: str, expected: Any, found: Any) -> Divergence:
    """A divergence between two values, showing the first field that differs."""
    first = _first_difference(_builtins(expected), _builtins(found), "")
    where, a, b = first or ("", "", "")
    return _divergence(line, label, rule, f"{what} ({where} = {a})", f"{where} = {b}")


def _describe_command(cmd: Any) -> str:
    """``Engage form=light target=e1 dice=1,2``: the fields not at their default."""
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
    if isinstance(value, tuple) and value and all(hasattr(v, "name") for v in value):
        return "+".join(v.name for v in value)  # party members
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
