"""`rk rule ID`: a rule's text from the spec that ships with the package,
its notes, and the facts that fill it (``domain.kernel.spec`` reads them)."""

from __future__ import annotations

import re
from typing import Any

import typer
from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from domain.kernel.errors import NotFound
from domain.kernel.spec import Facts, Rule, Rulebook, UnknownRule, lookup

from .session import Session, _store_failed

UNKNOWN_RULE = 1  # exit status for an ID the spec does not have: not found, like any other


def show(s: Session, rule_id: str, ruleset: str | None, everything: bool) -> None:
    """Print rule ``rule_id`` of ``ruleset`` (default: the one ruleset with
    that ID, else the current battle's, else the first by name), with its sub-rules
    when ``everything``, and the facts that fill what is printed."""
    try:
        book, rule = lookup(rule_id, ruleset, default=lambda: _current_ruleset(s))
    except UnknownRule as e:
        s.out.error(e)
        raise typer.Exit(UNKNOWN_RULE) from None
    rules = [rule, *(book.sub_rules(rule.id) if everything else ())]
    facts = list(dict.fromkeys(f for r in rules for f in book.facts(r.id)))
    if s.json:
        body: dict[str, Any] = {"ruleset": book.ruleset, **_rule_json(rule), "facts": [_facts_json(f) for f in facts]}
        if everything:
            body["sub_rules"] = [_rule_json(r) for r in rules[1:]]
        s.out.emit(body)
        return
    console = s.out.console
    for r in rules:
        s.out.print(*_rule_lines(console, book, r, 2 * _depth(book, r, rule)))
    for f in facts:
        s.out.print(Text(""), *_wrapped(console, Text(f"{book.ruleset}-facts.md, {f.heading}:", style="bold")))
        for line in f.text.splitlines():
            hang = 2 if line.startswith(("- ", "* ")) else 0
            s.out.print(*(_wrapped(console, Text(line), hang=hang) if not line.startswith("|") else [_unwrapped(line)]))


def _current_ruleset(s: Session) -> str | None:
    """The ruleset of the battle acted on; None (the first by name) when
    there is no battle yet, or no store to read."""
    try:
        return s.ruleset.name
    except NotFound:
        if s.battle:  # a --battle that names none: say so
            raise
        return None
    except Exception as e:
        if _store_failed(e):
            return None
        raise


def _rule_lines(console: Console, book: Rulebook, rule: Rule, indent: int) -> list[Text]:
    """The bullet (the first one says whose rules these are), then its notes under it."""
    head = Text(f"{rule.id} ({book.ruleset}): " if indent == 0 else f"{rule.id}: ")
    head.stylize("bold", 0, len(rule.id))
    lines = _wrapped(console, head + rule.text, indent)
    for note in rule.notes:
        lines += _wrapped(console, Text(note, style="italic"), indent + 2)
    return lines


def _wrapped(console: Console, text: Text, indent: int = 0, hang: int = 0) -> list[Text]:
    """``text`` wrapped to the console's width, indented, the lines after the
    first by ``hang`` more, with no trailing spaces; a word wider than a
    line (a URL) gets a line of its own."""
    width = max(console.width - indent - hang, 20)
    breaks, used = [], 0
    for word in re.finditer(r"\S+\s*", text.plain):
        size = cell_len(word.group().rstrip())
        if used and used + size > width:
            breaks.append(word.start())
            used = 0
        used += cell_len(word.group())
    lines = list(text.divide(breaks))
    for i, line in enumerate(lines):
        line.rstrip()
        line.pad_left(indent + (hang if i else 0))
        lines[i] = _unwrapped(line)
    return lines


def _unwrapped(line: str | Text) -> Text:
    """A line already wrapped (or a table row): the console folds it only
    if a single word is wider than the screen, never loses its end."""
    text = Text(line) if isinstance(line, str) else line
    text.overflow = "fold"
    return text


def _depth(book: Rulebook, rule: Rule, top: Rule) -> int:
    depth = 0
    while rule.id != top.id and rule.parent is not None:
        rule = book.rules[rule.parent]
        depth += 1
    return depth


def _rule_json(rule: Rule) -> dict[str, Any]:
    return {"id": rule.id, "text": rule.text, "notes": list(rule.notes)}


def _facts_json(facts: Facts) -> dict[str, str]:
    return {"heading": facts.heading, "text": facts.text}
