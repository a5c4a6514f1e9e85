"""The audit view: one readable line per event of every game, citing rule IDs, undos marked.

Each line carries its stream (``battle:b3-1``, ``adventurer:Ysolda``,
``index``), version, command id, the rule it applies and its text, both
from the game's ruleset (``cited_rule`` and ``describe_event``: the one
narrator ``rk log`` uses too).

A game's audit also holds the events its commands wrote to other streams
(new party members at setup, write-backs, restores on undo): a command's
``CommandIssued`` lists the streams it ``touched``, and those envelopes follow
it in the same append, so the projection attributes them to that game; a
setup's prelude comes just before it, in the same append. When a
``CommandUndone`` arrives, every line of the undone command (in every
stream) is marked undone, and ``forced`` when the undo crossed a roll or a
draw.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any
from uuid import UUID

import msgspec

from domain.kernel import ruleset as registry
from domain.kernel.commandlog import CommandIssued, CommandUndone
from domain.kernel.envelope import Envelope
from domain.kernel.battle_index import legacy_streams
from domain.kernel.games import INDEX_STREAM, BattleRegistered, GameRegistered
from domain.kernel.messages import Event
from domain.kernel.ruleset import Aggregate, Ruleset

from .audit_words import UndoneRound, Words, describe, owner, printable, undone_round
from .runner import Projection, handles

__all__ = ["AuditLine", "AuditView", "audit_lines", "describe", "owner"]


class AuditLine(msgspec.Struct, frozen=True, kw_only=True):
    """One event of a battle, in append order.

    ``stream`` names the stream (``battle:<id>``, ``adventurer:<name>``,
    ``index``); ``rule`` the rule IDs it applies ("" when none is specific);
    ``undone`` marks events of a command later undone, with ``undone_by``
    the undo's command id and ``forced`` when that undo crossed randomness.
    """

    notification_id: int
    stream: str
    version: int
    command_id: str
    at: str
    event: str
    rule: str
    text: str
    undone: bool
    forced: bool
    undone_by: str


_INDEX = "CREATE INDEX IF NOT EXISTS audit_by_battle ON audit_lines (battle, command_id)"


class AuditView(Projection):
    """Lines by notification id, attributed to a battle stream.

    ``keeping``: a query that catches up and then reads (``views.audit``)
    asks for the lines the catch-up builds. When it builds the table from
    empty, every row of the tables is also held here (``_Build``), so
    ``kept`` answers from them rather than reading back what was just
    inserted (a first `rk audit` of a long game would read its 20,000
    lines twice), the build reads none of its tables back, and the index
    on battle and command, which the build has no use for, is made once
    after the rows rather than kept up row by row (``index``)."""

    name = "audit-5"  # audit-4 had each ruleset's own words for commands and undos; now the kernel's
    tables = ("audit_lines", "audit_streams", "audit_touched")
    schema = (
        "CREATE TABLE IF NOT EXISTS audit_lines (notification_id INTEGER PRIMARY KEY,"
        " battle TEXT, stream TEXT, label TEXT, version INTEGER, command_id TEXT, at TEXT,"
        " event TEXT, rule TEXT, text TEXT, undone INTEGER, forced INTEGER, undone_by TEXT)",
        _INDEX,
        # battle: a battle stream's own id; for an adventurer stream, the
        # battle whose command is writing to it now ('' before any).
        "CREATE TABLE IF NOT EXISTS audit_streams (stream TEXT PRIMARY KEY, battle TEXT, label TEXT)",
        "CREATE TABLE IF NOT EXISTS audit_touched (battle TEXT, command_id TEXT, stream TEXT,"
        " PRIMARY KEY (battle, command_id, stream))",
    )

    def __init__(self) -> None:
        self._ids: dict[UUID, str] = {}  # each stream's id as text, made once
        self._time: datetime | None = None  # the last event's time, and as text
        self._time_text = ""
        self._words = Words()
        self._kinds: dict[type, _Kind] = {}  # ``_kind``s, of the classes read and of the Structs read narrowed
        self._keep = False  # a query asked for the rows of this catch-up (``keeping``)
        self._build: _Build | None = None  # every row, while this catch-up built them all
        self._indexed = False  # the index is known to be there (made or checked here)
        self._last = 0  # the notification id of the last event applied here
        self._held: dict[tuple[str, str], list[list[Any]]] = {}
        self._page()

    def narrowed(self, event_type: type) -> type | None:
        """An undo of a game is read as an ``UndoneRound``: its line needs
        the round of the state it restores, not the state."""
        narrow = undone_round(event_type)
        if narrow is not None:
            self._kinds[narrow] = _kind(event_type)
        return narrow

    def page_begun(self, position: int) -> None:
        # In a page's transaction only this projection writes its tables (the
        # runner holds the write lock), so a stream's row read there holds
        # until this projection writes it. Lines are held back and inserted
        # together when the page ends (or before a statement that reads
        # them): an undo marks the lines it reverts that are still held in
        # place, so a page costs one batch of inserts, not a flush and an
        # UPDATE for each of its undos. While a build holds every row, the
        # lines are held by battle and command for the whole catch-up: an
        # undo then knows which of them are in the table, and marks those by
        # their ids.
        if self._build is not None and position != self._last:
            self._build = None  # another process applied a page, or the last one was rolled back
        if self._build is None and self._keep and position == 0:
            self._build = _Build()
            self._held = {}
        self._page()

    def _page(self) -> None:
        self._streams: dict[str, tuple[str, str]] = {}  # audit_streams as read in this page
        self._lines: list[list[Any]] = []  # audit_lines not inserted yet, in order (_INSERT_LINE's columns)
        if self._build is None:
            self._held = {}  # those lines by (battle, command id)

    def page_ending(self, db: sqlite3.Connection) -> None:
        self._insert_lines(db)
        if self._build is not None:
            self._build.write(db)

    def _insert_lines(self, db: sqlite3.Connection) -> None:
        if not self._lines:
            return
        build = self._build
        if build is None:
            self._index(db)
            self._held = {}
        elif not build.written:  # the build's first rows: the index is made after the last
            db.execute("DROP INDEX IF EXISTS audit_by_battle")
            self._indexed = False
        db.executemany(_INSERT_LINE, self._lines)
        if build is not None:
            build.written = self._lines[-1][0]
        self._lines = []

    def _index(self, db: sqlite3.Connection) -> None:
        # A build cut short (a crash, an error, another process's page) left
        # the table without it: the next catch-up to write here makes it.
        if not self._indexed:
            db.execute(_INDEX)
            self._indexed = True

    @contextmanager
    def keeping(self) -> Iterator[None]:
        """Within it, a catch-up that builds the tables from empty keeps
        every row it writes, for ``kept`` (the caller holds the catch-up's
        lock, so that no other catch-up of this projection comes between).
        Call ``index`` after the catch-up."""
        self._keep = True
        try:
            yield
        finally:
            self._keep = False
            self._build = None
            self._held = {}

    def unindexed(self) -> bool:
        """Whether a build left the table without its index (``index``)."""
        return self._build is not None and self._build.written > 0 and not self._indexed

    def index(self, db: sqlite3.Connection) -> None:
        """Make the index a build left out, in ``db``'s write transaction."""
        self._index(db)

    def kept(self, stream: str, position: int) -> list[AuditLine] | None:
        """``audit_lines(db, stream)`` from the rows kept (``keeping``), when
        they are every line of the table up to ``position`` (the projection's
        committed position); else None."""
        if self._build is None or position != self._last:
            return None
        return [
            AuditLine(
                notification_id=row[0],
                stream=row[3],
                version=row[4],
                command_id=row[5],
                at=row[6],
                event=row[7],
                rule=row[8],
                text=row[9],
                undone=bool(row[10]),
                forced=bool(row[11]),
                undone_by=row[12],
            )
            for row in self._build.lines
            if row[1] == stream
        ]

    def _at(self, timestamp: datetime) -> str:
        """``timestamp`` as the ``at`` column holds it: a command's events
        share their time, so it is written once for them all."""
        time = self._time
        # The same fields in the same zone read the same. Compared as such
        # (one zone object: ``==`` compares the fields, asking no offset),
        # not as instants: the same instant at another offset reads
        # otherwise. Two zone objects are told again, which reads the same.
        if time is None or timestamp.tzinfo is not time.tzinfo or timestamp != time:
            self._time, self._time_text = timestamp, timestamp.isoformat()
        return self._time_text

    def _stream(self, db: sqlite3.Connection, stream: str) -> tuple[str, str]:
        """The battle and label of ``stream`` (not in ``_streams`` yet)."""
        build = self._build
        found = _stream(db, stream) if build is None else build.streams.get(stream) or _unknown(stream)
        self._streams[stream] = found
        return found

    @handles(Event)
    def line(self, db: sqlite3.Connection, nid: int, env: Envelope) -> None:
        stream = self._ids.get(env.originator_id)
        if stream is None:
            stream = self._ids[env.originator_id] = str(env.originator_id)
        e: Any = env.event  # its kind found once for its class (``_kind``), not by isinstance per event
        kind = self._kinds.get(type(e))
        if kind is None:
            kind = self._kinds[type(e)] = _kind(type(e))
        found, registers, undoes, name = kind
        if found is not None:
            self._learn(db, nid, stream, env, *found)
        battle, label = self._streams.get(stream) or self._stream(db, stream)
        if registers:
            rs = registry.load(e.ruleset)
            battle = str(rs.game_stream(e.battle_id))
        rule, text = self._words(e)
        row = [
            nid,
            battle,
            stream,
            label,
            env.originator_version,
            env.command_id,
            self._at(env.timestamp),
            name,
            rule,
            text,
            0,
            0,
            "",
        ]
        self._lines.append(row)
        build = self._build
        if build is not None:
            build.lines.append(row)
        key = (battle, env.command_id)
        held = self._held.get(key)
        if held is None:
            self._held[key] = [row]
        else:
            held.append(row)
        self._last = nid
        if undoes:
            # The lines of the command it reverts: those held back here (all
            # of them appended before it), and any inserted already.
            forced = int(e.forced)
            undone = self._held.get((battle, e.command_id), ())
            for reverted in undone:
                reverted[_UNDONE:] = (1, forced, env.command_id)
            if build is None:
                self._index(db)
                db.execute(
                    "UPDATE audit_lines SET undone = 1, forced = ?, undone_by = ?"
                    " WHERE battle = ? AND command_id = ? AND notification_id < ?",
                    (forced, env.command_id, battle, e.command_id, nid),
                )
            else:  # every line of the table is held: only those inserted are marked there, with the page
                build.mark(r for r in undone if r[0] <= build.written)

    def _learn(
        self, db: sqlite3.Connection, nid: int, stream: str, env: Envelope, rs: Ruleset, aggregate: Aggregate | None
    ) -> None:
        """Keep stream labels and which game another aggregate's stream writes
        for (``env``'s event is of ruleset ``rs``, of its ``aggregate`` when not
        of its game stream)."""
        e = env.event
        build = self._build
        if aggregate is not None:
            name = aggregate.name_of(e)
            if name is not None:  # keeping the game a command already claimed it for (a setup's Delve)
                self._streams.clear()
                label = printable(f"{aggregate.kind}:{name}")
                if build is None:
                    _name_stream(db, stream, label)
                else:
                    build.stream(stream, build.streams.get(stream, ("",))[0], label)
        elif isinstance(e, CommandIssued):
            if isinstance(e.command, rs.setup_commands):
                game_id = getattr(e.command, "battle_id", stream)
                self._streams.clear()
                if build is None:
                    self._insert_lines(db)
                label = printable(f"{rs.game_kind}:{game_id}")
                if build is None:
                    _set_stream(db, stream, stream, label)
                    _claim_prelude(db, nid, e.command_id, stream)
                else:
                    build.stream(stream, stream, label)
                    self._claim_kept_prelude(db, build, nid, e.command_id, stream)
            for touched, _version in e.touched:
                if build is None:
                    db.execute(_INSERT_TOUCHED, (stream, e.command_id, touched))
                else:
                    build.touch(stream, e.command_id, touched)
                self._streams.clear()
                self._claim(db, touched, stream)
        elif isinstance(e, (CommandUndone, UndoneRound)):
            if build is None:
                touched_streams = [
                    touched
                    for (touched,) in db.execute(
                        "SELECT stream FROM audit_touched WHERE battle = ? AND command_id = ?",
                        (stream, e.command_id),
                    )
                ]
            else:
                touched_streams = sorted(build.touched.get((stream, e.command_id), ()))
            for touched in touched_streams:
                self._streams.clear()
                self._claim(db, touched, stream)

    def _claim(self, db: sqlite3.Connection, stream: str, battle: str) -> None:
        """``_claim``, or in the build's rows."""
        build = self._build
        if build is None:
            _claim(db, stream, battle)
        else:
            build.stream(stream, battle, build.streams.get(stream, ("", stream))[1])

    def _claim_kept_prelude(
        self, db: sqlite3.Connection, build: _Build, nid: int, command_id: str, battle: str
    ) -> None:
        """``_claim_prelude`` on the rows a build holds: the same lines claimed
        (those inserted already in the table too), held under their new battle."""
        n = nid - 1
        for row in reversed(build.lines):
            if row[0] != n or row[1] != "" or row[5] != command_id:
                return
            self._held[("", command_id)].remove(row)
            row[1] = battle
            self._held.setdefault((battle, command_id), []).append(row)
            if n <= build.written:
                db.execute("UPDATE audit_lines SET battle = ? WHERE notification_id = ?", (battle, n))
            self._claim(db, row[2], battle)
            n -= 1


