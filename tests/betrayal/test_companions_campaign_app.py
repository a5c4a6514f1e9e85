"""A permanent companion between battles through the application and its
store (CLEANUP-3c): the battle's end writes it to its controller's stream
in the same transaction, and the controller's next battle brings it."""

from __future__ import annotations

import random

import pytest

from domain.betrayal.battle.application import BetrayalApp, PartySpec
from domain.betrayal.battle.bots import greedy_choice
from domain.betrayal.battle.commands import Escort
from domain.betrayal.battle.state import Outcome, Phase


@pytest.mark.rule("CLEANUP-3c")
def test_a_permanent_companion_goes_home_with_its_controller_and_comes_to_the_next_battle():
    app = BetrayalApp("memory")
    party = (PartySpec(name="Ysolda", race="nord"), PartySpec(name="Tarn", race="orc"))
    app.new_clash(
        setup="waystone-crossing",
        party=party,
        xp=1,
        seed=4,
        battle_id="first",
        companions=(Escort(chip="archer", controller="Tarn"),),
    )
    rnd = random.Random(4)
    for _ in range(800):
        game = app.battle("first")
        if game.state.phase is Phase.ENDED:
            break
        app.execute("first", greedy_choice(game.state, app.context(game.state), rnd))
    final = app.battle("first").state
    assert final.outcome is Outcome.SUCCESS and not final.companion("archer").defeated  # this seed's battle
    assert app.adventurer("Tarn").companions == ("archer",)
    assert app.adventurer("Ysolda").companions == ()
    app.new_clash(setup="waystone-crossing", party=(PartySpec(name="Tarn"),), xp=1, seed=5, battle_id="second")
    second = app.battle("second").state
    assert [(a.chip, a.controller, a.carried, a.hp) for a in second.companions] == [("archer", "tarn", True, 4)]
