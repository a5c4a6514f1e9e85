"""The tables of the server load benchmark: each an asyncio task with two
HTTP clients of its own (kept-alive connections), playing Betrayal clashes
by random legal commands, with races and undos.

A table asks for the legal commands (GET /legal, the host's token), picks
one with its seeded RNG and posts it with the version it last saw, with the
token of the command's seat (any seat for the table's commands). One time
in ``RACE`` a second client, on the next server process, posts the same
command with the same version at the same moment: exactly one of the two
must be saved (200) and the other answered 409 moved-on. One time in
``UNDO`` the table undoes its last command instead, with that command's
seat (SEAT-2), or as the host with force when the rules want it (UNDO-2).
A battle that ends is followed by a new one, until the table has posted
its commands or the deadline passes. Everything answered is recorded, in
``GameLog``s, for the in-process replay and the check of the logs.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx

SETUP = "waystone-crossing"
RACE = 0.2  # chance that a command is raced by the table's second client
UNDO = 0.1  # chance that the table undoes its last command instead
TIMEOUT = 60.0  # seconds an HTTP request may take before it counts as failed
WARM_UP = 5  # untimed commands each server is given before the tables start
CREATE_TRIES = 20  # attempts at setting a game up while other tables' set-ups win the race


@dataclass
class Op:
    """A write the server saved (answered 200), as the replay needs it."""

    kind: str  # "command" or "undo"
    body: dict[str, Any]
    command_id: str
    version: int  # the game's version after it


@dataclass
class GameLog:
    """One game a table played: how it was set up and every saved write."""

    game: str
    request: dict[str, Any]
    command_id: str
    version: int
    ops: list[Op] = field(default_factory=list)


@dataclass
class Tally:
    """What one phase's tables saw."""

    games: list[GameLog] = field(default_factory=list)
    saved: list[float] = field(default_factory=list)  # seconds of each POST command answered 200
    unraced: list[float] = field(default_factory=list)  # the same, of the commands no second client raced
    refused: list[float] = field(default_factory=list)  # seconds of each POST command answered 409
    statuses: Counter = field(default_factory=Counter)  # "command 200", "race 409 moved-on", ...
    races: int = 0
    races_ok: int = 0  # one saved, the other 409 moved-on
    undos: int = 0
    wrong: list[str] = field(default_factory=list)  # every answer that should not have been
    requests: int = 0
    seconds: float = 0.0
    client_cpu: float = 0.0  # CPU seconds this process (the tables, their HTTP clients) spent playing

    @property
    def writes(self) -> int:
        return sum(len(g.ops) for g in self.games)

    @property
    def rate(self) -> float:
        """Writes saved per second of play."""
        return self.writes / self.seconds if self.seconds else 0.0


