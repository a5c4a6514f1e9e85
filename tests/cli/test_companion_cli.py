"""Companions through `rk`: a setup brings them (`--companion CHIP:ADVENTURER`),
`rk legal` lists their turn's commands, `rk companion-*` plays them, the
log narrates them, undo takes a companion's command back and the exported
log verifies."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.columns(100)  # the width these tests read output at


@pytest.fixture
def battle(rk, store):
    rk(
        "new",
        "clash",
        "--setup",
        "waystone-crossing",
        "--party",
        "Ria:nord",
        "--party",
        "Tarn:dark-elf",
        "--companion",
        "fox:Ria",
        "--companion",
        "golem:Tarn",
        "--xp",
        "2",
        "--seed",
        "7",
        "--name",
        "escorted",
    )
    return store


def test_a_setup_brings_companions_shown_with_their_controller(rk, battle):
    out = rk("status").stdout
    assert "Ember the Fox" in out and "(Ria's)" in out and "Clay Sentinel" in out
    log = rk("log").stdout
    assert "CLASH-9: companion Ember the Fox (fox) joins the party under Ria's control" in log
    assert "--companion fox:Ria --companion golem:Tarn" in log  # the setup's own line gives them back


def test_rk_legal_lists_the_companions_turns_after_the_adventurers(rk, battle):
    rk("end-turn")
    rk("end-turn")
    legal = rk("legal").stdout
    assert "rk companion-end fox" in legal and "rk companion-move" in legal
    assert "rk end-turn" not in legal


def test_a_companion_command_out_of_its_step_is_refused_with_the_rule(rk, battle):
    result = rk("companion-end", "fox", code=None)
    assert result.code != 0
    assert "ROUND-6" in result.stderr


def test_companion_turns_play_undo_and_the_log_verifies(rk, battle, store):
    rk("end-turn")
    rk("end-turn")
    rk("companion-move", "b3", "--companion", "fox")
    rk("undo")
    assert "UNDO-1: rk companion-move b3 --companion fox (events 25-27) is reverted" in rk("log").stdout
    rk("companion-move", "b3", "--companion", "fox")
    rk("companion-end")
    rk("companion-end", "golem")  # the last companion: the enemies act
    log = rk("log").stdout
    assert "Ember the Fox ends its turn" in log and "Round 1 ends" in log
    exported = store.parent / "escorted.jsonl"
    rk("export", "-o", str(exported))
    rk("verify", str(exported))


def test_rk_companions_lists_the_chips(rk, store):
    out = rk("companions").stdout
    assert "fox" in out and "Ember the Fox" in out and "--companion CHIP:ADVENTURER" in out
