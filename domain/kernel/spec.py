"""A ruleset's rules as written, to settle a question at the table: the
rule bullets of its specification and the facts that fill their open
points (`rk rule MOVE-1`).

Each ruleset ships both files as package data, in ``domain/<name>/spec/``:
``<name>.md`` and ``<name>-facts.md`` (copies of ``shared/rules/``). They
are read through ``importlib.resources``, anchored at the ``domain``
package, so looking a rule up imports no ruleset.

The spec's format: a rule is one bullet, ``- **[ID]** text (location)``;
a lettered sub-rule (``EXPLORATION-9e``) is a bullet indented under its
numbered rule; ``_Ambiguity: ..._`` and ``_Not in source: ..._`` notes
follow a bullet on lines indented under it (Betrayal) or sit inside its
line (Conquest). The facts file fills rules under headings
``### Fills ID, ID (topic)``; the paragraphs up to the next heading are
the facts.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from importlib import resources

from domain.kernel.errors import NotFound

_BULLET = re.compile(r"^(?P<indent> *)- \*\*\[(?P<id>[^\]]+)\]\*\*\s*(?P<text>.*)$")
_NOTE = re.compile(r"\s*_((?:Ambiguity|Not in source):.*?)_(?=\s|$)")
_FILLS = re.compile(r"^#{2,} Fills (?P<ids>[^(]+?)\s*(?:\(.*\))?\s*$")
_CLAUSE = re.compile(r"\([a-z]\)$")  # ``ROUND-3(a)``: a lettered clause inside a bullet


@dataclass(frozen=True)
class Rule:
    """One rule bullet: its ``id`` as the spec writes it, its ``text`` (with
    the source location it ends with), its ``notes`` (ambiguities, what the
    source leaves out), and the ``parent`` rule it is a sub-rule of."""

    id: str
    text: str
    notes: tuple[str, ...] = ()
    parent: str | None = None


@dataclass(frozen=True)
class Facts:
    """One section of the facts file: its ``heading`` (``Fills MOVE-1
    (blocking)``) and its ``text``, as written."""

    heading: str
    text: str


@dataclass(frozen=True)
class Rulebook:
    """The rules of one ruleset, by ID in the spec's order, and the facts
    sections that fill each of them."""

    ruleset: str
    rules: Mapping[str, Rule]
    fills: Mapping[str, tuple[Facts, ...]] = field(default_factory=dict)

    def find(self, rule_id: str) -> Rule | None:
        """The rule ``rule_id`` names, in any case (``move-1``), bracketed
        or with a lettered clause (``ROUND-3(a)``); None if there is none.

        >>> book = Rulebook("demo", {"MOVE-1": Rule("MOVE-1", "Move.")})
        >>> book.find(" [move-1] ").text
        'Move.'
        """
        return self.rules.get(self._ids.get(normalised(rule_id), ""))

    def sub_rules(self, rule_id: str) -> list[Rule]:
        """The rules under ``rule_id`` (its lettered sub-rules and theirs),
        in the spec's order."""
        under = {rule_id}
        found = []
        for rule in self.rules.values():
            if rule.parent in under:
                under.add(rule.id)
                found.append(rule)
        return found

    def facts(self, rule_id: str) -> tuple[Facts, ...]:
        """The facts sections that fill ``rule_id`` (none for most rules)."""
        return self.fills.get(normalised(rule_id), ())

    def close(self, rule_id: str, n: int = 3) -> list[str]:
        """Up to ``n`` IDs of this spec that look like ``rule_id``, closest first."""
        matches = difflib.get_close_matches(normalised(rule_id), list(self._ids), n=n, cutoff=0.6)
        return [self._ids[m] for m in matches]

    @cached_property
    def _ids(self) -> dict[str, str]:
        """Each ID by its normalised form."""
        return {normalised(i): i for i in self.rules}


class UnknownRule(NotFound):
    """No rule with that ID; ``suggestions`` are IDs that look like it."""

    def __init__(self, message: str, suggestions: list[str]) -> None:
        super().__init__(message)
        self.suggestions = suggestions


def normalised(rule_id: str) -> str:
    """The form IDs are compared in: upper case, no brackets, no clause.

    >>> normalised("[exploration-9e]"), normalised("round-3(b)")
    ('EXPLORATION-9E', 'ROUND-3')
    """
    return _CLAUSE.sub("", rule_id.strip().strip("[]*").strip().lower()).upper()


def parse_rules(text: str) -> dict[str, Rule]:
    """The rule bullets of a spec, by ID, in order. A bullet's notes are the
    indented lines under it that are not bullets of their own, and the
    ``_Ambiguity:_`` / ``_Not in source:_`` spans inside its line.

    >>> rules = parse_rules('''- **[X-1]** Do it. _Ambiguity: how._ (L1)
    ...   - **[X-1a]** Once. (L2)
    ...     _Not in source: when._''')
    >>> rules["X-1"]
    Rule(id='X-1', text='Do it. (L1)', notes=('Ambiguity: how.',), parent=None)
    >>> rules["X-1a"]
    Rule(id='X-1a', text='Once. (L2)', notes=('Not in source: when.',), parent='X-1')
    """
    rules: dict[str, Rule] = {}
    open_: list[tuple[int, str]] = []  # (indent, id) of the bullets a deeper one may sit under
    current: tuple[int, str] | None = None  # the bullet whose indented notes may follow
    for line in text.splitlines():
        bullet = _BULLET.match(line)
        if bullet:
            indent, rule_id = len(bullet["indent"]), bullet["id"]
            while open_ and open_[-1][0] >= indent:
                open_.pop()
            notes = tuple(n.strip() for n in _NOTE.findall(bullet["text"]))
            body = " ".join(_NOTE.sub("", bullet["text"]).split())
            rules[rule_id] = Rule(rule_id, body, notes, open_[-1][1] if open_ else None)
            open_.append((indent, rule_id))
            current = (indent, rule_id)
            continue
        depth = len(line) - len(line.lstrip(" "))
        if current and line.strip() and depth > current[0]:
            rule = rules[current[1]]
            rules[rule.id] = Rule(rule.id, rule.text, (*rule.notes, _unwrapped(line.strip())), rule.parent)
            continue
        current = None
        if line.strip() and not line.startswith(" "):
            open_.clear()  # a heading or a paragraph ends the list
    return rules


