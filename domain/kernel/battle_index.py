"""The game index: which games a store holds, what each is called, and
which were deleted.

The index is one stream of small events in creation order. A game's id is
fixed by its log (its setup names it; export, import and verify carry it),
so renaming never touches the log: ``BattleRenamed`` gives the game a name
in this store, beside its id. Deleting is soft: ``BattleDeleted`` hides a
game from the list and from the default choice, ``BattleRestored`` brings
it back, and its log stays whole (it can still be exported or verified).

``BattleIndex`` folds those events into what the application asks of the
index: find a game by id or name, tell whether a name is free, make a
fresh readable id. It is pure: the application reads the stream.
"""

from __future__ import annotations

import re
from typing import ClassVar
from uuid import NAMESPACE_URL, UUID

import msgspec

from domain.kernel.digests import uuid5
from domain.kernel.errors import MalformedCommand
from domain.kernel.messages import Event

MAX_NAME = 64
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
_STEM_WORDS = re.compile(r"[a-z0-9]+")
MAX_STEM = 16  # characters of a setup's id a default battle id keeps


class GameRegistered(Event, frozen=True, kw_only=True):
    """The game index: one event per game of any ruleset, in creation order."""

    TOPIC = "rulekeeper.GameRegistered"
    battle_id: str
    ruleset: str
    setup: str = ""


class BattleRegistered(Event, frozen=True, kw_only=True):
    """A game in the index a ruleset package kept for itself before the
    kernel kept one: stores written then are still listed (read as a
    ``GameRegistered``), never appended to. It is stored in that package's
    own index stream (``legacy_stream``) under its topic
    (``<package>.BattleRegistered``, ``legacy_class``), and its ruleset is
    that package."""

    battle_id: str
    setup: str

    package: ClassVar[str] = ""

    @property
    def ruleset(self) -> str:
        return self.package


_LEGACY: dict[str, type[BattleRegistered]] = {}


def legacy_class(package: str) -> type[BattleRegistered]:
    """The legacy registration of ruleset package ``package``, under its topic."""
    found = _LEGACY.get(package)
    if found is None:
        found = _LEGACY[package] = type(
            f"{package.title()}BattleRegistered",
            (BattleRegistered,),
            {"TOPIC": f"{package}.BattleRegistered", "package": package, "__module__": __name__},
        )
    return found


def legacy_stream(package: str) -> UUID:
    """The index stream ruleset package ``package`` kept before the kernel's."""
    return uuid5(NAMESPACE_URL, f"rulekeeper:{package}:index")


def legacy_streams() -> dict[UUID, str]:
    """Every ruleset package's old index stream, by stream (their events'
    topics registered, so the stores that hold them can be read)."""
    from domain.kernel.packages import names

    out = {}
    for package in names():
        legacy_class(package)
        out[legacy_stream(package)] = package
    return out


class BattleRenamed(Event, frozen=True, kw_only=True):
    """Game ``battle_id`` is called ``name`` in this store from now on
    (``name`` equal to the id takes a given name back)."""

    TOPIC = "rulekeeper.BattleRenamed"
    battle_id: str
    name: str


class BattleDeleted(Event, frozen=True, kw_only=True):
    """Game ``battle_id`` is no longer listed nor chosen by default; its log
    is kept whole."""

    TOPIC = "rulekeeper.BattleDeleted"
    battle_id: str


class BattleRestored(Event, frozen=True, kw_only=True):
    """A deleted game is listed again."""

    TOPIC = "rulekeeper.BattleRestored"
    battle_id: str


INDEX_EVENTS = (GameRegistered, BattleRegistered, BattleRenamed, BattleDeleted, BattleRestored)


class IndexEntry(msgspec.Struct, frozen=True):
    """One game as the index knows it: its fixed id, its ruleset and setup,
    the name it goes by (its id unless renamed), whether it was deleted."""

    battle_id: str
    ruleset: str
    setup: str
    name: str
    deleted: bool = False


def check_name(name: str, what: str = "battle name") -> None:
    """Refuse a name that could not be typed as one word after ``--battle``
    (MalformedCommand: no rule sets it).

    >>> check_name("friday-night")
    >>> check_name("-x")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    domain.kernel.errors.MalformedCommand: battle name '-x': use 1 to 64 letters (a-z, A-Z), digits, ...
    """
    if not _NAME.fullmatch(name):
        shown = name if len(name) <= 40 else name[:40] + "..."
        raise MalformedCommand(
            f"{what} {shown!r}: use 1 to {MAX_NAME} letters (a-z, A-Z), digits, '-', '_' or '.',"
            " starting with a letter or digit"
        )


