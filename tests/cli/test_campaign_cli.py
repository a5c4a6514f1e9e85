"""The campaign on the command line: recruit with a race and a class, the
sheet, a battle at the campaign's dial, the Reward Phase step by step with
undo, items, rest, the session's end and its climax EP, and the campaign's
log exported and verified; refusals name their rule and write nothing."""

from __future__ import annotations

import json
import random

import msgspec

import pytest

from domain.betrayal.battle import bots
from domain.kernel.games import GameApp


def finish(store, battle: str) -> None:
    """Play the rest of a battle with the greedy bot (what a table would do by hand)."""
    with GameApp(store=str(store)) as game:
        rnd = random.Random(1)
        while (state := game.battle(battle).state).outcome is None:
            game.execute(battle, bots.greedy_choice(state, game.context(state), rnd))


@pytest.fixture
def party(rk, store):
    rk("campaign", "new", "saga", "--difficulty", "adept")
    rk("adventurer", "new", "Ria", "--race", "nord", "--class", "bastion")
    rk("adventurer", "new", "Tarn", "--race", "dark-elf", "--class", "stalker", "--lines", "bow+destruction-staff")
    return store


def test_recruiting_without_a_campaign_begins_one(rk, store):
    out = rk("adventurer", "new", "Ria", "--race", "nord", "--class", "bastion").stdout
    assert "Ria joins the party" in out and "Campaign campaign-1 (adept)" in out
    assert "CLASS-1: Ria the nord bastion is recruited" in out
    listed = rk("campaign", "list", json=True).json()
    assert [(c["campaign"], c["party"]) for c in listed] == [("campaign-1", ["Ria"])]


def test_the_sheet_shows_class_xp_mat_and_items(rk, party):
    out = rk("adventurer", "Ria").stdout
    assert "Bastion" in out and "0 unspent" in out
    assert "health (next 1 XP) | one-hand-shield (next 2 XP)" in out
    sheet = rk("adventurer", "Ria", json=True).json()
    assert (sheet["class_id"], sheet["campaign"]) == ("bastion", "saga")


def test_a_refused_recruit_names_the_reason_and_writes_nothing(rk, party):
    assert "no class 'knight'" in rk("adventurer", "new", "Ana", "--race", "nord", "--class", "knight", code=1).stderr
    assert "in the party already" in rk("adventurer", "new", "ria", "--race", "orc", "--class", "mender", code=1).stderr
    assert [m[0] for m in rk("campaign", "status", json=True).json()["state"]["party"]] == ["Ria", "Tarn"]


def test_a_battle_of_the_party_plays_at_the_campaigns_dial(rk, party):
    out = rk(
        "new",
        "clash",
        "--setup",
        "waystone-crossing",
        "--party",
        "Ria",
        "--party",
        "Tarn",
        "--seed",
        "2",
        "--name",
        "w1",
    ).stdout
    assert "XP 2 → EP 4 (EP-2)" in out


def test_the_reward_phase_step_by_step_with_undo(rk, party):
    rk(
        "new",
        "clash",
        "--setup",
        "waystone-crossing",
        "--party",
        "Ria",
        "--party",
        "Tarn",
        "--seed",
        "2",
        "--name",
        "w1",
    )
    assert "REWARD-3" in rk("advance", "Ria", "health", code=2).stderr
    finish(party, "w1")
    out = rk("reward").stdout
    assert "REWARD-1: the Reward Phase of w1: 2 XP each" in out and "REWARD-1: Ria gains 2 XP from w1" in out
    assert "ADVANCE-4: Ria buys a health token in column 1 for 1 XP" in rk("advance", "Ria", "health").stdout
    assert "REWARD-2" in rk("untrain", "Ria", "#4", code=2).stderr
    assert "ADVANCE-9" in rk("advance", "Ria", "cooldown", code=2).stderr  # 3 XP; 1 left
    assert "Undid the last command, rk advance Ria health" in rk("campaign", "undo").stdout
    assert rk("adventurer", "Ria", json=True).json()["xp"] == 2
    rk("campaign", "redo")
    assert "REWARD-4: the Reward Phase of w1 ends" in rk("reward", "done").stdout
    assert "REWARD-1" in rk("reward", "w1", code=2).stderr
    legal = rk("campaign", "legal").stdout
    assert "rk rest" in legal and "rk campaign end-session" in legal


