"""The skyshard view: a delve's progress toward its objective (SKYSHARD-*,
OBJ-4 to OBJ-11, EXPLORATION-5d, EXPLORATION-7a).

Per delve (one Delve stream per delve battle, named by the battle id its
``DelveBegun`` carries): the skyshards required (SKYSHARD-3), each delve card
kept face up with skyshard icons and the tile it lies beside (SKYSHARD-1,
SKYSHARD-8), each face-down shortage card counted as one skyshard gained
(EXPLORATION-7a, SKYSHARD-4), each skyshard obtained, by whom, from which
card and tile and how many (SKYSHARD-5, capped by SKYSHARD-9), and how the
delve concluded (OBJ-10, OBJ-11). Hero names come from the delve battle's
``BattleStarted``; card and tile names from the content pack when rows are
read.

Undo: a ``DelveRestored`` carries the whole DelveState the delve went back
to, so the delve's rows are rewritten from it. That state no longer says how
many icons a card showed once its skyshards were taken (SKYSHARD-5 sets
them to 0), but the restored state is always an earlier state of the same
delve, so every card in it was kept by an event this view already applied:
those rows keep their icons and only lose what the undone command added.
"""

from __future__ import annotations

import re
import sqlite3

import msgspec

from domain.betrayal.battle import events as ev
from domain.betrayal.delve import aggregate as dv
from domain.betrayal.packs.catalog import Pack
from domain.betrayal.vocab import DELVE_OBJECTIVES
from domain.kernel.envelope import Envelope

from domain.kernel.read_model import Projection, handles

_RULE_PREFIX = re.compile(r"^([A-Z][A-Z-]*-\d+[a-z]?):\s*(.*)$", re.S)


class Obtained(msgspec.Struct, frozen=True, kw_only=True):
    """One entry of the Delve's ``obtained``: ``hero`` and ``tile`` are
    empty for a face-down shortage card (EXPLORATION-7a)."""

    card: str
    tile: str
    hero: str
    count: int


class Kept(msgspec.Struct, frozen=True, kw_only=True):
    """A card kept face up with skyshard icons: how many it showed
    (``icons``) and how many still wait beside its tile (``left``)."""

    card: str
    tile: str
    icons: int
    left: int


class SkyshardProgress(msgspec.Struct, frozen=True, kw_only=True):
    """The numbers of one delve as the view holds them, the same names as
    ``DelveState`` (``drawn``, ``gained``, ``face_down``, ``obtained``)."""

    battle: str
    delve: str
    objective: str
    required: int
    icons: int
    drawn: int
    gained: int
    kept: tuple[Kept, ...]
    face_down: tuple[str, ...]
    obtained: tuple[Obtained, ...]
    concluded: str
    reason: str
    xp: int


class SkyshardRow(msgspec.Struct, frozen=True, kw_only=True):
    """One line of a delve's skyshard progress.

    ``kind`` is ``required`` (``count``: the skyshards the delve requires),
    ``drawn`` (a card kept face up with ``count`` icons; ``left`` still wait
    beside its ``tile``), ``face-down`` (a shortage card: one skyshard
    gained), ``obtained`` (``hero`` took ``count`` from ``card`` on
    ``tile``), ``drawn-total``, ``all-drawn`` (nothing is left to explore),
    ``gained``, ``objective`` (what the objective still needs) or
    ``concluded``. ``rule`` cites the rule IDs; ``note`` says it in words.
    """

    kind: str
    rule: str
    count: int = 0
    left: int = 0
    card: str = ""
    card_name: str = ""
    tile: str = ""
    tile_name: str = ""
    hero: str = ""
    hero_name: str = ""
    note: str = ""


