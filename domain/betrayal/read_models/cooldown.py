"""The cooldown track view: each adventurer's track, die by die, plus the
dice in their active slots and the drained dice on their race sheet
(TRACK-1, ACTIVE-1, DRAINED-2).

The tables hold only what the events say (die uid, face index, status); the
die's name and what its face means are looked up in the content pack when the
rows are read, so a rebuild never depends on which pack a process loaded.
Every event that carries a hero's new ``track``, ``active`` or ``drained``
replaces that hero's rows, exactly as ``evolve`` assigns them; a
``CommandUndone`` rewrites every hero of the battle from its ``restored``
state.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

import msgspec

from domain.betrayal.battle import events as ev
from domain.betrayal.battle.state import ActiveDie, DieKind, Hero, TrackDie
from domain.betrayal.packs.catalog import Pack, describe_face
from domain.kernel.envelope import Envelope

from domain.kernel.read_model import Projection, handles


class TrackRow(msgspec.Struct, frozen=True, kw_only=True):
    """One die on an adventurer's cooldown track, leftmost first.

    ``kind`` is ``skill``, ``light-fatigue``, ``overfatigue`` or ``status``;
    for skill dice ``uid`` is the adventurer's own die, ``die`` its content id
    and ``shown`` what the face shown means ("T", "instant damage 2");
    ``face`` is the face index, -1 when it does not matter; ``status`` names
    the status of a status die.
    """

    hero: str
    hero_name: str
    position: int
    kind: str
    uid: int
    die: str
    die_name: str
    face: int
    shown: str
    status: str


class SlotRow(msgspec.Struct, frozen=True, kw_only=True):
    """A die in an active slot (``slot="active"``, with the ``amount`` left to
    spend) or a drained skill die (``slot="drained"``)."""

    hero: str
    hero_name: str
    slot: str
    position: int
    kind: str
    uid: int
    die: str
    die_name: str
    face: int
    shown: str
    amount: int


class CooldownView(Projection):
    """Per battle stream, per hero: the track, active slots and drained dice."""

    name = "cooldown"
    tables = ("cooldown_heroes", "cooldown_dice", "cooldown_track", "cooldown_slots")
    schema = (
        "CREATE TABLE IF NOT EXISTS cooldown_heroes (stream TEXT, hero TEXT, seat INTEGER,"
        " name TEXT, pack_hash TEXT, PRIMARY KEY (stream, hero))",
        "CREATE TABLE IF NOT EXISTS cooldown_dice (stream TEXT, hero TEXT, uid INTEGER,"
        " die TEXT, PRIMARY KEY (stream, hero, uid))",
        "CREATE TABLE IF NOT EXISTS cooldown_track (stream TEXT, hero TEXT, position INTEGER,"
        " kind TEXT, uid INTEGER, face INTEGER, status TEXT, PRIMARY KEY (stream, hero, position))",
        "CREATE TABLE IF NOT EXISTS cooldown_slots (stream TEXT, hero TEXT, slot TEXT,"
        " position INTEGER, kind TEXT, uid INTEGER, face INTEGER, amount INTEGER,"
        " PRIMARY KEY (stream, hero, slot, position))",
    )

    @handles(ev.BattleStarted)
    def started(self, db: sqlite3.Connection, nid: int, env: Envelope) -> None:
        e: ev.BattleStarted = env.event  # type: ignore[assignment]
        stream = str(env.originator_id)
        for seat, hero in enumerate(e.party, start=1):
            db.execute(
                "INSERT OR REPLACE INTO cooldown_heroes VALUES (?, ?, ?, ?, ?)",
                (stream, hero.id, seat, hero.name, e.pack_hash),
            )
            db.executemany(
                "INSERT OR REPLACE INTO cooldown_dice VALUES (?, ?, ?, ?)",
                [(stream, hero.id, d.uid, d.die) for d in hero.dice],
            )
            _rewrite(db, stream, hero)

    @handles(ev.DieExhausted, ev.FatigueGained, ev.HeroStatusGained)
    def placed(self, db: sqlite3.Connection, nid: int, env: Envelope) -> None:
        e = env.event
        stream = str(env.originator_id)
        _track(db, stream, e.hero, e.track)  # type: ignore[attr-defined]
        _drained(db, stream, e.hero, e.drained)  # type: ignore[attr-defined]

    @handles(ev.DiceRecovered, ev.HeroStatusLost, ev.TrackDiceRecovered, ev.TrackDiceRemoved)
    def moved(self, db: sqlite3.Connection, nid: int, env: Envelope) -> None:
        e = env.event
        _track(db, str(env.originator_id), e.hero, e.track)  # type: ignore[attr-defined]

    @handles(ev.DieDrained)
    def drained(self, db: sqlite3.Connection, nid: int, env: Envelope) -> None:
        e: ev.DieDrained = env.event  # type: ignore[assignment]
        _drained(db, str(env.originator_id), e.hero, e.drained)

    @handles(ev.ActiveChanged)
    def active(self, db: sqlite3.Connection, nid: int, env: Envelope) -> None:
        e: ev.ActiveChanged = env.event  # type: ignore[assignment]
        _active(db, str(env.originator_id), e.hero, e.active)

    @handles(ev.HeroCleanedUp)
    def cleaned(self, db: sqlite3.Connection, nid: int, env: Envelope) -> None:
        # CLEANUP-4: active dice exhausted and drained dice recovered; the
        # track stays for the next battle (CLEANUP-4c).
        e: ev.HeroCleanedUp = env.event  # type: ignore[assignment]
        stream = str(env.originator_id)
        _track(db, stream, e.hero, e.track)
        _active(db, stream, e.hero, ())
        _drained(db, stream, e.hero, ())

    @handles(ev.CommandUndone)
    def undone(self, db: sqlite3.Connection, nid: int, env: Envelope) -> None:
        e: ev.CommandUndone = env.event  # type: ignore[assignment]
        for hero in e.restored.heroes:
            _rewrite(db, str(env.originator_id), hero)


def _rewrite(db: sqlite3.Connection, stream: str, hero: Hero) -> None:
    _track(db, stream, hero.id, hero.track)
    _active(db, stream, hero.id, hero.active)
    _drained(db, stream, hero.id, hero.drained)


def _track(db: sqlite3.Connection, stream: str, hero: str, track: Iterable[TrackDie]) -> None:
    db.execute("DELETE FROM cooldown_track WHERE stream = ? AND hero = ?", (stream, hero))
    db.executemany(
        "INSERT INTO cooldown_track VALUES (?, ?, ?, ?, ?, ?, ?)",
        [
            (stream, hero, i, d.kind.value, d.uid, d.face, d.status.value if d.status else "")
            for i, d in enumerate(track, start=1)
        ],
    )


def _active(db: sqlite3.Connection, stream: str, hero: str, active: Iterable[ActiveDie]) -> None:
    _slots(db, stream, hero, "active", [(a.kind.value, a.uid, a.face, a.amount) for a in active])


def _drained(db: sqlite3.Connection, stream: str, hero: str, uids: Iterable[int]) -> None:
    _slots(db, stream, hero, "drained", [(DieKind.SKILL.value, uid, -1, 0) for uid in uids])


def _slots(db: sqlite3.Connection, stream: str, hero: str, slot: str, dice: list[tuple]) -> None:
    db.execute("DELETE FROM cooldown_slots WHERE stream = ? AND hero = ? AND slot = ?", (stream, hero, slot))
    db.executemany(
        "INSERT INTO cooldown_slots VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [(stream, hero, slot, i, *die) for i, die in enumerate(dice, start=1)],
    )


# -- reading -------------------------------------------------------------------


def has_battle(db: sqlite3.Connection, stream: str) -> bool:
    """Whether the view knows the battle stream ``stream``."""
    return db.execute("SELECT 1 FROM cooldown_heroes WHERE stream = ? LIMIT 1", (stream,)).fetchone() is not None


def track_rows(db: sqlite3.Connection, stream: str, pack: Pack | None) -> list[TrackRow]:
    """The tracks of battle ``stream``, heroes in turn order, dice left to
    right. Names and face meanings come from ``pack`` when it is the pack the
    battle was played with; otherwise they are left as ids and indices."""
    labels = _Labels(db, stream, pack)
    rows = db.execute(
        "SELECT t.hero, h.name, t.position, t.kind, t.uid, t.face, t.status"
        " FROM cooldown_track t JOIN cooldown_heroes h ON h.stream = t.stream AND h.hero = t.hero"
        " WHERE t.stream = ? ORDER BY h.seat, t.position",
        (stream,),
    )
    out = []
    for hero, hero_name, position, kind, uid, face, status in rows.fetchall():
        die, die_name, shown = labels.die(hero, kind, uid, face)
        out.append(
            TrackRow(
                hero=hero,
                hero_name=hero_name,
                position=position,
                kind=kind,
                uid=uid,
                die=die,
                die_name=die_name,
                face=face,
                shown=shown,
                status=status,
            )
        )
    return out


def slot_rows(db: sqlite3.Connection, stream: str, pack: Pack | None) -> list[SlotRow]:
    """Active and drained dice of battle ``stream``, heroes in turn order."""
    labels = _Labels(db, stream, pack)
    rows = db.execute(
        "SELECT s.hero, h.name, s.slot, s.position, s.kind, s.uid, s.face, s.amount"
        " FROM cooldown_slots s JOIN cooldown_heroes h ON h.stream = s.stream AND h.hero = s.hero"
        " WHERE s.stream = ? ORDER BY h.seat, s.slot, s.position",
        (stream,),
    )
    out = []
    for hero, hero_name, slot, position, kind, uid, face, amount in rows.fetchall():
        die, die_name, shown = labels.die(hero, kind, uid, face)
        out.append(
            SlotRow(
                hero=hero,
                hero_name=hero_name,
                slot=slot,
                position=position,
                kind=kind,
                uid=uid,
                die=die,
                die_name=die_name,
                face=face,
                shown=shown,
                amount=amount,
            )
        )
    return out


class _Labels:
    """Die ids, names and face meanings for one battle's rows."""

    def __init__(self, db: sqlite3.Connection, stream: str, pack: Pack | None):
        hashes = {
            h for (h,) in db.execute("SELECT DISTINCT pack_hash FROM cooldown_heroes WHERE stream = ?", (stream,))
        }
        # A pack other than the battle's may number faces differently.
        self.pack = pack if pack is not None and hashes == {pack.hash} else None
        self.dice = {
            (hero, uid): die
            for hero, uid, die in db.execute("SELECT hero, uid, die FROM cooldown_dice WHERE stream = ?", (stream,))
        }

    def die(self, hero: str, kind: str, uid: int, face: int) -> tuple[str, str, str]:
        """(die id, die name, face meaning) of one die; empty for non-skill dice."""
        if kind != DieKind.SKILL.value:
            return "", "", ""
        die_id = self.dice.get((hero, uid), "")
        skill = self.pack.dice.get(die_id) if self.pack else None
        if skill is None:
            return die_id, die_id, "" if face < 0 else f"face {face}"
        shown = describe_face(skill.faces[face]) if 0 <= face < len(skill.faces) else ""
        return die_id, skill.name, shown