def test_items_rest_and_the_sessions_end(rk, party):
    rk("item", "gain", "Ria", "bitterroot-draught")
    rk("item", "ready", "Ria", "bitterroot-draught")
    assert "holds no 'mudcrab-hatchling'" in rk("item", "stow", "Ria", "mudcrab-hatchling", code=1).stderr
    rk("item", "gain", "Ria", "mudcrab-hatchling", "--ready")
    assert "PET-4" in rk("item", "stow", "Ria", "mudcrab-hatchling", code=2).stderr
    out = rk("rest").stdout
    assert "REST-1: day 1 ends" in out and "REST-1: Ria rests" in out
    out = rk("campaign", "ep").stdout
    assert "EP 32 (XP 16 each" in out
    assert "session 1 ends" in rk("campaign", "end-session").stdout
    assert "session 2" in rk("campaign", "status").stdout


def test_the_campaign_log_exports_verifies_and_reads(rk, party, tmp_path):
    rk("item", "gain", "Tarn", "notched-dagger")
    log = rk("log", "--battle", "saga", "--no-pager").stdout
    assert "rk adventurer new Ria --race nord --class bastion" in log and "Tarn gains Notched Iron Dagger" in log
    path = tmp_path / "saga.jsonl"
    rk("export", "--battle", "saga", "-o", str(path))
    assert rk("verify", str(path)).stdout.startswith("ok: ")


def test_a_battle_may_let_the_player_choose_its_defense(rk, store):
    rk("new", "clash", "--setup", "waystone-crossing", "--party", "Ysolda:nord", "--seed", "3", "--choose-defense")
    status = rk("status", json=True).json()
    assert status["state"]["options"]["choose_defense"] is True
    rk("new", "clash", "--setup", "waystone-crossing", "--party", "Ysolda", "--seed", "3", "--name", "plain")
    assert rk("status", json=True).json()["state"]["options"].get("choose_defense", False) is False


def test_an_adventurer_in_a_battle_not_ended_is_listed_as_unable_to_fight_and_left_be(rk, party):
    rk("new", "clash", "--setup", "waystone-crossing", "--party", "Ria", "--seed", "3", "--name", "skirmish")
    listed = rk("adventurers").stdout
    assert "no: in skirmish" in listed
    rows = {r["name"]: r for r in rk("adventurers", json=True).json()}
    assert (rows["Ria"]["fighting"], rows["Ria"]["can_fight"], rows["Tarn"]["can_fight"]) == ("skirmish", False, True)
    assert "BETWEEN-1: Ria is in battle skirmish" in rk("rest", code=2).stderr


def _read_back(listed: list[dict]) -> None:
    """Each line `rk campaign legal --json` lists gives the command beside it."""
    from domain.betrayal.campaign import commands as cc
    from domain.kernel.surface import surface_of

    grammar = surface_of("betrayal-campaign").grammar
    commands = [c for c in listed if c["rk"].startswith("rk ") and not c.get("open")]
    assert commands
    for entry in commands:
        assert grammar.parse(entry["rk"][3:]) == msgspec.convert(entry["command"], cc.CampaignCommand)


def test_every_line_rk_campaign_legal_lists_reads_back_as_its_command(rk, party):
    rk("item", "gain", "Ria", "bitterroot-draught")
    _read_back(rk("campaign", "legal", json=True).json())
    rk(
        "new",
        "clash",
        "--setup",
        "waystone-crossing",
        "--party",
        "Ria",
        "--party",
        "Tarn",
        "--seed",
        "2",
        "--name",
        "w1",
    )
    finish(party, "w1")
    rk("reward", "w1", "--xp", "8")
    _read_back(rk("legal", "--campaign", "saga", json=True).json())


