"""Issue 25, eighth pass: `rk log` leaves the state an undo restores
undecoded (``history.unread_undo``), the largest part of a long game's
stored bytes; the narration goes on from the state it had kept just before
the undone command, which is the one the undo stored (``Games.undo``
restores the game at the command's version before). What it says is
unchanged: each line as the log told it from the decoded states
(``--json``'s texts, read with every state decoded), over random plays."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import msgspec
import pytest

from cli import history
from cli.session import Defaults
from domain.betrayal.battle.application import BetrayalApp
from domain.betrayal.battle.bots import random_choice
from domain.betrayal.battle.state import Phase
from domain.betrayal.table.party import party_member
from domain.kernel.commandlog import CommandIssued, CommandUndone
from domain.kernel.errors import RuleViolation
from domain.kernel.games import GameApp
from domain.kernel.stores.streams_order import envelopes_in_append_order

BATTLE = "undone-unread"


def _play(app: BetrayalApp, commands: int, seed: int) -> None:
    """A clash played by the random bot, undoing (with force) a command in
    three, sometimes two in a row, and redoing half of those."""
    rnd = random.Random(seed)
    party = [party_member(p) for p in ("Ysolda:nord", "Tarn:dark-elf")]
    battle = app.new_clash(setup="waystone-crossing", party=party, xp=1, seed=seed, battle_id=BATTLE).battle
    ctx = app.context(battle.state)
    for _ in range(commands):
        if battle.state.phase is Phase.ENDED or (battle.can_undo and rnd.random() < 0.33):
            battle = app.undo(BATTLE, force=True).battle
            if battle.can_undo and rnd.random() < 0.3:
                battle = app.undo(BATTLE, force=True).battle
            if rnd.random() < 0.5:
                battle = app.redo(BATTLE).battle
            continue
        try:
            battle = app.execute(BATTLE, random_choice(battle.state, ctx, rnd)).battle
        except RuleViolation:
            continue


def _store(tmp_path: Path, seed: int) -> str:
    path = tmp_path / f"undone-{seed}.sqlite"
    with BetrayalApp(f"sqlite:{path}") as app:
        _play(app, commands=70, seed=seed)
    return f"sqlite:{path}"


@pytest.mark.parametrize("seed", [1, 4, 6, 9])
def test_the_log_told_from_kept_states_says_what_the_stored_ones_say(rk, tmp_path, monkeypatch, seed) -> None:
    store = _store(tmp_path, seed)
    on_it, of_it = rk.on(Defaults(store=store)), ["--battle", BATTLE, "--no-pager"]
    rows = json.loads(on_it("log", "--json", *of_it).stdout)  # every restored state decoded
    told: list[str] = []

    def kept_texts(entries: Any, *args: Any, **kwargs: Any) -> list[str]:
        told.extend(text for _, text, *_ in entries)
        return []

    monkeypatch.setattr(history, "layout_lines", kept_texts)
    on_it("log", *of_it)
    assert sum(isinstance(r["event"], dict) and r["event"]["type"] == "CommandUndone" for r in rows) > 5
    assert told == [r["text"] for r in rows]


@pytest.mark.parametrize("seed", [2, 7])
def test_an_undo_restores_the_state_just_before_the_command_it_names(tmp_path, seed) -> None:
    """What the narration relies on: the state an undo stores is the one
    folded just before the command it names was issued."""
    store = _store(tmp_path, seed)
    with GameApp(store=store) as app:
        rs = app.ruleset(BATTLE)
        before: dict[str, Any] = {}
        state: Any = None
        undos = 0
        for env in app.events(rs.game_stream(BATTLE)):
            event = env.event
            if isinstance(event, CommandIssued):
                before[event.command_id] = state
            if isinstance(event, CommandUndone):
                assert event.restored == before[event.command_id]
                undos += 1
            state = rs.evolve(state, event)
    assert undos > 5


def test_an_unread_undo_decodes_to_the_stored_state(tmp_path) -> None:
    """Where no state was kept (an undo of a command the narration did not
    tell), the undo's own is decoded: the same as the full decode."""
    store = _store(tmp_path, 3)
    with GameApp(store=store) as app:
        rs = app.ruleset(BATTLE)
        own = (rs.game_stream(BATTLE),)
        unread = history.unread_undo(rs.undone)
        assert history.unread_undo(rs.undone) is unread  # made once
        full = list(envelopes_in_append_order(app, own))
        light = list(envelopes_in_append_order(app, own, narrower={rs.undone: unread}.get))
    assert len(full) == len(light)
    undos = 0
    for whole, lighter in zip(full, light):
        if isinstance(whole.event, CommandUndone):
            assert type(lighter.event) is unread and isinstance(lighter.event, rs.undone)
            state = msgspec.json.decode(lighter.event.restored, type=history._restored_type(rs.undone))
            assert state == whole.event.restored
            assert (lighter.event.command_id, lighter.event.forced) == (whole.event.command_id, whole.event.forced)
            undos += 1
        else:
            assert lighter == whole
    assert undos > 5
