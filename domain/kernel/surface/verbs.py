"""A ruleset's commands as the table sees them: verbs with typed parameters.

A ``Verb`` declares how one command class is given: the words that name
it (``engage``, ``item gain``), a line of help citing its rules, and each
parameter (``Param``): the command field it fills, what it is at the table
(its ``Kind``), and whether it is typed as an argument (in order) or an
option (``--form``). The command line's verbs, their help, the API's
schemas and the page's controls are all made from these declarations, and
``grammar`` parses and writes command lines with them both ways.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import msgspec

from ..struct_fields import struct_fields
from .kinds import Flag, Kind


class Param(msgspec.Struct, frozen=True):
    """One parameter of a verb.

    ``name``: the command field it fills. ``option``: how it is typed as
    an option (``--form``; with ``short``, also ``-f``); an argument when
    empty, filled in order. ``help``: one line. ``required``: whether it
    must be given (default: when the command's field has no default).
    ``repeat``: an option given once per item (``--party A --party B``),
    filling a tuple. ``metavar``: how help writes its value (default: the
    kind's). ``title``: what a table calls it in players' words, where
    ``legend``'s default reads wrong.
    """

    name: str
    kind: Kind
    help: str = ""
    option: str = ""
    short: str = ""
    required: bool | None = None
    repeat: bool = False
    metavar: str = ""
    title: str = ""

    @property
    def positional(self) -> bool:
        return not self.option

    @property
    def shown(self) -> str:
        """How help and refusals name it: ``--form`` or ``HEX``."""
        return self.option or self.value_name

    @property
    def value_name(self) -> str:
        return self.metavar or self.kind.metavar or self.name.upper()

    @property
    def flag(self) -> bool:
        return isinstance(self.kind, Flag)

    @property
    def legend(self) -> str:
        """What a table calls it, in players' words: its ``title``, else its
        option's word (``--dice``: ``dice``), else its value's name when that is a
        word (``HEX``: ``hex``), else its field's name (``amount``)."""
        if self.title:
            return self.title
        if self.option:
            return self.option.lstrip("-").replace("-", " ")
        name = self.value_name.strip("[]").lower()
        return name if len(name) >= 3 and name.isalpha() else self.name.replace("_", " ")


class Verb(msgspec.Struct, frozen=True):
    """How a command is given. ``name``: the words that give it (one, or a
    group and a word: ``item gain``). ``command``: the command class it
    builds. ``summary``: one line of help, citing the rules. ``details``:
    more help. ``panel``: the heading it is listed under. ``title``: its
    name in players' words, where ``shown_title``'s default (its words,
    capitalised: ``End turn``) reads wrong (``Order the Command Stack``).

    ``variants``: flags that make it another command class (``move c4
    --explore`` gives a MoveToExplore), as ``(option, class)``. ``fixed``:
    fields the verb sets itself (two verbs of one class). ``build``, when
    a command's fields are not just its parameters: the command's fields
    from the parameters' values (plain values, by name); ``fields`` is its
    inverse, the parameters' values from a command, for writing it.
    ``complete``: fills, from the store, what a player may leave out and
    the rules need (the battle a Reward Phase is for): ``complete(app,
    game_id, fields) -> fields``, run by the application before deciding.
    ``find_game``: the game this verb acts on when none is named, where it
    is not the one its surface's ``find_game`` finds (a promotion: the
    battle the adventurer fights, ADVANCE-16); as ``Surface.find_game``.
    ``opens(state, ctx, commands)``: the open commands (``open.Open``) of
    the finished ``commands`` of this verb the rules listed, where the
    verb knows more than they show (every subset of some dice, every
    order of a stack); default: ``open.group``.
    """

    name: str
    command: type
    summary: str
    params: tuple[Param, ...] = ()
    details: str = ""
    panel: str = ""
    variants: tuple[tuple[str, type], ...] = ()
    fixed: Mapping[str, Any] = msgspec.field(default_factory=dict)
    build: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    fields: Callable[[Any], dict[str, Any]] | None = None
    complete: Callable[[Any, str, dict[str, Any]], dict[str, Any]] | None = None
    find_game: Callable[[Any, dict[str, Any]], str] | None = None
    opens: Callable[[Any, Any, list[Any]], list[Any]] | None = None
    title: str = ""

    @property
    def shown_title(self) -> str:
        """Its name as a table heads it: ``title``, else its words with the
        first capitalised (``end-turn``: ``End turn``)."""
        if self.title:
            return self.title
        text = self.name.replace("-", " ")
        return text[:1].upper() + text[1:]

    @property
    def words(self) -> tuple[str, ...]:
        return tuple(self.name.split())

    @property
    def classes(self) -> tuple[type, ...]:
        """Every command class this verb gives."""
        return (self.command, *(cls for _, cls in self.variants))

    def param(self, name: str) -> Param:
        """The parameter filling field ``name``; KeyError if none does."""
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(name)

    def default(self, p: Param, cls: type | None = None) -> Any:
        """The value a command holds when ``p`` is not given: its field's
        default (``msgspec.NODEFAULT`` when it has none; a query's
        parameter has none unless it is a flag)."""
        cls = cls or self.command
        if not (isinstance(cls, type) and issubclass(cls, msgspec.Struct)):
            return False if p.flag else msgspec.NODEFAULT
        for f in struct_fields(cls):
            if f.name == p.name:
                if f.default is not msgspec.NODEFAULT:
                    return f.default
                if f.default_factory is not msgspec.NODEFAULT:
                    return f.default_factory()
                return msgspec.NODEFAULT
        if p.flag:
            return False
        return None

    def required(self, p: Param) -> bool:
        """Whether ``p`` must be given."""
        if p.required is not None:
            return p.required
        return not p.flag and not p.repeat and self.default(p) is msgspec.NODEFAULT
