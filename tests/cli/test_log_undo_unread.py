"""Issue 25, eighth pass: `rk log` leaves the state an undo restores
undecoded (``history.unread_undo``), the largest part of a long game's
stored bytes; the narration goes on from the state it had kept just before
the undone command, which is the one the undo stored (``Games.undo``
restores the game at the command's version before). What it says is
unchanged: each line as the log told it from the decoded states
(``--json``'s texts, read with every state decoded), over random plays."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from cli import history
from cli.session import Defaults
from domain.betrayal.battle.application import BetrayalApp
from domain.kernel.commandlog import CommandIssued, CommandUndone
from domain.kernel.games import GameApp
from betrayal_undoing import play_undoing
from domain.kernel.stores.streams_order import envelopes_in_append_order

BATTLE = "undone-unread"


def _store(tmp_path: Path, seed: int) -> str:
    path = tmp_path / f"undone-{seed}.sqlite"
    with BetrayalApp(f"sqlite:{path}") as app:
        play_undoing(app, BATTLE, commands=70, seed=seed, undo=0.33, again=0.3)
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
