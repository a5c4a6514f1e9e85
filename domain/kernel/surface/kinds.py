"""What a command's parameter is at the table, and how it is written.

A kind turns the words a player types into the value a command field
holds (``parse``), writes a value back as those words (``spell``), and
tells the adapters what the value is (``what``: a hex, a unit, a set of
dice, an order of cards, a number in a range, one of a list...), so the
command line, the API's schema and the page's controls are all made from
one declaration. People count from 1 (faces, positions, slots) where the
rules count from 0: the kinds that say so (``shown_from=1``) convert, here
and only here.

Parsing is free of any game state: whether a named unit exists, or a face
is on its die, is the rules' to say. A kind refuses only what cannot be
read at all, with ``MalformedCommand`` naming where it was typed.

Values are in their plain form, as ``msgspec.to_builtins`` gives a
command's fields (an enum as its value, a hex as its two numbers): the
command is made from them by ``msgspec.convert``.
"""

from __future__ import annotations

import enum
import shlex
from typing import Any, ClassVar

import msgspec

from domain.kernel.errors import MalformedCommand
from domain.kernel.hexes import label, parse_label

MAX_DIGITS = 9  # a typed number longer than this is refused before it is read
TYPED_FACE = "F"  # a face only the table knows, in a listing of what may be done with real dice


def quoted(text: str) -> str:
    """``text`` as one word of a command line (quoted when it must be)."""
    return shlex.quote(text) if text else "''"


class Kind(msgspec.Struct, frozen=True, kw_only=True):
    """Base of every kind. ``of`` names what it is for the adapters (a hex,
    dice, cards...); ``metavar`` is how help writes a value of it.

    Kinds are frozen msgspec Structs rather than dataclasses: a dataclass
    compiles its methods when its module loads, which every ``rk`` process
    paid for (issue 25). A Struct class's own fields are all keyword-only
    or none, so a kind whose fields are positional while its ``of`` is
    keyword-only takes that ``of`` from a private base (``_NumberOf``)."""

    of: str = "text"

    metavar: ClassVar[str] = "TEXT"

    @property
    def what(self) -> str:
        """What the value is at the table."""
        return self.of

    def parse(self, text: str, where: str) -> Any:
        """The value ``text`` (one typed word) stands for; ``where`` names
        the option or argument in a refusal."""
        raise NotImplementedError

    def spell(self, value: Any, placeholders: bool = False) -> str:
        """``value`` as the word that gives it. ``placeholders``: a listing
        of what may be done with real dice, where faces are the table's to
        type (``F``)."""
        raise NotImplementedError

    def schema(self) -> dict[str, Any]:
        """The JSON Schema of the value in a command's JSON."""
        return {"type": "string"}

    def describe(self) -> dict[str, Any]:
        """What a control for it needs to know (the page, the API)."""
        return {"what": self.of}


class Text(Kind, frozen=True):
    """Free text, or an id of the content (``of`` says what: an item, a
    skill). ``empty`` is the word that stands for no value (``none``)."""

    of: str = "text"
    empty: str = ""
    lower: bool = False

    metavar: ClassVar[str] = "TEXT"

    def parse(self, text: str, where: str) -> str:
        word = text.strip()
        if self.empty and word.lower() == self.empty:
            return ""
        if not word:
            raise MalformedCommand(f"{where}: write a {self.of}" + (f" (or {self.empty})" if self.empty else ""))
        return word.lower() if self.lower else word

    def spell(self, value: Any, placeholders: bool = False) -> str:
        if not value and self.empty:
            return self.empty
        return quoted(str(value))


class Unit(Text, frozen=True):
    """A unit on the table by its id (``e2``, ``p1``, a Regiment ``a3``),
    or by name where the rules take names (an adventurer). At the table: a
    unit to click."""

    of: str = "unit"


class HexKind(Kind, frozen=True, kw_only=True):
    """A hex of the map by its label (``c4``: column letter, row number)."""

    of: str = "hex"

    metavar: ClassVar[str] = "HEX"

    def parse(self, text: str, where: str) -> tuple[int, int]:
        try:
            return parse_label(text.strip())
        except MalformedCommand as e:
            raise MalformedCommand(f"{where}: {e}") from None

    def spell(self, value: Any, placeholders: bool = False) -> str:
        return label(tuple(value))

    def schema(self) -> dict[str, Any]:
        return {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2}


