"""Random Betrayal play through the kernel, checked as it goes: the kernel's
``CheckedGame`` (tests/kernel_play.py: replay equals live, undo exact, redo
the same, loads at every version) with what only Betrayal has: the party's
adventurers carry each battle's result, and undoing the ending restores them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from kernel_play import CheckedGame, Player
from random_battles import Table, pick, typed

from domain.betrayal.battle.application import BetrayalApp, adventurer, battle_stream
from domain.betrayal.battle.rules import legal_commands


class SnapshottingApp(BetrayalApp):
    """Snapshots every 20 events, so that loads go through snapshot + tail."""

    snapshot_every = 20


def player_for(table: Table) -> Player:
    """Sets up ``table``'s clash; picks any listed command (a retreat only
    rarely), typing random faces when the battle uses physical dice."""
    return Player(
        "betrayal",
        start=lambda app, battle_id, rnd: table.new_clash(app, battle_id),
        choose=lambda state, ctx, rnd: typed(pick(legal_commands(state, ctx), rnd), rnd),
    )


@dataclass
class CheckedBattle(CheckedGame):
    table: Table | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        # Adventurers only change when a battle ends: this is their "before".
        self.joined = {s.name: adventurer(self.app, s.name) for s in self.table.party}

    def ended(self) -> None:
        """Each adventurer carries the battle's result (CLEANUP-3b, CLEANUP-4c)."""
        for spec in self.table.party:
            hero = next(h for h in self.live.heroes if h.name == spec.name)
            now = adventurer(self.app, spec.name)
            assert (now.hp, now.tenacity, now.track) == (hero.hp, hero.tenacity, hero.track)
            assert now.battles == self.joined[spec.name].battles + (self.battle_id,)

    def ending_undone(self) -> None:
        """Undoing the ending restores every adventurer as it joined."""
        for spec in self.table.party:
            assert adventurer(self.app, spec.name) == self.joined[spec.name]

    def snapshots(self) -> int:
        return len(list(self.app.snapshots.get(battle_stream(self.battle_id))))


def play_checked(app: BetrayalApp, table: Table, battle_id: str, rnd: random.Random) -> CheckedBattle:
    battle = CheckedBattle(app, player_for(table), battle_id, rnd, table=table).play()
    battle.check_store()
    return battle
