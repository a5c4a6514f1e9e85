"""Command lines both ways, from a ruleset's verbs: the line a player types
becomes a command (``parse``), a command becomes the line that gives it
(``spell``), and ``parse(spell(c)) == c`` for every command a verb gives
(python-chess keeps SAN and moves so). ``rk legal``, the log and the
narrator write lines with ``spell``; the command line, ``rk play`` and
anything that reads those lines back use ``parse``.

A line is its verb's words, then its arguments in order and its options
in any order (``--form heavy``, ``--form=heavy``, a flag alone). Options
not at their default are written in the order the verb declares them.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable, Sequence
from typing import Any

import msgspec

from domain.kernel.errors import MalformedCommand

from .verbs import Param, Verb

_SCALARS = frozenset({str, int, bool, float, type(None)})


def plain(value: Any) -> Any:
    """``value`` in its plain form (``msgspec.to_builtins``, lists as
    tuples), so that two ways of holding one value compare equal."""
    if type(value) in _SCALARS:  # most fields of a command: plain already
        return value
    value = msgspec.to_builtins(value)
    if isinstance(value, (list, tuple)):
        return tuple(plain(v) for v in value)
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


class Grammar:
    """The verbs of one ruleset, found by their words and by command class."""

    def __init__(self, verbs: Iterable[Verb], ruleset: str = "") -> None:
        self.verbs = tuple(verbs)
        self.ruleset = ruleset
        self._by_words = {v.words: v for v in self.verbs}
        self._by_class: dict[type, Verb] = {}
        for v in self.verbs:
            for cls in v.classes:
                self._by_class.setdefault(cls, v)
        if len(self._by_words) != len(self.verbs):
            raise ValueError(f"{ruleset}: two verbs with the same words")

    def verb(self, words: Sequence[str]) -> tuple[Verb, int] | None:
        """The verb that ``words`` start with, and how many words name it
        (the longest match: ``item gain`` before ``item``)."""
        for n in (2, 1):
            if len(words) < n:
                continue
            found = self._by_words.get(tuple(w.lower() for w in words[:n]))
            if found is not None:
                return found, n
        return None

    def verb_of(self, command: Any) -> Verb | None:
        """The verb that gives ``command``'s class, if any."""
        return self._by_class.get(type(command))

    def verb_for(self, cls: type) -> Verb | None:
        """The verb that gives commands of class ``cls``, if any."""
        return self._by_class.get(cls)

    def parse(self, line: str | Sequence[str]) -> Any:
        """The command ``line`` gives (a string, or its words). Refused with
        ``MalformedCommand`` when it names no verb of this ruleset or
        cannot be read."""
        try:
            words = shlex.split(line) if isinstance(line, str) else list(line)
        except ValueError as e:
            raise MalformedCommand(f"cannot read the line: {e}") from None
        found = self.verb(words)
        if found is None:
            said = words[0] if words else "nothing"
            raise MalformedCommand(f"{said[:30]!r} is not a command here")
        verb, n = found
        return parse(verb, words[n:])

    def spell(self, command: Any, placeholders: bool = False) -> str:
        """The line (without ``rk``) that gives ``command``."""
        verb = self.verb_of(command)
        if verb is None:
            raise KeyError(f"no verb gives {type(command).__name__}")
        return spell(verb, command, placeholders)


def read(verb: Verb, words: Sequence[str]) -> tuple[type, dict[str, Any]]:
    """The command class and the fields (plain values) that ``words``
    (what follows the verb's name) give."""
    given: dict[str, Any] = {}
    arguments: list[str] = []
    cls = verb.command
    i = 0
    words = list(words)
    while i < len(words):
        word = words[i]
        i += 1
        if word == "--":
            arguments.extend(words[i:])
            break
        if not word.startswith("-") or word == "-" or word[1:].isdigit():  # -3 is a number
            arguments.append(word)
            continue
        name, eq, inline = word.partition("=")
        p, variant, yes = _option_of(verb, name)
        if variant is not None:
            cls = variant
            continue
        if p is None:
            options = ", ".join(q.option for q in verb.params if q.option) or "none"
            raise MalformedCommand(f"{verb.name}: no option {name[:30]}; its options: {options}")
        if p.flag:
            if eq:
                raise MalformedCommand(f"{verb.name}: {p.option} takes no value")
            given[p.name] = yes
            continue
        if eq:
            text = inline
        elif i < len(words):
            text = words[i]
            i += 1
        else:
            raise MalformedCommand(f"{verb.name}: {p.option} needs a value ({p.value_name})")
        value = p.kind.parse(text, p.option)
        if p.repeat:
            given[p.name] = (*given.get(p.name, ()), value)
        elif p.name in given:
            raise MalformedCommand(f"{verb.name}: {p.option} is given twice")
        else:
            given[p.name] = value
    _arguments(verb, arguments, given)
    for p in verb.params:
        if p.name not in given and verb.required(p):
            raise MalformedCommand(f"{verb.name}: {p.shown} is missing ({usage(verb)})")
    return cls, given


def parse(verb: Verb, words: Sequence[str]) -> Any:
    """The command ``verb`` gives with ``words`` (what follows its name)."""
    cls, given = read(verb, words)
    return make(verb, cls, given)


def make(verb: Verb, cls: type, given: dict[str, Any]) -> Any:
    """The command of class ``cls`` that ``verb`` makes of its parameters'
    values ``given`` (plain values, by name)."""
    fields = {**verb.fixed, **given}
    if verb.build is not None:
        fields = verb.build(fields)
    try:
        return msgspec.convert(fields, cls)
    except msgspec.ValidationError as e:
        raise MalformedCommand(f"{verb.name}: {e}") from None