def test_a_campaign_is_named_as_a_battle_is_and_never_becomes_the_current_battle(rk, store):
    rk("new", "clash", "--setup", "waystone-crossing", "--party", "Ysolda:nord", "--seed", "3", "--name", "w1")
    assert "campaign saga begins at expert difficulty" in rk("new", "campaign", "saga", "--difficulty", "expert").stdout
    assert rk("status", json=True).json()["battle"] == "w1"  # still the current battle
    rk("campaign", "enlist", "Ysolda", "--class", "bastion")
    assert "Campaign saga (expert)" in rk("status", "--campaign", "saga").stdout
    assert "Campaign saga (expert)" in rk("campaign", "status", "saga").stdout
    assert "Undid the last command, rk campaign enlist Ysolda --class bastion" in rk("undo", "-c", "saga").stdout
    assert "Redid rk campaign enlist Ysolda --class bastion" in rk("campaign", "redo").stdout
    assert "rk rest" in rk("legal", "-c", "saga").stdout
    assert "rk campaign enlist Ysolda --class bastion" in rk("log", "--campaign", "saga", "--no-pager").stdout
    assert "'w1' is not a campaign" in rk("campaign", "status", "w1", code=1).stderr
    assert "rest is not a command of" in rk("rest", "--battle", "w1", code=1).stderr


def test_the_reward_phase_by_its_words(rk, party):
    rk(
        "new",
        "clash",
        "--setup",
        "waystone-crossing",
        "--party",
        "Ria",
        "--party",
        "Tarn",
        "--seed",
        "2",
        "--name",
        "w1",
    )
    finish(party, "w1")
    out = rk("reward", "w1", "--xp", "5", "-c", "saga").stdout
    assert "REWARD-1: the Reward Phase of w1: 5 XP each" in out
    assert "rk reward w1 --xp 5" in rk("campaign", "log", "--no-pager").stdout
    assert "REWARD-4" in rk("reward", "done").stdout
    assert "rk reward done" in rk("campaign", "log", "--no-pager").stdout
    assert "BATTLE" in rk("reward", "--help").stdout and "rk reward done" in rk("reward", "--help").stdout


def test_a_campaign_exports_whole_imports_into_an_empty_store_and_verifies(rk, party, tmp_path, monkeypatch):
    rk(
        "new",
        "clash",
        "--setup",
        "waystone-crossing",
        "--party",
        "Ria",
        "--party",
        "Tarn",
        "--seed",
        "3",
        "--name",
        "first",
    )
    finish(party, "first")
    rk("reward", "first")
    rk("reward", "done")
    path, again = tmp_path / "saga.jsonl", tmp_path / "again.jsonl"
    assert "Exported campaign saga with 1 game(s) (first)" in rk("export", "--campaign", "saga", "-o", str(path)).stdout
    assert rk("verify", str(path)).stdout.startswith("ok: ")
    monkeypatch.setenv("RULEKEEPER_STORE", str(tmp_path / "copy.sqlite"))
    out = rk("import", str(path)).stdout
    assert "Imported campaign saga with 1 game(s) (first)" in out and "first is the current battle now" in out
    assert "the rewards of first" in rk("xp", "Ria").stdout  # the adventurers came with the campaign
    rk("export", "--campaign", "saga", "-o", str(again))
    assert again.read_bytes() == path.read_bytes()
    refusal = rk("import", str(path), code=1).stderr
    assert "line 1:" in refusal and "already exists" in refusal
    alone = json.loads(rk("export", "--campaign", "saga", "--alone").stdout.splitlines()[0])
    assert "games" not in alone and alone["streams"]


def test_a_campaign_log_cut_short_is_refused_with_its_line(rk, party, tmp_path, monkeypatch):
    path = tmp_path / "saga.jsonl"
    rk("export", "--campaign", "saga", "-o", str(path))
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b"\n".join(path.read_bytes().splitlines()[:-1]) + b"\n")
    verified = rk("verify", str(cut), code=None)
    assert verified.code == 1 and ": CUT: " in verified.stdout
    monkeypatch.setenv("RULEKEEPER_STORE", str(tmp_path / "copy.sqlite"))
    assert "line " in rk("import", str(cut), code=1).stderr


def test_a_stored_campaign_verifies_with_its_battles(rk, party):
    rk("new", "clash", "--setup", "waystone-crossing", "--party", "Ria", "--seed", "3", "--name", "first")
    out = rk("verify", "--campaign", "saga").stdout
    assert out.startswith("ok: ") and "first: seed: committed" in out
