"""The labyrinth's golden logs (logs/labyrinth-*.jsonl) show what their
names say: a battle won, one lost, one the party escapes from; each imports
into a fresh store (memory and SQLite), replays to the digest its header
records, verifies, and exports again byte for byte.

test_golden_logs.py checks every log in logs/ the same general way; these
are the labyrinth's own checks. After a deliberate rules change regenerate
them (``.venv/bin/python logs/regenerate.py labyrinth-won.jsonl
labyrinth-lost.jsonl labyrinth-escape.jsonl``) and review the diff.
"""

from __future__ import annotations


import msgspec
import pytest

from domain.kernel.games import GameApp
from domain.kernel.portable import export_battle, import_log, read_log, state_digest, verify_battle, verify_log
from domain.labyrinth import events as ev
from domain.labyrinth.vocab import Termination

LABYRINTH_LOGS = {
    "labyrinth-won.jsonl": Termination.PCS_WIN,
    "labyrinth-lost.jsonl": Termination.PCS_LOSE,
    "labyrinth-escape.jsonl": Termination.ESCAPED,
}


def header(data: bytes) -> dict:
    return msgspec.json.decode(data.split(b"\n", 1)[0])


def test_the_three_labyrinth_logs_are_golden_logs(golden_logs, regenerate):
    assert set(LABYRINTH_LOGS) <= set(golden_logs) and set(LABYRINTH_LOGS) <= set(regenerate.GOLDEN)
    assert {header(golden_logs[n])["ruleset"] for n in LABYRINTH_LOGS} == {"labyrinth"}


@pytest.mark.parametrize("name", sorted(LABYRINTH_LOGS))
def test_a_labyrinth_log_ends_the_way_its_name_says(golden_logs, name):
    app = GameApp("memory")
    state = app.battle(import_log(app, golden_logs[name])).state
    assert state.termination is LABYRINTH_LOGS[name]
    assert state.encounter in ("mossy-hollow", "ogre-den")


@pytest.mark.rule("STANDBY-8")
def test_the_escape_log_holds_a_failed_then_a_successful_escape(golden_logs):
    """The whole party declared Escape; a check the escapers lost, then one
    whose best escaper beat every Enemy, ending the battle."""
    events = [e.event for e in read_log(golden_logs["labyrinth-escape.jsonl"]).battle]
    rolls = [e for e in events if isinstance(e, ev.EscapeRolled)]
    assert rolls and rolls[-1].escaped and not any(r.escaped for r in rolls[:-1]) and len(rolls) >= 2
    last = rolls[-1]
    best = {cid: total for cid, total in zip(last.ids, last.totals)}
    assert max(best[cid] for cid in last.takers) > max(best[cid] for cid in last.ids if cid.startswith("e"))
    ended = [e for e in events if isinstance(e, ev.BattleEnded)]
    assert [e.termination for e in ended] == [Termination.ESCAPED]


@pytest.mark.parametrize("name", sorted(LABYRINTH_LOGS))
def test_a_labyrinth_log_imports_into_a_fresh_sqlite_store_and_exports_the_same_bytes(golden_logs, name, tmp_path):
    data = golden_logs[name]
    with GameApp(f"sqlite:{tmp_path / 'golden.sqlite'}") as app:
        battle_id = import_log(app, data)
        assert battle_id == header(data)["battle_id"]
        assert state_digest(app.battle(battle_id).state) == header(data)["final_state_digest"]
        report = verify_battle(app, battle_id)
        assert report.ok, report.summary()
        assert export_battle(app, battle_id) == data
    report = verify_log(data)
    assert report.ok and report.divergence is None, report.summary()