class SkyshardView(Projection):
    """Per Delve stream: the requirement, the cards drawn, the face-down
    shortage cards, the skyshards obtained, the conclusion."""

    name = "skyshards-1"
    tables = (
        "skyshard_parties",
        "skyshard_delves",
        "skyshard_tiles",
        "skyshard_drawn",
        "skyshard_face_down",
        "skyshard_obtained",
    )
    schema = (
        # The party of a delve battle (by battle id), for hero names.
        "CREATE TABLE IF NOT EXISTS skyshard_parties (battle TEXT, hero TEXT, seat INTEGER, name TEXT,"
        " pack_hash TEXT, PRIMARY KEY (battle, hero))",
        "CREATE TABLE IF NOT EXISTS skyshard_delves (stream TEXT PRIMARY KEY, battle TEXT, delve TEXT,"
        " objective TEXT, required INTEGER, concluded TEXT, reason TEXT, skyshards INTEGER, xp INTEGER)",
        "CREATE INDEX IF NOT EXISTS skyshard_delves_by_battle ON skyshard_delves (battle)",
        "CREATE TABLE IF NOT EXISTS skyshard_tiles (stream TEXT, key TEXT, tile TEXT, PRIMARY KEY (stream, key))",
        # nid orders the cards as they were kept; a card is in one delve deck once.
        "CREATE TABLE IF NOT EXISTS skyshard_drawn (stream TEXT, card TEXT, tile TEXT, icons INTEGER,"
        " left INTEGER, nid INTEGER, PRIMARY KEY (stream, card))",
        "CREATE TABLE IF NOT EXISTS skyshard_face_down (stream TEXT, position INTEGER, card TEXT,"
        " shape TEXT, nid INTEGER, PRIMARY KEY (stream, position))",
        "CREATE TABLE IF NOT EXISTS skyshard_obtained (stream TEXT, position INTEGER, card TEXT,"
        " tile TEXT, hero TEXT, count INTEGER, PRIMARY KEY (stream, position))",
    )

    @handles(ev.BattleStarted)
    def started(self, db: sqlite3.Connection, nid: int, env: Envelope) -> None:
        e: ev.BattleStarted = env.event  # type: ignore[assignment]
        if e.objective not in DELVE_OBJECTIVES:  # a clash or a dungeon: no skyshards
            return
        db.execute("DELETE FROM skyshard_parties WHERE battle = ?", (e.battle_id,))
        db.executemany(
            "INSERT INTO skyshard_parties VALUES (?, ?, ?, ?, ?)",
            [(e.battle_id, h.id, seat, h.name, e.pack_hash) for seat, h in enumerate(e.party, start=1)],
        )

    @handles(dv.DelveBegun)
    def begun(self, db: sqlite3.Connection, nid: int, env: Envelope) -> None:
        e: dv.DelveBegun = env.event  # type: ignore[assignment]
        stream = str(env.originator_id)
        _forget(db, stream)
        s = e.state
        db.execute(
            "INSERT INTO skyshard_delves VALUES (?, ?, ?, ?, ?, ?, '', 0, 0)",
            (stream, s.battle_id, s.delve, s.objective.value, s.required, s.concluded),
        )
        _restore(db, nid, stream, s)

    @handles(dv.TilePlaced)
    def tile(self, db: sqlite3.Connection, nid: int, env: Envelope) -> None:
        e: dv.TilePlaced = env.event  # type: ignore[assignment]
        db.execute(
            "INSERT OR REPLACE INTO skyshard_tiles VALUES (?, ?, ?)",
            (str(env.originator_id), e.placed.key, e.placed.tile),
        )

    @handles(dv.CardKept)
    def kept(self, db: sqlite3.Connection, nid: int, env: Envelope) -> None:
        # SKYSHARD-1, SKYSHARD-4: icons on a face-up card count as drawn.
        e: dv.CardKept = env.event  # type: ignore[assignment]
        if e.skyshards > 0:
            db.execute(
                "INSERT OR REPLACE INTO skyshard_drawn VALUES (?, ?, ?, ?, ?, ?)",
                (str(env.originator_id), e.card, e.tile, e.skyshards, e.skyshards, nid),
            )

    @handles(dv.ShortageSkyshard)
    def shortage(self, db: sqlite3.Connection, nid: int, env: Envelope) -> None:
        # EXPLORATION-7a, SKYSHARD-4: face down, counted as one obtained.
        e: dv.ShortageSkyshard = env.event  # type: ignore[assignment]
        stream = str(env.originator_id)
        db.execute(
            "INSERT INTO skyshard_face_down VALUES (?, ?, ?, ?, ?)",
            (stream, _count(db, "skyshard_face_down", stream) + 1, e.card, e.shape, nid),
        )
        _obtain(db, stream, dv.Skyshard(e.card, "", "", 1))

    @handles(dv.SkyshardObtained)
    def obtained(self, db: sqlite3.Connection, nid: int, env: Envelope) -> None:
        # SKYSHARD-5, SKYSHARD-8, SKYSHARD-9 (the count is already capped).
        e: dv.SkyshardObtained = env.event  # type: ignore[assignment]
        stream = str(env.originator_id)
        db.execute("UPDATE skyshard_drawn SET left = 0 WHERE stream = ? AND tile = ?", (stream, e.tile))
        _obtain(db, stream, dv.Skyshard(e.card, e.tile, e.hero, e.count))

    @handles(dv.DelveConcluded)
    def concluded(self, db: sqlite3.Connection, nid: int, env: Envelope) -> None:
        e: dv.DelveConcluded = env.event  # type: ignore[assignment]
        db.execute(
            "UPDATE skyshard_delves SET concluded = ?, reason = ?, skyshards = ?, xp = ? WHERE stream = ?",
            (e.outcome, e.reason, e.skyshards, e.xp, str(env.originator_id)),
        )

    @handles(dv.DelveRestored)
    def restored(self, db: sqlite3.Connection, nid: int, env: Envelope) -> None:
        e: dv.DelveRestored = env.event  # type: ignore[assignment]
        stream = str(env.originator_id)
        if e.restored is None:  # back to before the delve began
            _forget(db, stream)
            return
        if not e.restored.concluded:
            db.execute(
                "UPDATE skyshard_delves SET concluded = '', reason = '', skyshards = 0, xp = 0 WHERE stream = ?",
                (stream,),
            )
        _restore(db, nid, stream, e.restored)


