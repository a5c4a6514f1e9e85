"""The Battle aggregate as the application keeps it: the rules' state plus
the undo and redo stacks, both rebuilt by replay (DESIGN: Undo and redo).

The stacks live beside the state, not in it, so that the state after an undo
equals the state before the undone command exactly."""

from __future__ import annotations

from collections.abc import Iterable

import msgspec
from msgspec.structs import replace

from domain.kernel.envelope import Envelope, SnapshotEnvelope, register_state

from . import events as ev
from .commands import BattleCommand
from .evolve import evolve
from .state import BattleState


class Done(msgspec.Struct, frozen=True, kw_only=True):
    """A command in the undo history."""

    command_id: str
    command: BattleCommand
    version_before: int  # the battle's version before the command
    random: bool = False  # it revealed randomness: undoing it needs force
    touched: tuple[tuple[str, int], ...] = ()


class Battle(msgspec.Struct, frozen=True, kw_only=True):
    """A battle stream: its version, state, and undo/redo stacks."""

    version: int
    state: BattleState
    done: tuple[Done, ...] = ()
    undone: tuple[Done, ...] = ()


SNAPSHOT_TOPIC = "betrayal.snapshot.Battle"
register_state(SNAPSHOT_TOPIC, Battle)


def _reveals(event: ev.BattleEvent) -> bool:
    """A roll or a draw shows players an outcome they did not know."""
    return isinstance(event, ev.DiceRolled) or (isinstance(event, ev.EnemyPlaced) and event.draw >= 0)


def project(battle: Battle | None, items: Iterable[Envelope | SnapshotEnvelope]) -> Battle | None:
    """Fold a battle stream (snapshot first, if any) into a Battle."""
    state = battle.state if battle else None
    version = battle.version if battle else 0
    done = list(battle.done) if battle else []
    undone = list(battle.undone) if battle else []
    for item in items:
        if type(item) is SnapshotEnvelope:
            b = item.state
            state, version, done, undone = b.state, b.version, list(b.done), list(b.undone)
            continue
        event = item.event
        version = item.originator_version
        kind = type(event)
        if kind is ev.CommandIssued:
            done.append(Done(
                command_id=event.command_id, command=event.command,
                version_before=version - 1, touched=event.touched,
            ))
            if event.redo_of:
                undone.pop()
            else:
                undone.clear()
            continue
        if kind is ev.CommandUndone:
            undone.append(done.pop())
        elif done and not done[-1].random and _reveals(event):
            done[-1] = replace(done[-1], random=True)
        state = evolve(state, event)
    if state is None:
        return None
    return Battle(version=version, state=state, done=tuple(done), undone=tuple(undone))
