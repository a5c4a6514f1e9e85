"""Random play through ``BetrayalApp`` with undo and redo, checked as it goes.

``CheckedBattle`` keeps its own record, independent of the store: the live
state (folded with the pure ``evolve`` from the events each call returned),
the state before and after every effective command (a stack that mirrors the
battle's undo history) and the whole ``Battle`` at every version it saw.
Each step compares the application's answer with that record, exactly.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest
from random_battles import MAX_COMMANDS, Table, pick, state_summary, typed

from domain.betrayal.application import BetrayalApp, Result, battle_stream
from domain.betrayal.commands import BattleCommand
from domain.betrayal.evolve import replay
from domain.betrayal.ruleset import BETRAYAL
from domain.kernel.commandlog import Game, fold
from domain.betrayal.rules import legal_commands
from domain.betrayal.state import BattleState, Phase
from domain.kernel.errors import RuleViolation

UNDO_CHANCE = 0.12  # per step, start a run of undos
MAX_UNDOS_IN_A_ROW = 4
UNDO_THE_END_CHANCE = 0.5  # when a battle ends, take the ending back
MAX_UNDONE_ENDINGS = 2


class SnapshottingApp(BetrayalApp):
    """Snapshots every 20 events, so that loads go through snapshot + tail."""

    snapshot_every = 20


@dataclass
class Step:
    """An effective command: what it was, what it produced, around it."""

    command: BattleCommand
    events: list  # without its CommandIssued
    before: BattleState
    after: BattleState


@dataclass
class Tally:
    commands: int = 0  # executed, redos included
    undos: int = 0
    forced: int = 0
    redos: int = 0
    undone_endings: int = 0


@dataclass
class CheckedBattle:
    app: BetrayalApp
    table: Table
    battle_id: str
    rnd: random.Random
    live: BattleState = field(init=False)
    done: list[Step] = field(default_factory=list)
    undone: list[Step] = field(default_factory=list)
    seen: dict[int, Game] = field(default_factory=dict)  # version -> Battle
    tally: Tally = field(default_factory=Tally)

    def __post_init__(self) -> None:
        result = self.table.new_clash(self.app, self.battle_id)
        self.live = replay(result.events)
        self._saw(result.battle)
        # Adventurers only change when a battle ends: this is their "before".
        self.joined = {s.name: self.app.adventurer(s.name) for s in self.table.party}

    # -- playing -------------------------------------------------------------------

    def play(self) -> CheckedBattle:
        """Play to the end, undoing and redoing at random points."""
        steps = 0
        while True:
            steps += 1
            assert steps < MAX_COMMANDS, f"{self.battle_id} did not end in {MAX_COMMANDS} steps: {state_summary(self.live)}"
            if self.live.phase is Phase.ENDED:
                if self.tally.undone_endings >= MAX_UNDONE_ENDINGS or self.rnd.random() >= UNDO_THE_END_CHANCE:
                    return self
                self.tally.undone_endings += 1
                self.undo()
                self.check_adventurers_restored()
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

    def execute(self) -> None:
        legal = legal_commands(self.live, self.table.ctx)
        assert legal, f"dead end in {self.battle_id}: {state_summary(self.live)}"
        command = typed(pick(legal, self.rnd), self.rnd)
        before = self.live
        result = self.app.execute(self.battle_id, command)
        self._advance(result)
        self.done.append(Step(command, result.events[1:], before, self.live))
        self.undone.clear()
        self._mirrors(result)
        self.tally.commands += 1
        if self.live.phase is Phase.ENDED:
            self.check_adventurers_carry_the_result()

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
        assert self.live == step.before, f"undo of {step.command} in {self.battle_id} did not restore the state before it"
        self.undone.append(step)
        self._mirrors(result)
        self.tally.undos += 1

    def redo(self) -> None:
        step = self.undone.pop()
        result = self.app.redo(self.battle_id)
        assert result.events[1:] == step.events, f"redo of {step.command} in {self.battle_id} produced other events"
        self._advance(result)
        assert self.live == step.after
        self.done.append(step)
        self._mirrors(result)
        self.tally.redos += 1
        self.tally.commands += 1
        if self.live.phase is Phase.ENDED:
            self.check_adventurers_carry_the_result()

    def _advance(self, result: Result) -> None:
        self.live = replay(result.events, self.live)
        assert result.battle.state == self.live, f"the stored battle {self.battle_id} differs from the live state"
        self._saw(result.battle)

    def _mirrors(self, result: Result) -> None:
        """The application's undo and redo stacks are this record's."""
        assert [d.command for d in result.battle.done[1:]] == [s.command for s in self.done]
        assert [d.command for d in result.battle.undone] == [s.command for s in self.undone]

    def _saw(self, battle: Game) -> None:
        assert battle.version not in self.seen
        self.seen[battle.version] = battle

    # -- checks --------------------------------------------------------------------

    def check_adventurers_carry_the_result(self) -> None:
        for spec in self.table.party:
            hero = next(h for h in self.live.heroes if h.name == spec.name)
            now = self.app.adventurer(spec.name)
            assert (now.hp, now.tenacity, now.track) == (hero.hp, hero.tenacity, hero.track)
            assert now.battles == self.joined[spec.name].battles + (self.battle_id,)

    def check_adventurers_restored(self) -> None:
        for spec in self.table.party:
            assert self.app.adventurer(spec.name) == self.joined[spec.name]

    def check_store(self, app: BetrayalApp | None = None, versions: int | None = None) -> None:
        """Whatever ``app`` (default: the one played on) loads equals what
        was seen live, now and at every past version (or at a random sample
        of ``versions`` of them); snapshot + tail equals a replay of every
        event."""
        app = app or self.app
        latest = max(self.seen)
        loaded = app.battle(self.battle_id)
        assert loaded == self.seen[latest] and loaded.state == self.live
        assert fold(BETRAYAL, None, app.stream(self.battle_id)) == loaded
        assert [d.command for d in loaded.done[1:]] == [s.command for s in self.done]
        assert [d.command for d in loaded.undone] == [s.command for s in self.undone]
        past = sorted(self.seen)
        if versions is not None and versions < len(past):
            past = sorted(self.rnd.sample(past, versions))
        for version in past:
            assert app.battle(self.battle_id, version) == self.seen[version], f"{self.battle_id} at version {version}"

    def snapshots(self) -> int:
        return len(list(self.app.snapshots.get(battle_stream(self.battle_id))))


def play_checked(app: BetrayalApp, table: Table, battle_id: str, rnd: random.Random) -> CheckedBattle:
    battle = CheckedBattle(app, table, battle_id, rnd).play()
    battle.check_store()
    return battle