def _forget(db: sqlite3.Connection, stream: str) -> None:
    for table in ("skyshard_delves", "skyshard_tiles", "skyshard_drawn", "skyshard_face_down", "skyshard_obtained"):
        db.execute(f"DELETE FROM {table} WHERE stream = ?", (stream,))


def _count(db: sqlite3.Connection, table: str, stream: str) -> int:
    return db.execute(f"SELECT COUNT(*) FROM {table} WHERE stream = ?", (stream,)).fetchone()[0]


def _obtain(db: sqlite3.Connection, stream: str, s: dv.Skyshard) -> None:
    db.execute(
        "INSERT INTO skyshard_obtained VALUES (?, ?, ?, ?, ?, ?)",
        (stream, _count(db, "skyshard_obtained", stream) + 1, s.card, s.tile, s.hero, s.count),
    )


def _restore(db: sqlite3.Connection, nid: int, stream: str, s: dv.DelveState) -> None:
    """Make the delve's rows say what ``s`` says (DelveBegun, DelveRestored)."""
    db.execute("DELETE FROM skyshard_tiles WHERE stream = ?", (stream,))
    db.executemany("INSERT INTO skyshard_tiles VALUES (?, ?, ?)", [(stream, t.key, t.tile) for t in s.tiles])
    # Cards: keep the rows of cards still kept (with the icons their CardKept
    # showed), with what still waits beside their tile; drop the rest.
    rows = {
        card: (tile, icons)
        for card, tile, icons in db.execute("SELECT card, tile, icons FROM skyshard_drawn WHERE stream = ?", (stream,))
    }
    still = {(k.card, k.tile): k for k in s.kept}
    for card, (tile, icons) in rows.items():
        k = still.get((card, tile))
        if k is None:
            db.execute("DELETE FROM skyshard_drawn WHERE stream = ? AND card = ?", (stream, card))
        else:
            db.execute("UPDATE skyshard_drawn SET left = ? WHERE stream = ? AND card = ?", (k.skyshards, stream, card))
    for k in s.kept:
        if k.skyshards > 0 and k.card not in rows:  # not met in practice: an earlier state's card has its row
            db.execute(
                "INSERT INTO skyshard_drawn VALUES (?, ?, ?, ?, ?, ?)",
                (stream, k.card, k.tile, k.skyshards, k.skyshards, nid),
            )
    # Face-down cards only ever grow, so an earlier state keeps a prefix.
    shapes = {
        card: (shape, at)
        for card, shape, at in db.execute("SELECT card, shape, nid FROM skyshard_face_down WHERE stream = ?", (stream,))
    }
    db.execute("DELETE FROM skyshard_face_down WHERE stream = ?", (stream,))
    db.executemany(
        "INSERT INTO skyshard_face_down VALUES (?, ?, ?, ?, ?)",
        [(stream, i, card, *shapes.get(card, ("", nid))) for i, card in enumerate(s.face_down, start=1)],
    )
    db.execute("DELETE FROM skyshard_obtained WHERE stream = ?", (stream,))
    for o in s.obtained:
        _obtain(db, stream, o)


