"""What the store remembers: a battle's whole log (the list of battles is
``cli.battle_list``'s)."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

import msgspec

from domain.kernel.commandlog import LAST_COMMAND, CommandIssued, CommandUndone
from domain.kernel.narration import given, placed
from domain.kernel.position.messages import PositionTaken
from domain.kernel.stores.streams_order import envelopes_in_append_order, headers_in_append_order

from . import pager
from .game import event_json
from .lines import BOLD, PLAIN, UNDONE, events, layout_lines
from .output import to_json
from .session import Session
from .settled import settled
from .battle_list import BATTLE_COLUMNS, battles  # noqa: F401 (their home was here)
from .tables import least_width, simple_table  # noqa: F401 (their home was here)


SPELLINGS_KEPT = 1024  # the most command lines ``_Scan`` keeps spelled
_encode = msgspec.msgpack.Encoder().encode


def log(s: Session, page: bool = True) -> None:
    """Every event, narrated against the state just before it and numbered
    by its version (the numbers `rk status --at` takes). Events of a command
    later undone are marked, and each undo says what it reverted in the
    game's words: the command as typed and the events it had written.
    Command ids are left to ``--json``. Long output goes through a pager
    (``page``; see ``cli.pager``).

    The stream is read a page at a time and never held, each event narrated
    and written as it comes, so memory does not grow with the battle. Which
    commands were undone, which later events say of earlier ones, is known
    beforehand from the game's undo stack (any command it issued that is
    not on it was undone); a game with companion streams is read whole
    first (its commands' writes say where their companion events are)."""
    with settled():  # a long game's read: what was made before it is not walked again and again
        _log(s, page)


def _log(s: Session, page: bool) -> None:
    rs = s.ruleset
    scan = _Scan.of(s, rs)
    if s.json:
        _write_json(
            (
                {
                    "version": env.originator_version,
                    "command_id": env.command_id,
                    **({"stream": kind} if kind else {}),
                    "undone": env.command_id in scan.undone,
                    "command": isinstance(env.event, CommandIssued),
                    "text": text,
                    "event": event_json(env.event),
                }
                for kind, env, text in _narrated(s, rs, scan)
            )
        )
        return
    undone = scan.undone

    def footer() -> str:  # once every event is read: an undone command is known at its line
        return f"↶ marks the events of {len(undone)} undone command(s)" if undone else ""

    console = s.out.console
    pager.write_lines(
        layout_lines(
            _entries(s, rs, scan),
            console.width,
            console.color_system is not None,
            header=("v", "what happened"),
            footer=footer,
            wide=scan.label_width,
        ),
        page=page,
    )


def _entries(s: Session, rs: Any, scan: _Scan) -> Iterator[tuple[str, str, str, str, int]]:
    """The text log's entries (an ``Entry``'s fields): ``_narrated``'s
    events, each told, marked and indented as it comes (an undone
    command's events struck through, a command's and an undo's own lines
    bold and flush left, the events under them indented), in one loop: a
    long log's events pass through no generator but this one, and each
    event class's part in the log (``_role``) is found once.

    An undo's envelope keeps the state it restores undecoded
    (``unread_undo``): that state is the game's just before the command it
    names (``Games.undo`` writes it so), which the narration kept as it
    told the command, marked undone already (``scan.undone``). Only an
    undo of a command the narration did not keep a state for has its own
    decoded."""
    written = scan.companions
    narrator = _narrator(s, rs, scan)
    unread = unread_undo(rs.undone)
    kept: dict[str, Any] = {}  # the state before each command told that is undone later, until its undo
    undone = scan.undone
    roles: dict[type, int] = {}
    note = None if scan.noted else scan.note
    # Each event is told once the next is read (a command's last one is known
    # so, and the undo right after a command has been noted): as ``_narrated``.
    pending: Any = None
    pending_role = _EVENT
    for env in envelopes_in_append_order(s.app, (scan.own,), narrower={rs.undone: unread}.get):
        event = env.event
        if note is not None:
            note(rs, env.originator_version, env.command_id, event)
        if pending is not None:
            yield _entry(pending, pending_role, narrator, kept, undone, rs.undone)
            if written and env.command_id != pending.command_id:
                for kind, other, text in _written_by(rs, narrator.pack, narrator, written, pending):
                    yield _companion_entry(kind, other, text, undone)
        cls = type(event)
        role = roles.get(cls)
        if role is None:
            role = roles[cls] = _role(cls, unread, rs.undone)
        pending, pending_role = env, role
    if pending is not None:
        yield _entry(pending, pending_role, narrator, kept, undone, rs.undone)
        if written:
            for kind, other, text in _written_by(rs, narrator.pack, narrator, written, pending):
                yield _companion_entry(kind, other, text, undone)


_HEADINGS = (CommandIssued, CommandUndone)  # the events that head a command's lines: a command's, an undo's
_EVENT, _COMMAND, _UNREAD_UNDO, _UNDO = 0, 1, 2, 3  # an event's part in the text log (``_role``)


def _role(cls: type, unread: type, undone: type) -> int:
    """What the text log does with an event of class ``cls``: tells it
    under its command (``_EVENT``), heads a command with it (``_COMMAND``),
    or an undo's, restoring the state kept for it (``_UNREAD_UNDO``: its
    state left unread, the ruleset's undo read as ``unread``) or its own."""
    if issubclass(cls, CommandIssued):
        return _COMMAND
    if cls is unread:
        return _UNREAD_UNDO
    if issubclass(cls, CommandUndone):
        return _UNDO
    return _EVENT


def _entry(
    env: Any, role: int, narrator: Any, kept: dict[str, Any], undone: set[str], stored: type
) -> tuple[str, str, str, str, int]:
    """The entry of event ``env`` of the game's stream (its ``role``), told
    against the state just before it, as ``_narrated`` tells it (``stored``:
    the ruleset's undo class, whose state an unread undo decodes when none
    was kept for it)."""
    event = env.event
    if role == _UNREAD_UNDO:
        restored = kept.pop(event.command_id, _NONE)
        if restored is _NONE:  # no command told here (a hand-edited store): the state it stored
            restored = msgspec.json.decode(event.restored, type=_restored_type(stored))
        event = msgspec.structs.replace(event, restored=restored)
    elif role == _COMMAND and event.command_id in undone:
        kept[event.command_id] = narrator.state
    text = narrator(event)
    if env.command_id in undone:
        return str(env.originator_version), text, UNDONE, "↶", 0 if role else 2
    if role:
        return str(env.originator_version), text, BOLD, " ", 0
    return str(env.originator_version), text, PLAIN, " ", 2


def _companion_entry(kind: str, env: Any, text: str, undone: set[str]) -> tuple[str, str, str, str, int]:
    """The entry of an event a command wrote to a companion stream: its own
    version, named by its kind."""
    heading = isinstance(env.event, _HEADINGS)
    if env.command_id in undone:
        style, mark, indent = UNDONE, "↶", 0 if heading else 2
    elif heading:
        style, mark, indent = BOLD, " ", 0
    else:
        style, mark, indent = PLAIN, " ", 2
    return f"{kind[:1]}{env.originator_version}", f"[{kind}] {text}", style, mark, indent


def _write_json(items: Iterable[Any]) -> None:
    """A JSON array of ``items``, written as each comes, laid out as
    ``to_json`` lays out the whole list."""
    out = sys.stdout
    first = True
    for item in items:
        body = to_json(item).replace("\n", "\n  ")
        out.write(("[\n  " if first else ",\n  ") + body)
        first = False
    out.write("[]\n" if first else "\n]\n")
    out.flush()


@dataclass
class _Scan:
    """What the log must know of a game's stream before narrating it:
    which commands were undone (``undone``: an undone command's events are
    marked, and they come before the undo), the envelopes its commands
    wrote to companion streams (``companions``) and the widest label.

    The rest is learnt as the stream goes (``note``, each event in turn):
    each command as a player knows it by its id (``said``: as typed, and
    the events it wrote, ``rk move b2 (events 12-13)``, which an undo, read
    after them, names), each command's line as given (``spelled``) and
    where each command and undo wrote (``writes``: its envelopes' command
    id, the streams and their versions before, and whether the writes are
    together; noted only in the whole first read, which looks for its
    companion events).

    A game with companion streams is read twice, as a whole first (its
    commands' writes say where their companion events are); any other is
    read once, its undone commands known as each is issued: those not on
    the game's undo stack at its end (``done``)."""

    own: UUID
    undone: set[str] = field(default_factory=set)
    spelled: dict[str, str] = field(default_factory=dict)  # each command's line as given, by its id
    typed: dict[str, str] = field(default_factory=dict)  # each command's words, by its envelopes' command id
    versions: dict[str, tuple[int, int]] = field(default_factory=dict)  # first and last version, the same
    reading: str | None = None  # the command whose events are being noted: its versions are
    first: int = 0  # from ``first`` to ``last`` (kept in ``versions`` once the next begins)
    touched: dict[str, tuple[tuple[str, int], ...]] = field(default_factory=dict)
    writes: list[tuple[str, tuple[tuple[str, int], ...], bool]] = field(default_factory=list)
    companions: dict[str, list[tuple[str, Any]]] = field(default_factory=dict)
    last: int = 0
    label_width: int = 1
    noted: bool = False  # every event noted already (the whole first read)
    done: frozenset[str] | None = None  # the commands on the game's undo stack, in a game read once
    lines: dict[tuple[type, bytes, bool], str] = field(default_factory=dict)  # ``_given``'s, by command

    @classmethod
    def of(cls, s: Session, rs: Any) -> _Scan:
        scan = cls(rs.game_stream(s.battle_id))
        game = s.app.battle(s.battle_id)
        if not rs.companions(game.state):
            # Nothing is read ahead: every event is noted as the log is narrated.
            scan.done = frozenset(done.command_id for done in game.done)
            scan.last = game.version
            scan.label_width = len(str(scan.last))
            return scan
        topics = (rs.issued.TOPIC, rs.undone.TOPIC)  # only these events' fields are read in this pass
        for version, command_id, env in headers_in_append_order(s.app, (scan.own,), topics):
            scan.note(rs, version, command_id, env.event if env is not None else None)
        scan.noted = True
        scan.companions = _companion_events(s, rs, scan)
        labels = [len(str(scan.last))] + [
            len(kind[:1]) + len(str(other.originator_version))
            for written in scan.companions.values()
            for kind, other in written
        ]
        scan.label_width = max(labels)
        return scan

    def note(self, rs: Any, version: int, command_id: str, event: Any) -> None:
        """What event ``version`` of the game's stream (of command
        ``command_id``; ``event`` None when it is no command or undo) tells
        the lines after it."""
        if command_id != self.reading:
            self._begin(command_id, version)
        self.last = version
        if not isinstance(event, _HEADINGS):  # most events: no command or undo
            return
        if isinstance(event, CommandIssued):
            if self.done is not None and event.command_id not in self.done:
                # Off the undo stack at the end: undone (an undo pops the stack's last
                # command, the one it names), which its events, after this, are marked.
                self.undone.add(event.command_id)
            line = self._given(rs, event)
            # an id given twice (no command of ours is) is spelled again where it is narrated
            self.spelled[event.command_id] = "" if event.command_id in self.spelled else line
            self.typed[command_id] = line.removesuffix(" (redone)")
            if self.done is None:  # read whole first: where it wrote, for its companion events
                self.touched[event.command_id] = event.touched
                self.writes.append((command_id, event.touched, True))
        elif isinstance(event, CommandUndone):
            self.undone.add(event.command_id)
            if self.done is None:  # an undo wrote where the command it undid had
                self.writes.append((command_id, self.touched.get(event.command_id, ()), False))

    def _given(self, rs: Any, event: CommandIssued) -> str:
        """``given(rs, event)``, each distinct command spelled once: a long
        game types the same commands again and again (the benchmark's
        20,000-event clash: 3,596 commands, 90 distinct lines). A command's
        line depends on the command alone (its class and value: its
        MessagePack bytes, exact where ``==`` is not) and on whether it was
        redone; at most ``SPELLINGS_KEPT`` lines are held."""
        try:
            key = (type(event.command), _encode(event.command), bool(event.redo_of))
        except (TypeError, OverflowError, msgspec.EncodeError):  # a value MessagePack cannot hold
            return given(rs, event)
        line = self.lines.get(key)
        if line is None:
            if len(self.lines) >= SPELLINGS_KEPT:
                self.lines.clear()
            line = self.lines[key] = given(rs, event)
        return line

    def _begin(self, command_id: str, version: int) -> None:
        """The events of command ``command_id`` begin at ``version``: those
        of the one before it end at the last version noted."""
        if self.reading is not None:
            self.versions[self.reading] = (self.first, self.last)
        self.reading = command_id
        self.first = self.versions.get(command_id, (version,))[0]

    def said(self, command_id: str) -> str:
        """Command ``command_id`` as a player knows it (the last command's
        words when it is none the stream holds)."""
        words = self.typed.get(command_id)
        if words is None:
            return LAST_COMMAND
        first, last = (self.first, self.last) if command_id == self.reading else self.versions[command_id]
        return f"{words} ({events(first, last)})"


def _narrated(s: Session, rs: Any, scan: _Scan) -> Iterator[tuple[str, Any, str]]:
    """``(companion kind or "", envelope, text)`` for every event of the game
    and of its companion streams, each narrated against the state just
    before it (folded once, as the log goes), every event decoded whole as
    ``--json`` shows it; an undo names the command it reverted with
    ``scan.said``. The text log tells the same events (``_entries``)."""
    written = scan.companions
    narrator = _narrator(s, rs, scan)
    pending: Any = None  # each event is narrated once the next is read: a command's last one is known so
    note = None if scan.noted else scan.note
    for env in envelopes_in_append_order(s.app, (scan.own,)):
        if note is not None:
            note(rs, env.originator_version, env.command_id, env.event)
        if pending is not None:
            yield "", pending, narrator(pending.event)
            if written and env.command_id != pending.command_id:
                yield from _written_by(rs, narrator.pack, narrator, written, pending)
        pending = env
    if pending is not None:
        yield "", pending, narrator(pending.event)
        if written:
            yield from _written_by(rs, narrator.pack, narrator, written, pending)


_NONE: Any = object()  # no state kept
_UNREAD: dict[type, type] = {}


def unread_undo(cls: type[CommandUndone]) -> type[CommandUndone]:
    """``cls`` (a ruleset's undo event) with the state it restores left
    unread (``msgspec.Raw``): the largest part of a long game's log, which
    `rk log`'s narration has at hand already. No topic of its own: it is
    what a reader decodes the undo's rows into (a ``narrower``), not stored."""
    lighter = _UNREAD.get(cls)
    if lighter is None:
        lighter = _UNREAD[cls] = msgspec.defstruct(
            f"Unread{cls.__name__}", [("restored", msgspec.Raw)], bases=(cls,), frozen=True, kw_only=True
        )
    return lighter


def _restored_type(cls: type[CommandUndone]) -> Any:
    """The type of the state ``cls`` restores, as its decoder reads it."""
    return next(f.type for f in msgspec.structs.fields(cls) if f.name == "restored")


def _written_by(
    rs: Any, pack: Any, narrator: Any, written: dict[str, list[tuple[str, Any]]], env: Any
) -> Iterator[tuple[str, Any, str]]:
    """The events command ``env.command_id`` wrote to companion streams (a
    delve's Delve), which follow its own last event, narrated against the
    game's state after it."""
    for kind, other in written.pop(env.command_id, ()):
        if isinstance(env.event, PositionTaken):  # the other streams a position puts where it says
            yield kind, other, placed(rs, other.originator_id, narrator.state)
        else:
            yield kind, other, rs.describe_written(other.event, other.originator_id, narrator.state, pack)


def _companion_events(s: Session, rs: Any, scan: _Scan) -> dict[str, list[tuple[str, Any]]]:
    """The envelopes the game's commands wrote to its companion streams
    (``Ruleset.companions``), by the id of the command that wrote them. A
    stream may hold other games' events too (an adventurer's battles and its
    campaign), so each command's own are found from where it says it wrote
    (``touched``); an undo wrote where the command it undid had."""
    kinds = {stream: kind for kind, stream in rs.companions(s.app.battle(s.battle_id).state)}
    if not kinds:
        return {}
    stored = {stream: s.app.events(stream) for stream in kinds}  # each stream read once, versions from 1
    out: dict[str, list[tuple[str, Any]]] = {}
    for command_id, streams, together in scan.writes:
        for sid, before in streams:
            stream = UUID(sid)
            if stream not in kinds:
                continue
            for other in stored[stream][before:]:
                if other.command_id == command_id:
                    out.setdefault(command_id, []).append((kinds[stream], other))
                elif together:  # a command's writes are together, right after ``before``
                    break
    return out


def _battle_names(s: Session) -> dict[str, str]:
    """Each battle's name in this store, by id (renamed ones differ)."""
    return {e.battle_id: e.name for e in s.app.index().entries(deleted=True) if e.name != e.battle_id}


def _narrator(s: Session, rs: Any, scan: _Scan) -> Any:
    """The game's narrator: its pack, undos named with ``scan.said``,
    each command spelled once (``scan.spelled``)."""
    from domain.kernel.narration import Narrator

    pack = s.app.pack_for(rs, s.app.battle(s.game_id).state)
    return Narrator(rs, pack, words=scan.said, spelled=lambda event: scan.spelled.get(event.command_id))
