"""Golden logs as test fixtures: games kept as portable logs in a folder,
replayed by tests, and written again on demand.

A golden log is what `rk export` writes (or ``Game.export()``). A test
loads one into its store to play from (``GoldenLog.game``), or checks that
a game it plays still gives the log it gave before (``GoldenLogs.check``:
the same events, narrated line by line, and the same final state digest;
times are not compared). After a deliberate change of the rules, run the
tests with ``--rulekeeper-regen`` to write the logs again, and review
their diff.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import msgspec
import pytest

from .game import Game
from .keeper import Rulekeeper, verify


@dataclass(frozen=True)
class GoldenLog:
    """One golden log: its ``path`` and what it holds."""

    path: Path
    keeper: Rulekeeper

    @cached_property
    def data(self) -> bytes:
        """The log's bytes."""
        return self.path.read_bytes()

    @property
    def header(self) -> dict[str, Any]:
        """Its first line: the ruleset, the pack, the game's id, the final
        state digest (``final_state_digest``)."""
        header: dict[str, Any] = msgspec.json.decode(self.data.split(b"\n", 1)[0])
        return header

    def game(self) -> Game:
        """The log's game, imported into the test's store (every command
        re-decided first)."""
        return self.keeper.load(self.data)

    def verify(self) -> Any:
        """The log checked against the current rules (``rulekeeper.verify``)."""
        return verify(self.data)


@dataclass(frozen=True)
class GoldenLogs:
    """The golden logs of a folder (the ``golden_log`` fixture): call it
    with a file name for one (``golden_log("won.jsonl")``)."""

    folder: Path
    keeper: Rulekeeper
    regenerate: bool = False

    def __call__(self, name: str) -> GoldenLog:
        __tracebackhide__ = True
        path = self.folder / name
        if not path.is_file():
            pytest.fail(
                f"no golden log {name} in {self.folder} (there are: {', '.join(self.names()) or 'none'})", pytrace=False
            )
        return GoldenLog(path, self.keeper)

    def names(self) -> list[str]:
        """The file names of every log in the folder (``*.jsonl``), sorted."""
        return sorted(p.name for p in self.folder.glob("*.jsonl"))

    def check(self, game: Game, name: str) -> None:
        """``game`` gives golden log ``name``: the same events, line by line
        as the narrator says them, and the same final state digest. With
        ``--rulekeeper-regen``, the log is written from the game instead."""
        __tracebackhide__ = True
        path = self.folder / name
        if self.regenerate:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(game.export())
            return
        if not path.is_file():
            pytest.fail(f"no golden log {name} in {self.folder}: write it with --rulekeeper-regen", pytrace=False)
        with Rulekeeper() as fresh:
            kept = fresh.load(path)
            kept_lines, kept_digest = kept.lines(), kept.digest()
        assert game.lines() == kept_lines, (
            f"{game.id} no longer plays as golden log {name} (--rulekeeper-regen writes it again)"
        )
        assert game.digest() == kept_digest, f"{game.id} ends in another state than golden log {name}"