class _Build:
    """The rows of a catch-up that builds the audit's tables from empty:
    every line in order (each the list ``_INSERT_LINE`` takes, marked in
    place), ``audit_streams`` by stream and ``audit_touched`` by battle and
    command, as the table holds them once ``write`` has written what
    changed since it last did; ``written``, the last line inserted."""

    __slots__ = ("lines", "streams", "touched", "written", "_moved", "_new", "_marked")

    def __init__(self) -> None:
        self.lines: list[list[Any]] = []
        self.streams: dict[str, tuple[str, str]] = {}
        self.touched: dict[tuple[str, str], set[str]] = {}
        self.written = 0
        self._moved: set[str] = set()  # streams whose row changed since ``write``
        self._new: list[tuple[str, str, str]] = []  # audit_touched rows not written yet
        self._marked: dict[int, list[Any]] = {}  # lines in the table marked undone since ``write``, by id

    def stream(self, stream: str, battle: str, label: str) -> None:
        """``stream``'s row of ``audit_streams`` is now (battle, label)."""
        self.streams[stream] = (battle, label)
        self._moved.add(stream)

    def touch(self, battle: str, command_id: str, stream: str) -> None:
        """A row of ``audit_touched``, unless it is there."""
        touched = self.touched.setdefault((battle, command_id), set())
        if stream not in touched:
            touched.add(stream)
            self._new.append((battle, command_id, stream))

    def mark(self, lines: Iterable[list[Any]]) -> None:
        """``lines``, inserted already, are marked undone (in place): the
        table's rows are, by ``write``."""
        for line in lines:
            self._marked[line[0]] = line

    def write(self, db: sqlite3.Connection) -> None:
        """The rows of ``audit_streams`` and ``audit_touched`` changed since
        the last call, and the marks of lines undone since, each table in
        one statement (a page's: a command that writes to two adventurers
        changed three rows, each a statement of its own, and each undo of
        a command of an earlier page marked its lines with one)."""
        if self._marked:
            db.executemany(
                "UPDATE audit_lines SET undone = ?, forced = ?, undone_by = ? WHERE notification_id = ?",
                [(*line[_UNDONE:], nid) for nid, line in self._marked.items()],
            )
            self._marked = {}
        if self._moved:
            db.executemany(
                "INSERT OR REPLACE INTO audit_streams VALUES (?, ?, ?)",
                [(stream, *self.streams[stream]) for stream in sorted(self._moved)],
            )
            self._moved = set()
        if self._new:
            db.executemany(_INSERT_TOUCHED, self._new)
            self._new = []


