"""Enums declared on ``StrValued`` and ``PlainStr`` (``domain.kernel.enums``,
made by the standard library's ``_simple_enum``) are the enums a plain
``(str, Enum)`` or ``StrEnum`` declaration makes: checked with the standard
library's own comparison (``enum._test_simple_enum``) against the same
body made by ``EnumType``, and by what a caller sees (str, repr, format,
lookups, pickling, msgspec), for every such enum of every ruleset; and
made by ``EnumType`` when ``_simple_enum`` is gone."""

from __future__ import annotations

import enum
import importlib
import pickle
from enum import Enum, StrEnum

import msgspec
import pytest

from domain.kernel import enums
from domain.kernel.enums import PlainStr, StrValued

# The modules declaring enums on the two bases (a test below checks that none is missed).
DECLARING = (
    "domain.betrayal.vocab",
    "domain.betrayal.battle.state",
    "domain.betrayal.packs.catalog_campaign",
    "domain.betrayal.packs.catalog_companions",
)


def _declared() -> list[type[Enum]]:
    for module in DECLARING:
        importlib.import_module(module)
    return sorted(
        (cls for base in (StrValued, PlainStr) for cls in base.__subclasses__()),
        key=lambda cls: f"{cls.__module__}.{cls.__qualname__}",
    )


def _body(cls: type[Enum]) -> dict[str, object]:
    """The class body ``cls`` was declared with: its members, methods and properties."""
    own = {k: v for k, v in vars(cls).items() if not k.startswith("_") and k not in cls.__members__}
    head = {"__module__": cls.__module__, "__qualname__": cls.__qualname__, "__doc__": cls.__doc__}
    return head | {m.name: m.value for m in cls} | own


def _made(name: str, base: type[Enum], body: dict[str, object]) -> type[Enum]:
    """``body`` made by ``EnumType`` on ``base``, as a class statement makes it."""
    namespace = type(base).__prepare__(name, (base,))
    for key, value in body.items():
        namespace[key] = value
    return type(base)(name, (base,), namespace)


class _RegularStrValued(str, Enum):
    pass


def _regular_twin(cls: type[Enum]) -> type[Enum]:
    """The same enum made by ``EnumType`` on a base made the same way."""
    return _made(cls.__name__, _RegularStrValued if issubclass(cls, StrValued) else StrEnum, _body(cls))


def _plain_twin(cls: type[Enum]) -> type[Enum]:
    """The declaration it replaced: ``class X(str, Enum)`` or ``class X(StrEnum)``."""
    namespace = type(Enum).__prepare__(cls.__name__, (str, Enum))
    for key, value in _body(cls).items():
        namespace[key] = value
    if issubclass(cls, StrValued):
        return type(Enum)(cls.__name__, (str, Enum), namespace)
    return _made(cls.__name__, StrEnum, _body(cls))


def _seen(cls: type[Enum]) -> list[object]:
    """What a caller sees of ``cls`` and its members."""
    out: list[object] = [cls.__name__, cls.__doc__, len(cls), list(cls.__members__)]
    for m in cls:
        out += [str(m), repr(m), format(m), f"{m}", f"{m:>3}", m.name, m.value, hash(m) == hash(m.value)]
        out += [
            m == m.value,
            isinstance(m, str),
            cls(m.value) is m,
            cls[m.name] is m,
            m.value in cls._value2member_map_,
        ]
        out += [msgspec.json.encode(m), msgspec.json.decode(msgspec.json.encode(m), type=cls) is m]
    with pytest.raises(ValueError, match="is not a valid"):
        cls("no such value")
    return out


def test_every_module_declaring_such_enums_is_listed():
    for cls in _declared():
        assert cls.__module__ in DECLARING, cls


@pytest.mark.parametrize("cls", _declared(), ids=lambda cls: f"{cls.__module__}.{cls.__name__}")
def test_an_enum_is_what_enum_type_makes_of_its_body(cls, monkeypatch):
    assert type(cls) is enums._SimpleMade
    # msgspec keeps its decoder info on a class it decoded (other tests'): not part of the enum
    monkeypatch.delattr(cls, "__msgspec_cache__", raising=False)
    enum._test_simple_enum(_regular_twin(cls), cls)  # raises TypeError naming each difference


@pytest.mark.parametrize("cls", _declared(), ids=lambda cls: f"{cls.__module__}.{cls.__name__}")
def test_an_enum_behaves_as_the_plain_declaration_it_replaced(cls):
    plain = _plain_twin(cls)
    assert _seen(cls) == _seen(plain)
    assert [(m.name, m.value) for m in cls] == [(m.name, m.value) for m in plain]
    assert issubclass(cls, str) and issubclass(cls, Enum)
    assert issubclass(cls, StrEnum) == issubclass(plain, StrEnum)
    for member in cls:
        assert pickle.loads(pickle.dumps(member)) is member


def test_without_simple_enum_a_class_is_made_as_any_enum_is(monkeypatch):
    monkeypatch.setattr(enums, "_SIMPLE", None)

    class Form(StrValued):
        """Forms."""

        HEAVY = "heavy"
        LIGHT = "light"

    class Kind(PlainStr):
        ONE = "one"

    class Form0(str, Enum):
        """Forms."""

        HEAVY = "heavy"
        LIGHT = "light"

    assert [str(m) for m in Form] == ["Form.HEAVY", "Form.LIGHT"]
    assert [repr(m) for m in Form] == [repr(m).replace("Form0", "Form") for m in Form0]
    assert Form("light") is Form.LIGHT and Form.__doc__ == "Forms."
    assert str(Kind.ONE) == "one" and Kind("one") is Kind.ONE
    with pytest.raises(TypeError, match="already defined"):  # EnumType's own checks are back

        class Twice(StrValued):
            A = "a"
            A = "b"  # noqa: PIE794


def test_the_bases_are_themselves_enums_without_members():
    assert list(StrValued) == [] and list(PlainStr) == []
    assert issubclass(StrValued, str) and not issubclass(StrValued, StrEnum)
    assert issubclass(PlainStr, StrEnum)
