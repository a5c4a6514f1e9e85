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

from domain.betrayal.battle.application import BetrayalApp, delve_stream
from domain.betrayal.delve.aggregate import DelveConcluded, ShortageSkyshard
from domain.betrayal.battle.events import CommandIssued, CommandUndone
from domain.kernel.portable import (
    export_battle,
    import_log,
    read_log,
    state_digest,
    verify_battle,
    verify_log,
)
from domain.betrayal.battle.state import Outcome, Termination
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


def _imported(data: bytes) -> tuple[BetrayalApp, str]:
    app = BetrayalApp(store="memory")
    return app, import_log(app, data)


def test_the_delve_logs_show_what_their_names_say(golden_logs):
    """Delves and a dungeon, with their Delve streams (or none, for the dungeon)."""
    # A Survey delve won: every required skyshard obtained (OBJ-4, OBJ-5).
    app, won = _imported(golden_logs["delve-survey-won.jsonl"])
    assert app.battle(won).state.outcome is Outcome.SUCCESS
    delve = app.delve_of(won)
    assert delve.objective.value == "survey" and delve.gained == delve.required and delve.concluded == "success"
    assert f"delve:{won}" in header(golden_logs["delve-survey-won.jsonl"])["streams"].values()
    # An Uncover delve left early: a failure (OBJ-9) that still gives XP per skyshard (OBJ-10).
    app, retreat = _imported(golden_logs["delve-uncover-retreat.jsonl"])
    state, delve = app.battle(retreat).state, app.delve_of(retreat)
    assert state.outcome is Outcome.FAILURE and state.termination is Termination.RETREATED_UNEXPLORED
    assert delve.objective.value == "uncover" and 0 < delve.gained < delve.required
    concluded = [e.event for e in app.events(delve_stream(retreat)) if isinstance(e.event, DelveConcluded)]
    assert concluded[-1].xp > 0 and concluded[-1].skyshards == delve.gained
    # Out of tiles of a shape: the card is kept face down as a skyshard (EXPLORATION-7a, SKYSHARD-4).
    app, short = _imported(golden_logs["delve-shortage.jsonl"])
    assert any(isinstance(e.event, ShortageSkyshard) for e in app.events(delve_stream(short)))
    assert app.delve_of(short).face_down
    # A dungeon: a Betrayal battle with no Delve stream.
    app, dungeon = _imported(golden_logs["dungeon-sentinel-vault.jsonl"])
    assert app.battle(dungeon).state.setup == "sentinel-vault" and app.battle(dungeon).state.outcome is not None
    assert app.delve_of(dungeon) is None
    assert set(header(golden_logs["dungeon-sentinel-vault.jsonl"])["streams"].values()) == {
        "battle",
        *(f"adventurer:{n}" for n in ("Ysolda", "Tarn", "Brelyna", "Onmund")),
    }


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


def test_each_log_names_its_ruleset_and_one_store_holds_every_game(golden_logs):
    rulesets = {n: header(golden_logs[n])["ruleset"] for n in NAMES}
    assert set(rulesets.values()) == {"betrayal", "betrayal-campaign", "conquest", "labyrinth"}
    # The Betrayal logs share their party, so one of them goes in with every Conquest and labyrinth log.
    names = ["won-waystone-crossing.jsonl", *(n for n in NAMES if rulesets[n] in ("conquest", "labyrinth"))]
    app = GameApp(store="memory")
    for n in names:
        import_log(app, golden_logs[n])
    ids = [header(golden_logs[n])["battle_id"] for n in names]
    assert [(g.battle_id, g.ruleset) for g in app.battles()] == [(i, rulesets[n]) for i, n in zip(ids, names)]
    for battle_id in ids:
        assert verify_battle(app, battle_id).ok


def test_the_campaign_log_holds_two_battles_a_reward_phase_and_a_rest(golden_logs):
    """The golden campaign: both adventurers carry both battles, the rewards
    of the first were gained and spent (ADVANCE-12 kept at most 3), the rest
    was undone and given again, and the log verifies whole."""
    from domain.betrayal.adventurer import events as ae
    from domain.betrayal.campaign import game as cp

    data = golden_logs["campaign-two-battles.jsonl"]
    app = BetrayalApp(store="memory")
    campaign_id = import_log(app, data)
    state = app.battle(campaign_id).state
    assert state.rewarded == ("golden-campaign-1", "golden-campaign-2") and state.day == 2 and not state.reward
    for name in ("Ysolda", "Tarn"):
        a = app.adventurer(name)
        assert a.battles == ("golden-campaign-1", "golden-campaign-2")
        assert a.xp <= 3 and a.earned > 0
    assert app.adventurer("Ysolda").ready == ("scuffed-bracers",)
    assert "twin-shafts" in [d for _, d in app.adventurer("Tarn").dice]
    kinds = {type(e.event) for e in read_log(data).entries}
    assert {
        cp.RewardsGained,
        cp.DayEnded,
        cp.CampaignUndone,
        ae.StatRaised,
        ae.DieAdded,
        ae.XpCapped,
        ae.Rested,
        ae.ItemUsed,
    } <= kinds