_Kind = tuple[tuple[Ruleset, Aggregate | None] | None, bool, bool, str]


def _kind(event_type: type) -> _Kind:
    """What ``line`` asks of each event of ``event_type``, found once: its
    ruleset and aggregate (``owner``) when ``_learn`` has something to learn
    of it (an aggregate's event, a command, an undo; not the rules' own
    events, most of a game), whether it registers a game, whether it undoes
    a command, and its class's name (an ``UndoneRound``'s is the undo
    class's it stands for, ``narrowed``)."""
    found = owner(event_type)
    learns = found is not None and (
        found[1] is not None or issubclass(event_type, (CommandIssued, CommandUndone, UndoneRound))
    )
    return (
        found if learns else None,
        issubclass(event_type, (GameRegistered, BattleRegistered)),
        issubclass(event_type, CommandUndone),
        event_type.__name__,
    )


_INSERT_TOUCHED = "INSERT OR IGNORE INTO audit_touched VALUES (?, ?, ?)"
_INSERT_LINE = "INSERT OR REPLACE INTO audit_lines VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
_UNDONE = 10  # where a held line's undone, forced and undone_by are


def _claim_prelude(db: sqlite3.Connection, nid: int, command_id: str, battle: str) -> None:
    """A setup's prelude (new party members) was appended just before it, in
    the same transaction, when no game was known yet: claim those lines and
    their streams."""
    n = nid - 1
    while True:
        row = db.execute(
            "SELECT stream FROM audit_lines WHERE notification_id = ? AND battle = '' AND command_id = ?",
            (n, command_id),
        ).fetchone()
        if row is None:
            return
        db.execute("UPDATE audit_lines SET battle = ? WHERE notification_id = ?", (battle, n))
        _claim(db, row[0], battle)
        n -= 1


