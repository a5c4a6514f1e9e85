"""Conquest's rebuild row: the same measure as Betrayal's (``bench.rebuild``)
for a long Conquest battle stream, so the kernel is timed on a second
ruleset against the same kind of floor (raw SQLite rows decoded by msgspec
and folded by Conquest's own ``evolve``).

The stream is seeded random legal play through the kernel's ``GameApp``:
half greedy, half random commands, forced undos and redos, and, when the
battle ends, a few commands undone to play on, until it holds the events
asked for. Streams are cached beside Betrayal's, keyed by the code digest.
"""

from __future__ import annotations

import random
import time
from pathlib import Path

from domain.conquest import bots
from domain.conquest.commands import StartConquest
from domain.kernel import ruleset as registry
from domain.kernel.games import GameApp

from .measure import Row
from .game_rebuild import game_rebuild_rows
from .streams import BACK, GREEDY, REDO, UNDO, Built, cached

ARMIES = ("saltmarch", "cinderpact")
SCENARIO = "border-clash"


class ConquestBuilt(Built):
    """A store holding one Conquest battle stream."""

    @property
    def stream_id(self):  # type: ignore[override]
        return registry.load("conquest").game_stream(self.battle_id)


def stream(events: int, seed: int, cache_dir: Path) -> ConquestBuilt:
    """The cached store of a Conquest stream of about ``events`` events."""
    return cached(
        f"conquest-{events}-s{seed}", events, ConquestBuilt, lambda path: build(path, events, seed), cache_dir
    )  # type: ignore[return-value]


def build(path: Path, events: int, seed: int) -> ConquestBuilt:
    """Play one battle into a new SQLite store until its stream holds ``events`` events."""
    battle_id = f"bench-conquest-{events}-s{seed}"
    started = time.perf_counter()
    rnd = random.Random(seed)
    rs = registry.load("conquest")
    n = {"commands": 0, "undos": 0, "redos": 0, "ends": 0}
    with GameApp(f"sqlite:{path}") as app:
        game = app.start(
            "conquest",
            StartConquest(battle_id=battle_id, scenario=SCENARIO, armies=ARMIES, seed=seed),
            battle_id=battle_id,
        ).battle
        while game.version < events:
            if game.state.result is not None:
                n["ends"] += 1
                for _ in range(rnd.choice(BACK)):
                    if not game.can_undo or game.version >= events:
                        break
                    game = app.undo(battle_id, force=True).battle
                    n["undos"] += 1
                continue
            roll = rnd.random()
            if game.can_redo and roll < REDO:
                game = app.redo(battle_id).battle
                n["redos"] += 1
            elif roll < UNDO and game.can_undo:
                game = app.undo(battle_id, force=True).battle
                n["undos"] += 1
            else:
                ctx = rs.context(app.pack_of(rs), game.state)
                command = (
                    bots.greedy_choice(game.state, ctx)
                    if rnd.random() < GREEDY
                    else bots.random_choice(game.state, ctx, rnd)
                )
                game = app.execute(battle_id, command).battle
                n["commands"] += 1
        n["events"] = game.version
    return ConquestBuilt(str(path), battle_id, build_seconds=time.perf_counter() - started, **n)


def rebuild_rows(built: ConquestBuilt, quick: bool = False) -> list[Row]:
    """Load the whole Conquest stream through the application, snapshots
    off, against the floor (``game_rebuild``)."""
    return game_rebuild_rows(built, "conquest", "Conquest", quick)
