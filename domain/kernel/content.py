"""Reading a content pack's TOML into checked values, for every ruleset.

Each ruleset's ``packs`` module turns its files into typed Structs with these
pieces and refuses anything malformed with a ``ContentError`` naming the
file, the field path (``armies.saltmarch.regiments.brine-spears.class``)
and the reason. Pure: the caller reads the bytes.

A converter (``Conv``) takes a value and the place it was found (``At``) and
returns the checked value or fails there; ``record`` checks a table against
``Fields`` (key -> (converter, default or ``REQUIRED``)).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from enum import Enum
from typing import Any, NoReturn

from domain.kernel.digests import blake2b
from domain.kernel.errors import ContentError
from domain.kernel.toml_lines import line_of

ID = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")
ID_SHAPE = "(lowercase letters and digits joined by single hyphens)"
REQUIRED = object()  # a field's default: the key must be there


@dataclass(frozen=True)
class At:
    """A place in a pack: the file and a field path inside it."""

    file: str
    path: str = ""

    def key(self, name: str) -> At:
        return At(self.file, f"{self.path}.{name}" if self.path else name)

    def index(self, i: int) -> At:
        return At(self.file, f"{self.path}[{i}]")

    def fail(self, reason: str) -> NoReturn:
        raise ContentError(self.file, self.path or "(file)", reason)


Conv = Callable[[Any, At], Any]
Fields = Mapping[str, tuple[Conv, Any]]  # key -> (converter, default or REQUIRED)


def pack_hash(files: Mapping[str, bytes]) -> str:
    """Hex BLAKE2b (16 bytes) of the pack files sorted by name, each fed as
    name, NUL, content."""
    digest = blake2b(digest_size=16)
    for name in sorted(files):
        digest.update(name.encode() + b"\0" + files[name])
    return digest.hexdigest()


def document(name: str, files: Mapping[str, bytes]) -> dict[str, Any]:
    """File ``name`` of the pack as TOML; a missing file, text that is not
    UTF-8 or a syntax error is refused with its line."""
    if name not in files:
        raise ContentError(name, "(file)", "the pack has no such file")
    import tomllib  # here: a pack read back from its cache (pack_cache) needs no parser

    raw = files[name]
    try:
        text_ = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        raise ContentError(name, f"line {line}", "not UTF-8 text") from None
    try:
        return tomllib.loads(text_)
    except tomllib.TOMLDecodeError as error:
        line, reason = _syntax_line(str(error), text_)
        raise ContentError(name, f"line {line}", f"TOML syntax error: {reason}") from None


@contextmanager
def located(files: Mapping[str, bytes]) -> Iterator[None]:
    """Refusals of well-formed but wrong content raised inside name the
    line their field is written on (``toml_lines``), as a syntax error does."""
    try:
        yield
    except ContentError as error:
        line = _line_of(files, error)
        if line is None:
            raise
        raise ContentError(error.file, error.field, error.reason, line=line) from None


def _line_of(files: Mapping[str, bytes], error: ContentError) -> int | None:
    if error.line is not None or error.file not in files or error.field.startswith(("line ", "(")):
        return None
    try:
        return line_of(files[error.file].decode("utf-8"), error.field)
    except UnicodeDecodeError:
        return None


def _syntax_line(message: str, text_: str) -> tuple[int, str]:
    # tomllib on 3.11 only puts the position in the message text
    found = re.search(r"\s*\(at line (\d+), column \d+\)$", message)
    if found:
        return int(found.group(1)), message[: found.start()]
    last = max(1, text_.count("\n") + (0 if text_.endswith("\n") else 1))
    return last, message.replace(" (at end of document)", " at end of file")


# ---------------------------------------------------------------- values


def kind_of(value: object) -> str:
    """How a TOML value is named in an error: "an integer", "a table"..."""
    names = {bool: "a boolean", int: "an integer", float: "a float", str: "a string"}
    names |= {list: "an array", dict: "a table"}
    return names.get(type(value), type(value).__name__)


def text(value: object, at: At) -> str:
    """A non-empty string."""
    if not isinstance(value, str):
        at.fail(f"expected a string, got {kind_of(value)}")
    if not value.strip():
        at.fail("must not be empty")
    return value


def ident(value: object, at: At) -> str:
    """An id: lowercase letters and digits joined by single hyphens."""
    word = text(value, at)
    if not ID.fullmatch(word):
        at.fail(f"{word!r} is not an id {ID_SHAPE}")
    return word


def flag(value: object, at: At) -> bool:
    """true or false."""
    if not isinstance(value, bool):
        at.fail(f"expected true or false, got {kind_of(value)}")
    return value


def integer(low: int, high: int | None = None, allowed: tuple[int, ...] = ()) -> Conv:
    """An integer from ``low`` (to ``high``), one of ``allowed`` if given."""

    def convert(value: object, at: At) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            at.fail(f"expected an integer, got {kind_of(value)}")
        if allowed and value not in allowed:
            at.fail(f"must be one of {', '.join(map(str, sorted(allowed)))}, got {value}")
        if high is not None and not low <= value <= high:
            at.fail(f"must be from {low} to {high}, got {value}")
        if value < low:
            at.fail(f"must be at least {low}, got {value}")
        return value

    return convert


def choice(enum: type[Enum]) -> Conv:
    """The member of ``enum`` whose value is the string given."""

    def convert(value: object, at: At) -> Enum:
        text(value, at)
        try:
            return enum(value)
        except ValueError:
            options = ", ".join(member.value for member in enum)
            at.fail(f"unknown value {value!r} (expected one of: {options})")

    return convert


def list_of(item: Conv) -> Conv:
    """An array, each element converted by ``item``, as a tuple."""

    def convert(value: object, at: At) -> tuple[Any, ...]:
        if not isinstance(value, list):
            at.fail(f"expected an array, got {kind_of(value)}")
        return tuple(item(element, at.index(i)) for i, element in enumerate(value))

    return convert


def table(value: object, at: At) -> dict[str, Any]:
    """A TOML table."""
    if not isinstance(value, dict):
        at.fail(f"expected a table, got {kind_of(value)}")
    return value


def record(value: object, at: At, fields: Fields) -> dict[str, Any]:
    """A table whose keys must all be in ``fields``; an unknown key is
    refused with the closest known one as a hint."""
    found = table(value, at)
    for key in found:
        if key not in fields:
            import difflib  # only to word a refusal: a pack that loads never imports it

            hint = difflib.get_close_matches(key, list(fields), n=1)
            guess = f"did you mean {hint[0]!r}?" if hint else "expected " + ", ".join(fields)
            at.key(key).fail(f"unknown key ({guess})")
    out: dict[str, Any] = {}
    for name, (convert, default) in fields.items():
        if name in found:
            out[name] = convert(found[name], at.key(name))
        elif default is REQUIRED:
            at.key(name).fail("required key is missing")
        else:
            out[name] = default
    return out


def records(value: object, at: At, fields: Fields) -> list[dict[str, Any]]:
    """An array of tables, each with a unique ``id``."""
    if not isinstance(value, list):
        at.fail(f"expected an array of tables, got {kind_of(value)}")
    rows = [record(item, at.index(i), fields) for i, item in enumerate(value)]
    unique_ids(rows, at)
    return rows


def unique_ids(rows: list[dict[str, Any]], at: At) -> None:
    """No two rows share an ``id``."""
    seen: set[str] = set()
    for i, row in enumerate(rows):
        if row["id"] in seen:
            at.index(i).key("id").fail(f"duplicate id {row['id']!r}")
        seen.add(row["id"])


def keyed(value: object, at: At, fields: Fields) -> dict[str, dict[str, Any]]:
    """A table of tables keyed by id."""
    found = table(value, at)
    out = {}
    for key, item in found.items():
        if not ID.fullmatch(key):
            at.key(key).fail(f"{key!r} is not an id {ID_SHAPE}")
        out[key] = record(item, at.key(key), fields)
    return out
