"""Open commands: what may be done now, as a verb and, for each of its
parameters, the values it may take and how they combine, not every
finished combination (``rk legal``, ``GET .../legal``, the page's controls).

An ``Open`` is a verb (and the command class it gives) with a ``Domain`` per
parameter: a fixed value, one of a list (each value with its label in the
players' words), some of a list ("any 1 to 2 of these dice", at most so
many of each group: a die's pool), an order of a list ("any order of these
cards"), a number in a range, faces typed off physical dice. A domain is
what the table offers; whether a chosen combination is legal stays the
rules' to say (the kernel's execute refuses it with its rule ID and writes
nothing).

Every ruleset gets open commands from its finished legal commands
(``derive``): grouped by verb and by the values of their scalar parameters
(a hex, a unit, one of a list: each its own command, as before), each
parameter that holds several values (dice, cards, names, faces) free, its
domain the values seen. A verb declares richer domains where the finished
list is combinatorial or cut short (``Verb.opens``: every order of a stack,
every subset of an adventurer's dice), building on ``group``.

Any command built from an open command's domains is a line the verb's
grammar reads back (``Open.line``), which the contract suite checks over
every ruleset by random play.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import msgspec

from .grammar import Grammar, param_words, plain, words_of
from .kinds import TYPED_FACE, Faces, Kind, Names, Numbers, Optional_
from .verbs import Param, Verb

# How a parameter's values are chosen.
FIXED = "fixed"  # one value, given as it is
ONE = "one"  # one of ``values``
SOME = "some"  # from ``low`` to ``high`` of ``values``, at most ``limits[group]`` of each group, in any order
ORDER = "order"  # every one of ``values``, in an order the player chooses
RANGE = "range"  # ``size`` whole numbers (1: one), each from ``low`` to ``high``
TYPED = "typed"  # faces read off physical dice, 1 to 6: ``size`` of them, plus one per item of ``per``
HOW = (FIXED, ONE, SOME, ORDER, RANGE, TYPED)


class Value(msgspec.Struct, frozen=True, kw_only=True):
    """One value a parameter may take: ``value`` as a command's JSON holds
    it, ``word`` as a player types it, ``label`` in the players' words
    (``#1 Combat``), ``group`` what it counts against (a die's pool)."""

    value: Any
    word: str
    label: str = ""
    group: str = ""


class Domain(msgspec.Struct, frozen=True, kw_only=True):
    """The values one parameter may take now, and how they combine (``how``,
    one of ``HOW``). ``optional``: it may be left out (its default).
    ``note``: a few words the listing adds (``at most 2 stamina``)."""

    how: str
    values: tuple[Value, ...] = ()
    low: int = 0
    high: int = 0
    limits: dict[str, int] = {}
    size: int = 0
    per: str = ""
    optional: bool = False
    note: str = ""

    @property
    def open(self) -> bool:
        """Whether the player chooses anything here."""
        return self.how != FIXED and not (self.how == ONE and len(self.values) == 1 and not self.optional)


@dataclass(frozen=True)
class Open:
    """A command open now: ``verb`` giving ``cls``, a ``Domain`` per
    parameter (those left out are at their default), and ``example``, one
    finished command it gives that the rules listed (posting it is legal);
    ``gives_up``, what giving it gives up (``Ruleset.gives_up``: each with
    a ``what`` and a ``rule``)."""

    verb: Verb
    cls: type
    domains: Mapping[str, Domain]
    example: Any = None
    gives_up: tuple[Any, ...] = ()

    @property
    def summary(self) -> str:
        """What it does, in one sentence citing its rules: its verb's summary
        (``Engage: declare a form, a target and dice, and roll them (ENGAGE-4
        to ENGAGE-7)``), shown beside its choices."""
        return self.verb.summary

    @property
    def title(self) -> str:
        """Its verb's name in players' words (``End turn``), a table's heading for it."""
        return self.verb.shown_title

    @property
    def fixed(self) -> bool:
        """Whether every parameter is fixed: a finished command."""
        return not any(d.open for d in self.domains.values())

    def domain(self, p: Param) -> Domain | None:
        return self.domains.get(p.name)

    # -- writing -------------------------------------------------------------

    def line(self, values: Mapping[str, Any]) -> str:
        """The line (without ``rk``) giving this command with ``values``
        (plain values by parameter name; the others as fixed, or default)."""
        given = {
            name: d.values[0].value
            for name, d in self.domains.items()
            if d.how in (FIXED, ONE) and len(d.values) == 1 and not d.optional
        }
        given |= dict(values)
        variant = [option for option, cls in self.verb.variants if cls is self.cls]
        return " ".join([self.verb.name, *_words(self.verb, given, self.cls, self.domains), *variant])

    def choose(self, rnd: random.Random) -> dict[str, Any]:
        """A random choice from every domain (plain values by name)."""
        return {name: _pick(d, rnd) for name, d in self.domains.items()}

    def spelled(self) -> tuple[str, list[str]]:
        """The open command in players' words: its line (each choice
        written in place: ``heavy|light``, ``[--target e1|e2]``, ``UIDS``)
        and the legends of the choices written by a name; a fixed value
        with a label has its legend too (``rallying-shout: Rallying Shout · 2 TP``)."""
        words: list[str] = [self.verb.name]
        legends: list[str] = []
        for p in self.verb.params:
            d = self.domains.get(p.name)
            if d is None:
                continue
            if not d.open:
                value = d.values[0].value if d.values else None
                given = param_words(self.verb, p, plain(value), self.cls, placeholders=True)
                words += given
                label = d.values[0].label if d.values else ""
                word = d.values[0].word or " ".join(given)
                if given and label and label != d.values[0].word:
                    # a label that starts with the word stands alone ("None, the roll stands" for none)
                    legends.append(label if f"{_flat(label)} ".startswith(f"{_flat(word)} ") else f"{word}: {label}")
                continue
            text, legend = _written(p, d)
            if p.flag:
                words.append(f"[{p.option}]")
                continue
            said = text if p.positional else f"{p.option} {text}"
            words.append(f"[{said}]" if d.optional else said)
            if legend:
                legends.append(f"{text}: {legend}")
        words += [option for option, cls in self.verb.variants if cls is self.cls]
        return " ".join(words), legends

    def text(self, gives_up: bool = True) -> str:
        """One line: ``rk engage --form heavy|light --dice UIDS  (UIDS: any 1 to 2 of ...)``, then
        what it gives up, if anything (unless ``gives_up`` is False: a table shows it apart)."""
        line, legends = self.spelled()
        return f"rk {line}" + (f"  ({'; '.join(legends)})" if legends else "") + (self.given_up() if gives_up else "")

    def given_up(self) -> str:
        """What it gives up, as the listing adds it: ``  (gives up: your Engage this turn, MOVE-3)``."""
        if not self.gives_up:
            return ""
        return "  (gives up: " + "; ".join(f"{g.what}, {g.rule}" for g in self.gives_up) + ")"

    def params(self) -> list[dict[str, Any]]:
        """The open parameters, in the verb's order, as the API and the page
        take them: how each is typed (``option``, ``flag``, ``sep`` between
        the items of a list), what a table calls it (``title``: ``dice``,
        not ``--dice``), its domain, and, when fixed, the ``words`` that
        give it (none at its default)."""
        out = []
        for p in self.verb.params:
            d = self.domains.get(p.name)
            if d is None:
                continue
            entry: dict[str, Any] = {
                "name": p.name,
                "option": p.option,
                "flag": p.flag,
                "what": p.kind.what,
                "metavar": p.value_name,
                "title": p.legend,
                "help": p.help,
                "sep": _sep(p.kind),
                "fixed": not d.open,
                "words": []
                if d.open
                else param_words(self.verb, p, plain(d.values[0].value) if d.values else None, self.cls),
            }
            out.append(entry | msgspec.to_builtins(d))
        return out

    def admits(self, command: Any) -> bool:
        """Whether ``command`` is one this open command gives."""
        if type(command) is not self.cls:
            return False
        fields = (
            self.verb.fields(command)
            if self.verb.fields is not None
            else {p.name: getattr(command, p.name) for p in self.verb.params if hasattr(command, p.name)}
        )
        for p in self.verb.params:
            d = self.domains.get(p.name)
            value = plain(fields.get(p.name, self.verb.default(p, self.cls)))
            if d is None:
                if value != plain(self.verb.default(p, self.cls)):
                    return False
            elif not _holds(self.verb, p, d, value, self.cls):
                return False
        return True


# -- domains -------------------------------------------------------------------------


def value(kind: Kind, v: Any, label: str = "", group: str = "") -> Value:
    """``v`` (plain) as a ``Value`` of ``kind``, its word as typed."""
    v = plain(v)
    # an empty list is a part left out (no word), unless its kind has a word for none (``none``)
    given = v is not None and (v not in ((), []) or bool(getattr(_inner(kind), "empty", "")))
    return Value(value=v, word=kind.spell(v, placeholders=True) if given else "", label=label, group=group)


def item(kind: Kind, v: Any, label: str = "", group: str = "") -> Value:
    """One item ``v`` of a list kind (a die's uid, a card) as a ``Value``:
    what ``some`` and ``order`` choose from, its word as typed alone."""
    word = kind.spell((plain(v),), placeholders=True)
    return Value(value=plain(v), word=word, label=label, group=group)


def fixed(kind: Kind, v: Any) -> Domain:
    return Domain(how=FIXED, values=(value(kind, v),))


def one_of(values: Iterable[Value], optional: bool = False, note: str = "") -> Domain:
    values = tuple(values)
    if len(values) == 1 and not optional:
        return Domain(how=FIXED, values=values)
    return Domain(how=ONE, values=values, optional=optional, note=note)


def some(
    values: Iterable[Value], low: int, high: int, limits: Mapping[str, int] | None = None, note: str = ""
) -> Domain:
    """From ``low`` to ``high`` of ``values``, at most ``limits[g]`` of group ``g``."""
    values = tuple(values)
    limits = dict(limits or {})
    room = sum(
        min(limits.get(g, len(values)), sum(1 for v in values if v.group == g))
        for g in dict.fromkeys(v.group for v in values)
    )
    return Domain(
        how=SOME, values=values, low=low, high=min(high, len(values), room), limits=limits, optional=low == 0, note=note
    )


def order(values: Iterable[Value], note: str = "") -> Domain:
    return Domain(how=ORDER, values=tuple(values), note=note)


def number(low: int, high: int, size: int = 1, note: str = "") -> Domain:
    return Domain(how=RANGE, low=low, high=high, size=size, note=note)


def typed(size: int = 0, per: str = "", note: str = "") -> Domain:
    return Domain(how=TYPED, size=size, per=per, note=note)


# -- derivation ----------------------------------------------------------------------


def _inner(kind: Kind) -> Kind:
    return kind.inner if isinstance(kind, Optional_) else kind


def free_by_default(p: Param) -> bool:
    """Whether ``derive`` folds a parameter's values into one open command:
    those holding several values at once (dice, positions, cards, names,
    faces), where the finished list is combinatorial. A scalar one (a hex,
    a unit, one of a list, a number) keeps its commands apart."""
    kind = _inner(p.kind)
    return isinstance(kind, (Numbers, Names, Faces)) and not p.repeat


def _faces(p: Param) -> bool:
    kind = _inner(p.kind)
    return isinstance(kind, Faces) or (isinstance(kind, Numbers) and kind.of == "faces")


def fields_of(verb: Verb, command: Any) -> dict[str, Any]:
    """The parameters' values (plain) of ``command``, by name."""
    fields = (
        verb.fields(command)
        if verb.fields is not None
        else {p.name: getattr(command, p.name) for p in verb.params if hasattr(command, p.name)}
    )
    return {
        p.name: plain(fields[p.name]) if p.name in fields else plain(verb.default(p, type(command)))
        for p in verb.params
    }


def seen(verb: Verb, p: Param, values: Sequence[Any], cls: type) -> Domain:
    """The domain of ``p`` from the values the rules listed (plain): one
    value fixed; faces typed; else one of them (optional when its
    default is one of them)."""
    values = list(dict.fromkeys(_hashable(v) for v in values))
    values = [_unhashable(v) for v in values]
    if _faces(p) and values and all(v is not None for v in values):
        sizes = {len(v) for v in values}
        if len(sizes) == 1:
            return typed(size=sizes.pop())
    if len(values) == 1:
        return fixed(p.kind, values[0])
    default = verb.default(p, cls)
    optional = default is not msgspec.NODEFAULT and plain(default) in values and not verb.required(p)
    return one_of((value(p.kind, v) for v in values if not (optional and v == plain(default))), optional=optional)


def group(verb: Verb, commands: Sequence[Any], by: Callable[[Param], bool] | None = None) -> list[Open]:
    """``commands`` (each given by ``verb``) as open commands: one per class
    and per the values of the parameters ``by`` keeps apart (default: the
    scalar ones, ``free_by_default``), each other parameter's domain the
    values seen (``seen``). In the order first listed."""
    keep = by or (lambda p: not free_by_default(p))
    groups: dict[Any, list[Any]] = {}
    for command in commands:
        fields = fields_of(verb, command)
        key = (type(command), tuple(_hashable(fields[p.name]) for p in verb.params if keep(p)))
        groups.setdefault(key, []).append((command, fields))
    out = []
    for (cls, _), members in groups.items():
        domains = {p.name: seen(verb, p, [f[p.name] for _, f in members], cls) for p in verb.params}
        out.append(Open(verb=verb, cls=cls, domains=domains, example=members[0][0]))
    return out


def merge(opens: Sequence[Open], over: str) -> list[Open]:
    """Open commands that differ only in parameter ``over`` as one, that
    parameter one of their values (``--form heavy|light``)."""
    out: list[Open] = []
    for o in opens:
        rest = {k: v for k, v in o.domains.items() if k != over}
        for i, m in enumerate(out):
            if m.cls is o.cls and {k: v for k, v in m.domains.items() if k != over} == rest:
                a, b = m.domains[over], o.domains[over]
                out[i] = replace(
                    m,
                    domains={
                        **m.domains,
                        over: one_of(
                            (*a.values, *(v for v in b.values if v not in a.values)), optional=a.optional or b.optional
                        ),
                    },
                )
                break
        else:
            out.append(o)
    return out


def labelled(opens: Iterable[Open], label: Callable[[str, Any], str]) -> list[Open]:
    """``opens`` with each value of their domains that has no label given
    one in the players' words: ``label(name, value)``, ``name`` the
    parameter's, ``value`` as the domain holds it (one item, for a list
    chosen from); "" leaves it bare. A ruleset's ``Verb.opens`` calls it on what ``group`` built."""
    out = []
    for o in opens:
        domains = {}
        for name, d in o.domains.items():
            values = tuple(
                v if v.label or v.value is None else msgspec.structs.replace(v, label=label(name, v.value))
                for v in d.values
            )
            domains[name] = msgspec.structs.replace(d, values=values) if values != d.values else d
        out.append(replace(o, domains=domains))
    return out


def derive(grammar: Grammar, commands: Sequence[Any]) -> list[Open]:
    """Every ruleset's open commands by default: ``group`` per verb."""
    return open_commands(grammar, commands)


def open_commands(
    grammar: Grammar,
    commands: Sequence[Any],
    state: Any = None,
    ctx: Any = None,
    split: Callable[[Any], Any] | None = None,
) -> list[Open]:
    """The open commands of the finished ``commands`` (the rules' legal
    list): per verb (and per ``split(command)``: who gives it), the verb's
    own ``opens(state, ctx, commands)`` where it declares one, else
    ``group``; in the order their verbs were first listed."""
    by_verb: dict[Any, tuple[Verb, list[Any]]] = {}
    loose: list[Any] = []
    for command in commands:
        verb = grammar.verb_of(command)
        if verb is None:
            loose.append(command)
            continue
        key = (verb.name, split(command) if split is not None else None)
        by_verb.setdefault(key, (verb, []))[1].append(command)
    out: list[Open] = []
    for verb, listed in by_verb.values():
        opens = getattr(verb, "opens", None)
        out += opens(state, ctx, listed) if opens is not None else group(verb, listed)
    return out


# -- helpers -------------------------------------------------------------------------


def _hashable(v: Any) -> Any:
    if isinstance(v, dict):
        return ("__dict__", tuple(sorted((k, _hashable(x)) for k, x in v.items())))
    if isinstance(v, (list, tuple)):
        return tuple(_hashable(x) for x in v)
    return v


def _unhashable(v: Any) -> Any:
    if isinstance(v, tuple) and len(v) == 2 and v[0] == "__dict__":
        return {k: _unhashable(x) for k, x in v[1]}
    if isinstance(v, tuple):
        return tuple(_unhashable(x) for x in v)
    return v


def _sep(kind: Kind) -> str:
    kind = _inner(kind)
    return getattr(kind, "sep", ",") if isinstance(kind, (Names, Numbers, Faces)) else ""


def _pick(d: Domain, rnd: random.Random) -> Any:
    if d.how == FIXED:
        return d.values[0].value if d.values else None
    if d.how == ONE:
        if d.optional and rnd.random() < 1 / (len(d.values) + 1):
            return _LEFT_OUT
        return rnd.choice(d.values).value
    if d.how == SOME:
        for _ in range(50):
            n = rnd.randint(d.low, d.high)
            chosen = rnd.sample(list(d.values), n)
            counts: dict[str, int] = {}
            for v in chosen:
                counts[v.group] = counts.get(v.group, 0) + 1
            if all(counts.get(g, 0) <= m for g, m in d.limits.items()):
                return tuple(v.value for v in chosen)
        return ()
    if d.how == ORDER:
        return tuple(v.value for v in rnd.sample(list(d.values), len(d.values)))
    if d.how == RANGE:
        drawn = tuple(rnd.randint(d.low, d.high) for _ in range(max(d.size, 1)))
        return drawn if d.size > 1 else drawn[0]
    if d.how == TYPED:
        return _TYPED
    raise ValueError(d.how)


class _Marker:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


_LEFT_OUT = _Marker("left out")  # an optional parameter not given
_TYPED = _Marker("typed")  # faces a test or a bot types at random


def _words(verb: Verb, given: Mapping[str, Any], cls: type, domains: Mapping[str, Domain]) -> list[str]:
    """The words after the verb's name for the chosen ``given`` values."""
    rnd = random.Random(repr(sorted(given, key=str)))
    values: dict[str, Any] = {}
    for p in verb.params:
        v = given.get(p.name, _LEFT_OUT)
        if v is _LEFT_OUT:
            continue
        if v is _TYPED:
            d = domains[p.name]
            n = d.size + (len(values.get(d.per, ()) or ()) if d.per else 0)
            v = tuple(rnd.randint(1, 6) for _ in range(n))
            if n == 0:
                continue
            kind = _inner(p.kind)
            v = tuple(f - 1 for f in v) if isinstance(kind, Faces) else v
        values[p.name] = v
    return words_of(verb, values, cls)


def _written(p: Param, d: Domain) -> tuple[str, str]:
    """An open parameter as the listing writes it, and its legend."""

    def shown(v: Value) -> str:
        return f"{v.word}:{v.label}" if v.label and v.label != v.word else v.word

    def listed(values: Sequence[Value]) -> str:
        groups = list(dict.fromkeys(v.group for v in values))
        if groups == [""]:
            return " ".join(shown(v) for v in values)
        return "; ".join(
            f"{g}"
            + (f" (at most {d.limits[g]})" if g in d.limits else "")
            + ": "
            + " ".join(shown(v) for v in values if v.group == g)
            for g in groups
        )

    if d.how == ONE:
        words = [v.word for v in d.values]
        if len(words) <= 6 and not any(v.label and v.label != v.word for v in d.values):
            return "|".join(words), ""
        return p.value_name, "one of " + listed(d.values)
    if d.how == SOME:
        count = f"{d.low}" if d.low == d.high else f"{max(d.low, 0)} to {d.high}"
        return p.value_name, f"any {count} of " + listed(d.values) + (f"; {d.note}" if d.note else "")
    if d.how == ORDER:
        return p.value_name, "any order of " + " ".join(shown(v) for v in d.values) + (f"; {d.note}" if d.note else "")
    if d.how == RANGE:
        each = f"{d.low} to {d.high}"
        return p.value_name, (each if d.size <= 1 else f"{d.size} numbers, each {each}") + (
            f"; {d.note}" if d.note else ""
        )
    if d.how == TYPED:
        if d.size and not d.per:
            return ",".join(TYPED_FACE * 1 for _ in range(d.size)), ""
        return p.value_name, "the face each die shows, 1 to 6" + (f", one per die of {d.per}" if d.per else "") + (
            f" and {d.size} more" if d.size and d.per else ""
        )
    return p.value_name, ""


def _holds(verb: Verb, p: Param, d: Domain, v: Any, cls: type) -> bool:
    """Whether value ``v`` (plain) of ``p`` is within ``d``."""
    default = verb.default(p, cls)
    at_default = default is not msgspec.NODEFAULT and v == plain(default)
    if d.how == FIXED:
        return (d.values[0].value if d.values else None) == v
    if d.how == ONE:
        return any(x.value == v for x in d.values) or (d.optional and at_default)
    if d.how == SOME:
        items = tuple(v or ())
        ours = [x for x in d.values if x.value in items]
        counts: dict[str, int] = {}
        for x in ours:
            counts[x.group] = counts.get(x.group, 0) + 1
        return (
            len(ours) == len(items) == len(set(items))
            and d.low <= len(items) <= d.high
            and all(counts.get(g, 0) <= m for g, m in d.limits.items())
        )
    if d.how == ORDER:
        return sorted(map(str, v or ())) == sorted(str(x.value) for x in d.values)
    if d.how == RANGE:
        items = tuple(v) if isinstance(v, (list, tuple)) else (v,)
        return all(d.low <= int(x) <= d.high for x in items)
    if d.how == TYPED:
        return True
    return False


__all__ = [
    "FIXED",
    "HOW",
    "ONE",
    "ORDER",
    "RANGE",
    "SOME",
    "TYPED",
    "Domain",
    "Open",
    "Value",
    "derive",
    "fields_of",
    "fixed",
    "free_by_default",
    "group",
    "item",
    "labelled",
    "merge",
    "number",
    "one_of",
    "open_commands",
    "order",
    "seen",
    "some",
    "typed",
    "value",
]


def _flat(text: str) -> str:
    """``text`` lower-cased with every run of other characters than letters
    and digits one space (as the page compares a word with its label)."""
    return " ".join("".join(c if c.isascii() and c.isalnum() else " " for c in text.lower()).split())