def parse_facts(text: str) -> dict[str, tuple[Facts, ...]]:
    """The sections of a facts file by the (normalised) IDs their heading
    says they fill.

    >>> facts = parse_facts('''### Fills MOVE-1, EMOVE-2 (sight)
    ... **Fact.** Units block.
    ... ## Rulings''')
    >>> facts["EMOVE-2"]
    (Facts(heading='Fills MOVE-1, EMOVE-2 (sight)', text='**Fact.** Units block.'),)
    """
    fills: dict[str, tuple[Facts, ...]] = {}
    heading: str | None = None
    ids: list[str] = []
    body: list[str] = []

    def close_section() -> None:
        if heading is not None:
            section = Facts(heading, "\n".join(body).strip())
            for rule_id in ids:
                fills[rule_id] = (*fills.get(rule_id, ()), section)

    for line in text.splitlines():
        if line.startswith("#"):
            close_section()
            match = _FILLS.match(line)
            heading = line.lstrip("#").strip() if match else None
            ids = [normalised(i) for i in match["ids"].split(",")] if match else []
            body = []
        elif heading is not None:
            body.append(line)
    close_section()
    return fills


def _unwrapped(note: str) -> str:
    """A note without the underscores that set it in italics."""
    return note[1:-1] if len(note) > 1 and note[0] == note[-1] == "_" else note


def spec_files(ruleset: str):
    """The folder of ``ruleset``'s spec files (an ``importlib.resources``
    Traversable), without importing the ruleset."""
    return resources.files("domain").joinpath(ruleset).joinpath("spec")


@lru_cache(maxsize=None)
def rulebook(ruleset: str) -> Rulebook:
    """The rulebook of ``ruleset``, read from the files it ships.
    ``NotFound`` when it ships none."""
    folder = spec_files(ruleset) if ruleset.isidentifier() else None
    spec = folder.joinpath(f"{ruleset}.md") if folder is not None else None
    if folder is None or spec is None or not spec.is_file():
        raise NotFound(f"no rules text for ruleset {ruleset!r}; there is for {', '.join(with_spec())}")
    facts = folder.joinpath(f"{ruleset}-facts.md")
    return Rulebook(
        ruleset,
        parse_rules(spec.read_text(encoding="utf-8")),
        parse_facts(facts.read_text(encoding="utf-8")) if facts.is_file() else {},
    )


def with_spec() -> list[str]:
    """The rulesets that ship their rules text, sorted."""
    from domain.kernel.ruleset import names

    return [n for n in names() if spec_files(n).joinpath(f"{n}.md").is_file()]


def lookup(
    rule_id: str, ruleset: str | None = None, default: Callable[[], str | None] = lambda: None
) -> tuple[Rulebook, Rule]:
    """The rule ``rule_id`` and the rulebook it is in: ``ruleset``'s when
    given; else the one ruleset that has the ID, or, when several have it,
    ``default()``'s (called only then; None or another: the first by
    name). ``UnknownRule`` names close IDs."""
    books = [rulebook(ruleset)] if ruleset else [rulebook(n) for n in with_spec()]
    holding = [book for book in books if book.find(rule_id) is not None]
    if len(holding) > 1:
        wanted = default()
        holding = [book for book in holding if book.ruleset == wanted] or holding[:1]
    if holding:
        return holding[0], holding[0].find(rule_id)  # type: ignore[return-value]
    raise _unknown(rule_id, books, ruleset)


def _unknown(rule_id: str, books: list[Rulebook], ruleset: str | None) -> UnknownRule:
    where = " or ".join(book.ruleset for book in books)
    wanted = normalised(rule_id)
    prefix = wanted.rsplit("-", 1)[0]

    def likeness(i: str) -> tuple[bool, float]:  # the same prefix first (MOVE-99: MOVE-5 before EMOVE-9)
        return normalised(i).rsplit("-", 1)[0] == prefix, difflib.SequenceMatcher(None, wanted, normalised(i)).ratio()

    close = sorted(dict.fromkeys(i for book in books for i in book.close(rule_id, n=10)), key=likeness, reverse=True)[
        :3
    ]
    hint = f"; did you mean {', '.join(close)}?" if close else "; no ID is close to it"
    if ruleset:
        others = [n for n in with_spec() if n != ruleset and rulebook(n).find(rule_id) is not None]
        if others:
            hint = f"; {others[0]} has it (--ruleset {others[0]})"
    shown = " ".join(rule_id.split())[:40]
    return UnknownRule(f"no rule {shown!r} in {where}{hint}", close)
