"""The command log every game keeps in its game stream, and the Game it folds to.

Each accepted command is written as a ``CommandIssued`` followed by the
events it produced; an undo appends a ``CommandUndone`` carrying the state
it restores (DESIGN: undo appends, never rewrites). A ruleset declares its
own subclasses of both, with its command union and state type, under
stable topics of its own::

    class CommandIssued(commandlog.CommandIssued, BattleEvent, frozen=True, kw_only=True):
        TOPIC = "betrayal.CommandIssued"
        command: BattleCommand

A ``Game`` is the game stream as the kernel keeps it: version, the rules'
state, and the undo and redo stacks beside it (not in it, so the state
after an undo equals the state before the undone command exactly).
``fold`` rebuilds one by replay; ``game_types`` makes the typed classes a
ruleset's snapshots decode to.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar, Protocol, cast

import msgspec
from msgspec.structs import replace

from domain.kernel.envelope import Envelope, SnapshotEnvelope, register_state
from domain.kernel.fairness import Reveal
from domain.kernel.messages import Event


class CommandIssued(Event, frozen=True, kw_only=True):
    """A command was accepted; the events after it, up to the next command
    (or undo), are its outcome. ``touched`` lists the other streams it wrote
    to, as (stream id, that stream's version before the command);
    ``redo_of`` names the undone command this one re-applies.

    The seed (``domain.kernel.fairness``): a setup's carries
    ``commitment``, shown to everyone, and ``salt``, secret like the seed
    until the game ends; the command that ends the game carries both,
    ``revealed``. Games set up before seeds were committed have none of
    them (left out of their logs at their defaults)."""

    __digest_skip_default__: ClassVar[frozenset[str]] = frozenset({"commitment", "salt", "revealed"})

    command_id: str
    command: Any
    touched: tuple[tuple[str, int], ...] = ()
    redo_of: str = ""
    commitment: str = ""
    salt: str = ""
    revealed: Reveal | None = None


class CommandUndone(Event, frozen=True, kw_only=True):
    """Command ``command_id`` was undone: the game is back to ``restored``,
    its state before that command. ``forced`` when it had revealed a roll
    or a draw (UNDO-2)."""

    command_id: str
    restored: Any
    forced: bool = False


# How a narrator names the command an undo reverted: it sees the event, not
# the log, and a command id means nothing to a player. A reader of the whole
# log (`rk log`, `rk audit`) puts the command's own words in its place.
LAST_COMMAND = "the last command"


class Done(msgspec.Struct, frozen=True, kw_only=True):
    """A command on the undo (or redo) stack."""

    command_id: str
    command: Any
    version_before: int  # the game stream's version before the command
    random: bool = False  # it revealed randomness: undoing it needs force
    touched: tuple[tuple[str, int], ...] = ()


class Game(msgspec.Struct, frozen=True, kw_only=True):
    """A game stream folded: its version, the rules' state, the stacks."""

    version: int
    state: Any
    done: tuple[Done, ...] = ()
    undone: tuple[Done, ...] = ()

    @property
    def can_undo(self) -> bool:
        """Whether there is a command after the setup to undo."""
        return len(self.done) > 1

    @property
    def can_redo(self) -> bool:
        """Whether an undone command waits to be redone."""
        return bool(self.undone)


_TYPES: dict[str, tuple[type[Done], type[Game]]] = {}


class _Typed(Protocol):
    """What this module reads of a ruleset (``domain.kernel.ruleset``
    registers each one here; this module never imports it back)."""

    name: ClassVar[str]
    command_type: ClassVar[Any]
    state_type: Any  # set per ruleset (``Ruleset.state_type``)
    snapshot_topic: ClassVar[str]
    issued: ClassVar[type]
    undone: ClassVar[type]

    def evolve(self, state: Any, event: Any) -> Any: ...

    def reveals(self, event: Any) -> bool: ...


def game_types(ruleset: _Typed) -> tuple[type[Done], type[Game]]:
    """The ``Done`` and ``Game`` classes typed with ``ruleset``'s command
    union and state, made once and registered as its snapshot state."""
    found = _TYPES.get(ruleset.name)
    if found is None:
        done = msgspec.defstruct(
            f"{ruleset.name.title().replace('-', '')}Done",
            [("command", ruleset.command_type)],
            bases=(Done,),
            frozen=True,
            kw_only=True,
            module=__name__,
        )
        done_list: Any = tuple[done, ...]  # type: ignore[valid-type]  # a class made at run time
        game = msgspec.defstruct(
            f"{ruleset.name.title().replace('-', '')}Game",
            [("state", ruleset.state_type), ("done", done_list, ()), ("undone", done_list, ())],
            bases=(Game,),
            frozen=True,
            kw_only=True,
            module=__name__,
        )
        register_state(ruleset.snapshot_topic, game)
        found = _TYPES[ruleset.name] = cast(tuple[type[Done], type[Game]], (done, game))
    return found


def fold(
    ruleset: _Typed, game: Game | None, items: Iterable[Envelope | SnapshotEnvelope], *, evolved: Any = None
) -> Game | None:
    """Fold a game stream (its latest snapshot first, if any) into a Game.

    A ``CommandIssued`` pushes the undo stack (and clears the redo stack,
    unless it is a redo); a ``CommandUndone`` moves the last command to the
    redo stack and restores the state it carries; every other event is the
    ruleset's, folded by its ``evolve``. A command is marked random the
    first time one of its events reveals an outcome.

    ``evolved``: the state ``evolve`` makes of ``game``'s with the items'
    ruleset events, when the caller has folded them already (a command's
    events, evolved to see whether they end the game); they are not evolved
    again. Only for items with no snapshot and no undo."""
    done_cls, game_cls = game_types(ruleset)
    evolve, reveals = ruleset.evolve, ruleset.reveals
    # Exact classes, compared by identity: this loop is every replay's.
    issued, undone_cls = ruleset.issued, ruleset.undone
    state = game.state if game else None
    version = game.version if game else 0
    done = list(game.done) if game else []
    undone = list(game.undone) if game else []
    random = bool(done) and done[-1].random
    for item in items:
        if type(item) is SnapshotEnvelope:
            g = item.state
            state, version, done, undone = g.state, g.version, list(g.done), list(g.undone)  # type: ignore[attr-defined]
            random = bool(done) and done[-1].random
            continue
        event: Any = item.event  # type: ignore[union-attr]  # the exact-class checks below say which
        version = item.originator_version
        kind = type(event)
        if kind is issued:
            # A command that ended the game revealed its seed: every die is
            # known from then on, so undoing it needs force as a roll does.
            random = event.revealed is not None
            done.append(
                done_cls(
                    command_id=event.command_id,
                    command=event.command,
                    version_before=version - 1,
                    touched=event.touched,
                    random=random,
                )
            )
            if event.redo_of:
                undone.pop()
            else:
                undone.clear()
        elif kind is undone_cls:
            undone.append(done.pop())
            random = bool(done) and done[-1].random
            state = event.restored
        else:
            if not random and done and reveals(event):
                done[-1] = replace(done[-1], random=True)
                random = True
            if evolved is None:
                state = evolve(state, event)
    if evolved is not None:
        state = evolved
    if state is None:
        return None
    return game_cls(version=version, state=state, done=tuple(done), undone=tuple(undone))
