"""A Betrayal clash played by the random bot with many undos: the shape of a
long stored game (undos, redos, play past the end) that the log's and the
store's fast paths are compared on."""

from __future__ import annotations

import random

from domain.betrayal.battle.application import BetrayalApp
from domain.betrayal.battle.bots import random_choice
from domain.betrayal.battle.state import Phase
from domain.betrayal.table.party import party_member
from domain.kernel.errors import RuleViolation


def play_undoing(
    app: BetrayalApp, battle_id: str, *, commands: int, seed: int, undo: float = 0.25, again: float = 0.0
) -> None:
    """A Waystone Crossing clash (Ysolda the Nord, Tarn the Dark Elf) of
    ``commands`` turns of the random bot: each turn undoes (with force) with
    chance ``undo``, and always once the battle has ended; after an undo a
    second one with chance ``again``, then a redo half the time."""
    rnd = random.Random(seed)
    party = [party_member(p) for p in ("Ysolda:nord", "Tarn:dark-elf")]
    battle = app.new_clash(setup="waystone-crossing", party=party, xp=1, seed=seed, battle_id=battle_id).battle
    ctx = app.context(battle.state)
    for _ in range(commands):
        if battle.state.phase is Phase.ENDED or (battle.can_undo and rnd.random() < undo):
            battle = app.undo(battle_id, force=True).battle
            # no draw when no second undo is asked for: each seed's play stays as it was
            if again and battle.can_undo and rnd.random() < again:
                battle = app.undo(battle_id, force=True).battle
            if rnd.random() < 0.5:
                battle = app.redo(battle_id).battle
            continue
        try:
            battle = app.execute(battle_id, random_choice(battle.state, ctx, rnd)).battle
        except RuleViolation:
            continue
