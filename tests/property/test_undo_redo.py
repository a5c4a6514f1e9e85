"""Random play through the application on the memory store, with undos and
redos at random points (DESIGN: Undo and redo; STYLE.md item 9).

Every undo restores, exactly, the state before the undone command (forced
when the command revealed dice or a draw, refused with UNDO-2 without
force); every redo gives back the state after it, with the same events, as
the RNG counter came back; several undos run in a row; undoing the ending
command restores the adventurers too. At the end the store loads the live
state now and at every version seen; snapshot + tail equals a replay of
every event; the adventurers carry the final HP, tenacity and track.
"""

from __future__ import annotations

import random

import pytest
from checked_play import SnapshottingApp, play_checked
from random_battles import random_table

from domain.betrayal.battle.application import BetrayalApp
from domain.betrayal.battle.evolve import replay
from domain.betrayal.ruleset import BETRAYAL
from domain.kernel.commandlog import fold
from domain.betrayal.battle.state import Phase
from domain.kernel.errors import RuleViolation

SEEDS = range(40)


@pytest.mark.parametrize("seed", SEEDS)
def test_undo_and_redo_at_random_points_restore_exact_states(seed: int) -> None:
    rnd = random.Random(seed)
    with SnapshottingApp("memory") as app:
        battle = play_checked(app, random_table(rnd), f"b{seed}", rnd)
        assert battle.live.phase is Phase.ENDED
        if max(battle.seen) >= 2 * SnapshottingApp.snapshot_every:
            assert battle.snapshots() > 0, "a long battle took no snapshot"
        # A store that never snapshots loads the same battle.
        everything = [e for _, e in app.notifications()]
        plain = BetrayalApp("memory")
        plain.append(everything)
        battle.check_store(plain, versions=10)


def test_the_runs_undo_across_barriers_and_take_back_endings() -> None:
    """The random runs above exercise what they claim to (guards the knobs)."""
    forced = undone_endings = redos = 0
    for seed in SEEDS[:8]:
        rnd = random.Random(seed)
        with SnapshottingApp("memory") as app:
            tally = play_checked(app, random_table(rnd), f"b{seed}", rnd).tally
        forced += tally.forced
        undone_endings += tally.undone_endings
        redos += tally.redos
    assert forced and undone_endings and redos


def test_the_setup_cannot_be_undone_and_nothing_undone_cannot_be_redone() -> None:
    rnd = random.Random(7)
    with BetrayalApp("memory") as app:
        start = random_table(rnd).new_clash(app, "b7")
        with pytest.raises(RuleViolation) as nothing:
            app.undo("b7", force=True)
        assert nothing.value.rule == "UNDO-1"
        with pytest.raises(RuleViolation) as no_redo:
            app.redo("b7")
        assert no_redo.value.rule == "REDO-1"
        assert app.battle("b7") == start.battle
        assert fold(BETRAYAL, None, app.stream("b7")).state == replay(start.events)
