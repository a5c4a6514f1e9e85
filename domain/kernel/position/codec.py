"""A game state as plain TOML values and back, led by its type.

Game states are frozen msgspec Structs; this writes one as tables, arrays,
strings, numbers and booleans (TOML has no null: a field holding None, or
its default, is left out), and reads such values back into the typed state,
refusing the first value its type cannot hold with its field path
(``game.heroes[0].hp``), which ``domain.kernel.toml_lines`` turns into the
line of a position file. Structs written as arrays in logs
(``array_like``) are written here as tables with their field names, so a
person can read and edit them; the fields a ruleset names as hexes
(``hexes``: a field name holding a hex, a pair of ints, or hexes within
it) are written by their labels (``c4``; a hex with no label, off a map's
top or left, as its axial pair).
"""

from __future__ import annotations

from functools import cache
from typing import Any

import msgspec
import msgspec.inspect as mi

from domain.kernel.errors import MalformedCommand
from domain.kernel.hexes import label, parse_label


class CodecError(ValueError):
    """A value its type cannot hold: ``path`` as ``toml_lines`` names keys."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: {reason}" if path else reason)
        self.path = path
        self.reason = reason


@cache
def info(cls: Any) -> mi.Type:
    """The msgspec type information of ``cls`` (cached: states are read often)."""
    return mi.type_info(cls)


def to_plain(value: Any, cls: Any, hexes: frozenset[str] = frozenset()) -> Any:
    """``value`` of type ``cls`` as TOML values."""
    return _Out(hexes).out(value, info(cls), False)


def from_plain(raw: Any, cls: Any, path: str = "", hexes: frozenset[str] = frozenset()) -> Any:
    """The value of type ``cls`` that ``raw`` (as ``to_plain`` writes it)
    holds; ``CodecError`` names the first value that does not fit."""
    return _In(hexes).into(raw, info(cls), path, False)


def _is_hex(t: mi.Type) -> bool:
    return (
        isinstance(t, mi.TupleType) and len(t.item_types) == 2 and all(isinstance(i, mi.IntType) for i in t.item_types)
    )


class _Out:
    def __init__(self, hexes: frozenset[str]) -> None:
        self.hexes = hexes

    def out(self, value: Any, t: mi.Type, hexy: bool) -> Any:
        if hexy and _is_hex(t):
            try:
                return label(value)
            except ValueError:  # above or left of a1 (a delve's map grows anywhere): its axial pair
                return list(value)
        return _out(value, t, hexy, self)


class _In:
    def __init__(self, hexes: frozenset[str]) -> None:
        self.hexes = hexes

    def into(self, raw: Any, t: mi.Type, path: str, hexy: bool) -> Any:
        if hexy and _is_hex(t) and isinstance(raw, str):
            try:
                return parse_label(raw)
            except MalformedCommand as e:
                raise CodecError(path, str(e)) from None
        return _in(raw, t, path, hexy, self)


def _out(value: Any, t: mi.Type, hexy: bool, w: _Out) -> Any:
    if isinstance(t, mi.UnionType):
        return w.out(value, _member_of(value, t), hexy)
    if isinstance(t, mi.StructType):
        out: dict[str, Any] = {}
        if t.tag_field is not None:
            out[t.tag_field] = t.tag
        for f in t.fields:
            v = getattr(value, f.name)
            if v is None or _is_default(v, f):
                if v is None and f.default not in (None, msgspec.NODEFAULT):
                    raise CodecError(f.name, "None where the default is not None cannot be written")
                continue
            out[f.encode_name] = w.out(v, f.type, f.name in w.hexes)
        return out
    if isinstance(t, mi.EnumType):
        return value.value
    if isinstance(t, (mi.VarTupleType, mi.ListType)):
        return [w.out(v, t.item_type, hexy) for v in value]
    if isinstance(t, (mi.SetType, mi.FrozenSetType)):
        return sorted((w.out(v, t.item_type, hexy) for v in value), key=repr)
    if isinstance(t, mi.TupleType):
        return [w.out(v, item, hexy) for v, item in zip(value, t.item_types, strict=True)]
    if isinstance(t, mi.DictType):
        return {str(w.out(k, t.key_type, False)): w.out(v, t.value_type, hexy) for k, v in value.items()}
    if isinstance(t, mi.AnyType):
        return msgspec.to_builtins(value)
    return value


def _is_default(value: Any, f: mi.Field) -> bool:
    if f.default is not msgspec.NODEFAULT:
        return bool(value == f.default)
    if f.default_factory is not msgspec.NODEFAULT:
        return bool(value == f.default_factory())
    return False


def _member_of(value: Any, t: mi.UnionType) -> mi.Type:
    """The member of union ``t`` that ``value`` is."""
    for member in t.types:
        if isinstance(member, mi.NoneType):
            continue
        if isinstance(member, mi.StructType) and isinstance(value, member.cls):
            return member
        if isinstance(member, mi.EnumType) and isinstance(value, member.cls):
            return member
        if not isinstance(member, (mi.StructType, mi.EnumType)) and _fits(value, member):
            return member
    raise CodecError("", f"{value!r} is none of its union's types")


_SCALARS: dict[type, tuple[type, ...]] = {
    mi.IntType: (int,),
    mi.StrType: (str,),
    mi.BoolType: (bool,),
    mi.FloatType: (float, int),
}


def _fits(value: Any, t: mi.Type) -> bool:
    if isinstance(t, mi.IntType) and isinstance(value, bool):
        return False
    kinds = _SCALARS.get(type(t))
    if kinds is not None:
        return isinstance(value, kinds)
    if isinstance(t, (mi.VarTupleType, mi.ListType, mi.TupleType, mi.SetType, mi.FrozenSetType)):
        return isinstance(value, (list, tuple, set, frozenset))
    if isinstance(t, mi.DictType):
        return isinstance(value, dict)
    if isinstance(t, mi.LiteralType):
        return value in t.values
    return isinstance(t, mi.AnyType)


_NAMES = {mi.IntType: "a whole number", mi.StrType: "a string", mi.BoolType: "true or false", mi.FloatType: "a number"}


def _in(raw: Any, t: mi.Type, path: str, hexy: bool, r: _In) -> Any:
    if isinstance(t, mi.UnionType):
        return _in_union(raw, t, path, hexy, r)
    if isinstance(t, mi.StructType):
        return _in_struct(raw, t, path, r)
    if isinstance(t, mi.EnumType):
        try:
            return t.cls(raw)
        except ValueError:
            names = ", ".join(repr(m.value) for m in t.cls)
            raise CodecError(path, f"{raw!r} is not one of {names}") from None
    if isinstance(t, (mi.VarTupleType, mi.ListType, mi.SetType, mi.FrozenSetType)):
        if not isinstance(raw, list):
            raise CodecError(path, f"an array, not {raw!r}")
        items = [r.into(v, t.item_type, f"{path}[{i}]", hexy) for i, v in enumerate(raw)]
        return {mi.ListType: list, mi.SetType: set, mi.FrozenSetType: frozenset}.get(type(t), tuple)(items)
    if isinstance(t, mi.TupleType):
        if not isinstance(raw, list) or len(raw) != len(t.item_types):
            raise CodecError(path, f"an array of {len(t.item_types)}, not {raw!r}")
        return tuple(r.into(v, item, f"{path}[{i}]", hexy) for i, (v, item) in enumerate(zip(raw, t.item_types)))
    if isinstance(t, mi.DictType):
        if not isinstance(raw, dict):
            raise CodecError(path, f"a table, not {raw!r}")
        return {_key(k, t.key_type, path, r): r.into(v, t.value_type, f"{path}.{k}", hexy) for k, v in raw.items()}
    if isinstance(t, mi.LiteralType):
        if raw not in t.values:
            raise CodecError(path, f"{raw!r} is not one of {', '.join(map(repr, t.values))}")
        return raw
    if isinstance(t, mi.NoneType):
        raise CodecError(path, "left out where nothing may be")
    if isinstance(t, mi.AnyType):
        return raw
    if not _fits(raw, t):
        raise CodecError(path, f"{_NAMES.get(type(t), type(t).__name__)}, not {raw!r}")
    return float(raw) if isinstance(t, mi.FloatType) else raw


def _key(raw: str, t: mi.Type, path: str, r: _In) -> Any:
    if isinstance(t, mi.IntType):
        try:
            return int(raw)
        except ValueError:
            raise CodecError(path, f"key {raw!r}: a whole number") from None
    return r.into(raw, t, f"{path}.{raw}", False)


def _in_union(raw: Any, t: mi.UnionType, path: str, hexy: bool, r: _In) -> Any:
    members = [m for m in t.types if not isinstance(m, mi.NoneType)]
    tagged = [m for m in members if isinstance(m, mi.StructType) and m.tag_field is not None]
    if tagged and isinstance(raw, dict):
        for m in tagged:
            if raw.get(m.tag_field) == m.tag:
                return r.into(raw, m, path, False)
        raise CodecError(path, f"{tagged[0].tag_field} = one of {', '.join(repr(m.tag) for m in tagged)}")
    errors = []
    for member in members:
        try:
            return r.into(raw, member, path, hexy)
        except CodecError as e:
            errors.append(e)
    raise errors[0] if errors else CodecError(path, "no value may be given here")


def _in_struct(raw: Any, t: mi.StructType, path: str, r: _In) -> Any:
    if not isinstance(raw, dict):
        raise CodecError(path, f"a table, not {raw!r}")
    by_name = {f.encode_name: f for f in t.fields}
    for key in raw:
        if key not in by_name and key != t.tag_field:
            known = ", ".join(by_name)
            raise CodecError(f"{path}.{key}" if path else key, f"no such field (there are: {known})")
    values: dict[str, Any] = {}
    for f in t.fields:
        where = f"{path}.{f.encode_name}" if path else f.encode_name
        if f.encode_name in raw:
            values[f.name] = r.into(raw[f.encode_name], f.type, where, f.name in r.hexes)
        elif f.default is not msgspec.NODEFAULT:
            values[f.name] = f.default
        elif f.default_factory is not msgspec.NODEFAULT:
            values[f.name] = f.default_factory()
        elif _optional(f.type):
            values[f.name] = None
        else:
            raise CodecError(where, "missing (it has no default)")
    return t.cls(**values)


def _optional(t: mi.Type) -> bool:
    return isinstance(t, mi.UnionType) and any(isinstance(m, mi.NoneType) for m in t.types)


__all__ = ["CodecError", "from_plain", "to_plain"]