def _number(part: str, where: str, digits: int = MAX_DIGITS) -> int:
    """``part`` as a whole number of at most ``digits`` digits."""
    if not part.isascii() or not part.isdigit():
        raise MalformedCommand(f"{where}: {part[:20]!r} is not a whole number")
    if len(part) > digits:
        raise MalformedCommand(f"{where}: {part[:12]}... is far too large")
    return int(part)


class _NumberOf(Kind, frozen=True, kw_only=True):
    """Number's ``of``, keyword-only (see ``Kind``); Number's own fields stay positional."""

    of: str = "number"


class Number(_NumberOf, frozen=True):
    """A whole number from ``low`` to ``high`` as people count it;
    ``shown_from=1`` when people count from 1 what the rules count from 0
    (an active slot)."""

    low: int = 0
    high: int = 999
    shown_from: int = 0

    metavar: ClassVar[str] = "N"

    def parse(self, text: str, where: str) -> int:
        word = text.strip()
        negative = word.startswith("-")
        # as many digits as the bound has (a seed up to 2^63-1), never fewer than MAX_DIGITS
        digits = max(MAX_DIGITS, len(str(abs(self.high))), len(str(abs(self.low))))
        value = _number(word[1:] if negative else word, where, digits) * (-1 if negative else 1)
        if not self.low <= value <= self.high:
            raise MalformedCommand(f"{where}: {value} is not from {self.low} to {self.high}")
        return value - self.shown_from

    def spell(self, value: Any, placeholders: bool = False) -> str:
        return str(int(value) + self.shown_from)

    def schema(self) -> dict[str, Any]:
        return {"type": "integer", "minimum": self.low - self.shown_from, "maximum": self.high - self.shown_from}

    def describe(self) -> dict[str, Any]:
        return {"what": self.of, "low": self.low, "high": self.high}


class _NumbersOf(Kind, frozen=True, kw_only=True):
    """Numbers's ``of``, keyword-only (see ``Kind``); Numbers's own fields stay positional."""

    of: str = "numbers"


class Numbers(_NumbersOf, frozen=True):
    """Several whole numbers, comma-separated (``1,3``): die uids, roll
    positions, track positions. ``shown_from=1``: people count from 1.
    ``empty`` is the word for none at all (``none``), where none differs
    from leaving the option out. ``size``: exactly that many, when fixed."""

    low: int = 0
    high: int = 10**MAX_DIGITS
    shown_from: int = 0
    empty: str = ""
    size: int = 0

    metavar: ClassVar[str] = "N,N"

    def parse(self, text: str, where: str) -> tuple[int, ...]:
        word = text.strip()
        if self.empty and word.lower() == self.empty:
            return ()
        out = []
        for part in word.replace(" ", ",").split(","):
            if not part:
                continue
            value = _number(part, where)
            if value < self.shown_from:
                raise MalformedCommand(f"{where}: {value}: {self.of} are counted from {self.shown_from}")
            if not self.low <= value <= self.high:
                raise MalformedCommand(f"{where}: {value} is not from {self.low} to {self.high}")
            out.append(value - self.shown_from)
        if self.size and len(out) != self.size:
            raise MalformedCommand(f"{where}: write {self.size} numbers, e.g. " + ",".join("3" * self.size))
        return tuple(out)

    def spell(self, value: Any, placeholders: bool = False) -> str:
        if not value and self.empty:
            return self.empty
        return ",".join(str(v + self.shown_from) for v in value)

    def schema(self) -> dict[str, Any]:
        items: dict[str, Any] = {"type": "integer"}
        out: dict[str, Any] = {"type": "array", "items": items}
        if self.size:
            out |= {"minItems": self.size, "maxItems": self.size}
        return out


class Dice(Numbers, frozen=True, kw_only=True):
    """A set of an adventurer's dice, by the uids its sheet shows. At the
    table: dice picked by name and face."""

    of: str = "dice"


class _PositionsOf(Numbers, frozen=True, kw_only=True):
    """Positions's ``of``, keyword-only (see ``Kind``); Positions's own fields stay positional."""

    of: str = "positions"