def stem_of(setup: str) -> str:
    """The start of a default battle id: the first word of the setup's id
    (two when the first is short), ``battle`` when it has none.

    >>> stem_of("waystone-crossing"), stem_of("the-old-mill"), stem_of("")
    ('waystone', 'the-old', 'battle')
    """
    words = _STEM_WORDS.findall(setup.lower())
    if not words:
        return "battle"
    stem = "-".join(words[:2]) if len(words[0]) < 4 and len(words) > 1 else words[0]
    return stem[:MAX_STEM].rstrip("-")


def _key(text: str) -> str:
    """Names are told apart without regard to ASCII case (as SQLite's
    ``lower`` does, so the battles view agrees)."""
    return text.lower() if text.isascii() else text


class BattleIndex:
    """The index folded: ``apply`` each event in order (the legacy stream's
    first), then ask it. Ids match exactly first; then names; then either
    regardless of case, when only one game matches."""

    def __init__(self) -> None:
        self._entries: dict[str, IndexEntry] = {}
        self._by_key: dict[str, set[str]] = {}  # _key(id or name) -> ids

    def apply(self, event: Event) -> None:
        """Fold one index event in."""
        if isinstance(event, (GameRegistered, BattleRegistered)):
            gid = event.battle_id
            # A log imported under an id that another game goes by as a name:
            # the name yields (the id is fixed in the log, the name is not).
            for other in list(self._by_key.get(_key(gid), ())):
                entry = self._entries[other]
                if entry.name != entry.battle_id and _key(entry.name) == _key(gid):
                    self._rename(entry, entry.battle_id)
            self._entries[gid] = IndexEntry(gid, event.ruleset, event.setup, gid)
            self._by_key.setdefault(_key(gid), set()).add(gid)
        elif isinstance(event, BattleRenamed) and event.battle_id in self._entries:
            self._rename(self._entries[event.battle_id], event.name)
        elif isinstance(event, (BattleDeleted, BattleRestored)) and event.battle_id in self._entries:
            entry = self._entries[event.battle_id]
            self._entries[entry.battle_id] = msgspec.structs.replace(entry, deleted=isinstance(event, BattleDeleted))

    def _rename(self, entry: IndexEntry, name: str) -> None:
        if _key(entry.name) != _key(entry.battle_id):  # the id's own key stays: ids are always found
            self._by_key.get(_key(entry.name), set()).discard(entry.battle_id)
        self._entries[entry.battle_id] = msgspec.structs.replace(entry, name=name)
        self._by_key.setdefault(_key(name), set()).add(entry.battle_id)

    def entries(self, *, deleted: bool = False) -> list[IndexEntry]:
        """Every game in creation order; deleted ones only if asked."""
        return [e for e in self._entries.values() if deleted or not e.deleted]

    def get(self, battle_id: str) -> IndexEntry | None:
        """The entry of the game whose id is exactly ``battle_id``."""
        return self._entries.get(battle_id)

    def find(self, text: str) -> IndexEntry | None:
        """The game ``text`` names: by id, then by name, then by either in
        any case when one game alone matches; None if none does."""
        found = self._entries.get(text)
        if found is not None:
            return found
        named = [e for e in self._entries.values() if e.name == text]
        if len(named) == 1:
            return named[0]
        loose = self._by_key.get(_key(text), set())
        return self._entries[next(iter(loose))] if len(loose) == 1 else None

    def holder(self, name: str) -> IndexEntry | None:
        """The game that already has ``name`` as its id or name, in any case
        (deleted games keep theirs, so a restore never collides)."""
        ids = self._by_key.get(_key(name), set())
        return self._entries[min(ids)] if ids else None

    def fresh_id(self, setup: str) -> str:
        """A readable id no game has: the setup's stem and the first free
        number, ``waystone-1``, ``waystone-2``..."""
        stem, n = stem_of(setup), 1
        while self.holder(f"{stem}-{n}") is not None:
            n += 1
        return f"{stem}-{n}"


legacy_streams()  # every package's old topic known before any store is read
