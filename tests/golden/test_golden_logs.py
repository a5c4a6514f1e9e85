"""The golden battle logs in logs/ still hold under the current rules.

Each is imported into an empty memory store and replayed; its final state
must have the digest its header records, and verification (hash chain,
re-deciding every command, re-deriving every roll and draw) must find no
divergence. After a deliberate rules change, regenerate them with
``.venv/bin/pytest tests/golden --regen-golden`` and review the diff.
"""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from domain.betrayal.application import BetrayalApp
from domain.betrayal.events import CommandIssued, CommandUndone
from domain.kernel.portable import (
    export_battle,
    import_log,
    read_log,
    state_digest,
    verify_battle,
    verify_log,
)
from domain.betrayal.state import Outcome
from domain.kernel.commandlog import CommandIssued as KernelIssued
from domain.kernel.commandlog import CommandUndone as KernelUndone
from domain.kernel.games import GameApp

LOGS = Path(__file__).resolve().parents[2] / "logs"
NAMES = sorted(p.name for p in LOGS.glob("*.jsonl"))


def header(data: bytes) -> dict:
    return msgspec.json.decode(data.split(b"\n", 1)[0])


def test_the_logs_folder_holds_exactly_the_logs_regenerate_makes(golden_logs, regenerate):
    assert sorted(golden_logs) == sorted(regenerate.GOLDEN)


@pytest.mark.parametrize("name", NAMES)
def test_imported_battle_replays_to_the_recorded_final_state(golden_logs, name):
    data = golden_logs[name]
    app = BetrayalApp(store="memory")
    battle_id = import_log(app, data)
    assert battle_id == header(data)["battle_id"]
    assert state_digest(app.battle(battle_id).state) == header(data)["final_state_digest"]


@pytest.mark.parametrize("name", NAMES)
def test_the_log_verifies(golden_logs, name):
    report = verify_log(golden_logs[name])
    assert report.ok, report.summary()
    assert report.divergence is None
    assert report.lines == golden_logs[name].count(b"\n")


@pytest.mark.parametrize("name", NAMES)
def test_re_deciding_the_imported_battle_finds_no_divergence(golden_logs, name):
    app = BetrayalApp(store="memory")
    battle_id = import_log(app, golden_logs[name])
    report = verify_battle(app, battle_id)
    assert report.ok, report.summary()
    assert export_battle(app, battle_id) == golden_logs[name]


def _battle_events(data: bytes) -> list:
    return [e.event for e in read_log(data).battle]


def test_the_logs_show_what_their_names_say(golden_logs):
    won = BetrayalApp(store="memory")
    lost = BetrayalApp(store="memory")
    assert won.battle(import_log(won, golden_logs["won-waystone-crossing.jsonl"])).state.outcome is Outcome.SUCCESS
    assert lost.battle(import_log(lost, golden_logs["lost-fallen-watchtower.jsonl"])).state.outcome is Outcome.FAILURE
    undo = _battle_events(golden_logs["undo-cinder-rite.jsonl"])
    undos = [e for e in undo if isinstance(e, CommandUndone)]
    redos = [e for e in undo if isinstance(e, CommandIssued) and e.redo_of]
    assert any(u.forced for u in undos) and any(not u.forced for u in undos)
    assert redos


def test_the_conquest_logs_show_what_their_names_say(golden_logs):
    from domain.conquest.vocab import Termination

    def ended(name: str):
        app = GameApp(store="memory")
        return app.battle(import_log(app, golden_logs[name])).state.result

    assert ended("conquest-wipe-out.jsonl").termination is Termination.WIPE_OUT
    limit = ended("conquest-round-limit.jsonl")
    assert limit.termination is Termination.ROUND_LIMIT
    undo = _battle_events(golden_logs["conquest-undo.jsonl"])
    undos = [e for e in undo if isinstance(e, KernelUndone)]
    redos = [e for e in undo if isinstance(e, KernelIssued) and e.redo_of]
    assert any(u.forced for u in undos) and any(not u.forced for u in undos)
    assert len(redos) >= 3
    assert ended("conquest-undo.jsonl") is not None


def test_each_log_names_its_ruleset_and_one_store_holds_both_games(golden_logs):
    rulesets = {n: header(golden_logs[n])["ruleset"] for n in NAMES}
    assert set(rulesets.values()) == {"betrayal", "conquest"}
    # The Betrayal logs share their party, so one of them goes in with every Conquest log.
    names = ["won-waystone-crossing.jsonl", *(n for n in NAMES if rulesets[n] == "conquest")]
    app = GameApp(store="memory")
    for n in names:
        import_log(app, golden_logs[n])
    ids = [header(golden_logs[n])["battle_id"] for n in names]
    assert [(g.battle_id, g.ruleset) for g in app.battles()] == [(i, rulesets[n]) for i, n in zip(ids, names)]
    for battle_id in ids:
        assert verify_battle(app, battle_id).ok
