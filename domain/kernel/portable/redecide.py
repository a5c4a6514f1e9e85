"""One command of a log re-decided by the rules: the recorded events
against the ones the rules give now, event by event, each roll and draw
re-derived from (seed, counter), every write to another stream, and a
redo against the command it redoes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from domain.kernel.commandlog import CommandIssued, Game
from domain.kernel.errors import AmbiguousCommand, MalformedCommand, NotFound, RuleViolation
from domain.kernel.portable.diff import (
    Divergence,
    Label,
    clip,
    describe_command,
    describe_event,
    divergence,
    first_difference,
    plain,
    unequal,
)
from domain.kernel.portable.reader import Entry
from domain.kernel.position import rules as position_rules
from domain.kernel.position.messages import StartFromPosition
from domain.kernel.ruleset import Outcome, Ruleset, rules_context


@dataclass
class Step:
    """One command of the game stream, with the game before and after it
    and its lines in other streams."""

    group: list[Entry]
    before: Game | None
    after: Game
    writes: list[Entry] = field(default_factory=list)

    @property
    def command_id(self) -> str:
        """The id of the command (its first line's)."""
        return self.group[0].envelope.command_id


class Referee:
    """The rules of a log's ruleset and the pack it is checked with, asked
    about one command at a time. ``companion(kind, stream)``: another
    stream's state as the log has it so far (a delve's map)."""

    def __init__(self, rs: Ruleset, pack: Any, companion: Callable[[str, UUID], Any], prefix: str = "") -> None:
        self.rs = rs
        self.pack = pack
        self.companion = companion
        self.prefix = prefix  # a group log's ``game: `` before each command's words

    def label(self, issued: CommandIssued) -> Label:
        """The command as a divergence names it: its id and how it reads."""
        return Label(issued.command_id, self.prefix + self.spell(issued.command))

    def spell(self, command: Any) -> str:
        """``command`` as the ruleset writes it, or its fields when it cannot."""
        try:
            return clip(self.rs.describe_command(command), 100)
        except Exception:  # noqa: BLE001 - a forged command may not spell
            return describe_command(command)

    def check_issued(self, step: Step) -> Divergence | None:
        """The first divergence of an issued command, or None."""
        issued: CommandIssued = step.group[0].event
        line, cmd, label = step.group[0].line, issued.command, self.label(issued)
        state = step.before.state if step.before else None
        stray = next((e for e in step.group if e.envelope.command_id != issued.command_id), None)
        if stray is not None:
            return divergence(
                stray.line,
                label,
                "LOG",
                f"an event of command {issued.command_id}",
                f"command id {stray.envelope.command_id!r} on an event of that command",
            )
        if issued.redo_of:
            found = _check_redo(step, issued, label)
            if found:
                return found
        try:
            if step.before is None:
                if not isinstance(cmd, self.rs.setup_commands):
                    return divergence(line, label, "LOG", "a setup command first", self.spell(cmd))
            if isinstance(cmd, StartFromPosition):
                if step.before is not None:
                    return divergence(line, label, "LOG", "a command of a game already set up", "a second setup")
                produced = position_rules.decide(self.rs, self.pack, cmd)  # the position re-read and re-checked
                return self._compare(issued, label, state, produced, step)
            if step.before is None:
                ctx = self.rs.setup_context(self.pack, cmd)
            else:
                ctx = rules_context(self.rs, self.pack, state, self.companion, cmd)
            produced = self.rs.decide(state, cmd, ctx)  # a second setup: the ruleset's own rule refuses it
            if step.before is not None and isinstance(cmd, self.rs.setup_commands):
                return divergence(line, label, "LOG", "a command of a game already set up", "a second setup")
        except RuleViolation as v:
            return divergence(
                line,
                label,
                v.rule,
                "a command legal under the rules",
                f"this command is illegal under the rules: {v.message}",
            )
        except (MalformedCommand, AmbiguousCommand, NotFound) as m:
            return divergence(line, label, "MALFORMED", "a command the rules understand", str(m))
        return self._compare(issued, label, state, produced, step)

    def _compare(
        self, issued: CommandIssued, label: Label, state: Any, produced: Outcome, step: Step
    ) -> Divergence | None:
        """The recorded outcome against the re-decided one, event by event;
        each random outcome is also re-derived on its own (RNG)."""
        running = state
        recorded = step.group[1:]
        for i, entry in enumerate(recorded):
            found = self._check_random(entry, running, label)
            if found:
                return found
            if i >= len(produced.events):
                return divergence(
                    entry.line, label, "DECIDE", "no more events from this command", describe_event(entry.event)
                )
            if produced.events[i] != entry.event:
                return _mismatch(entry, label, produced.events[i])
            running = self.rs.evolve(running, entry.event)
        if len(produced.events) > len(recorded):
            last = (recorded or step.group)[-1].line
            return divergence(
                last,
                label,
                "DECIDE",
                describe_event(produced.events[len(recorded)]),
                "the command's recorded events end here",
            )
        found = self._compare_writes(
            label, step, [(w.stream, event) for w in produced.writes for event in w.events], step.group[-1].line
        )
        if found:
            return found
        touched = tuple(
            (str(e.envelope.originator_id), e.envelope.originator_version - 1)
            for e in step.writes
            if e is _first_of_stream(step.writes, e)
        )
        if issued.touched != touched:
            return divergence(
                step.group[0].line, label, "WRITE", f"touched={list(touched)}", f"touched={list(issued.touched)}"
            )
        return None

    def _compare_writes(
        self, label: Label, step: Step, expected: list[tuple[UUID, Any]], last_line: int
    ) -> Divergence | None:
        """The command's lines in other streams must be exactly the writes
        the rules give, in order (WRITE)."""
        for i, entry in enumerate(step.writes):
            if i >= len(expected):
                return divergence(
                    entry.line,
                    label,
                    "WRITE",
                    "no more writes from this command",
                    f"{entry.stream}: {describe_event(entry.event)}",
                )
            stream, event = expected[i]
            if entry.envelope.originator_id != stream:
                return divergence(
                    entry.line, label, "WRITE", f"a write to stream {stream}", f"a write to {entry.stream}"
                )
            if event != entry.event:
                return unequal(entry.line, label, "WRITE", f"{entry.stream}: the command's write", event, entry.event)
        if len(expected) > len(step.writes):
            stream, event = expected[len(step.writes)]
            return divergence(
                step.writes[-1].line if step.writes else last_line,
                label,
                "WRITE",
                f"a write to {stream}: {describe_event(event)}",
                "the command's writes end here",
            )
        return None

    def _check_random(self, entry: Entry, state: Any, label: Label) -> Divergence | None:
        """Re-derive a roll or a draw from (seed, counter), without the rules."""
        check = self.rs.check_random(state, entry.event)
        if check is None:
            return None
        return divergence(entry.line, label, "RNG", check.expected, check.found)


def _first_of_stream(writes: list[Entry], entry: Entry) -> Entry:
    """The first of ``writes`` in ``entry``'s stream."""
    return next(e for e in writes if e.envelope.originator_id == entry.envelope.originator_id)


def _check_redo(step: Step, issued: CommandIssued, label: Label) -> Divergence | None:
    undone = step.before.undone if step.before else ()
    if undone and undone[-1].command_id == issued.redo_of and undone[-1].command == issued.command:
        return None
    last = undone[-1].command_id if undone else "nothing"
    return divergence(
        step.group[0].line,
        label,
        "REDO-1",
        f"a redo of the last undone command ({last})",
        f"a redo of {issued.redo_of}",
    )


def _mismatch(entry: Entry, label: Label, expected: Any) -> Divergence:
    found = entry.event
    rule = getattr(expected, "rule", "") or "DECIDE"
    first = first_difference(plain(expected), plain(found), type(found).__name__)
    if type(found) is type(expected) and first:
        where, a, b = first
        return divergence(entry.line, label, rule, f"{where} = {a}", f"{where} = {b}")
    return divergence(entry.line, label, rule, describe_event(expected), describe_event(found))
