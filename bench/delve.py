"""The delve rebuild row: a Betrayal delve is two streams, the battle and
its Delve (``domain.betrayal.delve.aggregate``), and a cold load reads both. The
figure loads the battle through the application (snapshots off, the
application's cache skipped, as ``bench.rebuild`` does) and its Delve
(``state_of`` the Delve aggregate, as ``delve_of`` does in a fresh
process); the floor reads both streams' rows with ``sqlite3``, decodes them
with msgspec into the same event Structs and folds them with the same
``evolve`` and ``evolve_delve``, with nothing else in between.

The streams are seeded random legal play through ``BetrayalApp`` on SQLite,
as the clash streams are (``bench.streams``): half the delve bot's command
(``bots.delve_choice``: explores, places tiles, walks to skyshards, fights),
half a random kind of legal command, forced undos (which write a
``DelveRestored`` to the Delve stream when the undone command drew or
placed) and redos, and, when the delve ends, 1 to 32 commands undone to play
on, until the two streams together hold the events asked for. Cached beside
the others, keyed by the code digest.
"""

from __future__ import annotations

import random
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from domain.betrayal.table.party import party_member
from domain.betrayal.battle.application import BetrayalApp, delve_stream
from domain.betrayal.battle.bots import delve_choice
from domain.betrayal.delve.aggregate import evolve_delve
from domain.betrayal.battle.rules import legal_commands
from domain.betrayal.ruleset import DELVES
from domain.betrayal.battle.state import Phase

from .measure import Row, interleaved, median, ms, rate
from .rebuild import GOAL_SQLITE_10K, NO_SNAPSHOTS, Decoders, load_from_store, repeats_for
from .rebuild import fold as fold_battle
from .streams import BACK, GREEDY, REDO, UNDO, Built, _random_kind, cached

DELVE = "whispering-barrow"  # Survey: explored until three skyshards are found
PARTY = ("Ysolda:nord", "Tarn:dark-elf", "Brelyna:breton", "Onmund:nord")  # the most tiles a delve EP buys


@dataclass(frozen=True)
class DelveBuilt(Built):
    """A store holding one delve battle: ``events`` in both streams together,
    ``delve_events`` of them in the Delve stream."""

    delve_events: int = 0

    @property
    def delve_stream_id(self):
        return delve_stream(self.battle_id)


def stream(events: int, seed: int, cache_dir: Path) -> DelveBuilt:
    """The cached store of a delve whose two streams hold about ``events`` events."""
    return cached(f"delve-{events}-s{seed}", events, DelveBuilt, lambda path: build(path, events, seed), cache_dir)  # type: ignore[return-value]


def build(path: Path, events: int, seed: int) -> DelveBuilt:
    """Play one delve into a new SQLite store until its battle and Delve
    streams together hold ``events`` events."""
    battle_id = f"bench-delve-{events}-s{seed}"
    started = time.perf_counter()
    rnd = random.Random(seed)
    n = {"commands": 0, "undos": 0, "redos": 0, "ends": 0}
    with BetrayalApp(f"sqlite:{path}") as app:
        battle = app.new_delve(
            delve=DELVE, party=[party_member(p) for p in PARTY], xp=1, seed=seed, battle_id=battle_id
        ).battle

        def total() -> int:
            last = app.events.last(delve_stream(battle_id))
            return battle.version + (last.originator_version if last else 0)

        while total() < events:
            if battle.state.phase is Phase.ENDED:
                n["ends"] += 1
                for _ in range(rnd.choice(BACK)):
                    if not battle.can_undo or total() >= events:
                        break
                    battle = app.undo(battle_id, force=True).battle
                    n["undos"] += 1
                continue
            roll = rnd.random()
            if battle.can_redo and roll < REDO:
                battle = app.redo(battle_id).battle
                n["redos"] += 1
            elif roll < UNDO and battle.can_undo:
                battle = app.undo(battle_id, force=True).battle
                n["undos"] += 1
            else:
                ctx = app.rules_context(battle_id)
                command = (
                    delve_choice(battle.state, ctx, rnd)
                    if rnd.random() < GREEDY
                    else _random_kind(legal_commands(battle.state, ctx), rnd)
                )
                battle = app.execute(battle_id, command).battle
                n["commands"] += 1
        n["events"] = total()
        n["delve_events"] = n["events"] - battle.version
    return DelveBuilt(str(path), battle_id, build_seconds=time.perf_counter() - started, **n)


def fold(rows: list[tuple[str, bytes]], decoders: Decoders) -> Any:
    """The Delve floor: every row decoded and folded by ``evolve_delve``."""
    state = None
    for topic, data in rows:
        state = evolve_delve(state, decoders(topic).decode(data).d)
    return state


def load(app: BetrayalApp, built: DelveBuilt) -> tuple[Any, Any]:
    """The battle and its Delve as a fresh process loads them."""
    return load_from_store(app, built), app.state_of(DELVES, built.delve_stream_id)


def rebuild_rows(built: DelveBuilt, quick: bool = False) -> list[Row]:
    """Load the battle and its Delve through the application, snapshots off,
    against the floor."""
    con = sqlite3.connect(built.path)
    decoders = Decoders()
    sql = "SELECT topic, state FROM stored_events WHERE originator_id=? ORDER BY originator_version"
    battle_key, delve_key = built.stream_id.hex, built.delve_stream_id.hex

    def floor():
        return (
            fold_battle(con.execute(sql, (battle_key,)).fetchall(), decoders),
            fold(con.execute(sql, (delve_key,)).fetchall(), decoders),
        )

    with BetrayalApp(f"sqlite:{built.path}", env=NO_SNAPSHOTS) as app:
        game, delve = load(app, built)
        if (game.state, delve) != floor():
            raise AssertionError("rebuild, SQLite, Betrayal delve: the floor's fold differs from the application's")
        got = interleaved({"app": lambda: load(app, built), "floor": floor}, repeats_for(built.events, quick))
    con.close()
    t_app, t_floor = median(got["app"]), median(got["floor"])
    n = built.events
    return [
        Row(
            figure="rebuild, SQLite, Betrayal delve",
            size=f"{n:,} ev",
            value=f"{rate(n / t_app, 'ev/s')} ({ms(t_app)})",
            floor=f"{rate(n / t_floor, 'ev/s')} ({ms(t_floor)})",
            ratio=t_app / t_floor,
            goal=GOAL_SQLITE_10K if built.target == 10_000 else None,
            note=(
                f"battle stream {n - built.delve_events:,} ev + Delve stream {built.delve_events:,} ev"
                f" ({built.commands} commands, {built.undos} undos, {built.redos} redos,"
                f" {built.ends} endings undone)"
            ),
            data={
                "events": n,
                "delve_events": built.delve_events,
                "seconds": t_app,
                "floor_seconds": t_floor,
                "events_per_second": n / t_app,
                "floor_events_per_second": n / t_floor,
                "repeats": len(got["app"]),
            },
        )
    ]
