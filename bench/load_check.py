"""After the server load benchmark's play: the floor (the same writes,
replayed in one process through ``GameApp`` on a fresh database of the same
kind) and the check of every game's log in the store the servers wrote."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import msgspec

from .load_play import SETUP, GameLog


@dataclass
class Replay:
    """The in-process floor: seconds of each ``GameApp.execute``."""

    seconds: list[float] = field(default_factory=list)
    undos: int = 0
    diverged: list[str] = field(default_factory=list)  # writes whose version differs from the server's
    database: str = ""  # the fresh database it ran on (dropped since)


def replay(store: str, games: list[GameLog]) -> Replay:
    """Set each game up and give its saved commands and undos again, in the
    order the store holds them, in this process; each command's
    ``execute`` is timed, the rest is not.

    No ``gc.collect()`` before each execute, unlike the other benchmarks:
    the execute right after a full collection takes ~1.5 ms more (about
    3.9 against 2.4 ms here), a cost no server pays, and the concurrent
    floor (``load_concurrent``) cannot collect per thread; so both floors
    run as the servers do."""
    from domain.kernel.games import GameApp
    from server import setups
    from server.wire import new_game_type

    out = Replay()
    with GameApp(store=store) as app:
        warm_up(app)
        for game in games:
            made = setups.start(app, msgspec.convert(game.request, new_game_type()))
            bid = made.battle.state.battle_id
            rs = app.ruleset(bid)
            for op in sorted(game.ops, key=lambda o: o.version):
                if op.kind == "undo":
                    result = app.undo(bid, force=op.body.get("force", False))
                    out.undos += 1
                else:
                    command = msgspec.json.decode(msgspec.json.encode(op.body["command"]), type=rs.command_type)
                    start = time.perf_counter()
                    result = app.execute(bid, command)
                    out.seconds.append(time.perf_counter() - start)
                if result.battle.version != op.version:
                    out.diverged.append(f"{bid} {op.command_id}: v{result.battle.version} here, v{op.version} served")
    return out


def warm_up(app, commands: int = 5, name: str = "warm-up") -> None:
    """A throwaway game ``name`` of a few commands, untimed, as each server
    is given one (``load_play.warm_up``): lazy imports and caches are not
    the floor."""
    from server import setups
    from server.wire import new_game_type

    made = setups.start(
        app,
        msgspec.convert(
            {"new": "clash", "setup": SETUP, "name": name, "seed": 0, "party": [{"name": "Warm", "race": "nord"}]},
            new_game_type(),
        ),
    )
    bid = made.battle.state.battle_id
    for _ in range(commands):
        legal = app.legal(bid)
        if not legal:
            break
        app.execute(bid, legal[0])


@dataclass
class Checked:
    """Every game's log against what the servers answered."""

    games: int = 0
    verified: int = 0  # logs that verify against today's rules (portable.verify_battle)
    contiguous: int = 0  # game streams whose versions run 1, 2, 3... without a gap or a repeat
    lost: list[str] = field(default_factory=list)  # writes answered 200 that the log lacks
    unanswered: list[str] = field(default_factory=list)  # writes in the log nobody was answered 200 for
    failures: list[str] = field(default_factory=list)  # logs that do not verify, and why

    @property
    def ok(self) -> bool:
        return (
            self.verified == self.contiguous == self.games
            and not self.lost
            and not self.unanswered
            and not self.failures
        )


def check(store: str, games: list[GameLog]) -> Checked:
    """Read every game back from ``store``: nothing lost (each write answered
    200 is in the log at the version answered), nothing forked (each log
    verifies, its versions contiguous, no write nobody was told of)."""
    from domain.kernel.games import GameApp
    from domain.kernel.portable import verify_battle

    out = Checked()
    with GameApp(store=store) as app:
        for game in games:
            out.games += 1
            report = verify_battle(app, game.game)
            if report.ok:
                out.verified += 1
            else:
                out.failures.append(f"{game.game}: {report.summary()}")
            envelopes = app.stream(game.game)
            versions = [e.originator_version for e in envelopes]
            if versions == list(range(1, len(versions) + 1)):
                out.contiguous += 1
            at = {e.originator_version: e.command_id for e in envelopes}
            answered = {game.command_id: game.version} | {op.command_id: op.version for op in game.ops}
            for command_id, version in answered.items():
                if at.get(version) != command_id:
                    out.lost.append(f"{game.game} {command_id} (v{version})")
            out.unanswered += [f"{game.game} {c}" for c in sorted(set(at.values()) - set(answered))]
    return out
