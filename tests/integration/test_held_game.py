"""A command on a game this process holds (``GameApp.execute`` without
``expected``) is decided on the game as held, with no read of its stream,
and saved at its version; when another writer moved the game on, that save
fails, nothing is written, and the command is decided again on the game as
it stands: the outcome is the one a read first would have given."""

from __future__ import annotations

from pathlib import Path

import pytest

from domain.betrayal.battle.application import BetrayalApp, PartySpec, battle_stream
from domain.betrayal.battle.commands import EndTurn, Move
from domain.kernel.errors import RuleViolation

PARTY = [PartySpec("Ysolda", "nord"), PartySpec("Tarn", "dark-elf")]


def _two_writers(tmp_path: Path) -> tuple[str, BetrayalApp, BetrayalApp, str]:
    store = f"sqlite:{tmp_path / 'battles.sqlite'}"
    first, second = BetrayalApp(store), BetrayalApp(store)
    bid = first.new_clash(setup="waystone-crossing", party=PARTY, xp=1, seed=3).battle.state.battle_id
    return store, first, second, bid


def _moves(app: BetrayalApp, bid: str) -> set[Move]:
    return {c for c in app.legal(bid) if isinstance(c, Move)}


def test_a_command_on_a_held_game_reads_nothing_of_its_stream_before_it_is_saved(tmp_path: Path) -> None:
    _, app, _, bid = _two_writers(tmp_path)
    move = sorted(_moves(app, bid), key=repr)[0]
    stream = battle_stream(bid)
    read: list[object] = []
    rows = app.recorder.select_event_rows
    app.recorder.select_event_rows = lambda sid, **asked: read.append(sid) or rows(sid, **asked)
    result = app.execute(bid, move)
    assert stream not in read
    assert result.battle.state.acting.hero == "ysolda"
    assert BetrayalApp(f"sqlite:{tmp_path / 'battles.sqlite'}").battle(bid) == result.battle


def test_a_command_on_a_held_game_another_writer_moved_on_is_decided_on_the_game_as_it_stands(
    tmp_path: Path,
) -> None:
    store, first, second, bid = _two_writers(tmp_path)
    held = second.battle(bid)  # Ysolda acts
    both = sorted(_moves(second, bid), key=repr)
    moved_on = first.execute(bid, EndTurn()).battle  # now Tarn acts
    move = next(m for m in both if m in _moves(BetrayalApp(store), bid))
    result = second.execute(bid, move)
    assert result.command_id == f"c{moved_on.version + 1}"
    assert result.battle.version > moved_on.version > held.version
    assert result.battle.state.acting.hero == "tarn"
    assert BetrayalApp(store).battle(bid) == result.battle
    versions = [e.originator_version for e in second.events(battle_stream(bid))]
    assert versions == list(range(1, result.battle.version + 1))


def test_a_command_refused_on_the_held_game_but_legal_as_it_stands_is_saved(tmp_path: Path) -> None:
    store, first, second, bid = _two_writers(tmp_path)
    before = _moves(second, bid)  # Ysolda's
    first.execute(bid, EndTurn())
    move = sorted(_moves(BetrayalApp(store), bid) - before, key=repr)[0]  # only Tarn may make it
    result = second.execute(bid, move)
    assert result.battle.state.acting.hero == "tarn"
    assert BetrayalApp(store).battle(bid) == result.battle


def test_a_command_refused_as_the_game_stands_is_refused_with_its_rule_and_writes_nothing(
    tmp_path: Path,
) -> None:
    store, first, second, bid = _two_writers(tmp_path)
    second.battle(bid)
    first.execute(bid, EndTurn())
    version = BetrayalApp(store).battle(bid).version
    with pytest.raises(RuleViolation) as refused:
        second.execute(bid, Move(to=(9, 9)))
    assert refused.value.rule.startswith("MOVE")
    assert BetrayalApp(store).battle(bid).version == version
