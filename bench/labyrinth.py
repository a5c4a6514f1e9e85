"""The labyrinth's rebuild row: the same measure as Betrayal's
(``bench.rebuild``) and Conquest's (``bench.conquest``) for a long labyrinth
battle stream, so the kernel is timed on a third ruleset against the same
kind of floor (raw SQLite rows decoded by msgspec and folded by the
labyrinth's own ``evolve``).

The stream is seeded random legal play through the kernel's ``GameApp`` on
the starter pack (a party of four against ``warren-gate``): half the time a
fighting command (an attack, a skill or an item), otherwise a random kind of
listed command, forced undos and redos, and, when the battle ends, 1 to 32
commands undone to play on, until it holds the events asked for. Streams are
cached beside the others, keyed by the code digest.
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

from domain.kernel import ruleset as registry
from domain.kernel.games import GameApp
from domain.labyrinth.commands import Attack, Member, StartLabyrinth, UseItem, UseSkill

from .measure import Row
from .game_rebuild import game_rebuild_rows
from .streams import BACK, GREEDY, REDO, UNDO, Built, _random_kind, cached

ENCOUNTER = "warren-gate"  # four Enemies, a link group: the starter pack's busiest battle
PARTY = tuple(Member(cls=c, level=2) for c in ("vanguard", "bulwark", "mender", "stormcaller"))
FIGHTING = (Attack, UseSkill, UseItem)


class LabyrinthBuilt(Built):
    """A store holding one labyrinth battle stream."""

    @property
    def stream_id(self):  # type: ignore[override]
        return registry.load("labyrinth").game_stream(self.battle_id)


def stream(events: int, seed: int, cache_dir: Path) -> LabyrinthBuilt:
    """The cached store of a labyrinth stream of about ``events`` events."""
    return cached(
        f"labyrinth-{events}-s{seed}", events, LabyrinthBuilt, lambda path: build(path, events, seed), cache_dir
    )  # type: ignore[return-value]


def choose(listed: list, rnd: random.Random) -> Any:
    """Half the time a fighting command (so battles end), else a random kind
    of listed command, then one of that kind."""
    fighting = [c for c in listed if isinstance(c, FIGHTING)]
    if fighting and rnd.random() < GREEDY:
        return rnd.choice(fighting)
    return _random_kind(listed, rnd)


def build(path: Path, events: int, seed: int) -> LabyrinthBuilt:
    """Play one battle into a new SQLite store until its stream holds ``events`` events."""
    battle_id = f"bench-labyrinth-{events}-s{seed}"
    started = time.perf_counter()
    rnd = random.Random(seed)
    rs = registry.load("labyrinth")
    n = {"commands": 0, "undos": 0, "redos": 0, "ends": 0}
    with GameApp(f"sqlite:{path}") as app:
        game = app.start(
            "labyrinth",
            StartLabyrinth(battle_id=battle_id, encounter=ENCOUNTER, party=PARTY, seed=seed),
            battle_id=battle_id,
        ).battle
        while game.version < events:
            if game.state.over:
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
                game = app.execute(battle_id, choose(rs.legal_commands(game.state, ctx), rnd)).battle
                n["commands"] += 1
        n["events"] = game.version
    return LabyrinthBuilt(str(path), battle_id, build_seconds=time.perf_counter() - started, **n)


def rebuild_rows(built: LabyrinthBuilt, quick: bool = False) -> list[Row]:
    """Load the whole labyrinth stream through the application, snapshots
    off, against the floor (``game_rebuild``)."""
    return game_rebuild_rows(built, "labyrinth", "labyrinth", quick)