def _stream(db: sqlite3.Connection, stream: str) -> tuple[str, str]:
    found = db.execute("SELECT battle, label FROM audit_streams WHERE stream = ?", (stream,)).fetchone()
    return _unknown(stream) if found is None else found


def _unknown(stream: str) -> tuple[str, str]:
    """The battle and label of a stream ``audit_streams`` does not hold."""
    return ("", "index" if stream == str(INDEX_STREAM) or stream in {str(u) for u in legacy_streams()} else stream)


def _set_stream(db: sqlite3.Connection, stream: str, battle: str, label: str) -> None:
    db.execute("INSERT OR REPLACE INTO audit_streams VALUES (?, ?, ?)", (stream, battle, label))


def _name_stream(db: sqlite3.Connection, stream: str, label: str) -> None:
    db.execute(
        "INSERT INTO audit_streams VALUES (?, '', ?) ON CONFLICT (stream) DO UPDATE SET label = excluded.label",
        (stream, label),
    )


def _claim(db: sqlite3.Connection, stream: str, battle: str) -> None:
    """The next events of adventurer ``stream`` belong to ``battle``."""
    db.execute(
        "INSERT INTO audit_streams VALUES (?, ?, ?) ON CONFLICT (stream) DO UPDATE SET battle = excluded.battle",
        (stream, battle, stream),
    )


# -- reading -------------------------------------------------------------------


def audit_lines(db: sqlite3.Connection, stream: str) -> list[AuditLine]:
    """Every line attributed to battle ``stream``, in append order."""
    rows = db.execute(
        "SELECT notification_id, label, version, command_id, at, event, rule, text,"
        " undone, forced, undone_by FROM audit_lines WHERE battle = ? ORDER BY notification_id",
        (stream,),
    )
    return [
        AuditLine(
            notification_id=nid,
            stream=label,
            version=version,
            command_id=command_id,
            at=at,
            event=event,
            rule=rule,
            text=text,
            undone=bool(undone),
            forced=bool(forced),
            undone_by=undone_by,
        )
        for nid, label, version, command_id, at, event, rule, text, undone, forced, undone_by in rows
    ]
