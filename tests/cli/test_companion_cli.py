"""Companions through `rk`: a setup brings them (`--companion CHIP:ADVENTURER`),
`rk legal` lists their turn's commands, `rk companion-*` plays them, the
log narrates them, undo takes a companion's command back and the exported
log verifies."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from cli.main import app


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEKEEPER_STORE", str(tmp_path / "rk.sqlite"))
    monkeypatch.setenv("COLUMNS", "100")
    return tmp_path


def rk(*args: str):
    return CliRunner().invoke(app, list(args))


def ok(*args: str) -> str:
    result = rk(*args)
    assert result.exit_code == 0, (args, result.stdout, result.stderr)
    return result.stdout


@pytest.fixture
def battle(store):
    ok("new", "clash", "--setup", "waystone-crossing", "--party", "Ria:nord", "--party", "Tarn:dark-elf",
       "--companion", "fox:Ria", "--companion", "golem:Tarn", "--xp", "2", "--seed", "7", "--name", "escorted")
    return store


def test_a_setup_brings_companions_shown_with_their_controller(battle):
    out = ok("status")
    assert "Ember the Fox" in out and "(Ria's)" in out and "Clay Sentinel" in out
    log = ok("log")
    assert "CLASH-9: companion Ember the Fox (fox) joins the party under Ria's control" in log
    assert "--companion fox:Ria --companion golem:Tarn" in log  # the setup's own line gives them back


def test_rk_legal_lists_the_companions_turns_after_the_adventurers(battle):
    ok("end-turn")
    ok("end-turn")
    legal = ok("legal")
    assert "rk companion-end fox" in legal and "rk companion-move" in legal
    assert "rk end-turn" not in legal


def test_a_companion_command_out_of_its_step_is_refused_with_the_rule(battle):
    result = rk("companion-end", "fox")
    assert result.exit_code != 0
    assert "ROUND-6" in result.stderr


def test_companion_turns_play_undo_and_the_log_verifies(battle, store):
    ok("end-turn")
    ok("end-turn")
    ok("companion-move", "b3", "--companion", "fox")
    ok("undo")
    assert "UNDO-1: rk companion-move b3 --companion fox (events 25-27) is reverted" in ok("log")
    ok("companion-move", "b3", "--companion", "fox")
    ok("companion-end")
    ok("companion-end", "golem")  # the last companion: the enemies act
    log = ok("log")
    assert "Ember the Fox ends its turn" in log and "Round 1 ends" in log
    exported = store / "escorted.jsonl"
    ok("export", "-o", str(exported))
    assert rk("verify", str(exported)).exit_code == 0


def test_rk_companions_lists_the_chips(store):
    out = ok("companions")
    assert "fox" in out and "Ember the Fox" in out and "--companion CHIP:ADVENTURER" in out
