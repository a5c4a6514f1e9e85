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

import re
import sqlite3
from datetime import datetime
from functools import lru_cache
from typing import Any
from uuid import UUID

import msgspec

from domain.kernel import ruleset as registry
from domain.kernel.narration import cited, line
from domain.kernel.commandlog import CommandIssued, CommandUndone
from domain.kernel.envelope import Envelope
from domain.kernel.battle_index import legacy_streams
from domain.kernel.games import INDEX_STREAM, BattleRegistered, GameRegistered
from domain.kernel.messages import Event
from domain.kernel.ruleset import Aggregate, Ruleset

from .runner import Projection, handles


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


class AuditView(Projection):
    """Lines by notification id, attributed to a battle stream."""

    name = "audit-5"  # audit-4 had each ruleset's own words for commands and undos; now the kernel's
    tables = ("audit_lines", "audit_streams", "audit_touched")
    schema = (
        "CREATE TABLE IF NOT EXISTS audit_lines (notification_id INTEGER PRIMARY KEY,"
        " battle TEXT, stream TEXT, label TEXT, version INTEGER, command_id TEXT, at TEXT,"
        " event TEXT, rule TEXT, text TEXT, undone INTEGER, forced INTEGER, undone_by TEXT)",
        "CREATE INDEX IF NOT EXISTS audit_by_battle ON audit_lines (battle, command_id)",
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
        self.page_begun()

    def page_begun(self) -> None:
        # In a page's transaction only this projection writes its tables (the
        # runner holds the write lock), so a stream's row read there holds
        # until this projection writes it. Lines are held back and inserted
        # together when the page ends (or before a statement that reads
        # them): an undo marks the lines it reverts that are still held in
        # place, so a page costs one batch of inserts, not a flush and an
        # UPDATE for each of its undos.
        self._streams: dict[str, tuple[str, str]] = {}  # audit_streams as read in this page
        self._lines: list[list[Any]] = []  # audit_lines not inserted yet, in order (_INSERT_LINE's columns)
        self._held: dict[tuple[str, str], list[list[Any]]] = {}  # those lines by (battle, command id)

    def page_ending(self, db: sqlite3.Connection) -> None:
        self._insert_lines(db)

    def _insert_lines(self, db: sqlite3.Connection) -> None:
        if self._lines:
            db.executemany(_INSERT_LINE, self._lines)
            self._lines = []
            self._held = {}

    def _at(self, timestamp: datetime) -> str:
        """``timestamp`` as the ``at`` column holds it: a command's events
        share their time, so it is written once for them all."""
        time = self._time
        # The same instant at another offset reads otherwise.
        if time is None or timestamp != time or timestamp.utcoffset() != time.utcoffset():
            self._time, self._time_text = timestamp, timestamp.isoformat()
        return self._time_text

    def _stream(self, db: sqlite3.Connection, stream: str) -> tuple[str, str]:
        found = self._streams.get(stream)
        if found is None:
            found = self._streams[stream] = _stream(db, stream)
        return found

    @handles(Event)
    def line(self, db: sqlite3.Connection, nid: int, env: Envelope) -> None:
        stream = self._ids.get(env.originator_id)
        if stream is None:
            stream = self._ids[env.originator_id] = str(env.originator_id)
        e = env.event
        self._learn(db, nid, stream, env)
        battle, label = self._stream(db, stream)
        if isinstance(e, (GameRegistered, BattleRegistered)):
            rs = registry.load(e.ruleset)
            battle = str(rs.game_stream(e.battle_id))
        rule, text = describe(e)
        row = [
            nid,
            battle,
            stream,
            label,
            env.originator_version,
            env.command_id,
            self._at(env.timestamp),
            type(e).__name__,
            rule,
            text,
            0,
            0,
            "",
        ]
        self._lines.append(row)
        key = (battle, env.command_id)
        held = self._held.get(key)
        if held is None:
            self._held[key] = [row]
        else:
            held.append(row)
        if isinstance(e, CommandUndone):
            # The lines of the command it reverts: those held back here (all
            # of them appended before it), and any inserted already.
            forced = int(e.forced)
            for undone in self._held.get((battle, e.command_id), ()):
                undone[_UNDONE:] = (1, forced, env.command_id)
            db.execute(
                "UPDATE audit_lines SET undone = 1, forced = ?, undone_by = ?"
                " WHERE battle = ? AND command_id = ? AND notification_id < ?",
                (forced, env.command_id, battle, e.command_id, nid),
            )

    def _learn(self, db: sqlite3.Connection, nid: int, stream: str, env: Envelope) -> None:
        """Keep stream labels and which game another aggregate's stream writes for."""
        e = env.event
        found = owner(type(e))
        if found is None:
            return
        rs, aggregate = found
        if aggregate is not None:
            name = aggregate.name_of(e)
            if name is not None:  # keeping the game a command already claimed it for (a setup's Delve)
                self._streams.clear()
                _name_stream(db, stream, _printable(f"{aggregate.kind}:{name}"))
        elif isinstance(e, CommandIssued):
            if isinstance(e.command, rs.setup_commands):
                game_id = getattr(e.command, "battle_id", stream)
                self._streams.clear()
                self._insert_lines(db)
                _set_stream(db, stream, stream, _printable(f"{rs.game_kind}:{game_id}"))
                _claim_prelude(db, nid, e.command_id, stream)
            for touched, _version in e.touched:
                db.execute(
                    "INSERT OR IGNORE INTO audit_touched VALUES (?, ?, ?)",
                    (stream, e.command_id, touched),
                )
                self._streams.clear()
                _claim(db, touched, stream)
        elif isinstance(e, CommandUndone):
            for (touched,) in db.execute(
                "SELECT stream FROM audit_touched WHERE battle = ? AND command_id = ?",
                (stream, e.command_id),
            ).fetchall():
                self._streams.clear()
                _claim(db, touched, stream)


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
    if found is not None:
        return found
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


# -- the words -----------------------------------------------------------------


@lru_cache(maxsize=None)
def owner(event_type: type) -> tuple[Ruleset, Aggregate | None] | None:
    """The ruleset an event type belongs to, and the other aggregate if it
    is not a game-stream event; None for the kernel's own (the index)."""
    for rs in registry.all_rulesets():
        if issubclass(event_type, rs.event_base):
            return rs, None
        for aggregate in rs.aggregates:
            if issubclass(event_type, aggregate.event_base):
                return rs, aggregate
    return None


def describe(e: Event) -> tuple[str, str]:
    """(rule ID, a readable sentence) for one event, from its ruleset's
    narrator (without the rule it leads with, which has its own column)."""
    if isinstance(e, (GameRegistered, BattleRegistered)):
        ruleset = e.ruleset
        return "", f"{ruleset} battle {e.battle_id} registered" + (f" ({e.setup})" if e.setup else "")
    found = owner(type(e))
    if found is None:
        return "", type(e).__name__
    rs = found[0]
    rule = cited(rs, e)
    text = line(rs, None, e, None)
    if rule and text.startswith(f"{rule}: "):
        text = text[len(rule) + 2 :]
    return rule, _printable(text)


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def _printable(text: str) -> str:
    """Control characters (terminal escapes in a name) shown, not obeyed."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)
