"""Enemy turns as a battle's log records them (ENEMY-4 to ENEMY-7): where
each starts and ends, and the event its decision shows in, so that
``explain`` can be run on the state just before it."""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from domain.kernel.commandlog import CommandIssued, CommandUndone
from domain.kernel.hexes import Hex

from .. import events as ev

# Events after which no enemy turn goes on (an undo ends a paused one too).
_CLOSING = (ev.EnemyTurnStarted, ev.RoundEnded, ev.BattleEnded, CommandUndone)


class Activation(msgspec.Struct, frozen=True):
    """One enemy's turn in a battle's stream, by event version: its
    ``EnemyTurnStarted`` (``first``) to its last event (``last``).
    ``decided`` is the event its decision shows in: its ``EnemyMoved``, else
    its ``EnemyEngaged``, else its ``EnemyTurnEnded``; 0 when it was
    defeated at its start of turn and decided nothing. ``path`` and
    ``targets`` are what the log recorded."""

    foe: str
    first: int
    last: int
    decided: int = 0
    path: tuple[Hex, ...] = ()
    targets: tuple[str, ...] = ()


def activations(events: Iterable[tuple[int, object]]) -> list[Activation]:
    """Every enemy turn among ``events`` ((version, event) pairs of a
    battle's stream, in order). A turn paused for typed dice goes on across
    the command that types them."""
    found: list[Activation] = []
    open_: Activation | None = None
    for version, event in events:
        if open_ is not None and isinstance(event, _CLOSING):
            found.append(open_)
            open_ = None
        if isinstance(event, ev.EnemyTurnStarted):
            open_ = Activation(event.foe, version, version)
            continue
        if open_ is None or isinstance(event, CommandIssued):
            continue
        open_ = msgspec.structs.replace(open_, last=version)
        if getattr(event, "foe", None) != open_.foe:
            continue
        if isinstance(event, ev.EnemyMoved):
            open_ = msgspec.structs.replace(open_, path=event.path, decided=open_.decided or version)
        elif isinstance(event, ev.EnemyEngaged):
            open_ = msgspec.structs.replace(open_, targets=event.targets, decided=open_.decided or version)
        elif isinstance(event, ev.EnemyTurnEnded):
            found.append(msgspec.structs.replace(open_, decided=open_.decided or version))
            open_ = None
    if open_ is not None:
        found.append(open_)
    return found
