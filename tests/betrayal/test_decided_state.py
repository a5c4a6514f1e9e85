"""Issue 25: Betrayal's ``decide`` hands the kernel the state its events
lead to (``Outcome.state``), folded as the rules decided them, so a command
is not folded a second time when it is saved. That state must be exactly
what ``evolve`` makes of the events: checked over whole random battles,
ends included (a battle's end writes its heroes' conclusions from it)."""

from __future__ import annotations

import random

import pytest

from domain.betrayal.battle.application import BetrayalApp
from domain.betrayal.battle.bots import random_choice
from domain.betrayal.battle.evolve import evolve
from domain.betrayal.battle.state import Phase
from domain.betrayal.table.party import party_member


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_decided_state_is_the_events_folded(seed: int) -> None:
    rnd = random.Random(seed)
    app = BetrayalApp("memory")
    party = [party_member(p) for p in ("Ysolda:nord", "Tarn:dark-elf")]
    battle_id = f"decided-{seed}"
    game = app.new_clash(setup="waystone-crossing", party=party, xp=1, seed=seed, battle_id=battle_id).battle
    rs = app.ruleset(battle_id)
    ctx = app.context(game.state)
    decided = 0
    while game.state.phase is not Phase.ENDED and decided < 400:
        command = random_choice(game.state, ctx, rnd)
        outcome = rs.decide(game.state, command, app.rules_context(battle_id))
        folded = game.state
        for event in outcome.events:
            folded = evolve(folded, event)
        assert outcome.state == folded
        game = app.execute(battle_id, command).battle
        assert game.state == folded  # what was saved is what was decided
        decided += 1
    assert game.state.phase is Phase.ENDED