# -- reading -------------------------------------------------------------------


def delve_stream_of(db: sqlite3.Connection, battle_id: str) -> str | None:
    """The Delve stream of delve battle ``battle_id``, None if the view
    knows no delve of that battle (a clash, a dungeon)."""
    row = db.execute("SELECT stream FROM skyshard_delves WHERE battle = ?", (battle_id,)).fetchone()
    return None if row is None else row[0]


def progress(db: sqlite3.Connection, stream: str) -> SkyshardProgress | None:
    """The numbers of the delve of Delve stream ``stream``; None if unknown."""
    delve = db.execute(
        "SELECT battle, delve, objective, required, concluded, reason, xp FROM skyshard_delves WHERE stream = ?",
        (stream,),
    ).fetchone()
    if delve is None:
        return None
    battle, setup, objective, required, concluded, reason, xp = delve
    kept = tuple(
        Kept(card=c, tile=t, icons=i, left=left)
        for c, t, i, left in db.execute(
            "SELECT card, tile, icons, left FROM skyshard_drawn WHERE stream = ? ORDER BY nid, card", (stream,)
        )
    )
    face_down = tuple(
        c for (c,) in db.execute("SELECT card FROM skyshard_face_down WHERE stream = ? ORDER BY position", (stream,))
    )
    obtained = tuple(
        Obtained(card=c, tile=t, hero=h, count=n)
        for c, t, h, n in db.execute(
            "SELECT card, tile, hero, count FROM skyshard_obtained WHERE stream = ? ORDER BY position", (stream,)
        )
    )
    icons = sum(k.icons for k in kept)
    return SkyshardProgress(
        battle=battle,
        delve=setup,
        objective=objective,
        required=required,
        icons=icons,
        drawn=icons + len(face_down),
        gained=min(required, sum(o.count for o in obtained)),
        kept=kept,
        face_down=face_down,
        obtained=obtained,
        concluded=concluded,
        reason=reason,
        xp=xp,
    )


