"""Enums of string values made the way the standard library makes its own.

Python 3.11's ``EnumType`` makes each member through Python code that
checks every name and value of the class body (``_EnumDict``,
``_proto_member.__set_name__``, the mixin's methods looked up again per
member): ~750 K instructions for an enum of five members, where a msgspec
Struct costs ~120 K. A ruleset's vocabulary is two dozen of them, paid
by every command. The standard library makes the enums its own modules
import at start-up (``re.RegexFlag``, ``http.HTTPStatus``,
``pstats.SortKey``) with ``enum._simple_enum``, which builds the same
class and members without those checks; its test helper,
``enum._test_simple_enum``, checks that the two ways give the same enum,
and ``tests/kernel/test_enums.py`` runs it over every enum made here.

Declare a vocabulary as ``class Form(StrValued)`` (the members of a
``(str, Enum)``: ``str()`` gives ``Form.HEAVY``) or ``class Kind(PlainStr)``
(a ``StrEnum``: ``str()`` gives the value); the class body is the same as
for ``Enum`` (members, a docstring, methods and properties). What the
checks would refuse (a name twice, ``_ignore_``) is not refused: keep such
bodies to those.
When the standard library no longer has ``_simple_enum``, the classes are
made as any enum is.
"""

from __future__ import annotations

import enum
from collections.abc import MutableMapping
from enum import Enum, EnumType, StrEnum
from typing import Any

_SIMPLE = getattr(enum, "_simple_enum", None)
_BASES: tuple[type, ...] = ()  # StrValued and PlainStr, once made


class _SimpleMade(EnumType):
    """The metaclass of ``StrValued`` and ``PlainStr``: a class declared on
    one of them (never the two themselves) is made by ``_simple_enum``."""

    @classmethod
    def __prepare__(  # type: ignore[override]  # a plain dict, not EnumType's _EnumDict
        metacls, cls: str, bases: tuple[type, ...], /, **kwds: Any
    ) -> MutableMapping[str, object]:
        if _SIMPLE is None or kwds or len(bases) != 1 or bases[0] not in _BASES:
            return super().__prepare__(cls, bases, **kwds)
        return {}  # the class body as written: _EnumDict's checks per name are what is spared

    def __new__(metacls, cls: str, bases: tuple[type, ...], classdict: Any, **kwds: Any) -> Any:
        if _SIMPLE is None or kwds or len(bases) != 1 or bases[0] not in _BASES:
            # The bases themselves, a class made by _simple_enum (``_simple=True``), or no _simple_enum.
            return super().__new__(metacls, cls, bases, classdict, **kwds)
        # The body as a plain class is what ``_simple_enum`` reads (its ``__dict__``).
        return _SIMPLE(bases[0])(type(cls, (), dict(classdict)))


class StrValued(str, Enum, metaclass=_SimpleMade):
    """Base of an enum whose members are strings, as ``(str, Enum)``."""


class PlainStr(StrEnum, metaclass=_SimpleMade):
    """Base of an enum whose members are plain strings, as ``StrEnum``."""


_BASES = (StrValued, PlainStr)
