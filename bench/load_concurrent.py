"""The fair floor of the server load benchmark: the tables' saved writes
replayed in this process, the tables at once.

One thread per table, each with its own ``GameApp`` (its own connection and
caches, as each server worker has) on one fresh database of the same kind
the servers wrote: each sets its table's games up with the same requests,
then gives the same commands and undos in order, asking for the legal
commands (``GameApp.legal``) before each as the HTTP table did. Each
``execute`` is timed; the run's wall time gives the writes per second.
What it leaves out is exactly the server: HTTP, JSON, passes, the seat
checks, the worker hand-off, and the client's own work on the same cores.

No ``gc.collect()`` before each execute (a thread's collection would stall
the others), nor in the one-at-a-time floor (``load_check.replay`` says why).
"""

from __future__ import annotations

import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field

import msgspec

from .load_check import warm_up
from .load_play import CREATE_TRIES, GameLog

JOIN_MARGIN = 30.0  # seconds past the deadline a thread may take to finish its last call
START_WAIT = 120.0  # seconds the threads may take to warm up before the start together


@dataclass
class Concurrent:
    """The concurrent in-process floor: seconds of each ``execute``, the wall time."""

    threads: int = 0
    seconds: list[float] = field(default_factory=list)  # each execute, every thread's
    writes: int = 0  # commands and undos given
    undos: int = 0
    legal: int = 0  # GameApp.legal calls
    wall: float = 0.0  # from the threads' start together to the last one's end
    stopped: bool = False  # the deadline passed before every write was given again
    diverged: list[str] = field(default_factory=list)  # writes whose version differs from the server's
    database: str = ""  # the fresh database it ran on (dropped since)

    @property
    def rate(self) -> float:
        """Writes per second over the wall time."""
        return self.writes / self.wall if self.wall else 0.0


def by_table(games: list[GameLog]) -> list[list[GameLog]]:
    """The games of each table (named ``load-<table>-<number>``), in the
    order each table played them."""
    tables: dict[int, list[GameLog]] = defaultdict(list)
    for game in games:
        _, table, number = game.request["name"].split("-")
        tables[int(table)].append(game)
    return [sorted(tables[t], key=lambda g: int(g.request["name"].split("-")[2])) for t in sorted(tables)]


def replay(store: str, games: list[GameLog], seconds: float) -> Concurrent:
    """Replay ``games`` on ``store``, one thread per table, all started
    together once each has warmed its application up; a thread stops
    giving writes once ``seconds`` have passed."""
    tables = by_table(games)
    out = Concurrent(threads=len(tables))
    if not tables:
        return out
    lock = threading.Lock()
    warming = threading.Lock()  # one warm-up at a time: their set-ups would race for the index of games
    start = threading.Barrier(len(tables) + 1, timeout=START_WAIT)
    failures: list[BaseException] = []
    done_at: list[float] = []

    def run(index: int, mine: list[GameLog]) -> None:
        from domain.kernel.games import GameApp

        try:
            with GameApp(store=store) as app:
                with warming:
                    warm_up(app, name=f"warm-up-{index}")
                start.wait()
                deadline = time.monotonic() + seconds
                part = _replay_table(app, mine, deadline)
                done_at.append(time.perf_counter())
            with lock:
                out.seconds += part.seconds
                out.writes += part.writes
                out.undos += part.undos
                out.legal += part.legal
                out.stopped |= part.stopped
                out.diverged += part.diverged
        except BaseException as error:  # noqa: BLE001 - handed to the main thread
            failures.append(error)
            start.abort()  # nobody waits forever for a thread that failed before the start

    threads = [
        threading.Thread(target=run, args=(i, mine), name=f"replay-{i}", daemon=True) for i, mine in enumerate(tables)
    ]
    for t in threads:
        t.start()
    try:
        start.wait()
    except threading.BrokenBarrierError:
        pass
    began = time.perf_counter()
    for t in threads:
        # Daemon threads: one stuck in the store past this is cut off when
        # its database is dropped (WITH FORCE) on the way out.
        t.join(max(0.0, began + seconds + JOIN_MARGIN - time.perf_counter()))
    if failures:
        raise failures[0]
    if any(t.is_alive() for t in threads):
        raise RuntimeError(f"the concurrent replay did not finish within {seconds + JOIN_MARGIN:.0f} s")
    out.wall = max(done_at) - began
    return out


def _replay_table(app, games: list[GameLog], deadline: float) -> Concurrent:
    """One table's games, in order, on this thread's application."""
    from server import setups
    from server.wire import new_game_type

    part = Concurrent(threads=1)
    for game in games:
        made = _set_up(app, setups, msgspec.convert(game.request, new_game_type()))
        bid = made.battle.state.battle_id
        rs = app.ruleset(bid)
        for op in sorted(game.ops, key=lambda o: o.version):
            if time.monotonic() > deadline:
                part.stopped = True
                return part
            app.legal(bid)  # the table asked for them before each write
            part.legal += 1
            if op.kind == "undo":
                result = app.undo(bid, force=op.body.get("force", False))
                part.undos += 1
            else:
                command = msgspec.json.decode(msgspec.json.encode(op.body["command"]), type=rs.command_type)
                began = time.perf_counter()
                result = app.execute(bid, command)
                part.seconds.append(time.perf_counter() - began)
            part.writes += 1
            if result.battle.version != op.version:
                part.diverged.append(f"{bid} {op.command_id}: v{result.battle.version} here, v{op.version} served")
    return part


def _set_up(app, setups, request):
    """Set a game up; games set up at the same moment race for the store's
    index of games, and the loser writes nothing: it tries again, as the
    HTTP table does on its 409."""
    from domain.kernel.errors import ConcurrencyError

    for attempt in range(CREATE_TRIES):
        try:
            return setups.start(app, request)
        except ConcurrencyError:
            if attempt == CREATE_TRIES - 1:
                raise
    raise AssertionError("unreachable")
