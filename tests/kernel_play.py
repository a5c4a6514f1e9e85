"""Random play of any ruleset through the kernel's ``GameApp``, with undo and
redo, checked as it goes.

``CheckedGame`` keeps its own record, independent of the store: the live
state (folded with the ruleset's pure ``evolve`` from the events each call
returned), the state before and after every effective command, and the
whole ``Game`` at every version it saw. Each step compares the
application's answer with that record, exactly: replay equals live, undo
restores the state before the command, redo rolls the same, loads at any
version equal what was seen, and export then import is the identity.

A ruleset takes part by a ``Player``: how to set a game up and how to pick
a legal command.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from domain.kernel import ruleset as registry
from domain.kernel.commandlog import CommandIssued, CommandUndone, Game, fold
from domain.kernel.errors import RuleViolation
from domain.kernel.games import GameApp, Result
from domain.kernel.portable import export_battle, import_log, verify_log
from domain.kernel.ruleset import rules_context

UNDO_CHANCE = 0.1  # per step, start a run of undos
MAX_UNDOS_IN_A_ROW = 4
UNDO_THE_END_CHANCE = 0.5  # when a game ends, take the ending back
MAX_UNDONE_ENDINGS = 2
MAX_STEPS = 5000


@dataclass(frozen=True)
class Player:
    """How a property test plays one ruleset: ``start(app, battle_id, rnd)``
    sets a game up; ``choose(state, ctx, rnd)`` picks a legal command."""

    ruleset: str
    start: Callable[[GameApp, str, random.Random], Result]
    choose: Callable[[Any, Any, random.Random], Any]


@dataclass
class Tally:
    commands: int = 0  # executed, redos included
    undos: int = 0
    forced: int = 0
    redos: int = 0
    undone_endings: int = 0


@dataclass
class Step:
    command: Any
    events: list  # without its CommandIssued
    before: Any
    after: Any
    others_before: dict = field(default_factory=dict)  # other streams' states, by stream
    others_after: dict = field(default_factory=dict)


@dataclass
class CheckedGame:
    app: GameApp
    player: Player
    battle_id: str
    rnd: random.Random
    live: Any = field(init=False)
    done: list[Step] = field(default_factory=list)
    undone: list[Step] = field(default_factory=list)
    seen: dict[int, Game] = field(default_factory=dict)  # version -> Game
    others: dict = field(default_factory=dict)  # the other streams' live states, by stream
    kinds: dict = field(default_factory=dict)  # the other streams' aggregates, by stream
    tally: Tally = field(default_factory=Tally)

    def __post_init__(self) -> None:
        self.rs = registry.load(self.player.ruleset)
        result = self.player.start(self.app, self.battle_id, self.rnd)
        self.live = None
        self._advance(result)

    @property
    def over(self) -> bool:
        """The game ended; or, for a game that is no battle (a campaign, at
        rest between battles), nothing is left to do."""
        if self.rs.summary(self.live).over:
            return True
        if self.rs.battles:
            return False
        ctx = rules_context(self.rs, self.app.pack_of(self.rs), self.live, lambda kind, stream: self.others.get(stream))
        return not self.rs.legal_commands(self.live, ctx)

    # -- hooks for a ruleset's own checks ----------------------------------------

    def ended(self) -> None:
        """Called after a command (or redo) that ended the game."""

    def ending_undone(self) -> None:
        """Called after the command that ended the game was undone."""

    # -- playing -------------------------------------------------------------------

    def play(self) -> CheckedGame:
        """Play to the end, undoing and redoing at random points."""
        for _ in range(MAX_STEPS):
            if self.over:
                if (
                    not self.done
                    or self.tally.undone_endings >= MAX_UNDONE_ENDINGS
                    or self.rnd.random() >= UNDO_THE_END_CHANCE
                ):
                    return self
                self.tally.undone_endings += 1
                self.undo()
                self.ending_undone()
                if self.rnd.random() < 0.5:
                    self.redo()
                continue
            if self.done and self.rnd.random() < UNDO_CHANCE:
                for _ in range(self.rnd.randint(1, min(MAX_UNDOS_IN_A_ROW, len(self.done)))):
                    self.undo()
                for _ in range(self.rnd.randint(0, len(self.undone))):
                    self.redo()
                continue
            self.execute()
        raise AssertionError(f"{self.battle_id} did not end in {MAX_STEPS} steps")

    def execute(self) -> None:
        ctx = rules_context(self.rs, self.app.pack_of(self.rs), self.live, lambda kind, stream: self.others.get(stream))
        assert self.rs.legal_commands(self.live, ctx), f"dead end in {self.battle_id}"
        command = self.player.choose(self.live, ctx, self.rnd)
        before, others_before = self.live, dict(self.others)
        result = self.app.execute(self.battle_id, command)
        self._advance(result)
        self.done.append(Step(command, result.events[1:], before, self.live, others_before, dict(self.others)))
        self.undone.clear()
        self._mirrors(result)
        self.tally.commands += 1
        if self.over:
            self.ended()

    def undo(self) -> None:
        step = self.done.pop()
        last = self.app.battle(self.battle_id).done[-1]
        assert last.command == step.command
        if last.random:
            with pytest.raises(RuleViolation) as refused:
                self.app.undo(self.battle_id)
            assert refused.value.rule == "UNDO-2"
            self.tally.forced += 1
        result = self.app.undo(self.battle_id, force=last.random)
        self._advance(result)
        assert self.live == step.before, f"undo of {step.command} in {self.battle_id} did not restore the state"
        assert self.others == step.others_before, f"undo of {step.command} did not restore every stream it wrote"
        self.undone.append(step)
        self._mirrors(result)
        self.tally.undos += 1

    def redo(self) -> None:
        step = self.undone.pop()
        result = self.app.redo(self.battle_id)
        assert result.events[1:] == step.events, f"redo of {step.command} in {self.battle_id} produced other events"
        self._advance(result)
        assert self.live == step.after
        assert self.others == step.others_after, f"redo of {step.command} wrote other streams otherwise"
        self.done.append(step)
        self._mirrors(result)
        self.tally.redos += 1
        self.tally.commands += 1
        if self.over:
            self.ended()

    def _advance(self, result: Result) -> None:
        for stream, events in result.written:
            for event in events:
                kind = self.rs.aggregate_of(event)
                assert kind is not None, f"{type(event).__name__} belongs to no aggregate of {self.rs.name}"
                self.kinds[stream] = kind
                self.others[stream] = kind.evolve(self.others.get(stream), event)
                if self.others[stream] is None:
                    del self.others[stream]
        for event in result.events:
            if isinstance(event, CommandUndone):
                self.live = event.restored
            elif not isinstance(event, CommandIssued):
                self.live = self.rs.evolve(self.live, event)
        assert result.battle.state == self.live, f"the stored game {self.battle_id} differs from the live state"
        assert result.battle.version not in self.seen
        self.seen[result.battle.version] = result.battle

    def _mirrors(self, result: Result) -> None:
        """The application's undo and redo stacks are this record's."""
        assert [d.command for d in result.battle.done[1:]] == [s.command for s in self.done]
        assert [d.command for d in result.battle.undone] == [s.command for s in self.undone]

    # -- checks --------------------------------------------------------------------

    def check_store(self, app: GameApp | None = None, versions: int | None = None) -> None:
        """Whatever ``app`` (default: the one played on) loads equals what
        was seen live, now and at past versions (all, or a sample of
        ``versions``); snapshot and tail equal a replay of every event."""
        app = app or self.app
        loaded = app.battle(self.battle_id)
        assert loaded == self.seen[max(self.seen)] and loaded.state == self.live
        assert fold(self.rs, None, app.stream(self.battle_id)) == loaded
        for stream, state in self.others.items():
            assert app.state_of(self.kinds[stream], stream) == state, f"{stream} in the store differs from live"
        past = sorted(self.seen)
        if versions is not None and versions < len(past):
            past = sorted(self.rnd.sample(past, versions))
        for version in past:
            assert app.battle(self.battle_id, version) == self.seen[version], f"{self.battle_id} at version {version}"

    def check_portable(self, pack: Any = None) -> None:
        """The export verifies, and importing it into an empty store then
        exporting again gives the same bytes. ``pack``: the content pack
        the game was played with when it is not the ruleset's default (the
        fresh store is given it too)."""
        log = export_battle(self.app, self.battle_id)
        report = verify_log(log, pack if pack is not None else self.app.pack_of(self.rs))
        assert report.ok, report.summary()
        with GameApp("memory", packs=None if pack is None else {self.rs.namespace: pack}) as fresh:
            assert import_log(fresh, log) == self.battle_id
            assert export_battle(fresh, self.battle_id) == log
            assert fresh.battle(self.battle_id).state == self.live


def play_checked(
    app: GameApp, player: Player, battle_id: str, rnd: random.Random, checked: type[CheckedGame] = CheckedGame
) -> CheckedGame:
    """One game played to its end and checked against the store."""
    game = checked(app, player, battle_id, rnd).play()
    game.check_store()
    return game
