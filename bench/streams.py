"""Long battle streams from seeded random legal play, built through
``BetrayalApp`` on SQLite and cached on disk between runs.

A clash rarely passes a few thousand events, so the long streams are one
battle played on and on: a seeded bot gives legal commands (half from the
greedy bot, half a random kind of legal command), undoes (with force, so dice
and draws may be undone too) and redoes; when the battle ends, it undoes 1 to
32 commands and plays on. Every event is one the application decided and
saved; nothing is made up.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from uuid import UUID

from domain.betrayal.table.party import party_member
from domain.betrayal.battle.application import BetrayalApp, battle_stream
from domain.betrayal.battle.bots import greedy_choice
from domain.betrayal.battle.commands import BattleCommand
from domain.kernel.commandlog import Game
from domain.betrayal.battle.rules import legal_commands
from domain.betrayal.battle.state import Phase

SETUP = "waystone-crossing"
PARTY = ("Ysolda:nord", "Tarn:dark-elf")
UNDO = 0.10  # chance that a step is a forced undo
REDO = 0.40  # chance that a step redoes, when something is undone
GREEDY = 0.5  # chance that a command comes from the greedy bot, else a random one
BACK = (1, 2, 4, 8, 16, 32)  # commands undone when the battle ends anyway
FORMAT = 1  # bump when the way streams are played changes

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Built:
    """A store holding one battle stream of about ``events`` events."""

    path: str
    battle_id: str
    events: int  # events in the battle stream
    commands: int  # commands executed, redos included
    undos: int
    redos: int
    ends: int  # times the battle ended and was undone to play on
    build_seconds: float
    target: int = 0  # the length asked for (the stream stops at the first command past it)

    @property
    def stream_id(self) -> UUID:
        return battle_stream(self.battle_id)


def default_cache_dir() -> Path:
    return Path(os.environ.get("RULEKEEPER_BENCH_CACHE") or Path(tempfile.gettempdir()) / "rulekeeper-bench")


def code_digest() -> str:
    """Digest of the rules code and content: a change rebuilds the cache."""
    h = hashlib.blake2b(digest_size=6)
    h.update(str(FORMAT).encode())
    for path in sorted((ROOT / "domain").rglob("*")):
        if path.suffix in (".py", ".toml"):
            h.update(path.relative_to(ROOT).as_posix().encode())
            h.update(path.read_bytes())
    return h.hexdigest()


def stream(events: int, seed: int, cache_dir: Path | None = None) -> Built:
    """The cached store of a ``events``-event stream played with ``seed``,
    built first if it is not cached yet."""
    return cached(f"battle-{events}-s{seed}", events, Built, lambda path: build(path, events, seed), cache_dir)


def cached(
    name: str, events: int, kind: type[Built], make: Callable[[Path], Built], cache_dir: Path | None = None
) -> Built:
    """The store ``name`` from the cache (keyed by the code digest too), or
    ``make(path)`` builds it first. ``kind`` is the ``Built`` class to return."""
    cache_dir = cache_dir or default_cache_dir()
    cache_dir.mkdir(parents=True, exist_ok=True)
    stem = f"{name}-{code_digest()}"
    meta = cache_dir / f"{stem}.json"
    db = cache_dir / f"{stem}.sqlite"
    if meta.exists() and db.exists():
        return kind(**(json.loads(meta.read_text()) | {"path": str(db), "target": events}))
    # Built in memory where the system offers it: every command is a commit,
    # and a disk's fsync per commit would make building the slow part.
    work = Path(tempfile.mkdtemp(dir=_scratch() or cache_dir))
    try:
        built = make(work / "store.sqlite")
        checkpoint(work / "store.sqlite")
        partial = cache_dir / f"{stem}.sqlite.partial"
        shutil.copyfile(work / "store.sqlite", partial)
        os.replace(partial, db)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    built = kind(**(asdict(built) | {"path": str(db), "target": events}))
    meta.write_text(json.dumps(asdict(built)))
    return built


def _scratch() -> str | None:
    shm = "/dev/shm"
    return shm if os.path.isdir(shm) and os.access(shm, os.W_OK) else None


def copy_of(built: Built, directory: Path) -> Built:
    """A private copy of a cached store (for benchmarks that write)."""
    target = Path(directory) / Path(built.path).name
    shutil.copyfile(built.path, target)
    return Built(**(asdict(built) | {"path": str(target)}))


def build(path: Path, events: int, seed: int) -> Built:
    """Play one battle into a new SQLite store at ``path`` until its stream
    holds at least ``events`` events."""
    battle_id = f"bench-{events}-s{seed}"
    started = time.perf_counter()
    with BetrayalApp(f"sqlite:{path}") as app:
        party = [party_member(p) for p in PARTY]
        battle = app.new_clash(setup=SETUP, party=party, xp=1, seed=seed, battle_id=battle_id).battle
        counts = play(app, battle_id, battle, events, random.Random(seed))
    return Built(str(path), battle_id, build_seconds=time.perf_counter() - started, **counts)


def play(app: BetrayalApp, battle_id: str, battle: Game, events: int, rnd: random.Random) -> dict[str, int]:
    """Execute, undo and redo until the stream holds ``events`` events."""
    n = {"commands": 0, "undos": 0, "redos": 0, "ends": 0}
    while battle.version < events:
        if battle.state.phase is Phase.ENDED:
            n["ends"] += 1
            # Go back a few commands, sometimes many, and play on.
            for _ in range(rnd.choice(BACK)):
                if len(battle.done) <= 1 or battle.version >= events:
                    break
                battle = app.undo(battle_id, force=True).battle
                n["undos"] += 1
            continue
        roll = rnd.random()
        if battle.undone and roll < REDO:
            battle = app.redo(battle_id).battle
            n["redos"] += 1
        elif roll < UNDO and len(battle.done) > 1:
            battle = app.undo(battle_id, force=True).battle
            n["undos"] += 1
        else:
            battle = app.execute(battle_id, choose(app, battle, rnd)).battle
            n["commands"] += 1
    n["events"] = battle.version
    return n


def choose(app: BetrayalApp, battle: Game, rnd: random.Random) -> BattleCommand:
    """A legal command from the greedy bot, or a random kind of legal command."""
    state = battle.state
    ctx = app.context(state)
    if rnd.random() < GREEDY:
        return greedy_choice(state, ctx, rnd)
    return _random_kind(legal_commands(state, ctx), rnd)


def _random_kind(commands: list[BattleCommand], rnd: random.Random) -> BattleCommand:
    """A random kind of command (move, engage, end turn...), then one of that kind."""
    kinds: dict[type, list[BattleCommand]] = {}
    for c in commands:
        kinds.setdefault(type(c), []).append(c)
    return rnd.choice(rnd.choice(list(kinds.values())))


def checkpoint(path: Path) -> None:
    """Fold the WAL into the file, so copying the file copies everything."""
    import sqlite3

    con = sqlite3.connect(path)
    try:
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        con.close()
