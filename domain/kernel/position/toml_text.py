"""Plain values (tables, arrays, strings, numbers, booleans) written as
TOML that ``tomllib`` reads back to the same values, laid out for people:
a table's own values first, then its sub-tables as ``[a.b]`` and arrays
of tables as ``[[a.b]]``; a short table in an array (a die on a track) is
written inline, one to a line. Deterministic: the same values, the same
text, so two positions compare as text."""

from __future__ import annotations

import json
import re
from typing import Any

_BARE = re.compile(r"^[A-Za-z0-9_-]+$")
INLINE_WIDTH = 100  # an array of small tables is written inline when each fits on a line of this width


def dumps(doc: dict[str, Any]) -> str:
    """``doc`` as TOML text."""
    out: list[str] = []
    _table(doc, "", out)
    return "\n".join(out).strip("\n") + "\n"


def key(name: str) -> str:
    """A key as TOML writes it: bare when it can be."""
    return name if _BARE.match(name) else json.dumps(name, ensure_ascii=False)


def _table(doc: dict[str, Any], prefix: str, out: list[str]) -> None:
    tables: list[tuple[str, dict[str, Any]]] = []
    arrays: list[tuple[str, list[dict[str, Any]]]] = []
    for name, value in doc.items():
        if isinstance(value, dict) and value:
            tables.append((name, value))
        elif _array_of_tables(value) and not _inline_array(value):
            arrays.append((name, value))
        else:
            out.append(f"{key(name)} = {_value(value)}")
    for name, value in tables:
        path = f"{prefix}.{key(name)}" if prefix else key(name)
        out += ["", f"[{path}]"]
        _table(value, path, out)
    for name, items in arrays:
        path = f"{prefix}.{key(name)}" if prefix else key(name)
        for item in items:
            out += ["", f"[[{path}]]"]
            _table(item, path, out)


def _array_of_tables(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


def _inline_array(items: list[dict[str, Any]]) -> bool:
    """Small flat tables (no table or array of tables inside) go inline."""
    return all(
        not any(isinstance(v, dict) or _array_of_tables(v) for v in item.values())
        and len(_value(item)) + 4 <= INLINE_WIDTH
        for item in items
    )


def _value(value: Any, lines: bool = True) -> str:
    """A value as TOML writes it; an array of tables over several lines
    when ``lines`` (never inside an inline table)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key(k)} = {_value(v, False)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        if lines and _array_of_tables(value):
            return "[\n" + "".join(f"  {_value(v, False)},\n" for v in value) + "]"
        return "[" + ", ".join(_value(v, False) for v in value) + "]"
    raise TypeError(f"no TOML for {value!r}")
