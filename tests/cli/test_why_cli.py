"""`rk why`: an enemy turn of the log explained, rule by rule, as text at
80 columns or as JSON; refusals in one line (exit 1). The battle is the
golden log won-waystone-crossing, imported into a store of the test's own:
its events 40 to 46 are e2 Tunnel Rat's first turn (it moves e1 → d1 → c1
and engages Tarn), event 39 is Tarn ending the turn."""

from __future__ import annotations

import json
from pathlib import Path

import pytest


ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "logs" / "won-waystone-crossing.jsonl"


@pytest.fixture
def battle(rk, store) -> str:
    result = rk("import", str(GOLDEN), code=None)
    assert result.code == 0, result.stderr
    return "golden-won-waystone-crossing"


def test_why_on_an_enemy_move_narrates_each_step_under_its_rule(rk, battle):
    result = rk("why", "41", code=None)
    assert result.code == 0, result.stderr
    out = result.stdout
    assert out.startswith("Events 40 to 46, round 1: e2 Tunnel Rat moved e1 → d1 → c1 and designated")
    assert "EMOVE-2   Nearest empty hexes from which a candidate is in range and sight," in out
    assert "          2 steps away: c1 (Tarn 4 HP)." in out  # under the words, wrapped between phrases
    assert "EMOVE-5   It reaches c1 and stops there." in out
    assert "ENEMY-6a  It designates Tarn (up to 1 target)." in out
    assert all(len(line) <= 80 and line == line.rstrip() for line in out.splitlines())


def test_any_event_of_the_turn_names_the_same_turn(rk, battle):
    assert (
        rk("why", "40", code=None).stdout
        == rk("why", "44", code=None).stdout
        == rk("why", "--enemy", "e2", "46", code=None).stdout
    )


def test_why_json_gives_the_steps_the_lines_and_what_the_log_recorded(rk, battle):
    result = rk("why", "42", "--json", code=None)
    assert result.code == 0, result.stderr
    data = json.loads(result.stdout)
    assert (data["foe"], data["first"], data["last"], data["decided"]) == ("e2", 40, 46, 41)
    assert data["agrees"] is True and data["undone"] is False
    assert data["recorded"]["targets"] == data["explanation"]["targets"] == ["tarn"]
    assert data["recorded"]["path"] == data["explanation"]["path"]
    kinds = [s["type"] for s in data["explanation"]["steps"]]
    assert kinds == ["sizing", "destinations", "route", "designation"]
    assert {"rule": "ENEMY-6a", "text": "It designates Tarn (up to 1 target)."} in data["lines"]


def test_why_alone_explains_the_last_enemy_turn(rk, battle):
    turns = rk("why", "--json", code=None).json()
    assert turns["last"] >= 46 and turns["agrees"]
    mine = rk("why", "--enemy", "E2", "--json", code=None).json()
    assert mine["foe"] == "e2"


def test_an_event_outside_any_enemy_turn_is_refused_in_one_line(rk, battle):
    result = rk("why", "39", code=None)
    assert result.code == 1
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert "event 39 is not part of an enemy's turn" in result.stderr and "Tarn ends the turn" in result.stderr


def test_an_event_past_the_end_and_an_enemy_that_never_acted_are_refused(rk, battle):
    past = rk("why", "100000", code=None)
    assert past.code == 1 and "has no event 100000" in past.stderr
    never = rk("why", "--enemy", "e9", code=None)
    assert never.code == 1 and "enemy e9 took no turn" in never.stderr


def test_a_conquest_battle_is_refused_in_one_line(rk, store):
    rk("import", str(ROOT / "logs" / "conquest-undo.jsonl"))
    result = rk("why", code=None)
    assert result.code == 1
    assert result.stderr.count("\n") == 1 and "no enemy AI" in result.stderr
    as_json = json.loads(rk("why", "--json", code=None).stderr)
    assert as_json["error"] == "NotFound"


def test_why_runs_in_the_shell(rk, battle):
    result = rk("play", input="why 41\nquit\n", code=None)
    assert result.code == 0, result.stderr
    assert "EMOVE-5   It reaches c1 and stops there." in result.stdout
