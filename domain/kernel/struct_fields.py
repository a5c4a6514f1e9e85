"""The fields of a msgspec Struct class, read once per class.

``msgspec.structs.fields`` evaluates the class's type annotations on every
call (tens of microseconds); spelling the commands of a log of 20,000
events asked for the same few classes' fields tens of thousands of times
(three fifths of `rk log`'s time).
"""

from __future__ import annotations

from typing import Any

import msgspec

_FIELDS: dict[type, tuple[msgspec.structs.FieldInfo, ...]] = {}


def struct_fields(cls: type[Any]) -> tuple[msgspec.structs.FieldInfo, ...]:
    """``msgspec.structs.fields(cls)``, computed once per class."""
    found = _FIELDS.get(cls)
    if found is None:
        found = _FIELDS[cls] = msgspec.structs.fields(cls)
    return found
