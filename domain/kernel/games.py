"""The application every game is played through, whatever its ruleset.

``GameApp`` is the eventsourcing library's application for games: for any
registered ruleset it sets a game up, executes a command, undoes and redoes,
keeps one index of every game of every ruleset, snapshots game streams, and
rebuilds any game at any version. A ruleset gives it only its rules
(``domain.kernel.ruleset``). The index also names games and deletes them
softly (``domain.kernel.battle_index``).

What it does with a game is ``GameWrites``' (``domain.kernel.game_writes``)
and, for the reads, ``GameReads``' (``domain.kernel.game_reads``), written
and read through the library's application (``EventSourcedApp``); a command
on an SQLite store whose tables the library made may have both without the
library (``domain.kernel.open_reads``, ``domain.kernel.open_writes``). The
library stays the owner of everything else: making a store's tables,
PostgreSQL, memory stores, the server and the projections.

A game's stream is found from its id alone: the application tries each
ruleset's stream for that id (one indexed read each) and remembers which
one held it.
"""

from __future__ import annotations

from typing import Any

from domain.kernel.battle_index import BattleRegistered, BattleRenamed, GameRegistered
from domain.kernel.game_reads import INDEX_PAGE, INDEX_STREAM, NAME, GameReads
from domain.kernel.game_writes import GameWrites, Result
from domain.kernel.stores.application import EventSourcedApp

# Names this module held before its reads moved to ``game_reads`` and its
# writes to ``game_writes``: imported from here still.
__all__ = ["INDEX_PAGE", "INDEX_STREAM", "BattleRegistered", "BattleRenamed", "GameApp", "GameRegistered", "Result"]


class GameApp(EventSourcedApp, GameWrites):
    """Games of every ruleset in one event store, with one notification log:
    the reads of ``GameReads`` and the writes of ``GameWrites`` on the
    library's application (its ``append``, ``save_snapshot``, ``events``
    and ``load``).

    ``packs`` overrides a ruleset's default content pack, by ruleset name.
    """

    name = NAME
    is_snapshotting_enabled = True
    snapshot_every = 150

    def __init__(
        self,
        store: str | None = None,
        env: dict[str, str] | None = None,
        packs: dict[str, Any] | None = None,
        *,
        read_only: bool = False,
    ):
        EventSourcedApp.__init__(self, store=store, env=env, read_only=read_only)
        GameReads.__init__(self, packs)
