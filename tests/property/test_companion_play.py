"""Random play with companions through the application on the memory
store (ROUND-6; STYLE.md item 9): battles end without dead ends, every
undo restores the exact state before it and every redo the state after,
and the store replays to the live state."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest
from checked_play import SnapshottingApp, play_checked
from random_battles import Table, random_table

from domain.betrayal.battle.commands import Escort
from domain.betrayal.battle.state import Phase
from domain.betrayal.packs.load import starter_pack

CHIPS = tuple(sorted(starter_pack().companions))


@dataclass(frozen=True)
class EscortedTable(Table):
    """A random clash whose party brings companions."""

    companions: tuple[Escort, ...] = ()

    def new_clash(self, app, battle_id: str):
        return app.new_clash(
            setup=self.setup,
            party=self.party,
            xp=self.xp,
            seed=self.seed,
            battle_id=battle_id,
            difficulty=self.difficulty,
            physical_dice=self.physical_dice,
            companions=self.companions,
        )


def escorted(rnd: random.Random) -> EscortedTable:
    table = random_table(rnd)
    escorts = tuple(
        Escort(chip=rnd.choice(CHIPS), controller=rnd.choice(table.party).name) for _ in range(rnd.randint(1, 3))
    )
    return EscortedTable(**{**table.__dict__, "companions": escorts})


@pytest.mark.rule("ROUND-6")
@pytest.mark.parametrize("seed", range(6))
def test_random_play_with_companions_undoes_redoes_and_replays_exactly(seed: int) -> None:
    rnd = random.Random(1000 + seed)
    with SnapshottingApp("memory") as app:
        battle = play_checked(app, escorted(rnd), f"c{seed}", rnd)
        assert battle.live.phase is Phase.ENDED
        assert battle.live.companions
