"""The streams a log holds besides the game's (Betrayal: the party's
adventurers, a delve): each one's state at every version, folded in as
its lines are read. Lines before the setup wait for it (``verify.Check``):
the run just before it is the setup's prelude, the rest the streams'
earlier history.
What the ruleset can re-decide of them, it does (``Ruleset.check_setup``,
``Ruleset.check_other``); an undo must restore each one it touches."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from uuid import UUID

from domain.kernel.commandlog import CommandIssued, CommandUndone
from domain.kernel.portable.diff import Divergence, Found, Label, divergence
from domain.kernel.portable.reader import Entry
from domain.kernel.portable.undo import check_restored
from domain.kernel.position.messages import StartFromPosition
from domain.kernel.ruleset import Problem, Ruleset

if TYPE_CHECKING:
    from domain.kernel.portable.redecide import Step


class OtherStreams:
    """The other streams of one log (``streams``: the header's, uuid text
    -> name), checked with ``rs`` and ``pack``."""

    def __init__(
        self, rs: Ruleset, pack: Any, streams: dict[str, str], history: dict[str, list[Any]] | None = None
    ) -> None:
        self.rs = rs
        self.pack = pack
        self.streams = streams
        # other stream -> its state at each version (index); the games of a
        # group log share one, as they share the streams
        self.history: dict[str, list[Any]] = {} if history is None else history

    def check_prelude(
        self, step: Step, prelude: list[Entry], label_of: Callable[[CommandIssued], Label]
    ) -> Divergence | None:
        """What the setup takes from other streams, re-decided by the
        ruleset (``Ruleset.check_setup``); then the prelude is folded in."""
        if step.before is not None:
            return None
        rs = self.rs
        issued: CommandIssued = step.group[0].event
        by_stream: dict[UUID, list[Any]] = {}
        for e in prelude:
            by_stream.setdefault(e.envelope.originator_id, []).append(e.event)
        states = {UUID(sid): self.state_of(name) for sid, name in self.streams.items() if name != rs.game_kind}
        label = label_of(issued)
        try:
            if isinstance(issued.command, StartFromPosition):
                # what a position puts in other streams is its command's writes, re-decided with it
                problem = Problem("no lines before a position's setup", f"{len(prelude)}") if prelude else None
            else:
                problem = rs.check_setup(issued.command, by_stream, states, self.pack)
        except Exception as e:  # noqa: BLE001 - forged events may break a check
            problem = Problem("a setup the rules can check", repr(e))
        if problem is not None:
            line = next((p.line for p in prelude if p.envelope.originator_id == problem.stream), step.group[0].line)
            return divergence(line, label, "SETUP", problem.expected, problem.found)
        for item in prelude:
            found = self.fold(item)
            if found:
                return found
        return None

    def companion(self, kind: str, stream: UUID) -> Any:
        """A companion aggregate as this log has it so far (None if the log
        holds no line of it)."""
        name = self.streams.get(str(stream))
        return self.state_of(name) if name is not None else None

    def state_of(self, stream: str) -> Any:
        """The latest state of ``stream`` (by its name) in the log so far."""
        states = self.history.get(stream)
        return states[-1] if states else None

    def other(self, entry: Entry) -> None:
        """A line of another stream that no command of this game wrote:
        what the ruleset can re-decide of it (``Ruleset.check_other``)."""
        rs = self.rs
        kind = entry.stream.partition(":")[0]
        try:
            problem = rs.check_other(
                kind, entry.envelope.originator_id, entry.event, self.state_of(entry.stream), self.pack
            )
        except Exception as e:  # noqa: BLE001
            problem = Problem("an event the rules can check", repr(e))
        if problem is not None:
            raise Found(divergence(entry.line, None, "HISTORY", problem.expected, problem.found))
        found = self.fold(entry)
        if found:
            raise Found(found)

    def fold(self, entry: Entry) -> Divergence | None:
        """Apply a line to its stream's state; a REPLAY divergence if it cannot be."""
        kind = self.rs.aggregate(entry.stream.partition(":")[0])
        states = self.history.setdefault(entry.stream, [None])
        try:
            states.append(kind.evolve(states[-1], entry.event))
        except Exception as e:  # noqa: BLE001 - any failure means a bad event
            return divergence(
                entry.line,
                None,
                "REPLAY",
                "events that replay",
                f"this event cannot be applied to {entry.stream}: {e!r}",
            )
        return None

    def replay_writes(self, step: Step, spell: Callable[[Any], str]) -> Divergence | None:
        """The command's writes fold into their streams, and an undo's
        restore each stream it wrote to as it was before the undone command."""
        undo = isinstance(step.group[0].event, CommandUndone)
        if undo and step.before is not None and step.before.done:
            # Every stream the undone command wrote to is restored, in order.
            undone = step.before.done[-1]
            want = [sid for sid, _ in undone.touched]
            got = [str(e.envelope.originator_id) for e in step.writes]
            if got[: len(want)] != want[: len(got)] or len(got) < len(want):
                line = step.writes[-1].line if step.writes else step.group[-1].line
                return divergence(
                    line,
                    Label(step.command_id, f"undo of {undone.command_id}"),
                    "UNDO",
                    f"restores of {', '.join(want) or 'no stream'}",
                    f"restores of {', '.join(got) or 'no stream'}",
                )
        for entry in step.writes:
            if undo:
                kind = self.rs.aggregate(entry.stream.partition(":")[0])
                found = check_restored(entry, kind, step, self.history.setdefault(entry.stream, [None]), spell)
                if found:
                    return found
            found = self.fold(entry)
            if found:
                return found
        return None