def skyshard_rows(db: sqlite3.Connection, stream: str, pack: Pack | None) -> list[SkyshardRow]:
    """The progress of the delve of Delve stream ``stream`` as lines, citing
    the rules; empty if the delve is unknown. Card and tile names come from
    ``pack`` when it is the pack the delve was played with."""
    p = progress(db, stream)
    if p is None:
        return []
    names = _Names(db, stream, p.battle, pack)
    setup = names.delve(p.delve)
    objective = p.objective.capitalize()
    rows = [
        SkyshardRow(
            kind="required",
            rule="SKYSHARD-3, OBJ-5" if p.objective == "survey" else "SKYSHARD-3, OBJ-8",
            count=p.required,
            note=f"{setup} ({objective}) requires {_shards(p.required)}",
        )
    ]
    # Cards drawn, face up and face down, in the order they came.
    drawn = [
        (nid, "up", c, t, i, left)
        for c, t, i, left, nid in db.execute(
            "SELECT card, tile, icons, left, nid FROM skyshard_drawn WHERE stream = ?", (stream,)
        )
    ]
    drawn += [
        (nid, "down", c, shape, 1, 0)
        for c, shape, nid in db.execute("SELECT card, shape, nid FROM skyshard_face_down WHERE stream = ?", (stream,))
    ]
    taken = {o.tile: o for o in p.obtained if o.tile}
    for _, side, card, where, icons, left in sorted(drawn, key=lambda r: (r[0], r[2])):
        if side == "down":
            shape = f"no {where} tile" if where else "no tile of its shape"
            rows.append(
                SkyshardRow(
                    kind="face-down",
                    rule="EXPLORATION-7a, SKYSHARD-4",
                    count=1,
                    card=card,
                    card_name=names.card(card),
                    note=f"{shape} left: {names.card(card)} lies face down and counts as 1 skyshard gained",
                )
            )
            continue
        rule = "SKYSHARD-1, SKYSHARD-8" if icons > 1 else "SKYSHARD-1"
        where_ = names.where(where)
        if left:
            note = (
                f"{_shards(icons)} on {names.card(card)} beside {where_}: entering {where} obtains"
                f" {'them' if left > 1 else 'it'} (SKYSHARD-5)"
            )
        elif where in taken:
            note = (
                f"{_shards(icons)} on {names.card(card)} beside {where_}: obtained by {names.hero(taken[where].hero)}"
            )
        else:
            note = f"{_shards(icons)} on {names.card(card)} beside {where_}"
        rows.append(
            SkyshardRow(
                kind="drawn",
                rule=rule,
                count=icons,
                left=left,
                card=card,
                card_name=names.card(card),
                tile=where,
                tile_name=names.tile(where),
                note=note,
            )
        )
    icons_of = {k.tile: k.icons for k in p.kept}
    for o in p.obtained:
        if not o.tile:  # a face-down shortage card, shown above
            continue
        rule, note = (
            "SKYSHARD-5",
            f"{names.hero(o.hero)} entered {names.where(o.tile)} and obtained"
            f" {_shards(o.count)} from {names.card(o.card)}",
        )
        if o.count > 1:
            rule += ", SKYSHARD-8"
        shown = icons_of.get(o.tile, o.count)
        if o.count < shown:
            rule += ", SKYSHARD-9"
            note += f" ({shown - o.count} of its {shown} in excess of the requirement, ignored)"
        rows.append(
            SkyshardRow(
                kind="obtained",
                rule=rule,
                count=o.count,
                card=o.card,
                card_name=names.card(o.card),
                tile=o.tile,
                tile_name=names.tile(o.tile),
                hero=o.hero,
                hero_name=names.hero(o.hero),
                note=note,
            )
        )
    rows.append(
        SkyshardRow(
            kind="drawn-total",
            rule="SKYSHARD-4",
            count=p.drawn,
            note=f"drawn {p.drawn} of {p.required}: {_plural(p.icons, 'icon')} face up"
            f" + {_plural(len(p.face_down), 'face-down card')}",
        )
    )
    if p.drawn >= p.required:
        rows.append(
            SkyshardRow(
                kind="all-drawn",
                rule="EXPLORATION-5d",
                count=p.drawn,
                note="all drawn: nothing left to explore (no hex is explorable once every required skyshard is drawn)",
            )
        )
    total = sum(o.count for o in p.obtained)
    note = f"gained {p.gained} of {p.required}"
    if total > p.required:
        note += f" ({total - p.required} in excess, ignored)"
    rule = "SKYSHARD-7, SKYSHARD-9" if total > p.required else "SKYSHARD-7"
    rows.append(SkyshardRow(kind="gained", rule=rule, count=p.gained, note=note))
    rows.append(_objective(p) if not p.concluded else _conclusion(p))
    return rows


