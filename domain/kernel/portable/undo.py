"""What an undo in a log must be: of the last command, forced when that
command rolled or drew, restoring the game as it was before it (against
the digest kept of every state) and each stream it wrote to."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from domain.kernel.commandlog import CommandUndone
from domain.kernel.portable.chain import state_digest
from domain.kernel.portable.diff import Divergence, Label, describe_event, divergence, unequal
from domain.kernel.portable.reader import Entry
from domain.kernel.ruleset import Aggregate

if TYPE_CHECKING:
    from domain.kernel.portable.redecide import Step


def check_undone(
    step: Step, spell: Callable[[Any], str], digests: Mapping[int, bytes], recent: Mapping[int, Any]
) -> Divergence | None:
    """The first divergence of an undo, or None. ``digests``: the digest of
    the game at each version (its bytes); ``recent``: the last few states, whole."""
    head = step.group[0]
    undone: CommandUndone = head.event
    done = step.before.done if step.before else ()
    if len(done) < 2:
        return divergence(head.line, None, "UNDO-1", "nothing to undo", "an undo")
    last = done[-1]
    label = Label(head.envelope.command_id, f"undo of {last.command_id}: {spell(last.command)}")
    if undone.command_id != last.command_id:
        return divergence(
            head.line,
            label,
            "UNDO",
            f"an undo of {last.command_id}, the last command",
            f"an undo of {undone.command_id}",
        )
    if undone.forced != last.random:
        return divergence(
            head.line,
            label,
            "UNDO-2",
            f"forced={last.random} (undoing a roll or a draw needs force)",
            f"forced={undone.forced}",
        )
    kept = digests.get(last.version_before)
    digest = kept.hex() if kept is not None else None
    if state_digest(undone.restored) != digest:
        what = f"the state at version {last.version_before}"
        if last.version_before in recent:
            return unequal(head.line, label, "UNDO", what, recent[last.version_before], undone.restored)
        return divergence(
            head.line, label, "UNDO", f"{what} (digest {digest})", f"a state of digest {state_digest(undone.restored)}"
        )
    if len(step.group) > 1:
        return divergence(
            step.group[1].line, label, "UNDO", "nothing else in the game stream", describe_event(step.group[1].event)
        )
    return None


def check_restored(
    entry: Entry, kind: Aggregate, step: Step, states: list[Any], spell: Callable[[Any], str]
) -> Divergence | None:
    """An undo restores each stream the undone command wrote to as it was
    before that command. ``states[v]`` is the stream at version v."""
    undone = step.before.done[-1] if step.before and step.before.done else None
    label = Label(step.command_id, f"undo of {undone.command_id}: {spell(undone.command)}" if undone else "undo")
    version = dict(undone.touched).get(str(entry.envelope.originator_id)) if undone else None
    if version is None:
        return divergence(entry.line, label, "UNDO", "a stream the undone command wrote to", entry.stream)
    back = states[version] if version < len(states) else None
    expected = kind.restored(undone.command_id, back)  # type: ignore[union-attr]
    if entry.event == expected:
        return None
    return unequal(entry.line, label, "UNDO", f"{entry.stream} as at its version {version}", expected, entry.event)