def _option_of(verb: Verb, word: str) -> tuple[Param | None, type | None, bool]:
    """The parameter an option word names (``--form``, ``-f``, ``--no-first``)
    and whether it says yes; or the class a variant flag names."""
    for p in verb.params:
        if not p.option:
            continue
        if word == p.option or (p.short and word == p.short):
            return p, None, True
        if p.flag and getattr(p.kind, "both", False) and word == "--no-" + p.option[2:]:
            return p, None, False
    for option, cls in verb.variants:
        if word == option:
            return None, cls, True
    return None, None, True


def _arguments(verb: Verb, arguments: list[str], given: dict[str, Any]) -> None:
    """Fill the positional parameters from ``arguments``: the required ones
    always, the optional ones, in order, as far as there are words for
    them (``attack e2`` and ``attack p1 e2``)."""
    positional = [p for p in verb.params if p.positional]
    required = [p for p in positional if verb.required(p)]
    spare = len(arguments) - len(required)
    if spare < 0:
        missing = required[len(arguments)]
        raise MalformedCommand(f"{verb.name}: {missing.shown} is missing ({usage(verb)})")
    if spare > len(positional) - len(required):
        extra = arguments[len(positional)] if len(arguments) > len(positional) else arguments[-1]
        raise MalformedCommand(f"{verb.name}: unexpected {extra[:30]!r} ({usage(verb)})")
    words = iter(arguments)
    for p in positional:
        if verb.required(p):
            given[p.name] = p.kind.parse(next(words), p.shown)
        elif spare > 0:
            spare -= 1
            given[p.name] = p.kind.parse(next(words), p.shown)


def spell(verb: Verb, command: Any, placeholders: bool = False) -> str:
    """The line (without ``rk``) that gives ``command`` by ``verb``: its
    arguments, then every option not at its default, in declared order."""
    cls = type(command)
    values = (
        verb.fields(command)
        if verb.fields is not None
        else {p.name: getattr(command, p.name) for p in verb.params if hasattr(command, p.name)}
    )
    return " ".join(
        [
            verb.name,
            *words_of(verb, values, cls, placeholders),
            *(option for option, variant in verb.variants if variant is cls),
        ]
    )


def words_of(verb: Verb, values: dict[str, Any], cls: type | None = None, placeholders: bool = False) -> list[str]:
    """The words after a verb's name that give ``values`` (its fields, by
    name): arguments in order, then each option not at its default."""
    out: list[str] = []
    for p in verb.params:
        if p.name in values:
            value = plain(values[p.name])
        else:
            default = _plain_default(verb, p, cls)
            value = default if default is not msgspec.NODEFAULT else plain(default)
        out += param_words(verb, p, value, cls, placeholders)
    return out


def param_words(verb: Verb, p: Param, value: Any, cls: type | None = None, placeholders: bool = False) -> list[str]:
    """The words that give ``value`` (plain) of ``p``: none at its default."""
    if not _shown(verb, p, value, cls):
        return []
    if p.positional:
        return [p.kind.spell(value, placeholders)]
    if p.flag:
        return [p.option if value else "--no-" + p.option[2:]]
    if p.repeat:
        return [f"{p.option} {p.kind.spell(v, placeholders)}" for v in value]
    return [f"{p.option} {p.kind.spell(value, placeholders)}"]


def _shown(verb: Verb, p: Param, value: Any, cls: type | None) -> bool:
    """Whether ``value`` of ``p`` is written: a yes/no declared both ways
    always; anything else unless at its default (a required one always)."""
    if p.flag and getattr(p.kind, "both", False):
        return True
    if p.flag:
        return bool(value)
    if p.repeat:
        return bool(value)
    if _required(verb, p):
        return True
    default = _plain_default(verb, p, cls)
    if default is msgspec.NODEFAULT:  # optional to type, filled from the store (Verb.complete): always written
        return True
    return value != default


# What a verb's declarations say of a parameter, found once per command
# class and parameter: a log spells thousands of commands of a few classes,
# and each look-up walks the class's fields.
_DEFAULTS: dict[tuple[type, str, bool], Any] = {}
_REQUIRED: dict[tuple[type, str, bool, bool, bool | None], bool] = {}


def _plain_default(verb: Verb, p: Param, cls: type | None) -> Any:
    """``plain(verb.default(p, cls))``, or ``msgspec.NODEFAULT`` when ``p``
    has no default."""
    flag = p.flag
    key = (cls or verb.command, p.name, flag)
    try:
        return _DEFAULTS[key]
    except KeyError:
        default = verb.default(p, cls)
        found = _DEFAULTS[key] = default if default is msgspec.NODEFAULT else plain(default)
        return found


def _required(verb: Verb, p: Param) -> bool:
    """``verb.required(p)``."""
    key = (verb.command, p.name, p.flag, p.repeat, p.required)
    found = _REQUIRED.get(key)
    if found is None:
        found = _REQUIRED[key] = verb.required(p)
    return found


def usage(verb: Verb) -> str:
    """The verb's line as help writes it: ``engage --form FORM [--target ENEMY] ...``."""
    parts = [verb.name]
    for p in verb.params:
        if p.positional:
            text = p.value_name
        elif p.flag:
            text = f"{p.option}/--no-{p.option[2:]}" if getattr(p.kind, "both", False) else p.option
        else:
            text = f"{p.option} {p.value_name}" + (" ..." if p.repeat else "")
        parts.append(text if verb.required(p) else f"[{text}]")
    parts += [f"[{option}]" for option, _ in verb.variants]
    return " ".join(parts)