class Positions(_PositionsOf, frozen=True):
    """Positions counted from 1 (a die in the roll, a slot of the track)."""

    shown_from: int = 1
    low: int = 1


class _FacesOf(Kind, frozen=True, kw_only=True):
    """Faces's ``of``, keyword-only (see ``Kind``); Faces's own fields stay positional."""

    of: str = "faces"


class Faces(_FacesOf, frozen=True):
    """Faces of physical dice as read off them, 1 to 6, in order (the rules
    hold face indices from 0). In a listing with ``placeholders`` each
    face is an ``F`` for the table to type. ``size``: exactly that many."""

    size: int = 0

    metavar: ClassVar[str] = "FACES"

    def parse(self, text: str, where: str) -> tuple[int, ...] | None:
        word = text.strip()
        if not word:
            return None
        out = []
        for part in word.replace(" ", ",").split(","):
            if not part:
                continue
            value = _number(part, where)
            if value < 1:
                raise MalformedCommand(f"{where}: faces are counted from 1 (1 to 6), not from 0")
            out.append(value - 1)
        if self.size and len(out) != self.size:
            raise MalformedCommand(f"{where}: type {self.size} faces, e.g. " + ",".join("35"[: self.size]))
        return tuple(out) or None

    def spell(self, value: Any, placeholders: bool = False) -> str:
        if placeholders:
            return ",".join(TYPED_FACE for _ in value)
        return ",".join(str(v + 1) for v in value)

    def schema(self) -> dict[str, Any]:
        return {"anyOf": [{"type": "array", "items": {"type": "integer", "minimum": 0}}, {"type": "null"}]}


class _ChoiceOf(Kind, frozen=True, kw_only=True):
    """Choice's ``of``, keyword-only (see ``Kind``); Choice's own fields stay positional."""

    of: str = "choice"


class Choice(_ChoiceOf, frozen=True):
    """One of a closed list (``values``), or of an enum's values: typed in
    any case."""

    values: tuple[str, ...] = ()
    enum: type[enum.Enum] | None = None

    metavar: ClassVar[str] = "CHOICE"

    @property
    def words(self) -> tuple[str, ...]:
        return tuple(str(m.value) for m in self.enum) if self.enum is not None else self.values

    def parse(self, text: str, where: str) -> str:
        word = text.strip().lower()
        if word not in self.words:
            raise MalformedCommand(f"{where}: {text[:30]!r} is not one of {', '.join(self.words)}")
        return word

    def spell(self, value: Any, placeholders: bool = False) -> str:
        return str(value.value if isinstance(value, enum.Enum) else value)

    def schema(self) -> dict[str, Any]:
        return {"enum": list(self.words)}

    def describe(self) -> dict[str, Any]:
        return {"what": self.of, "values": list(self.words)}


class _FlagOf(Kind, frozen=True, kw_only=True):
    """Flag's ``of``, keyword-only (see ``Kind``); Flag's own fields stay positional."""

    of: str = "flag"


class Flag(_FlagOf, frozen=True):
    """A yes/no given by the option's presence (``--overtax``). With
    ``both``, it is always written, yes or no (``--first``/``--no-first``)."""

    both: bool = False

    metavar: ClassVar[str] = ""

    def parse(self, text: str, where: str) -> bool:
        return True

    def spell(self, value: Any, placeholders: bool = False) -> str:
        return ""

    def schema(self) -> dict[str, Any]:
        return {"type": "boolean"}


class Names(Kind, frozen=True):
    """Several names or ids, comma-separated (``e1,e2``; targets, items),
    or joined by another ``sep`` (skill lines: ``bow+destruction-staff``).
    ``empty``: the word for none at all where none differs from leaving the
    option out."""

    of: str = "units"
    empty: str = ""
    size: int = 0
    sep: str = ","

    metavar: ClassVar[str] = "A,B"

    def parse(self, text: str, where: str) -> tuple[str, ...]:
        word = text.strip()
        if self.empty and word.lower() == self.empty:
            return ()
        out = tuple(p.strip() for p in word.split(self.sep) if p.strip())
        if self.size and len(out) != self.size:
            joined = "comma-separated" if self.sep == "," else f"joined by {self.sep}"
            raise MalformedCommand(f"{where}: name {self.size}, {joined}")
        return out

    def spell(self, value: Any, placeholders: bool = False) -> str:
        if not value and self.empty:
            return self.empty
        return quoted(self.sep.join(value))

    def schema(self) -> dict[str, Any]:
        return {"type": "array", "items": {"type": "string"}}