class Table:
    """One table: its clients, its RNG, the game it plays."""

    def __init__(
        self, index: int, bases: list[str], host: str, seed: int, tally: Tally, http: Any = httpx.AsyncClient
    ) -> None:
        self.index = index
        self.host = host
        self.rnd = random.Random(f"{seed}:{index}")
        self.seed = seed
        self.tally = tally
        self.main = http(base_url=bases[index % len(bases)], timeout=TIMEOUT)
        self.racer = http(base_url=bases[(index + 1) % len(bases)], timeout=TIMEOUT)

    async def close(self) -> None:
        await self.main.aclose()
        await self.racer.aclose()

    async def play(self, commands: int, deadline: float) -> None:
        posted, number = 0, 0
        while posted < commands and time.monotonic() < deadline:
            number += 1
            game, tokens = await self._new_game(number)
            actors: list[str | None] = []  # the seat of each command not undone, for SEAT-2
            version = game.version
            while posted < commands and time.monotonic() < deadline:
                legal = await self._call(self.main, "GET", f"/api/games/{game.game}/legal", self.host)
                if legal.status_code != 200 or not legal.json():
                    break
                posted += 1
                if actors and self.rnd.random() < UNDO:
                    version = await self._undo(game, tokens, actors, version)
                    continue
                pick = self.rnd.choice(legal.json())
                actor = pick["actor"]
                token = tokens.get(actor) or next(iter(tokens.values()))
                body = {"command": pick["command"], "version": version}
                answer = await self._command(game, token, body, race=self.rnd.random() < RACE)
                if answer is None:
                    continue
                actors.append(actor)
                version = answer["version"]
                if answer["summary"]["over"]:
                    break

    async def _new_game(self, number: int) -> tuple[GameLog, dict[str, str]]:
        name = f"load-{self.index}-{number}"
        request = {
            "new": "clash",
            "setup": SETUP,
            "name": name,
            "seed": self.seed * 100_000 + self.index * 1000 + number,
            "party": [
                {"name": f"Ria{self.index}x{number}", "race": "nord"},
                {"name": f"Tarn{self.index}x{number}", "race": "orc"},
            ],
        }
        for _ in range(CREATE_TRIES):
            made = await self._call(self.main, "POST", "/api/games", self.host, request)
            self.tally.statuses[f"create {made.status_code} {made.json().get('error', '')}".rstrip()] += 1
            # Games set up at the same moment race for the store's index of
            # games: the loser is answered 409, and nothing of it is written.
            if made.status_code != 409:
                break
        if made.status_code != 201:
            raise RuntimeError(f"a game could not be set up: {made.status_code} {made.text[:300]}")
        answer = made.json()
        game = GameLog(answer["game"], request, answer["command_id"], answer["version"])
        self.tally.games.append(game)
        seats = (await self._call(self.main, "GET", f"/api/games/{game.game}/seats", self.host)).json()
        tokens = {s["key"]: s["link"].rsplit("token=", 1)[1] for s in seats["seats"]}
        return game, tokens

    async def _command(self, game: GameLog, token: str, body: dict, race: bool) -> dict | None:
        """Post a command (raced or not); the saved answer, or None."""
        path = f"/api/games/{game.game}/commands"
        if not race:
            answer, seconds = await self._timed(self.main, path, token, body)
            self._count("command", answer, seconds)
            if answer.status_code != 200:
                self.tally.wrong.append(
                    f"{game.game} v{body['version']}: a command no other client raced"
                    f" was answered {answer.status_code} {answer.text[:200]}"
                )
                return None
            self.tally.unraced.append(seconds)
            return self._saved(game, "command", body, answer.json())
        self.tally.races += 1
        (a, ta), (b, tb) = await asyncio.gather(
            self._timed(self.main, path, token, body), self._timed(self.racer, path, token, body)
        )
        self._count("race", a, ta)
        self._count("race", b, tb)
        codes = sorted([a.status_code, b.status_code])
        loser = b if a.status_code == 200 else a
        if codes == [200, 409] and loser.json().get("error") == "moved-on":
            self.tally.races_ok += 1
        else:
            self.tally.wrong.append(
                f"{game.game} v{body['version']}: a race was answered {a.status_code}"
                f" {a.text[:150]} and {b.status_code} {b.text[:150]}"
            )
        saved = [r.json() for r in (a, b) if r.status_code == 200]
        for answer in saved:
            self._saved(game, "command", body, answer)
        return max(saved, key=lambda r: r["version"]) if saved else None

    async def _undo(self, game: GameLog, tokens: dict[str, str], actors: list[str | None], version: int) -> int:
        path = f"/api/games/{game.game}/undo"
        self.tally.undos += 1
        token = tokens.get(actors[-1]) or next(iter(tokens.values()))
        body: dict[str, Any] = {"version": version}
        answer = await self._call(self.main, "POST", path, token, body)
        if answer.status_code == 422 and answer.json().get("rule") == "UNDO-2":
            self.tally.statuses["undo 422 UNDO-2 (then forced by the host)"] += 1
            body = {"version": version, "force": True}
            answer = await self._call(self.main, "POST", path, self.host, body)
        self._count("undo", answer, None)
        if answer.status_code != 200:
            self.tally.wrong.append(
                f"{game.game} v{version}: an undo was answered {answer.status_code} {answer.text[:200]}"
            )
            return version
        actors.pop()
        return self._saved(game, "undo", body, answer.json())["version"]

    def _saved(self, game: GameLog, kind: str, body: dict, answer: dict) -> dict:
        game.ops.append(Op(kind, body, answer["command_id"], answer["version"]))
        return answer

    def _count(self, kind: str, answer: httpx.Response, seconds: float | None) -> None:
        error = answer.json().get("error", "") if answer.status_code != 200 else ""
        self.tally.statuses[f"{kind} {answer.status_code} {error}".rstrip()] += 1
        if seconds is not None:
            (self.tally.saved if answer.status_code == 200 else self.tally.refused).append(seconds)

    async def _timed(
        self, client: httpx.AsyncClient, path: str, token: str, body: dict
    ) -> tuple[httpx.Response, float]:
        start = time.perf_counter()
        answer = await self._call(client, "POST", path, token, body)
        return answer, time.perf_counter() - start

    async def _call(
        self, client: httpx.AsyncClient, method: str, path: str, token: str, body: dict | None = None
    ) -> httpx.Response:
        self.tally.requests += 1
        return await client.request(method, path, json=body, headers={"authorization": f"Bearer {token}"})


async def warm_up(bases: list[str], host: str, commands: int = WARM_UP, http: Any = httpx.AsyncClient) -> None:
    """A game of a few commands on each server, untimed and unrecorded: the
    first requests of a fresh process pay for its lazy imports and caches."""
    for i, base in enumerate(bases):
        async with http(base_url=base, timeout=TIMEOUT, headers={"authorization": f"Bearer {host}"}) as client:
            made = await client.post(
                "/api/games",
                json={
                    "new": "clash",
                    "setup": SETUP,
                    "name": f"warm-up-{i}",
                    "seed": i,
                    "party": [{"name": f"Warm{i}", "race": "nord"}],
                },
            )
            made.raise_for_status()
            game, version = made.json()["game"], made.json()["version"]
            for _ in range(commands):
                legal = (await client.get(f"/api/games/{game}/legal")).json()
                if not legal:
                    break
                done = await client.post(
                    f"/api/games/{game}/commands", json={"command": legal[0]["command"], "version": version}
                )
                done.raise_for_status()
                version = done.json()["version"]


async def play(
    bases: list[str], host: str, tables: int, commands: int, seconds: float, seed: int, http: Any = httpx.AsyncClient
) -> Tally:
    """``tables`` tables at once on the servers at ``bases``, each posting
    ``commands`` commands (undos included) or stopping at the deadline;
    ``http``: the HTTP client class (``httpx.AsyncClient``, or
    ``bench.load_client.LeanClient``)."""
    await warm_up(bases, host, http=http)
    tally = Tally()
    deadline = time.monotonic() + seconds
    started, cpu = time.perf_counter(), time.process_time()
    playing = [Table(i, bases, host, seed, tally, http) for i in range(tables)]
    try:
        async with asyncio.TaskGroup() as group:  # one table failing stops the others
            for t in playing:
                group.create_task(t.play(commands, deadline))
    finally:
        tally.seconds = time.perf_counter() - started
        tally.client_cpu = time.process_time() - cpu
        for t in playing:
            await t.close()
    return tally
