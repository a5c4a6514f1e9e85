"""Undo and redo through ``BetrayalApp`` on the memory store (DESIGN: Undo
and redo). UNDO-1, UNDO-2 and REDO-1 are our own rule IDs, not the book's."""

import pytest

from domain.betrayal.battle.application import BetrayalApp, PartySpec
from domain.betrayal.battle.commands import (
    EndTurn,
    Engage,
    Move,
    NextRound,
    Resolve,
    Retreat,
    RollEnemyDice,
)
from domain.betrayal.battle.events import CommandUndone, DiceRolled
from domain.betrayal.battle.state import Phase
from domain.betrayal.vocab import BattleForm
from domain.kernel.errors import RuleViolation


@pytest.fixture
def app():
    app = BetrayalApp(store="memory")
    yield app
    app.close()


def clash(app: BetrayalApp, *, physical_dice: bool = False, battle_id: str = "b1", xp: int = 1) -> str:
    """Ysolda (Nord, 4 HP) alone against one Tunnel Rat (seed 1)."""
    app.new_clash(
        setup="waystone-crossing",
        party=[PartySpec("Ysolda", "nord")],
        xp=xp,
        seed=1,
        physical_dice=physical_dice,
        battle_id=battle_id,
    )
    return battle_id


def rolled(events) -> list[tuple]:
    return [tuple(d.face for d in e.dice) for e in events if isinstance(e, DiceRolled)]


@pytest.mark.rule("UNDO-1")
def test_undo_restores_exactly_the_state_before_the_last_command(app):
    b = clash(app)
    before = app.battle(b).state
    app.execute(b, Move(to=(1, 1)))
    assert app.battle(b).state.hero("ysolda").pos == (1, 1)
    result = app.undo(b)
    assert isinstance(result.events[0], CommandUndone)
    assert app.battle(b).state == before


@pytest.mark.rule("UNDO-1")
def test_undo_can_go_back_several_commands(app):
    b = clash(app)
    before = app.battle(b).state
    app.execute(b, Move(to=(1, 1)))
    after_first = app.battle(b).state
    app.execute(b, Move(to=(2, 1)))
    app.undo(b)
    assert app.battle(b).state == after_first
    app.undo(b)
    assert app.battle(b).state == before


@pytest.mark.rule("UNDO-1")
def test_the_setup_itself_cannot_be_undone(app):
    b = clash(app)
    with pytest.raises(RuleViolation) as caught:
        app.undo(b)
    assert caught.value.rule == "UNDO-1"


@pytest.mark.rule("UNDO-2")
def test_undoing_a_command_that_rolled_dice_needs_force(app):
    b = clash(app)
    app.execute(b, Engage(form=BattleForm.LIGHT, dice=(1, 2)))
    with pytest.raises(RuleViolation) as caught:
        app.undo(b)
    assert caught.value.rule == "UNDO-2"
    assert app.battle(b).state.phase is Phase.ENGAGE_RESOLVE  # nothing was undone


@pytest.mark.rule("UNDO-2")
def test_an_enemy_turn_that_rolled_is_a_barrier_too(app):
    b = clash(app)
    app.execute(b, EndTurn())  # the rat closes in and rolls
    with pytest.raises(RuleViolation) as caught:
        app.undo(b)
    assert caught.value.rule == "UNDO-2"


@pytest.mark.rule("UNDO-2")
def test_a_forced_undo_restores_the_state_and_the_rng_counter(app):
    b = clash(app)
    before = app.battle(b).state
    app.execute(b, Engage(form=BattleForm.LIGHT, dice=(1, 2)))
    assert app.battle(b).state.rng == before.rng + 2
    result = app.undo(b, force=True)
    assert result.events[0].forced
    assert app.battle(b).state == before
    assert app.battle(b).state.rng == before.rng


