"""The hash chain of a portable log, the canonical bytes it hashes, the
digest of a game state, what a signature covers, and times as a log
writes them (see the package's docstring for the format)."""

from __future__ import annotations

import hashlib
import re
from datetime import datetime, timezone
from typing import Any

import msgspec
import msgspec.inspect
import msgspec.structs

FORMAT = "rulekeeper-log/2"
SIGNED_PREFIX = b"rulekeeper-log/2 signature\n"

# Times are written with all six microsecond digits, always, so a log read
# back and written again is byte-identical.
_TIME_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"
_TIME_PATTERN = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z")


def digest(data: bytes) -> str:
    """BLAKE2b-128 of ``data``, in hex: every hash a log holds."""
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def canonical(obj: Any) -> bytes:
    """The bytes a hash is taken of: JSON with sorted keys, so whitespace
    and key order in a file never matter."""
    return msgspec.json.encode(obj, order="sorted")


def link(previous: str, obj: dict[str, Any]) -> str:
    """The hash of ``obj`` (without its own ``hash`` key) chained to ``previous``."""
    body = {k: v for k, v in obj.items() if k != "hash"}
    return digest(previous.encode("ascii") + canonical(body))


def state_digest(state: Any) -> str:
    """BLAKE2b-128 hex of a game state's canonical JSON (the rules' state,
    not the undo stacks): equal states, equal digests.

    A Struct class may list, in a ClassVar ``__digest_skip_default__``,
    fields added after logs were written: such a field is left out of the
    digest while it holds its default, so a state that never used it digests
    as it did before the field existed and old logs keep verifying."""
    return digest(canonical(without_skipped_defaults(state)))


_UNCHANGED = object()


def without_skipped_defaults(value: Any) -> Any:
    """``value`` with skippable default fields left out (see
    ``state_digest``), as plain containers where something was left out;
    ``value`` itself when nothing is. Strict import accepts an event in
    this form too, as a log written before those fields holds it."""
    found = _pruned(value)
    return value if found is _UNCHANGED else found


_MAY_SKIP: dict[type, bool] = {}
_FIELDS: dict[type, tuple[Any, ...]] = {}


def _may_skip(cls: type) -> bool:
    """Whether a Struct of class ``cls`` may hold a skippable field anywhere
    inside, by its type alone (worked out once per class): most states
    cannot, and then digesting them costs no walk at all."""
    found = _MAY_SKIP.get(cls)
    if found is None:
        _MAY_SKIP[cls] = False  # a class that holds itself: the walk below sees the rest
        info = msgspec.inspect.type_info(cls)
        found = bool(getattr(cls, "__digest_skip_default__", None)) or any(_type_may_skip(f.type) for f in info.fields)  # type: ignore[attr-defined]
        _MAY_SKIP[cls] = found
    return found


def _type_may_skip(t: Any) -> bool:
    if isinstance(t, msgspec.inspect.AnyType):
        return True  # decided when the value is seen
    if isinstance(t, msgspec.inspect.StructType):
        if getattr(t.cls, "__digest_skip_default__", None):
            return True
        known = _MAY_SKIP.get(t.cls)
        if known is not None:
            return known
        return _may_skip(t.cls)
    inner = [getattr(t, name) for name in ("item_type", "key_type", "value_type") if hasattr(t, name)]
    inner += [x for name in ("types", "item_types") for x in getattr(t, name, ())]
    return any(_type_may_skip(x) for x in inner)


def _pruned(value: Any) -> Any:
    """A replacement for ``value`` without skippable default fields, or
    ``_UNCHANGED`` when it has none anywhere inside (the common case, so
    the encoding of every old state stays byte for byte the same)."""
    if isinstance(value, msgspec.Struct):
        if not _may_skip(type(value)):
            return _UNCHANGED
        return _pruned_struct(value)
    if isinstance(value, (tuple, list)):
        items = [_pruned(v) for v in value]
        if all(i is _UNCHANGED for i in items):
            return _UNCHANGED
        return [v if i is _UNCHANGED else i for v, i in zip(value, items)]
    if isinstance(value, dict):
        pairs = {k: _pruned(v) for k, v in value.items()}
        if all(i is _UNCHANGED for i in pairs.values()):
            return _UNCHANGED
        return {k: value[k] if i is _UNCHANGED else i for k, i in pairs.items()}
    return _UNCHANGED


def _pruned_struct(value: msgspec.Struct) -> Any:
    skip: frozenset[str] = getattr(type(value), "__digest_skip_default__", frozenset())
    config = value.__struct_config__
    fields = _FIELDS.get(type(value))
    if fields is None:
        fields = _FIELDS[type(value)] = msgspec.structs.fields(value)
    kept: list[tuple[str, Any]] = []
    changed = False
    for f in fields:
        v = getattr(value, f.name)
        if f.name in skip and _is_default(f, v):
            changed = True
            continue
        if config.omit_defaults and not config.array_like and _is_default(f, v):
            continue  # msgspec leaves it out too
        inner = _pruned(v)
        if inner is not _UNCHANGED:
            changed = True
            v = inner
        kept.append((f.encode_name, v))
    if not changed:
        return _UNCHANGED
    if config.array_like:  # fields are added at the end, so only trailing ones go
        return [v for _, v in kept]
    out = {config.tag_field: config.tag} if config.tag is not None else {}  # msgspec writes the tag first
    out.update(kept)
    return out


def _is_default(f: Any, v: Any) -> bool:
    if f.default is not msgspec.NODEFAULT:
        return v == f.default
    if f.default_factory is not msgspec.NODEFAULT:
        return v == f.default_factory()
    return False


def format_time(t: datetime) -> str:
    """``t`` in UTC as a log writes it, all six microsecond digits."""
    return t.astimezone(timezone.utc).strftime(_TIME_FORMAT)


def parse_time(text: str) -> datetime | None:
    """A time written by ``format_time``, or None for any other text."""
    if not _TIME_PATTERN.fullmatch(text):
        return None
    try:
        return datetime.strptime(text, _TIME_FORMAT).replace(tzinfo=timezone.utc)
    except ValueError:
        return None


def signed_bytes(trailer: dict[str, Any]) -> bytes:
    """What a signature covers: the trailer without its signature and hash.
    Its ``last_hash`` is chained through every line before, so this covers
    the whole log."""
    body = {k: v for k, v in trailer.items() if k not in ("signature", "hash")}
    return SIGNED_PREFIX + canonical(body)