def _objective(p: SkyshardProgress) -> SkyshardRow:
    """What the objective still needs (OBJ-4 Survey, OBJ-8 Uncover)."""
    more = p.required - p.gained
    if p.objective == "uncover":
        if more > 0:
            note = f"Uncover: obtain {more} more, then retreat at the end of a round"
        else:
            note = "Uncover: every required skyshard obtained: retreat at the end of a round to succeed"
        return SkyshardRow(kind="objective", rule="OBJ-8, RETREAT-5", count=max(0, more), note=note)
    if more > 0:
        return SkyshardRow(kind="objective", rule="OBJ-4", count=more, note=f"Survey: obtain {more} more")
    return SkyshardRow(
        kind="objective",
        rule="OBJ-4, SKYSHARD-2",
        count=0,
        note="Survey: complete: every required skyshard obtained, the map is fully explored",
    )


def _conclusion(p: SkyshardProgress) -> SkyshardRow:
    """How the delve ended and the skyshard XP it gave (OBJ-10, OBJ-11)."""
    rule, why = _split_rule(p.reason)
    rules = [rule] if rule else []
    if p.objective == "uncover":
        if p.xp:
            rules.append("OBJ-10")
            xp = f"XP {p.xp}: 1 per skyshard gained"
        elif rule == "END-1c":
            rules.append("OBJ-11")
            xp = "no XP: the whole party was defeated"
        else:
            rules.append("OBJ-10")
            xp = "no XP: no skyshard gained"
    else:
        rules.append("OBJ-4" if p.concluded == "success" else "OBJ-6")
        xp = "no skyshard XP (only Uncover gives it, OBJ-10)"
    return SkyshardRow(
        kind="concluded",
        rule=", ".join(rules),
        count=p.xp,
        note=f"{p.concluded}: {why}; {xp}",
    )


def _split_rule(text: str) -> tuple[str, str]:
    """("END-1c", "every adventurer...") from "END-1c: every adventurer..."."""
    found = _RULE_PREFIX.match(text)
    return (found.group(1), found.group(2)) if found else ("", text)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _shards(n: int) -> str:
    return _plural(n, "skyshard")


class _Names:
    """Names of heroes (from the battle's party), cards, tiles and the
    delve setup (from the pack, when it is the delve's)."""

    def __init__(self, db: sqlite3.Connection, stream: str, battle: str, pack: Pack | None):
        party = db.execute("SELECT hero, name, pack_hash FROM skyshard_parties WHERE battle = ?", (battle,)).fetchall()
        self.heroes = {hero: name for hero, name, _ in party}
        hashes = {h for _, _, h in party}
        self.pack = pack if pack is not None and hashes == {pack.delve_hash} else None
        self.tiles = dict(db.execute("SELECT key, tile FROM skyshard_tiles WHERE stream = ?", (stream,)).fetchall())

    def hero(self, hero: str) -> str:
        return self.heroes.get(hero, hero)

    def card(self, card: str) -> str:
        found = self.pack.cards.get(card) if self.pack else None
        return found.name if found else card

    def tile(self, key: str) -> str:
        tile = self.tiles.get(key, "")
        if self.pack is None:
            return tile
        if self.pack.entrance is not None and tile == self.pack.entrance.id:
            return self.pack.entrance.name
        found = self.pack.tiles.get(tile)
        return found.name if found else tile

    def where(self, key: str) -> str:
        """``t2 (Guard Alcove)``."""
        name = self.tile(key)
        return f"{key} ({name})" if name else key

    def delve(self, delve: str) -> str:
        found = self.pack.delves.get(delve) if self.pack else None
        return found.name if found else delve