@pytest.mark.rule("REDO-1")
def test_redo_after_a_forced_undo_rolls_the_same_faces(app):
    b = clash(app)
    first = app.execute(b, Engage(form=BattleForm.LIGHT, dice=(1, 2)))
    after = app.battle(b).state
    app.undo(b, force=True)
    again = app.redo(b)
    assert rolled(again.events) == rolled(first.events)
    assert len(rolled(first.events)[0]) == 2
    assert app.battle(b).state == after


@pytest.mark.rule("REDO-1")
def test_redo_reapplies_the_undone_command(app):
    b = clash(app)
    app.execute(b, Move(to=(1, 1)))
    after = app.battle(b).state
    app.undo(b)
    app.redo(b)
    assert app.battle(b).state == after


@pytest.mark.rule("REDO-1")
def test_redo_is_refused_once_something_new_was_done(app):
    b = clash(app)
    app.execute(b, Move(to=(1, 1)))
    app.undo(b)
    app.execute(b, Move(to=(0, 1)))
    with pytest.raises(RuleViolation) as caught:
        app.redo(b)
    assert caught.value.rule == "REDO-1"


@pytest.mark.rule("REDO-1")
def test_redo_is_refused_when_nothing_was_undone(app):
    b = clash(app)
    app.execute(b, Move(to=(1, 1)))
    with pytest.raises(RuleViolation) as caught:
        app.redo(b)
    assert caught.value.rule == "REDO-1"


@pytest.mark.rule("UNDO-1")
@pytest.mark.rule("CLEANUP-3b")
def test_undoing_the_end_of_a_battle_restores_the_adventurers_too(app):
    b = clash(app, physical_dice=True)
    created = app.adventurer("Ysolda")
    app.execute(b, EndTurn())
    app.execute(b, RollEnemyDice(faces=(5,)))  # the rat bites for 2
    at_end_of_round = app.battle(b).state
    app.execute(b, Retreat())
    assert app.adventurer("Ysolda").hp == 2
    assert app.adventurer("Ysolda").battles == (b,)
    app.undo(b, force=True)  # the end revealed the seed (SEED-2): only with force, as past a roll
    assert app.battle(b).state == at_end_of_round
    assert app.adventurer("Ysolda") == created
    # and going on from there works: the party plays round 2
    result = app.execute(b, NextRound())
    assert result.battle.state.round == 2


@pytest.mark.rule("REDO-1")
def test_redoing_the_end_of_a_battle_writes_the_adventurers_back_again(app):
    b = clash(app, physical_dice=True)
    app.execute(b, EndTurn())
    app.execute(b, RollEnemyDice(faces=(5,)))
    app.execute(b, Retreat())
    written = app.adventurer("Ysolda")
    app.undo(b, force=True)  # the end revealed the seed (SEED-2)
    app.redo(b)
    assert app.battle(b).state.phase is Phase.ENDED
    assert app.adventurer("Ysolda").hp == written.hp == 2
    assert app.adventurer("Ysolda").track == written.track


@pytest.mark.rule("UNDO-1")
def test_undo_of_a_resolve_puts_the_rolled_dice_back_in_waiting(app):
    b = clash(app, physical_dice=True)
    app.execute(b, Engage(form=BattleForm.LIGHT, dice=(1,), faces=(5,)))
    waiting = app.battle(b).state
    app.execute(b, Resolve())
    app.undo(b)
    assert app.battle(b).state == waiting
    assert app.battle(b).state.phase is Phase.ENGAGE_RESOLVE


@pytest.mark.rule("CLASH-5")
def test_a_second_setup_of_a_battle_is_refused_by_clash_5_and_writes_nothing(app):
    battle_id = clash(app)
    setup = app.battle(battle_id).done[0].command
    before = app.max_notification_id()
    with pytest.raises(RuleViolation) as caught:
        app.execute(battle_id, setup)
    assert caught.value.rule == "CLASH-5"
    assert app.max_notification_id() == before