class Order(Names, frozen=True):
    """An order of cards, first to last (``a3,a1,ac1``). At the table: the
    cards dragged into order."""

    of: str = "cards"


class _SeatKindOf(Kind, frozen=True, kw_only=True):
    """SeatKind's ``of``, keyword-only (see ``Kind``); SeatKind's own fields stay positional."""

    of: str = "seat"


class SeatKind(_SeatKindOf, frozen=True):
    """A seat of the table, held by its index (0 the first player) and
    typed as its key (``a``) or its index."""

    keys: tuple[str, ...] = ("a", "b")

    metavar: ClassVar[str] = "SEAT"

    def parse(self, text: str, where: str) -> int:
        word = text.strip().lower()
        if word in self.keys:
            return self.keys.index(word)
        if word.isascii() and word.isdigit() and len(word) <= MAX_DIGITS and int(word) < len(self.keys):
            return int(word)
        raise MalformedCommand(f"{where}: {text[:30]!r} is not a seat; the seats are {', '.join(self.keys)}")

    def spell(self, value: Any, placeholders: bool = False) -> str:
        return self.keys[int(value)]

    def schema(self) -> dict[str, Any]:
        return {"type": "integer", "minimum": 0, "maximum": len(self.keys) - 1}

    def describe(self) -> dict[str, Any]:
        return {"what": "seat", "values": list(self.keys)}


class _PairOf(Kind, frozen=True, kw_only=True):
    """Pair's ``of``, keyword-only (see ``Kind``); Pair's own fields stay positional."""

    of: str = "pair"


class Pair(_PairOf, frozen=True):
    """Two numbers, one per seat (``3,1``: victory points)."""

    low: int = 0
    high: int = 999

    metavar: ClassVar[str] = "A,B"

    def parse(self, text: str, where: str) -> tuple[int, int]:
        parts = [p for p in text.replace(" ", ",").split(",") if p]
        if len(parts) != 2:
            raise MalformedCommand(f"{where}: write two numbers, one per player, e.g. 3,1")
        a, b = (_number(p, where) for p in parts)
        for v in (a, b):
            if not self.low <= v <= self.high:
                raise MalformedCommand(f"{where}: {v} is not from {self.low} to {self.high}")
        return (a, b)

    def spell(self, value: Any, placeholders: bool = False) -> str:
        return f"{value[0]},{value[1]}"

    def schema(self) -> dict[str, Any]:
        return {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2}


class Optional_(Kind, frozen=True):
    """Another kind, or None when not given (a hex an ability may name)."""

    inner: Kind = msgspec.field(default_factory=Text)

    @property
    def what(self) -> str:
        return self.inner.what

    @property
    def metavar(self) -> str:  # type: ignore[override]  # the inner kind's, where Kind's is a class constant
        return self.inner.metavar

    def parse(self, text: str, where: str) -> Any:
        return self.inner.parse(text, where)

    def spell(self, value: Any, placeholders: bool = False) -> str:
        return self.inner.spell(value, placeholders)

    def schema(self) -> dict[str, Any]:
        return {"anyOf": [self.inner.schema(), {"type": "null"}]}

    def describe(self) -> dict[str, Any]:
        return self.inner.describe()


class File(Kind, frozen=True, kw_only=True):
    """A file the player names (a sheet): the command line reads it and
    the value is ``{"file": its name, "text": what it holds}``, so a setup
    holds the content, never a path (the log replays without the file).
    Reading is the adapter's: here a typed name is only checked."""

    of: str = "file"

    metavar: ClassVar[str] = "FILE"

    def parse(self, text: str, where: str) -> dict[str, str]:
        name = text.strip()
        if not name:
            raise MalformedCommand(f"{where}: name a file")
        return {"file": name, "text": ""}

    def spell(self, value: Any, placeholders: bool = False) -> str:
        return quoted(value.get("file", "") if isinstance(value, dict) else str(value))

    def schema(self) -> dict[str, Any]:
        return {"type": "object", "properties": {"file": {"type": "string"}, "text": {"type": "string"}}}
