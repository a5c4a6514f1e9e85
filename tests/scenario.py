"""Given / when / then for rules tests (STYLE.md item 7).

    given = Scenario.clash(party=("Ysolda:nord",)).with_hero("ysolda", pos=(2, 3))
    given.when(Move(to=(3, 3))).then_has(HeroMoved)
    given.then_violates(Engage(form=BattleForm.RANGED, target="e1"), "FORM-6")

A scenario is a battle state built by the real setup, then adjusted field by
field; ``when`` runs the pure ``decide`` and folds the events with ``evolve``.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from msgspec.structs import replace

from domain.betrayal.adventurer import aggregate as adv
from domain.betrayal.table.party import party_member
from domain.betrayal.battle.commands import EndTurn, RollEnemyDice, StartClash
from domain.betrayal.battle.context import RulesContext, context_for
from domain.betrayal.battle.events import BattleEvent
from domain.betrayal.battle.evolve import replay
from domain.betrayal.packs.load import starter_pack
from domain.betrayal.battle.rules import decide, legal_commands
from domain.betrayal.battle.state import BattleState, Phase
from domain.betrayal.vocab import Difficulty
from domain.kernel.errors import RuleViolation


def new_party(*specs: str):
    """Members for StartClash from ``Name:race[:lines[:form]]`` specs."""
    pack = starter_pack()
    out = []
    for text in specs:
        spec = party_member(text)
        created = adv.create(pack, f"adv-{spec.name.lower()}", spec.name, spec.race or "nord", spec.lines)
        out.append(adv.member(created.state, spec.form))
    return tuple(out)


@dataclass(frozen=True)
class Scenario:
    state: BattleState
    ctx: RulesContext

    @classmethod
    def clash(
        cls,
        setup: str = "waystone-crossing",
        party: tuple[str, ...] = ("Ysolda:nord",),
        xp: int = 1,
        seed: int = 1,
        difficulty: Difficulty = Difficulty.ADEPT,
        physical_dice: bool = False,
    ) -> Scenario:
        """A freshly set-up clash: round 1, the first adventurer's turn."""
        ctx = context_for(starter_pack(), setup)
        cmd = StartClash(
            battle_id="test",
            setup=setup,
            party=new_party(*party),
            xp=xp,
            seed=seed,
            difficulty=difficulty,
            physical_dice=physical_dice,
        )
        return cls(replay(decide(None, cmd, ctx)), ctx)

    def with_state(self, **changes) -> Scenario:
        return Scenario(replace(self.state, **changes), self.ctx)

    def with_hero(self, hero_id: str, **changes) -> Scenario:
        heroes = tuple(replace(h, **changes) if h.id == hero_id else h for h in self.state.heroes)
        return self.with_state(heroes=heroes)

    def with_foe(self, foe_id: str, **changes) -> Scenario:
        foes = tuple(replace(f, **changes) if f.id == foe_id else f for f in self.state.foes)
        return self.with_state(foes=foes)

    def without_foes(self, *keep: str) -> Scenario:
        """Remove every enemy but ``keep`` from the map (they count as defeated)."""
        foes = tuple(f if f.id in keep else replace(f, defeated=True, pos=None) for f in self.state.foes)
        return self.with_state(foes=foes)

    def with_turn(self, **changes) -> Scenario:
        return self.with_state(turn=replace(self.state.turn, **changes))

    def when(self, command) -> Then:
        events = decide(self.state, command, self.ctx)
        return Then(self, events, replay(events, self.state))

    def then_violates(self, command, rule: str) -> RuleViolation:
        """The command is refused citing ``rule``."""
        with pytest.raises(RuleViolation) as caught:
            decide(self.state, command, self.ctx)
        assert caught.value.rule == rule, f"expected {rule}, got {caught.value.rule}: {caught.value.message}"
        return caught.value

    def legal(self):
        return legal_commands(self.state, self.ctx)


@dataclass(frozen=True)
class Then:
    given: Scenario
    events: list[BattleEvent]
    state: BattleState

    def of(self, kind: type) -> list:
        return [e for e in self.events if isinstance(e, kind)]

    def then_has(self, kind: type, /, **fields) -> BattleEvent:
        """The first event of ``kind`` whose fields match ``fields``."""
        for e in self.of(kind):
            if all(getattr(e, k) == v for k, v in fields.items()):
                return e
        raise AssertionError(f"no {kind.__name__} with {fields} in {[type(e).__name__ for e in self.events]}")

    def then_lacks(self, kind: type) -> None:
        assert not self.of(kind), f"unexpected {kind.__name__}: {self.of(kind)}"

    def next(self) -> Scenario:
        return Scenario(self.state, self.given.ctx)


def finish_round(given: Scenario) -> tuple[Scenario, list[BattleEvent]]:
    """End every adventurer turn of the round, typing misses for each enemy
    roll (physical dice); the final scenario and every event on the way."""
    events: list[BattleEvent] = []
    while given.state.phase in (Phase.ADVENTURER_TURN, Phase.ENEMY_ROLL):
        if given.state.phase is Phase.ENEMY_ROLL:
            then = given.when(RollEnemyDice(faces=(0,) * given.state.enemy_roll.dice))
        else:
            then = given.when(EndTurn())
        events += then.events
        given = then.next()
    return given, events
