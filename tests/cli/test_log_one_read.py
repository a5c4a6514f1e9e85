"""Issue 25: `rk log` of a game with no companion streams reads the game's
stream once, not a first whole read decoding every command and every
restored state, nor (eighth pass) a read of its undos' command ids
alone: the commands it issued that are not on the game's undo stack at
its end are those undone. What it says is unchanged: each undone
command's events marked, each undo naming the command it reverted as
typed with the events it had written, the undone commands counted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli import history
from cli.session import Defaults
from domain.betrayal.battle.application import BetrayalApp
from domain.kernel.commandlog import CommandIssued, CommandUndone
from domain.kernel.games import GameApp
from betrayal_undoing import play_undoing

BATTLE = "undone-often"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = Path(tmp_path_factory.mktemp("log-one-read")) / "undone.sqlite"
    with BetrayalApp(f"sqlite:{path}") as app:
        play_undoing(app, BATTLE, commands=60, seed=3)
    return f"sqlite:{path}"


def test_the_log_reads_the_stream_once_and_says_what_it_said(rk, store: str, monkeypatch) -> None:
    def whole_first_read(*args, **kwargs):
        raise AssertionError("rk log read the whole stream ahead of its narration")

    monkeypatch.setattr(history, "headers_in_append_order", whole_first_read)
    on_it, of_it = rk.on(Defaults(store=store)), ["--battle", BATTLE, "--no-pager"]
    rows = json.loads(on_it("log", "--json", *of_it).stdout)
    text = on_it("log", *of_it).stdout
    with GameApp(store=store) as app:
        envelopes = list(app.events(app.ruleset(BATTLE).game_stream(BATTLE)))
    undone = {e.event.command_id for e in envelopes if isinstance(e.event, CommandUndone)}
    assert [r["version"] for r in rows] == [e.originator_version for e in envelopes]
    assert [r["undone"] for r in rows] == [e.command_id in undone for e in envelopes]
    # each undo names the command it reverted, as typed, and the events it had written
    said = {r["command_id"]: r["text"].split(" · ")[0].removesuffix(" (redone)") for r in rows if r["command"]}
    versions: dict[str, list[int]] = {}
    for r in rows:
        versions.setdefault(r["command_id"], []).append(r["version"])
    for r, env in zip(rows, envelopes):
        if isinstance(env.event, CommandUndone):
            first, last = versions[env.event.command_id][0], versions[env.event.command_id][-1]
            span = f"event {first}" if first == last else f"events {first}-{last}"
            assert f"{said[env.event.command_id]} ({span}) is reverted" in r["text"]
    assert text.count("↶") >= sum(r["undone"] for r in rows)
    assert any(isinstance(e.event, CommandIssued) and e.event.redo_of for e in envelopes)


@pytest.mark.parametrize("seed", [1, 2, 5, 8])
def test_the_commands_marked_undone_are_those_an_undo_names_and_are_counted(rk, tmp_path, seed) -> None:
    path = tmp_path / "undone.sqlite"
    with BetrayalApp(f"sqlite:{path}") as app:
        play_undoing(app, BATTLE, commands=80, seed=seed)
        envelopes = list(app.events(app.ruleset(BATTLE).game_stream(BATTLE)))
    on_it, of_it = rk.on(Defaults(store=f"sqlite:{path}")), ["--battle", BATTLE, "--no-pager"]
    rows = json.loads(on_it("log", "--json", *of_it).stdout)
    undone = {e.event.command_id for e in envelopes if isinstance(e.event, CommandUndone)}
    assert undone
    assert [r["undone"] for r in rows] == [e.command_id in undone for e in envelopes]
    footer = on_it("log", *of_it).stdout.rstrip("\n").rsplit("\n", 1)[-1]
    assert footer == f"↶ marks the events of {len(undone)} undone command(s)"
